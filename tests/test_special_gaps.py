"""torch.special's Bessel, Airy, zeta, incomplete-gamma functions and orthogonal
polynomials against PyTorch (and SciPy where PyTorch's own values are less accurate), with
PyTorch's differentiability: no graph for the Bessel functions and polynomials, gradients in
the second argument only for gammainc, gammaincc and zeta."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle

POINTS = np.concatenate([np.random.default_rng(0).uniform(-6, 6, 24),
                         [0.0, -1.0, 1.0, 0.5, np.inf, -np.inf, np.nan]])
# PyTorch's bessel_j0/j1/y0/y1 and airy_ai are its own approximations, off by up to ~3e-7
# absolute (3e-5 relative near zeros, more for airy_ai) where SciPy's Cephes agrees with mpmath:
# tapegrad gives SciPy's values, and is compared with PyTorch to that looser tolerance
UNARY = {  # name: (scipy function, rtol against PyTorch)
    "airy_ai": (lambda s, x: s.airy(x)[0], 1e-4), "bessel_j0": (lambda s, x: s.j0(x), 1e-5),
    "bessel_j1": (lambda s, x: s.j1(x), 1e-5), "bessel_y0": (lambda s, x: s.y0(x), 1e-5),
    "bessel_y1": (lambda s, x: s.y1(x), 1e-5),
    "modified_bessel_i0": (lambda s, x: s.i0(x), 1e-12),
    "modified_bessel_i1": (lambda s, x: s.i1(x), 1e-12),
    "modified_bessel_k0": (lambda s, x: s.k0(x), 1e-12),
    "modified_bessel_k1": (lambda s, x: s.k1(x), 1e-12),
    "scaled_modified_bessel_k0": (lambda s, x: s.k0e(x), 1e-12),
    "scaled_modified_bessel_k1": (lambda s, x: s.k1e(x), 1e-12),
    "spherical_bessel_j0": (lambda s, x: s.spherical_jn(0, x), 1e-12),
}


@pytest.mark.parametrize("name", list(UNARY))
def test_unary_special_matches_torch_and_has_no_graph(torch, name):
    scipy_special = pytest.importorskip("scipy.special")
    ref, rtol = UNARY[name]
    x = tg.tensor(POINTS, requires_grad=True)
    y = getattr(tg.special, name)(x)
    ty = getattr(torch.special, name)(torch.tensor(POINTS, requires_grad=True))
    assert not y.requires_grad and y.grad_fn is None and ty.grad_fn is None
    np.testing.assert_allclose(np.asarray(y), ty.numpy(), rtol=rtol, atol=rtol * 0.1,
                               equal_nan=True)
    finite = np.isfinite(POINTS)
    with np.errstate(all="ignore"):
        want = ref(scipy_special, POINTS[finite])
    np.testing.assert_allclose(np.asarray(y)[finite], want, rtol=1e-13, atol=1e-300)
    assert getattr(tg.special, name)(tg.tensor([1.0], dtype=tg.float32)).dtype == tg.float32


POLYNOMIALS = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
               "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
               "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
               "shifted_chebyshev_polynomial_w", "hermite_polynomial_h",
               "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p"]
XS = np.array([-1.0, -0.5, 0.0, 0.3, 1.0, 2.0, 0.9, -0.99, 1.5, -2.5])


@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomials_match_torch(torch, name):
    fn, tfn = getattr(tg.special, name), getattr(torch.special, name)
    for n in [-1, 0, 1, 2, 3, 5, 9, 12, 2.7]:
        a, b = np.asarray(fn(tg.tensor(XS), n)), tfn(torch.tensor(XS), n).numpy()
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-10)
    orders = np.arange(-1, 8)
    a = np.asarray(fn(tg.tensor(XS[:, None], requires_grad=True), tg.tensor(orders)))
    b = tfn(torch.tensor(XS[:, None]), torch.tensor(orders)).numpy()
    np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-10)
    y = fn(tg.tensor(XS, requires_grad=True), 3)
    assert y.grad_fn is None
    # PyTorch's promotion: a float32 tensor and a float64 0-d order give float32
    assert fn(tg.tensor(XS, dtype=tg.float32), tg.tensor(3.0)).dtype == tg.float32
    assert fn(0.5, tg.tensor([3.0])).shape == (1,)


@pytest.mark.parametrize("name,first", [("gammainc", "igamma: input"),
                                        ("gammaincc", "igammac: input"), ("zeta", "zeta")])
def test_two_argument_functions_match_torch(torch, name, first):
    rng = np.random.default_rng(len(name))
    a = rng.uniform(0.2, 5, (3, 4)) + (1.2 if name == "zeta" else 0.0)
    x = rng.uniform(0.1, 6, (4,))
    fn, tfn = getattr(tg.special, name), getattr(torch.special, name)
    gx, tx = tg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    y, ty = fn(tg.tensor(a), gx), tfn(torch.tensor(a), tx)
    assert y.grad_fn.name() == ty.grad_fn.name()
    np.testing.assert_allclose(np.asarray(y.detach()), ty.detach().numpy(), rtol=1e-12)
    g, = tg.autograd.grad(y.sum(), gx, create_graph=True)
    tgx, = torch.autograd.grad(ty.sum(), tx, create_graph=True)
    np.testing.assert_allclose(np.asarray(g.detach()), tgx.detach().numpy(), rtol=1e-10)
    g2, = tg.autograd.grad(g.sum(), gx)
    tg2, = torch.autograd.grad(tgx.sum(), tx)
    np.testing.assert_allclose(np.asarray(g2), tg2.numpy(), rtol=1e-9)
    assert tg.autograd.gradcheck(lambda v: fn(tg.tensor(a), v), (tg.tensor(x,
                                                                          requires_grad=True),))
    for L, f in ((tg, fn), (torch, tfn)):  # the first argument's gradient: backward raises
        with pytest.raises(NotImplementedError, match=f"the derivative for '{first}' is not "
                                                      "implemented."):
            f(L.tensor(a, requires_grad=True), L.tensor(x)).sum().backward()
    assert fn(tg.tensor(a, dtype=tg.float32), 2.0).dtype == tg.float32


def test_edge_values_match_torch(torch):
    a = np.array([1.0, 2.0, 0.0, -1.0])
    x = np.array([2.0, 0.0, 1.0, 1.0])
    for name in ("gammainc", "gammaincc"):
        np.testing.assert_allclose(np.asarray(getattr(tg.special, name)(tg.tensor(a),
                                                                         tg.tensor(x))),
                                   getattr(torch.special, name)(torch.tensor(a),
                                                                torch.tensor(x)).numpy(),
                                   rtol=1e-12, equal_nan=True)
    s, q = np.array([1.0, 0.5, -1.0, 2.0]), np.array([1.0, 1.0, 1.0, -1.5])
    np.testing.assert_allclose(np.asarray(tg.special.zeta(tg.tensor(s), tg.tensor(q))),
                               torch.special.zeta(torch.tensor(s), torch.tensor(q)).numpy(),
                               rtol=1e-12, equal_nan=True)
    np.testing.assert_allclose(np.asarray(tg.special.zeta(2.0, tg.tensor([1.0, 2.0]))),
                               [np.pi ** 2 / 6, np.pi ** 2 / 6 - 1], rtol=1e-14)


@pytest.mark.parametrize("name,special", [("igamma", "gammainc"), ("igammac", "gammaincc")])
def test_igamma_spellings_match_torch(torch, name, special):
    """torch.igamma / Tensor.igamma / Tensor.igamma_ are gammainc (igammac: gammaincc)."""
    a, x = np.array([0.5, 1.5, 3.0]), np.array([0.7, 2.0, 1.0])
    assert getattr(tg, name).__code__ is getattr(tg.special, special).__code__  # (a renamed copy: special_gammainc)
    gx, tx = tg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    y, ty = getattr(tg.tensor(a), name)(gx), getattr(torch.tensor(a), name)(tx)
    y.sum().backward()
    ty.sum().backward()
    np.testing.assert_allclose(np.asarray(y.detach()), ty.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(gx.grad), tx.grad.numpy(), rtol=1e-10)
    t, tt = tg.tensor(a), torch.tensor(a)
    getattr(t, name + "_")(tg.tensor(x))
    getattr(tt, name + "_")(torch.tensor(x))
    np.testing.assert_allclose(np.asarray(t), tt.numpy(), rtol=1e-12)
    assert t._version == tt._version == 1
