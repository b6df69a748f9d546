"""Interleaved A/B of default BLAS threads (issue 20), in one process, for a shared machine
where consecutive benchmarks see different loads (bench_blas_threads.py is the
pytest-benchmark one).

Run with OPENBLAS_NUM_THREADS unset::

    PYTHONPATH=. python benchmarks/profile_blas_threads.py mlp 5 [--realtime]

``mlp`` is bench_mlp.py's float64 step, ``linear`` ``F.linear(x, W, b).sum().backward()``
(x 256 x 100, W 256 x 100).  Configurations take turns in blocks (a 0.15 s pause for the
last one's BLAS workers to sleep, 10 untimed calls, 30 timed), ``rounds`` times each:

- ``tapegrad``: as shipped, SciPy's pool held to one thread during sweeps (_blas.py);
- ``tapegrad unheld``: ``_blas.HOLD = False``, as before the fix;
- ``tapegrad 1-thread``, ``numpy 1-thread``: both OpenBLAS pools set to one thread, as
  OPENBLAS_NUM_THREADS=1 would (their workers exist but sleep);
- ``numpy``: the hand-written step, NumPy's pool at its default threads; ``torch``.

Printed: each configuration's median call, and the medians over rounds of its per-round
ratio to numpy and to tapegrad 1-thread.  ``--realtime`` (root) makes every thread
SCHED_FIFO, as on a machine with nothing else running: without it, a load above the core
count slows every multi-threaded OpenBLAS (NumPy's by hand too) by orders of magnitude.
"""
import os
import sys
import time

import numpy as np

import bench_mlp
import tapegrad as tg
from tapegrad import _blas


def linear_backward(lib):
    rng = np.random.default_rng(0)
    x, w, b = rng.standard_normal((256, 100)), rng.standard_normal((256, 100)), np.zeros(256)
    if lib == "numpy":
        ones = np.ones((256, 256))

        def call():
            y = x @ w.T + b
            float(y.sum())
            return ones.T @ x, ones.sum(axis=0)
        return call
    m = __import__(lib)
    F = m.nn.functional
    x, w, b = m.tensor(x), m.tensor(w, requires_grad=True), m.tensor(b, requires_grad=True)

    def call():
        w.grad = b.grad = None
        F.linear(x, w, b).sum().backward()
    return call


def main(case, rounds, realtime):
    if "OPENBLAS_NUM_THREADS" in os.environ:
        sys.exit("unset OPENBLAS_NUM_THREADS: this measures the default threads")
    tg.warmup(float32=False, replay=False)
    make = (lambda lib: bench_mlp.BUILDERS[lib]("float64")[0]) if case == "mlp" \
        else linear_backward
    calls = {lib: make(lib) for lib in ("tapegrad", "numpy", "torch")}
    calls["tapegrad"]()
    kernels, mine = _blas._Held.kernels, _blas._Held.numpy
    if kernels is None or mine is None:
        sys.exit("SciPy's and NumPy's BLAS are not two OpenBLAS pools here")
    print(f"pools: SciPy's {kernels.get()}, NumPy's {mine.get()} threads; "
          f"load {os.getloadavg()}")
    if realtime:
        for tid in os.listdir("/proc/self/task"):
            os.sched_setscheduler(int(tid), os.SCHED_FIFO, os.sched_param(10))
    threads = kernels.get()

    def config(lib, hold=True, one=False):
        def setup():
            _blas.HOLD = hold
            kernels.set(1 if one else threads)
            mine.set(1 if one else threads)
        return lib, setup

    configs = {"tapegrad": config("tapegrad"),
               "tapegrad unheld": config("tapegrad", hold=False),
               "tapegrad 1-thread": config("tapegrad", one=True),
               "numpy": config("numpy"), "numpy 1-thread": config("numpy", one=True),
               "torch": config("torch")}
    times = {k: [] for k in configs}
    per_round = {k: [] for k in configs}
    for _ in range(rounds):
        for name, (lib, setup) in configs.items():
            setup()
            time.sleep(0.15)
            call = calls[lib]
            for _ in range(10):
                call()
            ts = []
            for _ in range(30):
                t0 = time.perf_counter()
                call()
                ts.append(time.perf_counter() - t0)
            times[name] += ts
            per_round[name].append(np.median(ts))
    print(f"{case}, {rounds} rounds{', real-time' if realtime else ''}; "
          f"load {os.getloadavg()}")
    for name in configs:
        r = np.array(per_round[name])
        print(f"  {name:18s} {np.median(times[name]) * 1e3:9.3f} ms"
              f"   / numpy {np.median(r / per_round['numpy']):7.2f}"
              f"   / tapegrad 1-thread {np.median(r / per_round['tapegrad 1-thread']):7.2f}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), "--realtime" in sys.argv)
