"""Interleaved A/B of the 'Fastest Autograd in the West' one-point replay (value and
gradient, ``bench_fastest_west._tapegrad_replay``) between tapegrad checkouts: one worker
process per checkout (its root first on sys.path, so its tapegrad is imported), warmed
once, then asked in turn for ``AB_CALLS`` timed calls (CPU time each, ``time.process_time``);
the figure is each checkout's median over all rounds, printed as a ratio to the first
checkout's.  The value's and the gradient's bits are compared between checkouts.

    PYTHONPATH=. python benchmarks/ab_west.py /path/to/checkoutA /path/to/checkoutB west 10

Arguments: two or more checkout roots, the graph (``west`` or ``mix``), rounds (default 10),
and peers to run in the same rounds from the first root's bench_fastest_west.py (``casadi``,
``numba``, ``torch``: their own value and gradient, so their bits are not compared; torch
takes AB_CALLS // 100 calls a round, ~1 s each).  ``AB_CALLS`` (default 200) calls a round,
``AB_OPS`` (default 10,000) ops in the graph.
"""
import json
import os
import subprocess
import sys
import time

from _ab import medians

PEERS = ("casadi", "numba", "torch")
WORKER = r'''
import sys, time, json, hashlib
root, graph, n_ops, lib = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
sys.path[:0] = [root, root + "/benchmarks"]
import bench_fastest_west as B
import numpy as np
call, _ = {"replay": B._tapegrad_replay, "casadi": B._casadi, "numba": B._numba,
           "torch": B._torch}[lib](graph, n_ops)
x = B._point(graph)
v, g = call(x)
bits = hashlib.sha256(np.float64(v).tobytes() + np.ascontiguousarray(g, np.float64).tobytes())
for _ in range(1 if lib == "torch" else 20):
    call(x)
print(json.dumps(["ready", bits.hexdigest(), float(v)]), flush=True)
for line in sys.stdin:
    n = int(line)
    ts = []
    for _ in range(n):
        t0 = time.process_time(); call(x); ts.append(time.process_time() - t0)
    print(json.dumps(ts), flush=True)
'''


def main():
    args = sys.argv[1:]
    roots = [a for a in args if os.path.isdir(a)]
    peers = [a for a in args if a in PEERS]
    rest = [a for a in args if not os.path.isdir(a) and a not in PEERS]
    graph = rest[0] if rest else "west"
    rounds = int(rest[1]) if len(rest) > 1 else 10
    calls = int(os.environ.get("AB_CALLS", 200))
    n_ops = int(os.environ.get("AB_OPS", 10_000))
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    env.pop("PYTHONPATH", None)  # (each worker puts its own root first)
    who = [(r, "replay") for r in roots] + [(roots[0], lib) for lib in peers]
    procs, bits = [], []
    for root, lib in who:
        t0 = time.time()
        p = subprocess.Popen([sys.executable, "-c", WORKER, root, graph, str(n_ops), lib],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             cwd="/tmp", env=env)
        tag, digest, value = json.loads(p.stdout.readline())
        assert tag == "ready"
        bits.append(digest)
        print(f"# {lib} {root}: ready in {time.time() - t0:.0f} s, value {value!r}, "
              f"value+grad sha256 {digest[:16]}", file=sys.stderr)
        procs.append(p)
    med = medians(procs, rounds, lambda i: max(1, calls // 100) if who[i][1] == 'torch' else calls)
    for (root, lib), m, b in zip(who, med, bits, strict=True):
        same = "" if lib != "replay" else f", bits {'equal' if b == bits[0] else 'DIFFER'}"
        print(f"{graph} ops={n_ops} {lib:6s} {root}: median {m * 1e6:.1f} us CPU, "
              f"ratio to first {m / med[0]:.4g}{same}")
    return 0 if len(set(bits[:len(roots)])) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
