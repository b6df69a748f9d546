"""Interleaved A/B of bench_mlp's step (batch 256 x 100 -> 256 tanh -> 10, mean
cross-entropy, forward + backward) between two tapegrad checkouts, with the hand-written
NumPy step as the floor: ``AB_WORKERS`` (default 3) worker processes per checkout (its root
first on sys.path) and one for NumPy, each warmed and single-threaded (OpenBLAS, OpenMP,
MKL), then asked in turn for 10 timed steps a round (CPU time each), the order reversed
every other round; the figures are the median over a checkout's workers of each worker's
median ms per step, and the ratios new/old and each/NumPy.  Several workers: a process's
float32 step settles at one of two levels (~0.55 or ~0.65-0.78 ms here, whichever tree it
runs), so one worker a tree drew a 1.1-1.3x "difference" between identical code.
``sweep`` times only tapegrad's compiled reverse sweep inside each step (its calls through
_blas.held; NumPy's figure stays its whole step)::

    PYTHONPATH=. python benchmarks/ab_mlp.py /path/to/old /path/to/new [rounds] [dtypes] [step|sweep]

``AB_SHAPES=N,D_IN,HIDDEN,CLASSES`` (e.g. 8,4,8,3) times the step at other shapes.
"""
import os
import statistics
import subprocess
import sys

from _ab import medians

WORKER = r'''
import sys, json, time
import numpy as np
root, lib, dtype, what = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
sys.path[:0] = [root, root + "/benchmarks"]
import bench_mlp as bm
import os
if os.environ.get("AB_SHAPES"):  # e.g. 8,4,8,3: the step's fixed Python costs alone
    bm.N, bm.D_IN, bm.HIDDEN, bm.CLASSES = map(int, os.environ["AB_SHAPES"].split(","))
block = np.empty(1 << 21); del block  # glibc's malloc in its steady state (bench_mlp)
if lib == "tapegrad":
    import tapegrad
    assert tapegrad.__file__.startswith(root), tapegrad.__file__
    tapegrad.warmup(float32=dtype == "float32", replay=False)
step = bm.BUILDERS[lib](dtype)[0]
swept = []
if lib == "tapegrad" and what == "sweep":
    from tapegrad import _blas
    held = _blas.held
    def timed(*args):
        t0 = time.process_time()
        r = held(*args)
        swept.append(time.process_time() - t0)
        return r
    _blas.held = timed
for _ in range(50):
    step()
print("ready", flush=True)
for line in sys.stdin:
    out = []
    for _ in range(int(line)):
        swept.clear()
        t0 = time.process_time()
        step()
        out.append(sum(swept) if swept else time.process_time() - t0)
    print(json.dumps(out), flush=True)
'''
THREADS = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def main(old, new, rounds="40", dtypes="float64,float32", what="step"):
    env = dict(os.environ, **THREADS)
    for dtype in dtypes.split(","):
        k = int(os.environ.get("AB_WORKERS", "3"))
        workers = [(old, "tapegrad")] * k + [(new, "tapegrad")] * k + [(old, "numpy")]
        procs = [subprocess.Popen([sys.executable, "-c", WORKER, root, lib, dtype, what],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  cwd="/", env=env) for root, lib in workers]
        for p in procs:
            assert p.stdout.readline().strip() == "ready"
        ms = [m * 1e3 for m in medians(procs, int(rounds), lambda i: 10)]
        a, b, n = statistics.median(ms[:k]), statistics.median(ms[k:2 * k]), ms[-1]
        print(f"mlp {what} {dtype}: old {a:.3f} ms ({a / n:.3f}x numpy), new {b:.3f} ms "
              f"({b / n:.3f}x numpy), numpy {n:.3f} ms; new/old {b / a:.3f}", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
