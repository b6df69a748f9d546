"""Where ADBench GMM's replay gradient spends its time, row by row: CPU time (best of 5) of
each forward and reverse row of the replay plan run alone by the general interpreters
(``_forward_replay``, ``_reverse_sweep``), in cache, so the memory-bound rows read low; the
whole ``value_and_grad`` last.

    OPENBLAS_NUM_THREADS=1 TAPEGRAD_ADBENCH=../shared/adbench \\
        python benchmarks/profile_gmm.py 10 25     # d, K
"""
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_gmm as B  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad import _kernels, _sweep  # noqa: E402
from tapegrad.ops import strided  # noqa: E402
from tapegrad.ops.registry import OPS  # noqa: E402
from tapegrad.tape import OP_MASK  # noqa: E402


def cpu_us(fn, rounds=5):
    best = float("inf")
    for _ in range(rounds):
        t0 = time.thread_time()
        fn()
        best = min(best, time.thread_time() - t0)
    return best * 1e6


def _name(op):
    d = OPS.get(op & OP_MASK)
    if d is None:  # (the plan's own rows: never on a tape, not in OPS)
        return {strided.BCAST: "BCAST", strided.SQSUM: "SQSUM"}.get(op & OP_MASK, f"op {op}")
    return d.node if isinstance(d.node, str) else f"op {op}"


def main(d, K, top=25):
    data = B._load(d, K)
    call = B._tapegrad_replay(data)
    call()
    *params, x, gamma, m = data
    f = tg.compile(lambda a, mu, q: B.gmm_objective(B._tapegrad_lib()[1], a, mu, q, x, gamma,
                                                    m), argnums=(0, 1, 2))
    f.value_and_grad(*params)
    t = next(iter(f.traces.values()))[0]
    p = t._make_plan()
    vals = p.vals0.copy()
    vals[p.in_elems] = np.concatenate([a.reshape(-1) for a in params])
    bad = np.zeros(1, np.int64)
    _kernels._forward_replay(p.fwd, p.offs, vals, t.consts, p.meta, 0, len(p.fwd), 1, bad)
    adj = np.zeros(len(vals))
    # each reverse row starts from the reach a call's lazy sweep starts from (constants
    # CONST, the shared slots and the output's reached, the rest not yet: a row reaching
    # an input first writes or zeroes its span, as in the call; _sweep._lazy_reach)
    reach0 = np.ones(len(p.offs) - 1, np.uint8)
    _sweep._lazy_reach(adj, reach0, p.offs, _sweep._shared_slots(p.offs), p.fill,
                       p.in_elems, p.out_elems, 1)
    adj[p.offs[p.out_slot]] = 1.0
    reach, before = reach0.copy(), {}
    for r in range(len(p.rev) - 1, -1, -1):  # (the reach each row meets in a whole sweep)
        before[r] = reach.copy()
        _kernels._reverse_sweep(p.rev, p.offs, vals, t.consts, p.meta, adj, reach, r, r + 1, 1)
    size = np.diff(p.offs)[0::2]
    res = []
    for way, rows in (("fwd", p.fwd), ("rev", p.rev)):
        for r in range(len(rows)):
            if way == "fwd":
                us = cpu_us(lambda: _kernels._forward_replay(rows, p.offs, vals, t.consts,
                                                             p.meta, r, r + 1, 1, bad))
            else:
                def row():
                    reach[:] = before[r]
                    _kernels._reverse_sweep(rows, p.offs, vals, t.consts, p.meta, adj, reach,
                                            r, r + 1, 1)
                us = cpu_us(row)
            op, o, a, b, _ = rows[r].tolist()
            res.append((us, way, r, _name(op), *(size[s // 2] if s >= 0 else 0
                                                 for s in (o, a, b))))
    total = sum(r[0] for r in res)
    print(f"d = {d}, K = {K}: {len(vals):,} arena values, {len(p.fwd)} forward rows, "
          f"{len(p.rev)} reverse rows; rows alone {total:,.0f} us, the whole call "
          f"{cpu_us(call):,.0f} us\n")
    print("| us | share | way | row | op | out | in0 | in1 |")
    print("|---:|---:|---|---:|---|---:|---:|---:|")
    for us, way, r, name, no, na, nb in sorted(res, reverse=True)[:top]:
        print(f"| {us:,.0f} | {100 * us / total:.1f}% | {way} | {r} | {name} | {no:,} | "
              f"{na:,} | {nb:,} |")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
