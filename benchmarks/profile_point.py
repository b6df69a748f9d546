"""One point, interleaved: Rosenbrock n = 10's ``value_and_grad(x)`` by ``tg.compile``
(fused kernel, and ``fused=False``: the interpreter before a kernel is ready), by the
``Traced`` tape, and the two compiled calls alone, in batches of 2,000 calls taken in turn
in one process, CPU time (``time.process_time``).  Steadier than pytest-benchmark's short
rounds on a loaded machine (bench_single_point.py has the peers)::

    python benchmarks/profile_point.py [rounds]      # default 100
"""
import sys
import time

import numpy as np

import tapegrad as tg
from tapegrad import bench as tb
from tapegrad import replay

N = 10
CALLS = 2000


def libraries():
    x = np.linspace(-1.5, 1.5, N)
    fused = tg.compile(tb.rosen)
    fused.compile_fused(x, wait=True)
    interpreted = tg.compile(tb.rosen, fused=False)
    traced = tg.jit.trace(tb.rosen, x)
    traced.compile_fused(wait=True)
    for f in (fused, interpreted, traced):
        for _ in range(3):  # traced, fast path bound, kernels' entries taken
            f.value_and_grad(x)
    t = interpreted.traces[(x.shape,)][0]
    ints, work, g = t._plan.packed(), np.empty(t._plan.point_need()), np.empty(N)
    point = replay._POINT[0] or replay._point_kernel()
    k = fused.traces[(x.shape,)][0]._fused
    _, entry, C, K = replay._bind_fused(k, N)
    X, V, G, bad = x[None], np.empty(1), np.empty((1, N)), np.empty(1, np.int64)
    return {"compile (fused)": lambda: fused.value_and_grad(x),
            "compile interpreted": lambda: interpreted.value_and_grad(x),
            "traced (fused)": lambda: traced.value_and_grad(x),
            "interpreter call alone": lambda: point(ints, x, g, work),
            "fused kernel call alone": lambda: entry(X, V, G, bad, C, K, 0, 1)}


def main(rounds=100):
    tg.warmup()
    libs = libraries()
    times = {name: [] for name in libs}
    for _ in range(rounds):
        for name, f in libs.items():
            t0 = time.process_time()
            for _ in range(CALLS):
                f()
            times[name].append((time.process_time() - t0) / CALLS * 1e9)
    for name, ns in times.items():
        print(f"{name:24s} min {np.min(ns):6.0f} ns  median {np.median(ns):6.0f} ns")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
