"""The fused tier on loaded, mutated traces: a trace from a file that loads (every operand
and meta entry set to boundary values, as tests/fuzz_trace_rows.py does) is compiled to a
fused kernel (generated source, ``tapegrad/replay/fused.py``) and its direct Jacobian
kernels (``replay/gather.py``), which must give the interpreter's results bit for bit, or
stay interpreted; anything else (another exception, an IndexError under
NUMBA_BOUNDSCHECK=1, a crash) is a failure.  Slow (a compile per loaded case):

    NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=$(mktemp -d) python tests/fuzz_fused_loaded.py --limit 8

It prints one JSON line: cases, refused, loaded, fused (kernels compiled), failures.
"""
import argparse
import json
import os
import sys
import threading
import time

import numpy as np

sys.path[:0] = [os.path.dirname(os.path.dirname(os.path.abspath(__file__))),  # (this
                os.path.dirname(__file__)]  # checkout's tapegrad, not an installed one)
import fuzz_trace_rows as rows  # noqa: E402

import tapegrad as tg  # noqa: E402


def _results(t, X):
    out = []
    if t.out_size == 1:
        V, G, bad = t.run(np.ascontiguousarray(X), grad=True)
        out += [V.copy(), G.copy(), bad.copy()]
    J = t.jacobian_batch(*[X[:, t._cols[j]:t._cols[j + 1]].reshape(len(X), *s)
                           for j, s in enumerate(t.in_shapes)], on_divergence="mask")
    out += [np.asarray(j) for j in (J if isinstance(J, tuple) else (J,))]
    return out


def run(limit, seed):
    rng = np.random.default_rng(seed)
    stats = {"cases": 0, "refused": 0, "loaded": 0, "fused": 0, "failures": []}
    # (the kernels compile in a thread of their own: an exception there is a failure too)
    threading.excepthook = lambda h: stats["failures"].append(
        f"compile thread: {h.exc_type.__name__}: {str(h.exc_value)[:300]}")
    for name, t, args in rows.traces():
        a = rows.arrays_of(t)
        todo = list(rows.cases(a, rng))
        todo = [todo[i] for i in sorted(rng.choice(len(todo), min(limit, len(todo)),
                                                   replace=False))]
        x0 = np.concatenate([np.ravel(x) for x in args])
        X = np.stack([x0, x0 + 0.01, x0 - 0.3 * rng.standard_normal(x0.shape)])
        for case in todo:
            stats["cases"] += 1
            try:
                u = tg.jit.load(rows.mutated(a, case))
            except ValueError:
                stats["refused"] += 1
                continue
            stats["loaded"] += 1
            try:
                try:
                    want = _results(u, X)
                except (ValueError, RuntimeError):
                    continue
                st = u.compile_fused(wait=True)
                if st == "fused":
                    stats["fused"] += 1
                got = _results(u, X)
                if st != "fused" and not str(st).startswith("ineligible"):
                    stats["failures"].append(f"{name} {case}: compile_fused gave {st}")
                if not all(w.shape == g.shape and np.array_equal(w, g, equal_nan=True)
                           for w, g in zip(want, got, strict=True)):
                    stats["failures"].append(f"{name} {case}: fused differs from interpreted")
            except Exception as e:  # noqa: BLE001 (every ending is counted)
                stats["failures"].append(f"{name} {case}: {type(e).__name__}: {str(e)[:300]}")
    return stats


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=8, help="cases per traced function")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    t0 = time.time()
    stats = run(a.limit, a.seed)
    stats["seconds"] = round(time.time() - t0, 1)
    print(json.dumps(stats))


if __name__ == "__main__":
    sys.exit(main())
