"""Replayed batch gradients of the extended Rosenbrock function (issue 4).

``f(x) = sum(100 (x[1:] - x[:-1]^2)^2 + (1 - x[:-1])^2)`` at B points of dimension n,
B = 10^4 and 10^6 (10^6 only when benchmarks run, not under ``--benchmark-disable``),
n = 10 and 100, in two forms written once in ``tapegrad/bench.py`` and run unchanged by
every AD library: ``vector`` (slices and ``.sum()``: 11 rows) and ``loop`` (a Python
``sum`` over components on x's elements: 11 rows per term, a long scalar tape).

Group ``replay n=<n> B=<B>`` (the gradient at every point, from a (B, n) float64 array):

- ``tapegrad``: ``tg.compile(f).grad_batch(X)``, replayed in compiled code on all cores;
- ``numba hand-written`` (one core) and ``... parallel`` (``prange``): the analytic
  gradient, one pass per point: the practical limit;
- ``jax jit(vmap(grad))``: X already on the device, output blocked (JAX's best case);
- ``torch.func vmap(grad)``;
- ``numpy hand-written``: the analytic gradient vectorised over points.

``extra_info``: ``points``, ``ns_per_point``, ``points_per_s``, ``first_call_s`` (the
first call in this test: JAX's trace and XLA compile, tapegrad's trace, torch.func's
set-up), ``threads``, and tapegrad's ``tape`` (``Traced.stats()``).  Every timed result
is checked against the hand-written NumPy gradient: 1e-10 relative, per point.

Group ``replay first result n=<n> <form>``: a NEW function each round, from nothing to its
first result, with the interpreters already loaded: ``tg.compile(f)`` then ``.grad(x)`` at
one point (goal: under 50 ms), or ``.grad_batch(X)`` at 10^4 points; JAX's
``jit(vmap(grad(f)))`` (trace, XLA compile, run) and torch.func's ``vmap(grad(f))`` at
the same 10^4 points.
"""
import os
import time

import numpy as np
import pytest

from tapegrad import bench as tb  # the workloads, shared with `tapegrad bench`

tb.passive_omp_waits()  # before torch or Numba's OpenMP layer loads: see tapegrad/bench.py

if os.environ.get("NUMBA_DISABLE_JIT", "0") == "1":
    pytestmark = pytest.mark.skip("NUMBA_DISABLE_JIT=1: the interpreters would run as "
                                  "Python, one point at a time")

NS = (10, 100)
POINTS = (10**4, 10**6)
SMOKE_POINTS = 10**3  # --benchmark-disable (CI): every case runs once, on fewer points
FORMS = ("vector", "loop")
REL = 1e-10
BIG_MIN_ROUNDS = 3  # at 10^6 points one call takes up to ~10 s (JAX, loop, n = 100)
FIRST_POINTS = 10**4


def _disabled(config):
    return bool(config.getoption("benchmark_disable", False))


def pytest_generate_tests(metafunc):
    """The replay cases; under --benchmark-disable only SMOKE_POINTS points (not 10^4 and
    10^6), so CI checks every library's gradient in seconds."""
    smoke = _disabled(metafunc.config)
    if metafunc.function is test_replay:
        points = (SMOKE_POINTS,) if smoke else POINTS
        metafunc.parametrize("lib,form,n,B", [
            pytest.param(lib, form, n, B, id=f"{lib}-{form}-{n}-{B}")
            for n in NS for B in points for lib in tb.REPLAY_LIBRARIES for form in FORMS
            if form == "vector" or lib not in tb.HAND_WRITTEN])
    elif metafunc.function is test_first_result:
        # smoke: tapegrad only (the peers' gradients are checked by test_replay, and their
        # first call in a process costs seconds: torch.func's set-up, XLA's compile)
        metafunc.parametrize("name,form,n,B", [
            pytest.param(name, form, n, SMOKE_POINTS if smoke else FIRST_POINTS,
                         id=f"{name.split()[0]}-{kind}-{form}-{n}")
            for n in NS for form in FORMS for name, (_, kind) in FIRST_LIBRARIES.items()
            if not smoke or name.startswith("tapegrad")])


# torch.func's peak memory per point (ru_maxrss at 10^5 points; 2x10^4 for the loop at
# n = 100): at 10^6 points a case must fit in half of the memory available, or it is skipped.
# The loop form's gradient of each x[i] is a full n-vector per point, hence ~n^2 growth.
TORCH_BYTES_PER_POINT = {("vector", 10): 1_900, ("vector", 100): 7_800, ("loop", 10): 2_800,
                         ("loop", 100): 121_000}


def _group(n, B):
    return f"replay n={n} B=10^{round(np.log10(B))}"


_DATA = {}


def data(B, n):
    """(X, reference gradient) for B points of dimension n; one size kept at a time."""
    if (B, n) not in _DATA:
        _DATA.clear()
        X = tb.rosen_points(B, n)
        _DATA[B, n] = X, tb.rosen_grad_numpy(X)
    return _DATA[B, n]


def assert_agrees(G, G_ref, library):
    """Per point: max |G - G_ref| <= 1e-10 max |G_ref| (components can cancel to ~0, so
    the scale is the point's largest component)."""
    G = np.asarray(G)
    assert G.shape == G_ref.shape, (library, G.shape, G_ref.shape)
    err = np.abs(G - G_ref).max(axis=1)
    scale = np.abs(G_ref).max(axis=1)
    worst = int(np.argmax(err / scale))
    assert (err <= REL * scale).all(), (
        f"{library}: gradient at point {worst} is off by {err[worst] / scale[worst]:.1e} "
        f"relative (> {REL})")


def _skip_if_infeasible(lib, form, n, B):
    if B <= 10**4 or lib != "torch":
        return
    need = TORCH_BYTES_PER_POINT[form, n] * B
    avail = _mem_available()
    if avail is not None and need > avail / 2:
        pytest.skip(f"torch.func vmap(grad), {form} form, n={n}: needs ~{need / 1e9:.0f} GB at "
                    f"{B:,} points (measured {TORCH_BYTES_PER_POINT[form, n]:,} bytes per "
                    f"point); {avail / 1e9:.0f} GB available")


def _mem_available():
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None


def test_replay(phase, lib, form, n, B):
    pytest.importorskip(tb.REPLAY_LIBRARIES[lib][0])
    _skip_if_infeasible(lib, form, n, B)
    X, G_ref = data(B, n)
    w = tb.replay_workload(lib, form, n)
    x = w.prepare(X)
    out = {}
    extra = {"peer": lib, "points": B, "n": n, "form": form, "threads": w.threads,
             "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY")}
    if w.note:
        extra["note"] = w.note
    if not phase.benchmark.disabled:
        t0 = time.perf_counter()
        w.run(x)
        extra["first_call_s"] = time.perf_counter() - t0

    def target():
        out["g"] = w.run(x)

    med = phase(target, out.clear, group=_group(n, B), library=w.library, phase="grad",
                ops=0, min_rounds=BIG_MIN_ROUNDS if B > 10**4 else 5, **extra)
    info = phase.benchmark.extra_info
    if med is not None:
        info["ns_per_point"] = med / B * 1e9
        info["points_per_s"] = B / med
    if w.stats is not None:
        info["tape"] = w.stats()
    assert_agrees(w.to_numpy(out["g"]), G_ref, w.library)
    out.clear()


FIRST_LIBRARIES = {  # name -> (module, make(f) -> callable on the prepared input)
    "tapegrad compile+grad(x)": ("tapegrad", "point"),
    "tapegrad compile+grad_batch(X)": ("tapegrad", "batch"),
    "jax jit(vmap(grad))": ("jax", "batch"),
    "torch.func vmap(grad)": ("torch", "batch"),
}


def _first_result_maker(name, X):
    """(prepared input, make(f) -> a thunk computing f's gradient from nothing)."""
    if name.startswith("tapegrad"):
        import tapegrad as tg
        tg.warmup()
        tg.trace(tb.rosen, np.zeros(3)).grad_batch(np.zeros((2, 3)))  # load the batch kernel
        if name.endswith("grad(x)"):
            return X[0], lambda f: tg.compile(f).grad
        return X, lambda f: tg.compile(f).grad_batch
    if name.startswith("jax"):
        import jax
        jax.config.update("jax_enable_x64", True)
        return jax.numpy.asarray(X), lambda f: (
            lambda x: jax.jit(jax.vmap(jax.grad(f)))(x).block_until_ready())
    import torch
    return torch.from_numpy(X), lambda f: torch.func.vmap(torch.func.grad(f))


def test_first_result(phase, name, form, n, B):
    """From a new function to its first gradient (no cache can help: a fresh closure)."""
    pytest.importorskip(FIRST_LIBRARIES[name][0])
    X, G_ref = data(B, n)
    x, make = _first_result_maker(name, X)
    body = tb.FORMS[form]
    box = {}

    def setup():
        box.clear()
        box["f"] = lambda v: body(v)  # a new function object every round

    def target():
        box["g"] = make(box["f"])(x)

    phase(target, setup, group=f"replay first result n={n} {form}", library=name,
          phase="first-result", ops=0, n=n, form=form,
          points=1 if name.endswith("grad(x)") else B)
    G = np.asarray(box["g"])
    assert_agrees(G.reshape(-1, n), G_ref[:len(G.reshape(-1, n))], name)
    if name.startswith("tapegrad"):
        phase.benchmark.extra_info["tape_rows"] = tb.replay_workload("tapegrad", form,
                                                                     n).stats()["rows"]


def test_tapegrad_replay_value():
    """tapegrad's batch values equal the function computed directly in NumPy."""
    tg = pytest.importorskip("tapegrad")
    x = tb.rosen_points(SMOKE_POINTS, 10)
    for f in tb.FORMS.values():
        V = tg.compile(f).value_batch(x)
        ref = (100 * (x[:, 1:] - x[:, :-1] ** 2) ** 2 + (1 - x[:, :-1]) ** 2).sum(axis=1)
        np.testing.assert_allclose(V, ref, rtol=1e-12)

