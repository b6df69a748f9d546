"""torch.func's transforms eagerly, tapegrad.func next to torch.func (issue 24).

Group ``func hvp/grad n=<n>``: on the extended Rosenbrock function (``tapegrad/bench.py``,
vector form) at one point of dimension n, each library's ``grad(f)(x)`` and its
Hessian-vector product written as forward over reverse, ``jvp(grad(f), (x,), (v,))``.
tapegrad computes that product by forward over reverse in compiled code (the tangent sweep,
then the reverse sweep and its tangent: ``autograd/tangent.py``); ``hvp by transposition``
hides the gradient behind a lambda, so tapegrad's general ``jvp`` runs over the recorded
gradient (its rows come from create_graph's Python rules: forward mode by transposition).
The issue's bound: an HVP costs at most 3x a gradient.  Group ``func jvp n=<n>``: ``jvp``
of a general function (the tangent sweep) next to ``vjp`` and the product of
``linearize``'s ``jvp_fn``.  Group ``func jacobian n=<n>``: ``jacfwd`` (tapegrad: one
tangent sweep with a lane per input element) next to ``jacrev`` (a reverse sweep per
output element).  Group ``forward_ad n=<n>``: make_dual, f, unpack_dual (tapegrad sweeps
the recorded rows at unpack; torch propagates tangents at op time).  Results are checked
against PyTorch's to 1e-9 relative.
"""
import numpy as np
import pytest

import tapegrad as tg
from tapegrad import bench as tb

tb.passive_omp_waits()
torch = pytest.importorskip("torch")

NS = (100, 10_000)
LIBS = {"tapegrad": tg, "torch": torch}


@pytest.fixture(scope="module", autouse=True)
def _compiled():
    """The sweep and replay kernels loaded before anything is timed (an unloaded kernel
    runs interpreted while it loads)."""
    tg.warmup(forward=True)


def _point(n):
    rng = np.random.default_rng(3)
    return rng.uniform(-1.5, 1.5, n), rng.standard_normal(n)


def _run(lib, what, x, v):
    F = lib.func
    if what == "grad":
        return lambda: F.grad(tb.rosen)(x)
    if what == "hvp":
        return lambda: F.jvp(F.grad(tb.rosen), (x,), (v,))[1]
    if what == "hvp by transposition":  # a lambda hides the gradient: the general jvp
        g = F.grad(tb.rosen)
        return lambda: F.jvp(lambda y: g(y), (x,), (v,))[1]
    f = lambda y: (y[1:] - y[:-1] ** 2).sin() * y[1:]  # noqa: E731 (vector to vector)
    if what == "jvp":
        return lambda: F.jvp(f, (x,), (v,))[1]
    if what == "linearized jvp":  # after linearize (untimed): one product
        jvp_fn = F.linearize(f, x)[1]
        return lambda: jvp_fn(v)
    return lambda: F.vjp(f, x)[1](v[1:])[0]  # vjp


def _want(what, x, v):
    return np.asarray(_run(torch, what, torch.tensor(x), torch.tensor(v))())


@pytest.mark.parametrize("n", NS)
@pytest.mark.parametrize("what", ["grad", "hvp", "hvp by transposition"])
@pytest.mark.parametrize("library", LIBS)
def test_hvp_vs_grad(library, what, n, phase):
    lib = LIBS[library]
    if library == "torch" and what == "hvp by transposition":
        pytest.skip("torch's jvp is forward mode either way")
    x, v = _point(n)
    run = _run(lib, what, lib.tensor(x), lib.tensor(v))
    np.testing.assert_allclose(np.asarray(run()), _want(what, x, v), rtol=1e-9, atol=1e-9)
    phase(run, group=f"func hvp/grad n={n}", library=library, phase=what, ops=1)


@pytest.mark.parametrize("what", ["vjp", "jvp", "linearized jvp"])
@pytest.mark.parametrize("library", LIBS)
def test_jvp_vs_vjp(library, what, phase):
    n = NS[-1]
    lib = LIBS[library]
    x, v = _point(n)
    run = _run(lib, what, lib.tensor(x), lib.tensor(v))
    np.testing.assert_allclose(np.asarray(run()), _want(what, x, v), rtol=1e-9, atol=1e-9)
    phase(run, group=f"func jvp n={n}", library=library, phase=what, ops=1)


@pytest.mark.parametrize("what", ["jacfwd", "jacrev"])
@pytest.mark.parametrize("library", LIBS)
def test_jacobian_forward_vs_reverse(library, what, phase):
    n = NS[0]
    lib = LIBS[library]
    x, _ = _point(n)
    f = lambda y: (y[1:] - y[:-1] ** 2).sin() * y[1:]  # noqa: E731
    run = lambda: getattr(lib.func, what)(f)(lib.tensor(x))  # noqa: E731
    np.testing.assert_allclose(np.asarray(run()), np.asarray(torch.func.jacrev(f)(
        torch.tensor(x))), rtol=1e-9, atol=1e-12)
    phase(run, group=f"func jacobian n={n}", library=library, phase=what, ops=1)


@pytest.mark.parametrize("library", LIBS)
def test_dual_tensor_tangent(library, phase):
    n = NS[-1]
    lib = LIBS[library]
    fw = lib.autograd.forward_ad
    x, v = (lib.tensor(a) for a in _point(n))

    def run():
        with fw.dual_level():
            d = fw.make_dual(x, v)
            return fw.unpack_dual(((d[1:] - d[:-1] ** 2).sin() * d[1:]).tanh()).tangent
    want = _dual_want(*_point(n))
    np.testing.assert_allclose(np.asarray(run()), want, rtol=1e-9, atol=1e-12)
    phase(run, group=f"forward_ad n={n}", library=library, phase="make_dual+f+unpack", ops=1)


def _dual_want(x, v):
    f = lambda y: ((y[1:] - y[:-1] ** 2).sin() * y[1:]).tanh()  # noqa: E731
    return np.asarray(torch.func.jvp(f, (torch.tensor(x),), (torch.tensor(v),))[1])


VMAP_B, VMAP_N = 1000, 10


@pytest.mark.parametrize("library, path", [("tapegrad", "replay"), ("tapegrad", "loop"),
                                           ("torch", "vmap")])
def test_vmap_grad(library, path, phase):
    """Group ``func vmap(grad) B=1000 n=10``: per-point gradients of the Rosenbrock
    function, tapegrad's ``vmap(grad(f))`` as one batch replay (a trace per call) and as
    the loop (``vmap(lambda x: grad(f)(x))`` is not seen as a gradient), and torch.func's
    ``vmap(grad(f))``."""
    lib = LIBS[library]
    B = 100 if phase.benchmark.disabled else VMAP_B  # (CI runs each case once: the loop)
    X = lib.tensor(tb.rosen_points(B, VMAP_N))
    g = lib.func.grad(tb.rosen)
    fn = lib.func.vmap(g if path != "loop" else lambda x: g(x))
    run = lambda: fn(X)  # noqa: E731
    np.testing.assert_allclose(np.asarray(run()), tb.rosen_grad_numpy(np.asarray(X)),
                               rtol=1e-10)
    if library == "tapegrad":
        assert fn.path == path
    phase(run, group=f"func vmap(grad) B={B} n={VMAP_N}", library=library, phase=path,
          ops=B)
