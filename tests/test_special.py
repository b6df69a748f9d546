"""tapegrad.special and the non-elementary functions (lgamma, digamma, polygamma, erfinv,
erfc, i0...) against PyTorch: values on grids that include the edges (0, poles, +-inf, nan),
first and second derivatives, float32, node names, gradcheck, and errors."""
import math

import numpy as np
import pytest

import tapegrad as tg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

INF, NAN = math.inf, math.nan
EDGES = [-INF, -3.0, -2.5, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 2.0, 7.5, 30.0, INF, NAN]
UNIT = [-1.0, -0.999, -0.5, 0.0, 0.3, 0.999, 1.0, 1.5, NAN]
PROB = [0.0, 1e-300, 1e-10, 0.3, 0.5, 0.9, 1.0, 2.0, NAN]


def _lib(x):
    return torch if isinstance(x, torch.Tensor) else tg


def _special(x):
    return _lib(x).special


# (name, function of a tensor, the grid of its values, the interior where gradients are
# compared)
CASES = [
    ("lgamma", lambda x: _lib(x).lgamma(x), EDGES, (0.2, 6.0)),
    ("lgamma_negative", lambda x: x.lgamma(), [-2.7, -1.3, -0.4], (-0.9, -0.1)),
    ("digamma", lambda x: _lib(x).digamma(x), EDGES, (0.2, 6.0)),
    ("psi", lambda x: _special(x).psi(x), EDGES, (0.2, 6.0)),
    ("gammaln", lambda x: _special(x).gammaln(x), EDGES, (0.2, 6.0)),
    ("polygamma1", lambda x: _lib(x).polygamma(1, x), EDGES, (0.2, 6.0)),
    ("polygamma2", lambda x: x.polygamma(2), EDGES, (0.2, 6.0)),
    ("polygamma3", lambda x: _special(x).polygamma(3, x), EDGES, (0.2, 6.0)),
    ("polygamma0", lambda x: _lib(x).polygamma(0, x), EDGES, (0.2, 6.0)),
    ("multigammaln", lambda x: _special(x).multigammaln(x, 3), [1.5, 2.0, 3.7, 30.0],
     (1.2, 5.0)),
    ("mvlgamma", lambda x: x.mvlgamma(2), [0.7, 2.0, 3.7], (0.7, 5.0)),
    ("erfinv", lambda x: _lib(x).erfinv(x), UNIT, (-0.95, 0.95)),
    ("erfc", lambda x: _lib(x).erfc(x), EDGES, (-2.0, 2.0)),
    ("erfcx", lambda x: _special(x).erfcx(x), EDGES, (-2.0, 5.0)),
    ("ndtr", lambda x: _special(x).ndtr(x), EDGES, (-3.0, 3.0)),
    ("ndtri", lambda x: _special(x).ndtri(x), PROB, (0.05, 0.95)),
    ("log_ndtr", lambda x: _special(x).log_ndtr(x), EDGES + [-40.0], (-5.0, 3.0)),
    ("i0", lambda x: _lib(x).i0(x), EDGES, (-3.0, 3.0)),
    ("i0e", lambda x: _special(x).i0e(x), EDGES, (-3.0, 3.0)),
    ("i1", lambda x: _special(x).i1(x), EDGES, (-3.0, 3.0)),
    ("i1e", lambda x: _special(x).i1e(x), EDGES, (-3.0, 3.0)),
    ("entr", lambda x: _special(x).entr(x), EDGES, (0.1, 3.0)),
    ("expit", lambda x: _special(x).expit(x), EDGES, (-3.0, 3.0)),
    ("logit", lambda x: _special(x).logit(x), PROB, (0.05, 0.95)),
    ("logit_eps", lambda x: _special(x).logit(x, eps=1e-3), PROB, (0.05, 0.95)),
    ("sinc", lambda x: _special(x).sinc(x), EDGES, (-3.0, 3.0)),
    ("exp2", lambda x: _special(x).exp2(x), EDGES, (-3.0, 3.0)),
    ("expm1", lambda x: _special(x).expm1(x), EDGES, (-3.0, 3.0)),
    ("log1p", lambda x: _special(x).log1p(x), EDGES, (-0.5, 3.0)),
    ("erf", lambda x: _special(x).erf(x), EDGES, (-2.0, 2.0)),
    ("round", lambda x: _special(x).round(x), EDGES, (0.1, 0.4)),
    ("xlogy", lambda x: _special(x).xlogy(x, x.abs() + 0.5), EDGES, (0.1, 3.0)),
    ("xlog1py", lambda x: _special(x).xlog1py(x, x * x), EDGES, (0.1, 3.0)),
    ("softmax", lambda x: _special(x).softmax(x.reshape(-1)[:4], 0), [0.5, 1.0, 2.0, -1.0],
     (-2.0, 2.0)),
    ("log_softmax", lambda x: _special(x).log_softmax(x.reshape(-1)[:4], 0),
     [0.5, 1.0, 2.0, -1.0], (-2.0, 2.0)),
    ("logsumexp", lambda x: _special(x).logsumexp(x, 0), [0.5, 1.0, 800.0], (-2.0, 2.0)),
]
IDS = [c[0] for c in CASES]


def _both(values, dtype=np.float64, requires_grad=False):
    a = np.asarray(values, dtype)
    return (tg.tensor(a, requires_grad=requires_grad),
            torch.tensor(a, requires_grad=requires_grad))


@pytest.mark.parametrize("name, fn, grid, interior", CASES, ids=IDS)
def test_values_match_torch_on_the_edges(name, fn, grid, interior):
    x, xt = _both(grid)
    got, want = fn(x), fn(xt)
    assert tuple(got.shape) == tuple(want.shape)
    assert got.dtype == tg.float64
    np.testing.assert_allclose(np.asarray(got), want.numpy(), rtol=1e-12, atol=1e-300)


@pytest.mark.parametrize("name, fn, grid, interior", CASES, ids=IDS)
def test_gradients_match_torch(name, fn, grid, interior):
    rng = np.random.default_rng(len(name))
    pts = rng.uniform(*interior, size=5)
    x, xt = _both(pts, requires_grad=True)
    u = rng.standard_normal(tuple(fn(xt).shape))
    g, = tg.autograd.grad(fn(x), x, tg.tensor(u))
    gt, = torch.autograd.grad(fn(xt), xt, torch.tensor(u))
    np.testing.assert_allclose(np.asarray(g), gt.numpy(), rtol=1e-11, atol=1e-14)


SECOND = ["lgamma", "digamma", "polygamma1", "polygamma2", "erfinv", "erfc", "erfcx", "ndtr",
          "ndtri", "log_ndtr", "i0", "i0e", "i1", "i1e", "entr", "multigammaln", "logit",
          "sinc", "xlogy"]


@pytest.mark.parametrize("name, fn, grid, interior", [c for c in CASES if c[0] in SECOND],
                         ids=SECOND)
def test_second_derivatives_match_torch(name, fn, grid, interior):
    """The derivatives are tapegrad ops: create_graph differentiates them again."""
    pts = np.linspace(*interior, 4)
    x, xt = _both(pts, requires_grad=True)
    g, = tg.autograd.grad(fn(x).sum(), x, create_graph=True)
    h, = tg.autograd.grad(g.sum(), x)
    gt, = torch.autograd.grad(fn(xt).sum(), xt, create_graph=True)
    ht, = torch.autograd.grad(gt.sum(), xt)
    np.testing.assert_allclose(np.asarray(h), ht.numpy(), rtol=1e-9, atol=1e-12)


def test_gradients_at_the_edges_match_torch():
    """The conventions at poles and bounds, where finite differences cannot look."""
    for fn, pts in [(lambda x: _lib(x).lgamma(x), [0.0, -1.0, INF, 1.0]),
                    (lambda x: _lib(x).digamma(x), [0.0, -3.0, 1.0]),
                    (lambda x: _lib(x).erfinv(x), [-1.0, 0.0, 1.0]),
                    (lambda x: _special(x).entr(x), [0.0, -1.0, INF]),
                    (lambda x: _special(x).i1(x), [0.0]), (lambda x: _special(x).i1e(x), [0.0]),
                    (lambda x: _special(x).i0e(x), [0.0]),
                    (lambda x: _special(x).ndtri(x), [0.0, 1.0]),
                    (lambda x: _special(x).logit(x), [0.0, 1.0]),
                    (lambda x: _special(x).sinc(x), [0.0]),
                    (lambda x: _special(x).xlogy(x * 0, x), [0.0, 1.0, 2.0])]:
        x, xt = _both(pts, requires_grad=True)
        g, = tg.autograd.grad(fn(x).sum(), x)
        gt, = torch.autograd.grad(fn(xt).sum(), xt)
        np.testing.assert_allclose(np.asarray(g), gt.numpy(), rtol=1e-12)


@pytest.mark.parametrize("name", ["lgamma", "digamma", "polygamma1", "erfinv", "erfc", "i0",
                                  "i1e", "ndtri", "log_ndtr", "entr"])
def test_float32_stays_float32(name):
    fn, _, interior = next(c[1:] for c in CASES if c[0] == name)
    pts = np.linspace(*interior, 5).astype(np.float32)
    x, xt = _both(pts, np.float32, requires_grad=True)
    y, yt = fn(x), fn(xt)
    assert y.dtype == tg.float32
    np.testing.assert_allclose(np.asarray(y.detach()), yt.detach().numpy(), rtol=2e-6,
                               atol=1e-6)
    g, = tg.autograd.grad(y.sum(), x)
    gt, = torch.autograd.grad(yt.sum(), xt)
    assert g.dtype == tg.float32
    np.testing.assert_allclose(np.asarray(g), gt.numpy(), rtol=2e-5, atol=1e-6)


def test_integer_input_gives_the_default_float_dtype():
    for fn in (tg.lgamma, tg.digamma, tg.erfinv, tg.special.i0e):
        assert fn(tg.tensor([1, 2])).dtype == tg.float64
    assert torch.lgamma(torch.tensor([1, 2])).dtype == torch.float32  # (PyTorch's default)


def test_node_names_are_torchs():
    x, xt = _both([0.3, 0.6], requires_grad=True)
    for fn in (lambda t: _lib(t).lgamma(t), lambda t: _lib(t).digamma(t),
               lambda t: _lib(t).polygamma(2, t), lambda t: _lib(t).erfinv(t),
               lambda t: _lib(t).erfc(t), lambda t: _lib(t).i0(t),
               lambda t: _special(t).i0e(t), lambda t: _special(t).i1(t),
               lambda t: _special(t).i1e(t), lambda t: _special(t).ndtri(t),
               lambda t: _special(t).log_ndtr(t), lambda t: _special(t).erfcx(t),
               lambda t: _special(t).entr(t)):
        assert fn(x).grad_fn.name() == fn(xt).grad_fn.name()


def test_gradcheck_and_gradgradcheck():
    x = tg.tensor([0.3, 1.7, 4.2], requires_grad=True)
    for fn in (tg.lgamma, tg.digamma, lambda t: tg.polygamma(2, t), tg.special.i1,
               lambda t: tg.erfinv(t / 5.0), tg.special.log_ndtr):
        assert tg.autograd.gradcheck(fn, (x,))
        assert tg.autograd.gradgradcheck(fn, (x,))


def test_no_grad_records_nothing_and_backward_accumulates():
    x = tg.tensor([0.5, 2.0], requires_grad=True)
    with tg.no_grad():
        assert not tg.lgamma(x).requires_grad
    (tg.lgamma(x).sum() + tg.digamma(x).sum()).backward()
    xt = torch.tensor([0.5, 2.0], dtype=torch.float64, requires_grad=True)
    (torch.lgamma(xt).sum() + torch.digamma(xt).sum()).backward()
    np.testing.assert_allclose(np.asarray(x.grad), xt.grad.numpy(), rtol=1e-12)


def test_errors_match_torch():
    x = tg.tensor([1.0])
    with pytest.raises(RuntimeError, match="polygamma\\(n, x\\) does not support negative n"):
        tg.polygamma(-1, x)
    with pytest.raises(RuntimeError, match="does not support negative n"):
        torch.polygamma(-1, torch.tensor([1.0]))
    with pytest.raises(TypeError, match="must be Tensor"):
        tg.lgamma(1.0)
    with pytest.raises(TypeError, match="must be Tensor"):
        torch.lgamma(1.0)


def test_special_is_a_namespace_of_tapegrad():
    for name in ("expit", "logit", "xlogy", "xlog1py", "gammaln", "digamma", "psi", "polygamma",
                 "multigammaln", "erf", "erfc", "erfinv", "erfcx", "log_ndtr", "ndtr", "ndtri",
                 "i0", "i0e", "i1", "i1e", "sinc", "entr", "log1p", "expm1", "exp2",
                 "logsumexp", "softmax", "log_softmax", "round"):
        assert hasattr(tg.special, name) and hasattr(torch.special, name), name


@pytest.mark.parametrize("name,xs", [
    ("asinh", [-1e200, -3.0, -1e-10, 0.0, 0.5, 1e10]),
    ("acosh", [1.0, 1.5, 3.0, 1e10, 0.5]),
    ("atanh", [-0.999, -0.5, 1e-12, 0.5, 1.0, 2.0]),
])
def test_inverse_hyperbolics_match_torch(name, xs):
    torch = pytest.importorskip("torch")
    a = tg.tensor(xs, requires_grad=True)
    b = torch.tensor(xs, dtype=torch.float64, requires_grad=True)
    ya, yb = getattr(tg, name)(a), getattr(torch, name)(b)
    np.testing.assert_allclose(ya.tolist(), yb.tolist(), rtol=1e-15, equal_nan=True)
    ya.sum().backward()
    yb.sum().backward()
    np.testing.assert_allclose(a.grad.tolist(), b.grad.tolist(), rtol=1e-13, equal_nan=True)
    assert ya.grad_fn.name() == yb.grad_fn.name()
    x = tg.tensor([0.3, -0.7] if name != "acosh" else [1.3, 2.7], requires_grad=True)
    assert tg.autograd.gradcheck(getattr(tg, name), (x,))
    assert tg.autograd.gradgradcheck(getattr(tg, name), (x,))
    assert getattr(tg, "arc" + name[1:]) is getattr(tg, name)
    np.testing.assert_array_equal(getattr(x, name)().tolist(), getattr(tg, name)(x).tolist())
