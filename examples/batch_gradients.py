"""Gradients of the extended Rosenbrock function at a million points, from a script.

The function is ordinary tapegrad code written for one point. tapegrad.compile traces
it once and replays value and gradient for every point in compiled code, on all cores.
Run:  python examples/batch_gradients.py [points] [n]
"""
import sys
import time

import numpy as np

import tapegrad as tg


def rosen(x):
    return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()


def rosen_grad(x):
    """The analytic gradient, to check a sample of the results."""
    g = np.zeros_like(x)
    t = x[1:] - x[:-1] ** 2
    g[:-1] = -400 * t * x[:-1] - 2 * (1 - x[:-1])
    g[1:] += 200 * t
    return g


def main(points=1_000_000, n=10):
    X = np.random.default_rng(0).uniform(-2, 2, size=(points, n))
    f = tg.compile(rosen)
    t0 = time.perf_counter()
    f.grad(X[0])  # trace (and on a new machine: compile the interpreters once)
    t1 = time.perf_counter()
    V, G = f.value_and_grad_batch(X, progress=points >= 100_000)
    t2 = time.perf_counter()
    sample = np.random.default_rng(1).choice(points, size=100, replace=False)
    err = max(np.abs(G[i] - rosen_grad(X[i])).max() / np.abs(rosen_grad(X[i])).max()
              for i in sample)
    print(f"trace and first gradient: {t1 - t0:.3f} s")
    print(f"{points:,} gradients of the {n}-dimensional Rosenbrock function in {t2 - t1:.2f} s "
          f"({points / (t2 - t1):,.0f} points/s)")
    print(f"mean value {V.mean():.6g}; largest relative error vs the analytic gradient "
          f"on 100 sampled points: {err:.1e}")
    assert err < 1e-12


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
