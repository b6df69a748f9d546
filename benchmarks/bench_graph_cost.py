"""Costs in proportion to the graph, not to everything on the thread's tape (issue 19).

Each case runs the same code with tapegrad and with PyTorch (``import ... as L``):

- ``graph cost: tiny backward``: ``(w * w).sum().backward()`` on an empty tape and with an
  unrelated 10^5-op scalar graph alive (recorded before it, never differentiated);
- ``graph cost: training loop``: a 64x64 tanh layer trained by SGD, with and without a
  stray live non-leaf kept from before the loop; one round of 10^4 steps, reporting the
  median step time of the first and the last 500 steps and the resident set's growth;
- ``graph cost: jacobian per observation``: a bundle-adjustment-shaped residual (12
  inputs, 2 outputs per observation), its Jacobian block by two ``autograd.grad`` calls
  per observation, stored with ``J[i] = ...``; 1,000 and 10,000 observations;
- ``graph cost: indexing``: ``x[i] = v`` and ``x[i]`` on a 1,000-vector that requires grad.

Medians and ratios only (benchmarks/README.md); under ``--benchmark-disable`` (CI) every
case runs once at small sizes, and the gradients are checked against PyTorch's.
"""
import statistics
import time

import numpy as np
import pytest

LIBS = ("tapegrad", "torch")


def _lib(name):
    return pytest.importorskip(name)


def _rss_kb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4  # resident pages of 4 KiB


# -- a tiny backward beside a large unrelated graph ----------------------------------------
@pytest.mark.parametrize("context", ["empty tape", "1e5-op graph alive"])
@pytest.mark.parametrize("lib", LIBS)
def test_tiny_backward(phase, benchmark, lib, context):
    L = _lib(lib)
    n = 10**3 if benchmark.disabled else 10**5
    keep = []
    if context != "empty tape":
        x = L.tensor(0.5, dtype=L.float64, requires_grad=True)
        y = x
        for _ in range(n // 2):
            y = y * 1.0001 + 0.1
        keep.append(y)
    w = L.tensor([1.0, 2.0, 3.0], dtype=L.float64, requires_grad=True)

    def target():
        (w * w).sum().backward()

    phase(target, group="graph cost: tiny backward", library=lib, phase=context, ops=3,
          unrelated_ops=n if keep else 0)
    assert np.allclose(np.asarray(w.grad.detach()) / np.asarray(w.grad.detach())[0],
                       [1.0, 2.0, 3.0])


# -- a training loop with a stray live non-leaf --------------------------------------------
@pytest.mark.parametrize("stray", ["no stray", "stray non-leaf"])
@pytest.mark.parametrize("lib", LIBS)
def test_training_loop(benchmark, lib, stray):
    L = _lib(lib)
    steps = 200 if benchmark.disabled else 10**4
    rng = np.random.default_rng(0)
    X = L.tensor(rng.standard_normal((64, 64)), dtype=L.float64)
    Y = L.tensor(rng.standard_normal((64, 64)), dtype=L.float64)
    W = L.tensor(rng.standard_normal((64, 64)) * 0.1, dtype=L.float64, requires_grad=True)
    kept = (X @ W).tanh() if stray != "no stray" else None  # computed outside no_grad
    times = []
    info = benchmark.extra_info

    def loop():
        times.clear()
        base = _rss_kb()
        for k in range(steps):
            t0 = time.perf_counter()
            loss = (((X @ W).tanh() - Y) ** 2).mean()
            loss.backward()
            with L.no_grad():
                W.sub_(0.01 * W.grad)
            W.grad = None
            times.append(time.perf_counter() - t0)
            if k == 500:
                info["rss_growth_kb_at_500"] = _rss_kb() - base
        info["rss_growth_kb"] = _rss_kb() - base

    benchmark.group = "graph cost: training loop"
    info.update(library=lib, phase=stray, steps=steps)
    benchmark.pedantic(loop, rounds=1, iterations=1)
    k = min(500, steps // 4)
    first, last = statistics.median(times[:k]), statistics.median(times[-k:])
    info.update(first_steps_median_us=first * 1e6, last_steps_median_us=last * 1e6,
                last_over_first=last / first)
    assert kept is None or kept.requires_grad


# -- a Jacobian block per observation, stored with J[i] = ... -------------------------------
def _residual(L, p):
    """A pinhole projection with radial distortion: camera (rotation-vector-free: a small
    angle model), focal, distortion, point: 12 inputs, 2 outputs."""
    r, t, f, k1, k2, X = p[0:3], p[3:6], p[6], p[7], p[8], p[9:12]
    Xc = X + L.stack([r[1] * X[2] - r[2] * X[1], r[2] * X[0] - r[0] * X[2],
                      r[0] * X[1] - r[1] * X[0]]) + t
    u = -Xc[:2] / Xc[2]
    d = 1 + k1 * (u * u).sum() + k2 * (u * u).sum() ** 2
    return f * d * u


def _jacobians(L, P):
    n = P.shape[0]
    J = L.zeros((n, 2, 12), dtype=L.float64)
    for i in range(n):
        p = P[i].clone().requires_grad_(True)
        r = _residual(L, p)
        g0, = L.autograd.grad(r[0], p, retain_graph=True)
        g1, = L.autograd.grad(r[1], p)
        J[i] = L.stack([g0, g1])
    return J


@pytest.mark.parametrize("n", [1000, 10000])
@pytest.mark.parametrize("lib", LIBS)
def test_jacobian_per_observation(phase, benchmark, lib, n):
    L = _lib(lib)
    n = 20 if benchmark.disabled else n
    rng = np.random.default_rng(1)
    P = rng.normal(0, 0.1, (n, 12))
    P[:, 5] += 4.0  # points in front of the camera
    P[:, 6] += 1.0
    Pt = L.tensor(P, dtype=L.float64)
    out = {}

    def target():
        out["J"] = _jacobians(L, Pt)

    phase(target, group="graph cost: jacobian per observation", library=lib,
          phase=f"{n} observations", ops=n, budget=4.0, min_rounds=3, max_rounds=20)
    med = phase.benchmark.extra_info.get("median_s")
    if med is not None:
        benchmark.extra_info["us_per_observation"] = med / n * 1e6
    torch = _lib("torch")
    want = _jacobians(torch, torch.tensor(P[:20], dtype=torch.float64)).numpy()
    np.testing.assert_allclose(np.asarray(out["J"].detach())[:20], want, rtol=1e-12,
                               atol=1e-12)


# -- indexed stores and reads ----------------------------------------------------------------
@pytest.mark.parametrize("what", ["x[i] = v", "x[i]"])
@pytest.mark.parametrize("lib", LIBS)
def test_indexing(phase, lib, what):
    L = _lib(lib)
    w = L.tensor(np.linspace(0, 1, 1000), dtype=L.float64, requires_grad=True)
    v = L.tensor(2.0, dtype=L.float64, requires_grad=True)
    state = {}
    calls = 100

    def setup():
        state["x"] = w * 1.0

    def store():
        x = state["x"]
        for i in range(calls):
            x[i] = v

    def read():
        x = state["x"]
        for i in range(calls):
            x[i]

    phase(store if what == "x[i] = v" else read, setup, group="graph cost: indexing",
          library=lib, phase=what, ops=calls)
    if what == "x[i] = v":
        x = w * 1.0
        x[3] = v * 2
        x.sum().backward()
        assert float(v.grad) == 2.0 and float(w.grad[3]) == 0.0
