"""Where batch replay's time goes: ns per point of each section of ``_replay_blocks``, one
thread, CPU time (``time.thread_time``, steadier than wall time on a shared machine).

    python benchmarks/profile_replay.py [points]      # default 10^4

The real kernel runs four ways on the same plan: inputs only (no rows, no gradient), plus
the forward rows, inputs and gradient out (no rows), and everything; the sections are the
differences ("gradient out" includes zeroing the adjoints).  The hand-written Numba gradient
(one core) is the reference.
"""
import sys
import time

import numpy as np

import tapegrad as tg
from tapegrad import _sweep, replay
from tapegrad.bench import FORMS, rosen_grad_numba, rosen_points


def cpu_ns(fn, rounds=30):
    best = float("inf")
    for _ in range(rounds):
        t0 = time.thread_time()
        fn()
        best = min(best, time.thread_time() - t0)
    return best * 1e9


def profile(form, n, B):
    X = rosen_points(B, n)
    traced = tg.trace(FORMS[form], X[0])
    p = traced._make_plan()
    block = replay._block(len(p.vals0), len(p.fwd) + len(p.rev), B)
    V, G, bad = np.empty(B), np.empty((B, n)), np.zeros(B, np.int64)
    vals, adj = np.empty(len(p.vals0) * block), np.zeros(len(p.vals0) * block)
    none = p.fwd[:0]

    def run(g, fwd, rev):
        return lambda: _sweep._replay_blocks(
            fwd, rev, p.offs, p.vals0, traced.consts, p.meta, p.fill, p.in_elems,
            p.out_slot, X, V, g, bad, block, 0, (B + block - 1) // block, vals, adj, 0)

    t_in = cpu_ns(run(replay._NO_GRAD, none, none))
    t_fwd = cpu_ns(run(replay._NO_GRAD, p.fwd, none))
    t_io = cpu_ns(run(G, none, none))
    t_all = cpu_ns(run(G, p.fwd, p.rev))
    rosen_grad_numba(X)
    t_ref = cpu_ns(lambda: rosen_grad_numba(X))
    cells = [t_in, t_fwd - t_in, t_all - t_fwd - (t_io - t_in), t_io - t_in, t_all, t_ref]
    return (f"| n = {n} {form} | {block} | {len(traced.vals0):,} -> {len(p.vals0):,} | "
            f"{len(traced.rows):,} -> {len(p.fwd):,} | "
            + " | ".join(f"{c / B:,.0f}" for c in cells) + " |")


def main(B=10**4):
    print(f"{B:,} points, one thread, ns per point (CPU time, best of 30)\n")
    print("| case | block w | values/point | rows | inputs in | forward | reverse | "
          "gradient out | total | hand-written Numba |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in (10, 100):
        for form in FORMS:
            print(profile(form, n, B))


if __name__ == "__main__":
    main(int(float(sys.argv[1])) if len(sys.argv) > 1 else 10**4)
