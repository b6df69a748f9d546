"""Interleaved A/B of ADBench GMM's replay gradient between tapegrad checkouts: one worker
process per checkout (its root first on sys.path, so its tapegrad is imported), warmed once,
then asked in turn for ``calls`` timed calls (CPU time each); the figure is each checkout's
median over all rounds, printed as ratios to the first checkout (and to JAX with --jax).

    OPENBLAS_NUM_THREADS=1 TAPEGRAD_ADBENCH=/work/shared/adbench \\
        python benchmarks/ab_gmm.py 64 25 /path/to/checkoutA /path/to/checkoutB [--jax]
"""
import os
import subprocess
import sys
import time

from _ab import SERVE, medians

WORKER = r'''
import sys, time, json
root, d, K, lib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
sys.path[:0] = [root, root + "/benchmarks"]
import bench_gmm as B
import numpy as np
call = (B._tapegrad_replay if lib == "replay" else B._jax)(B._load(d, K))
call(); call()
print("ready", flush=True)
''' + SERVE


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    d, K, roots = int(args[0]), int(args[1]), args[2:]
    rounds = int(os.environ.get("AB_ROUNDS", 15))
    calls = int(os.environ.get("AB_CALLS", 5))
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
               XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
    who = [(r, "replay") for r in roots]
    if "--jax" in sys.argv:
        who.append((roots[0], "jax"))
    procs = []
    for root, lib in who:
        t0 = time.time()
        p = subprocess.Popen([sys.executable, "-c", WORKER, root, str(d), str(K), lib],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             cwd="/tmp", env=env)
        assert p.stdout.readline().strip() == "ready"
        print(f"# {lib} {root}: ready in {time.time() - t0:.0f} s", file=sys.stderr)
        procs.append(p)
    med = medians(procs, rounds, lambda i: calls)
    for (root, lib), m in zip(who, med, strict=True):
        print(f"d={d} K={K} {lib:6s} {root}: median {m * 1e3:.2f} ms CPU, "
              f"ratio to first {m / med[0]:.3f}")


if __name__ == "__main__":
    main()
