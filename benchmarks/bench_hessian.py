"""Second order on the extended Rosenbrock function, n = 100 (issue 7).

Group ``hvp/grad n=100 B=<B>``: the gradient and the Hessian-vector product at B points
by replay (``tg.compile(f).grad_batch(X)`` vs ``.hvp_batch(X, V)``), and JAX's
``jit(vmap(grad))`` vs ``jit(vmap(jvp(grad)))`` (forward over reverse) in the same run.
The cheap-gradient bound says an HVP costs a small multiple of a gradient; goal: at most 5x.

Group ``hvp/grad n=100 one point``: the same at a single point (Python call overhead
included), and tapegrad's eager ``autograd.functional.hvp`` next to an eager gradient.

Group ``hessian n=100``: the full Hessian at one point: tapegrad by replay (100 HVPs in one
batch) and eagerly (``autograd.functional.hessian``: one recorded gradient, 100 compiled
sweeps), ``jax.jit(jax.hessian(f))`` and ``torch.autograd.functional.hessian``.
Every result is checked against the analytic Hessian (tridiagonal) to 1e-9 relative.
"""
import os

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import bench as tb

tb.passive_omp_waits()

if os.environ.get("NUMBA_DISABLE_JIT", "0") == "1":
    pytestmark = pytest.mark.skip("NUMBA_DISABLE_JIT=1: replay would run as Python")

N = 100


def _hessian_exact(x):
    """The analytic Hessian of the extended Rosenbrock function (tridiagonal)."""
    n = len(x)
    H = np.zeros((n, n))
    i = np.arange(n - 1)
    H[i, i] += 1200 * x[:-1] ** 2 - 400 * x[1:] + 2
    H[i + 1, i + 1] += 200
    H[i, i + 1] = H[i + 1, i] = -400 * x[:-1]
    return H


def _check(got, want):
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9 * np.abs(want).max())


def _points(B):
    rng = np.random.default_rng(7)
    return rng.uniform(-1.5, 1.5, (B, N)), rng.standard_normal((B, N))


def _batch_cases():
    out = []
    for lib in ("tapegrad", "jax"):
        for what in ("grad", "hvp"):
            out.append(pytest.param(lib, what, id=f"{lib}-{what}"))
    return out


@pytest.mark.parametrize("library, what", _batch_cases())
def test_hvp_vs_grad_batch(library, what, phase, benchmark):
    B = 10**3 if benchmark.disabled else 10**4
    X, V = _points(B)
    if library == "tapegrad":
        f = tg.compile(tb.rosen)
        run = (lambda: f.grad_batch(X)) if what == "grad" else (lambda: f.hvp_batch(X, V))
    else:
        jax = pytest.importorskip("jax")
        jax.config.update("jax_enable_x64", True)
        jnp = jax.numpy
        g = jax.grad(tb.rosen)
        if what == "grad":
            fn = jax.jit(jax.vmap(g))
            Xj = jnp.asarray(X)
            run = lambda: fn(Xj).block_until_ready()  # noqa: E731
        else:
            fn = jax.jit(jax.vmap(lambda x, v: jax.jvp(g, (x,), (v,))[1]))
            Xj, Vj = jnp.asarray(X), jnp.asarray(V)
            run = lambda: fn(Xj, Vj).block_until_ready()  # noqa: E731
    result = np.asarray(run())
    for b in (0, B - 1):
        want = tb.rosen_grad_numpy(X[b:b + 1])[0] if what == "grad" else \
            _hessian_exact(X[b]) @ V[b]
        _check(result[b], want)
    phase(run, group=f"hvp/grad n={N} B={B}", library=library, phase=what, ops=B,
          points=B)


@pytest.mark.parametrize("what", ["compiled-grad", "compiled-hvp", "eager-grad", "eager-hvp"])
def test_hvp_vs_grad_one_point(what, phase):
    X, V = _points(1)
    x, v = X[0], V[0]
    f = tg.compile(tb.rosen)
    if what == "compiled-grad":
        run, want = (lambda: f.grad(x)), tb.rosen_grad_numpy(X)[0]
    elif what == "compiled-hvp":
        run, want = (lambda: f.hvp(x, v)), _hessian_exact(x) @ v
    elif what == "eager-grad":
        def run():
            t = tg.tensor(x, requires_grad=True)
            return tg.autograd.grad(tb.rosen(t), t)[0]
        want = tb.rosen_grad_numpy(X)[0]
    else:
        def run():
            return tg.autograd.functional.hvp(tb.rosen, tg.tensor(x), tg.tensor(v))[1]
        want = _hessian_exact(x) @ v
    _check(np.asarray(run()), want)
    phase(run, group=f"hvp/grad n={N} one point", library="tapegrad", phase=what, ops=1)


@pytest.mark.parametrize("library", ["tapegrad-replay", "tapegrad-eager", "jax", "torch"])
def test_hessian(library, phase):
    x = _points(1)[0][0]
    if library == "tapegrad-replay":
        f = tg.compile(tb.rosen)
        run = lambda: f.hessian(x)  # noqa: E731
    elif library == "tapegrad-eager":
        run = lambda: tg.autograd.functional.hessian(tb.rosen, tg.tensor(x))  # noqa: E731
    elif library == "jax":
        jax = pytest.importorskip("jax")
        jax.config.update("jax_enable_x64", True)
        fn = jax.jit(jax.hessian(tb.rosen))
        xj = jax.numpy.asarray(x)
        run = lambda: fn(xj).block_until_ready()  # noqa: E731
    else:
        torch = pytest.importorskip("torch")
        xt = torch.tensor(x)
        run = lambda: torch.autograd.functional.hessian(tb.rosen, xt)  # noqa: E731
    _check(np.asarray(run()), _hessian_exact(x))
    phase(run, group=f"hessian n={N}", library=library, phase="hessian", ops=1)
