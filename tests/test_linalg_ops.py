"""tapegrad.linalg and its top-level names against PyTorch 2.13, finite differences and HIPS
autograd (the spec-row helpers of conftest.py), with gradcheck / gradgradcheck (double
backward through the Python backward of each factorisation), batch shapes, float32, the
errors with PyTorch's wording, and what tracing does with them.

The rows below are ``Spec`` rows as the op table's (tapegrad/ops/spec.py): ``fn`` runs on
tapegrad and on torch (``lib(x)``), ``ref`` on NumPy / autograd.numpy.  Inputs are drawn in
the row's domain and made well-conditioned inside ``fn`` (``A + n I``, symmetric with
separated eigenvalues...), so the same function is differentiated by every oracle.  Losses
of eigen- and singular vectors are sign-invariant (squares, projections): LAPACK builds may
pick other signs.
"""
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.autograd import gradcheck, gradgradcheck
from tapegrad.ops.spec import Spec
from tapegrad.ops.spec import lib

pytestmark = [pytest.mark.usefixtures("collect_cycles"),
              pytest.mark.filterwarnings("ignore:torch.cholesky is deprecated")]


def _eye(x, n=None):
    n = x.shape[-1] if n is None else n
    return lib(x).eye(n, dtype=x.dtype)


def _wc(a):
    """Diagonally dominant (entries in [-1, 1]): well-conditioned, invertible."""
    return a + a.shape[-1] * _eye(a)


def _spd(a):
    return a @ a.mT + a.shape[-1] * _eye(a)


def _sep(a):
    """Symmetric with eigenvalues about 3 apart (gradients stay moderate)."""
    n = a.shape[-1]
    d = lib(a).tensor(np.diag(3.0 * np.arange(n)), dtype=a.dtype)
    return 0.5 * (a + a.mT) + d


def _spread(a):
    """Rectangular with singular values about 3 apart."""
    m, n = a.shape[-2], a.shape[-1]
    d = np.zeros((m, n))
    k = min(m, n)
    d[np.arange(k), np.arange(k)] = 3.0 * np.arange(k, 0, -1)
    return a + lib(a).tensor(d, dtype=a.dtype)


def _np_wc(np_, a):
    return a + a.shape[-1] * np.eye(a.shape[-1])


def _np_spd(np_, a):
    return np_.matmul(a, np_.swapaxes(a, -1, -2)) + a.shape[-1] * np.eye(a.shape[-1])


def _np_sep(np_, a):
    n = a.shape[-1]
    return 0.5 * (a + np_.swapaxes(a, -1, -2)) + np.diag(3.0 * np.arange(n))


def _svd_loss(t):
    """Sign-invariant outputs of an SVD: S and the squares of U and Vh."""
    U, s, Vh = t
    L = lib(s)
    return L.cat([(U * U).flatten(), s.flatten(), (Vh * Vh).flatten()])


def _reduced(U, s, Vh):
    k = s.shape[-1]
    return U[..., :, :k], s, Vh[..., :k, :]


def _flat(*ts):
    return lib(ts[0]).cat([t.flatten() for t in ts])


SQ = ((3, 3), (2, 3, 3), (1, 1))
RECT = ((3, 3), (4, 2), (2, 4), (2, 3, 2))
ROWS = [
    Spec("inv", lambda a: lib(a).linalg.inv(_wc(a)), lambda np_, a: np_.linalg.inv(_np_wc(np_, a)),
         domain=(-1, 1), shapes=SQ),
    Spec("inverse_top", lambda a: lib(a).inverse(_wc(a)),
         lambda np_, a: np_.linalg.inv(_np_wc(np_, a)), domain=(-1, 1), shapes=SQ[:1]),
    Spec("det", lambda a: lib(a).linalg.det(_wc(a)), lambda np_, a: np_.linalg.det(_np_wc(np_, a)),
         domain=(-1, 1), shapes=SQ),
    Spec("det_raw", lambda a: lib(a).det(a), lambda np_, a: np_.linalg.det(a), shapes=SQ[:2]),
    Spec("slogdet", lambda a: lib(a).linalg.slogdet(a).logabsdet,
         lambda np_, a: np_.linalg.slogdet(a)[1], shapes=SQ),
    Spec("logdet", lambda a: lib(a).logdet(_spd(a)),
         lambda np_, a: np_.linalg.slogdet(_np_spd(np_, a))[1], shapes=SQ),
    Spec("solve", lambda a, b: lib(a).linalg.solve(_wc(a), b),
         lambda np_, a, b: np_.linalg.solve(_np_wc(np_, a), b), arity=2, domain=(-1, 1),
         shapes=(((3, 3), (3, 2)), ((2, 3, 3), (2, 3, 1)))),
    Spec("solve_broadcast", lambda a, b: lib(a).linalg.solve(_wc(a), b), None, arity=2,
         domain=(-1, 1), shapes=(((2, 3, 3), (3, 4)), ((3, 3), (2, 3, 2)),
                                 ((2, 1, 3, 3), (3, 3, 1))), oracle=False,
         notes="HIPS autograd does not sum its gradient over broadcast batch dims"),
    Spec("solve_vector", lambda a, b: lib(a).linalg.solve(_wc(a), b),
         lambda np_, a, b: np_.linalg.solve(_np_wc(np_, a), b[..., None])[..., 0], arity=2,
         domain=(-1, 1), shapes=(((3, 3), (3,)), ((2, 3, 3), (2, 3)))),
    Spec("solve_left_false", lambda a, b: lib(a).linalg.solve(_wc(a), b, left=False),
         lambda np_, a, b: np_.swapaxes(np_.linalg.solve(
             np_.swapaxes(_np_wc(np_, a), -1, -2), np_.swapaxes(b, -1, -2)), -1, -2),
         arity=2, domain=(-1, 1), shapes=(((3, 3), (2, 3)), ((2, 3, 3), (2, 4, 3)))),
    Spec("cholesky", lambda a: lib(a).linalg.cholesky(_spd(a)),
         lambda np_, a: np_.linalg.cholesky(_np_spd(np_, a)), shapes=SQ, oracle=False,
         notes="HIPS autograd's cholesky gradient is another (lower-triangle) convention"),
    Spec("cholesky_upper", lambda a: lib(a).linalg.cholesky(_spd(a), upper=True),
         lambda np_, a: np_.swapaxes(np_.linalg.cholesky(_np_spd(np_, a)), -1, -2),
         shapes=SQ[:2], oracle=False),
    Spec("cholesky_top", lambda a: lib(a).cholesky(_spd(a)),
         lambda np_, a: np_.linalg.cholesky(_np_spd(np_, a)), shapes=SQ[:1], oracle=False),
    Spec("solve_triangular", lambda a, b: lib(a).linalg.solve_triangular(
             _wc(a), b, upper=True),
         lambda np_, a, b: np_.linalg.solve(np_.triu(_np_wc(np_, a)), b), arity=2,
         domain=(-1, 1), shapes=(((2, 2), (2, 1)), ((3, 3), (3, 2)), ((2, 3, 3), (2, 3, 1)))),
    Spec("solve_triangular_lower_right_unit", lambda a, b: lib(a).linalg.solve_triangular(
             a, b, upper=False, left=False, unitriangular=True),
         lambda np_, a, b: np_.swapaxes(np_.linalg.solve(
             np_.swapaxes(np_.tril(a, -1) + np.eye(a.shape[-1]), -1, -2),
             np_.swapaxes(b, -1, -2)), -1, -2), arity=2, domain=(-1, 1),
         shapes=(((2, 2), (1, 2)), ((3, 3), (2, 3)))),
    Spec("cholesky_solve", lambda b, a: lib(a).cholesky_solve(b, lib(a).linalg.cholesky(
             _spd(a))), lambda np_, b, a: np_.linalg.solve(_np_spd(np_, a), b), arity=2,
         shapes=(((2, 1), (2, 2)), ((3, 2), (3, 3)), ((2, 3, 1), (2, 3, 3))), oracle=False,
         notes="through cholesky: HIPS autograd's convention differs (see cholesky)"),
    Spec("cholesky_solve_raw_l", lambda b, l: lib(l).cholesky_solve(b, l + 3 * _eye(l)),
         None, arity=2, shapes=(((3, 2), (3, 3)),), oracle=False,
         notes="L with an upper triangle: PyTorch's gradient is not masked to the triangle"),
    Spec("eigh", lambda a: _flat(*(lambda w, v: (w, v * v))(*lib(a).linalg.eigh(_sep(a)))),
         None, shapes=SQ, oracle=False),
    Spec("eigh_vectors_only", lambda a: (lambda v: v[..., :1] @ v[..., :1].mT)(
             lib(a).linalg.eigh(_sep(a)).eigenvectors), None, shapes=SQ[:2], oracle=False),
    Spec("eigh_upper", lambda a: _flat(*lib(a).linalg.eigh(_sep(a), UPLO="U")[:1]),
         None, shapes=SQ[:1], oracle=False),
    Spec("eigvalsh", lambda a: lib(a).linalg.eigvalsh(_sep(a)),
         lambda np_, a: np_.linalg.eigh(_np_sep(np_, a))[0], shapes=SQ),
    Spec("svd", lambda a: _svd_loss(lib(a).linalg.svd(_spread(a), full_matrices=False)),
         None, shapes=RECT, oracle=False),
    Spec("svd_full", lambda a: _svd_loss(_reduced(*lib(a).linalg.svd(_spread(a)))), None,
         shapes=RECT, oracle=False, notes="U's and Vh's extra columns are not functions of A"),
    Spec("svd_u_only", lambda a: (lambda U: U @ U.mT)(
             lib(a).linalg.svd(_spread(a), full_matrices=False).U), None, shapes=RECT,
         oracle=False),
    Spec("svd_vh_only", lambda a: (lambda V: V.mT @ V)(
             lib(a).linalg.svd(_spread(a), full_matrices=False).Vh[..., :1, :]), None,
         shapes=RECT, oracle=False),
    Spec("svd_legacy", lambda a: (lambda U, s, V: _flat(U * U, s, V * V))(
             *lib(a).svd(_spread(a))), None, shapes=RECT[:3], oracle=False),
    Spec("svdvals", lambda a: lib(a).linalg.svdvals(_spread(a)), None, shapes=RECT,
         oracle=False),
    Spec("qr", lambda a: _flat(*lib(a).linalg.qr(_spread(a))), None, shapes=RECT,
         oracle=False),
    Spec("qr_r_only", lambda a: lib(a).linalg.qr(_spread(a)).R, None, shapes=RECT[:2],
         oracle=False),
    Spec("lstsq", lambda a, b: lib(a).linalg.lstsq(_spread(a), b).solution, None, arity=2,
         shapes=(((4, 2), (4, 3)), ((3, 3), (3, 1)), ((2, 4, 3), (2, 4, 2))), oracle=False),
    Spec("lstsq_vector", lambda a, b: lib(a).linalg.lstsq(_spread(a), b).solution, None,
         arity=2, shapes=(((4, 2), (4,)),), oracle=False),
    Spec("pinv", lambda a: lib(a).linalg.pinv(_spread(a)),
         lambda np_, a: np_.linalg.pinv(_spread_np(a)), shapes=RECT),
    Spec("pinv_hermitian", lambda a: lib(a).linalg.pinv(_sep(a), hermitian=True), None,
         shapes=SQ[:2], oracle=False),
    Spec("pinverse_top", lambda a: lib(a).pinverse(_spread(a)), None, shapes=RECT[:2],
         oracle=False),
    Spec("matrix_norm_fro", lambda a: lib(a).linalg.matrix_norm(a),
         lambda np_, a: np_.sqrt(np_.sum(a * a, axis=(-2, -1))), shapes=RECT),
    Spec("matrix_norm_nuc", lambda a: lib(a).linalg.matrix_norm(_spread(a), "nuc"),
         None, shapes=RECT, oracle=False),
    Spec("matrix_norm_2", lambda a: lib(a).linalg.matrix_norm(_spread(a), 2), None,
         shapes=RECT, oracle=False),
    Spec("matrix_norm_m2", lambda a: lib(a).linalg.matrix_norm(_spread(a), -2), None,
         shapes=RECT[:2], oracle=False),
    Spec("matrix_norm_1", lambda a: lib(a).linalg.matrix_norm(a, 1),
         lambda np_, a: np_.max(np_.sum(np_.abs(a), axis=-2), axis=-1), shapes=RECT),
    Spec("matrix_norm_m1", lambda a: lib(a).linalg.matrix_norm(a, -1),
         lambda np_, a: np_.min(np_.sum(np_.abs(a), axis=-2), axis=-1), shapes=RECT),
    Spec("matrix_norm_inf", lambda a: lib(a).linalg.matrix_norm(a, math.inf),
         lambda np_, a: np_.max(np_.sum(np_.abs(a), axis=-1), axis=-1), shapes=RECT),
    Spec("matrix_norm_minf_keepdim", lambda a: lib(a).linalg.matrix_norm(
             a, -math.inf, dim=(0, -1), keepdim=True), None, shapes=((2, 3, 4),),
         oracle=False),
    Spec("matrix_norm_nuc_keepdim", lambda a: lib(a).linalg.matrix_norm(
             _spread(a), "nuc", keepdim=True), None, shapes=((2, 3, 2),), oracle=False),
    Spec("vector_norm", lambda a: lib(a).linalg.vector_norm(a),
         lambda np_, a: np_.sqrt(np_.sum(a * a)), shapes=((3,), (2, 3))),
    Spec("vector_norm_3_dim", lambda a: lib(a).linalg.vector_norm(a, 3, dim=-1),
         lambda np_, a: np_.sum(np_.abs(a) ** 3, axis=-1) ** (1 / 3), shapes=((2, 3),)),
    Spec("vector_norm_m1", lambda a: lib(a).linalg.vector_norm(a, -1, dim=0),
         lambda np_, a: np_.sum(np_.abs(a) ** -1, axis=0) ** -1, shapes=((2, 3),)),
    Spec("vector_norm_inf", lambda a: lib(a).linalg.vector_norm(a, math.inf, dim=(0, 1)),
         lambda np_, a: np_.max(np_.abs(a), axis=(0, 1)), shapes=((2, 3),)),
    Spec("norm_default", lambda a: lib(a).linalg.norm(a),
         lambda np_, a: np_.sqrt(np_.sum(a * a)), shapes=((3,), (2, 3), (2, 3, 2))),
    Spec("norm_matrix_ord", lambda a: lib(a).linalg.norm(a, 1),
         lambda np_, a: np_.max(np_.sum(np_.abs(a), axis=-2), axis=-1), shapes=((2, 3),)),
    Spec("norm_dims_fro", lambda a: lib(a).linalg.norm(a, "fro", dim=(0, 2)),
         lambda np_, a: np_.sqrt(np_.sum(a * a, axis=(0, 2))), shapes=((2, 3, 2),)),
    Spec("norm_vector_dim", lambda a: lib(a).linalg.norm(a, 3, dim=1),
         lambda np_, a: np_.sum(np_.abs(a) ** 3, axis=1) ** (1 / 3), shapes=((2, 3),)),
    Spec("torch_norm_nuc", lambda a: lib(a).norm(_spread(a), p="nuc"), None,
         shapes=((3, 2),), oracle=False),
    Spec("tensor_norm", lambda a: a.norm(), lambda np_, a: np_.sqrt(np_.sum(a * a)),
         shapes=((2, 3),)),
    Spec("cond", lambda a: lib(a).linalg.cond(_spread(a)), None, shapes=RECT[:2],
         oracle=False),
    Spec("cross", lambda a, b: lib(a).linalg.cross(a, b),
         lambda np_, a, b: np_.cross(a, b), arity=2, shapes=((3,), (2, 3))),
    Spec("cross_broadcast", lambda a, b: lib(a).linalg.cross(a, b), None, arity=2,
         shapes=(((2, 3), (1, 3)),), oracle=False),
    Spec("cross_dim0", lambda a, b: lib(a).cross(a, b, dim=0),
         lambda np_, a, b: np_.cross(a, b, axis=0), arity=2, shapes=((3, 2),)),
    Spec("vecdot", lambda a, b: lib(a).linalg.vecdot(a, b),
         lambda np_, a, b: np_.sum(a * b, axis=-1), arity=2, shapes=((3,), ((2, 3), (3,)))),
    Spec("linalg_diagonal", lambda a: lib(a).linalg.diagonal(a, offset=1),
         lambda np_, a: np_.diagonal(a, 1, -2, -1), shapes=((2, 3, 3),), oracle=False),
    Spec("multi_dot", lambda a, b: lib(a).linalg.multi_dot([a, b.mT, a]),
         lambda np_, a, b: np_.matmul(np_.matmul(a, b.T), a), arity=2, shapes=((3, 3),)),
    Spec("multi_dot_chain", lambda a, b: lib(a).linalg.multi_dot(
             [a[0], b, b.mT, a.mT, a]),
         lambda np_, a, b: np_.linalg.multi_dot([a[0], b, b.T, a.T, a]), arity=2,
         shapes=(((4, 2), (2, 5)),)),
    Spec("matrix_power_5", lambda a: lib(a).linalg.matrix_power(a, 5),
         lambda np_, a: np_.linalg.matrix_power(a, 5), shapes=((3, 3), (2, 2, 2)),
         oracle=False),
    Spec("matrix_power_0", lambda a: lib(a).matrix_power(a, 0) + a,
         lambda np_, a: np.eye(a.shape[-1]) + a, shapes=((3, 3),)),
    Spec("matrix_power_m2", lambda a: lib(a).linalg.matrix_power(_wc(a), -2), None,
         domain=(-1, 1), shapes=((3, 3),), oracle=False),
    Spec("kron", lambda a, b: lib(a).kron(a, b), lambda np_, a, b: np_.kron(a, b), arity=2,
         shapes=(((2, 3), (3, 2)), ((2,), (2, 3)))),
    Spec("tensordot", lambda a, b: lib(a).tensordot(a, b, dims=([1, 0], [2, 0])),
         lambda np_, a, b: np_.tensordot(a, b, axes=([1, 0], [2, 0])), arity=2,
         shapes=(((3, 2, 4), (3, 5, 2)),)),
    Spec("tensordot_int", lambda a, b: lib(a).tensordot(a, b, 1),
         lambda np_, a, b: np_.tensordot(a, b, 1), arity=2, shapes=(((2, 3), (3, 4)),)),
    Spec("cdist", lambda a, b: lib(a).cdist(a, b), None, arity=2,
         shapes=(((4, 3), (5, 3)), ((2, 4, 3), (2, 2, 3))), oracle=False),
    Spec("cdist_mm", lambda a, b: lib(a).cdist(a, b, compute_mode="use_mm_for_euclid_dist"),
         None, arity=2, shapes=(((4, 3), (5, 3)), ((2, 3, 2), (2, 4, 2))), oracle=False),
    Spec("cdist_mm_above_25_rows", lambda a, b: lib(a).cdist(a, b), None, arity=2,
         shapes=(((26, 2), (3, 2)),), oracle=False,
         notes="PyTorch switches to the matrix-product form above 25 rows"),
    Spec("cdist_p1", lambda a, b: lib(a).cdist(a, b, p=1.0), None, arity=2,
         shapes=(((4, 3), (5, 3)),), oracle=False),
    Spec("diag_embed", lambda a: lib(a).diag_embed(a, 1, 0, 2), None,
         shapes=((2, 3),), oracle=False),
    Spec("diag_embed_default", lambda a: lib(a).diag_embed(a),
         lambda np_, a: a[..., None] * np.eye(a.shape[-1]), shapes=((3,), (2, 3))),
    Spec("block_diag", lambda a, b: lib(a).block_diag(a, b, a[0]), None, arity=2,
         shapes=(((2, 3), (1, 2)),), oracle=False),
]


def _spread_np(a):
    m, n = a.shape[-2], a.shape[-1]
    d = np.zeros((m, n))
    k = min(m, n)
    d[np.arange(k), np.arange(k)] = 3.0 * np.arange(k, 0, -1)
    return a + d


BY_NAME = {s.name: s for s in ROWS}
# PyTorch's gradient of cholesky_solve is not masked to L's triangle, which the forward
# reads alone: it is no derivative there, so finite differences cannot agree (by design)
NOT_A_DERIVATIVE = {"cholesky_solve_raw_l"}
#  the rows whose composites are built from primitives only: they replay
REPLAYS = {"matrix_norm_fro", "matrix_norm_1", "matrix_norm_m1", "matrix_norm_inf",
           "matrix_norm_minf_keepdim", "vector_norm", "vector_norm_3_dim", "vector_norm_m1",
           "vector_norm_inf", "norm_default", "norm_matrix_ord", "norm_dims_fro",
           "norm_vector_dim", "tensor_norm", "cross", "cross_dim0", "vecdot", "cross_broadcast",
           "linalg_diagonal", "multi_dot", "multi_dot_chain", "matrix_power_5",
           "matrix_power_0", "kron", "tensordot", "tensordot_int", "cdist", "cdist_mm",
           "cdist_mm_above_25_rows",
           "cdist_p1", "diag_embed", "diag_embed_default", "block_diag"}


def cases(where=lambda spec: True, first=False):
    params = []
    for spec in filter(where, ROWS):
        for shape in spec.shapes[:1] if first else spec.shapes:
            params.append(pytest.param(spec, shape, id=f"{spec.name}-shape{shape}"))
    return pytest.mark.parametrize("spec, shape", params)


def _shape_of(fn, xs, value):
    return np.shape(value(fn, xs))


@cases()
def test_value_and_grad_vs_torch(spec, shape, rng, draw, value, tg_vjp, torch_vjp):
    xs = draw(spec, shape, rng)
    u = rng.standard_normal(_shape_of(spec.fn, xs, value))
    want_value, want_grads = torch_vjp(spec.fn, xs, u)
    np.testing.assert_allclose(value(spec.fn, xs), want_value, rtol=1e-11, atol=1e-12)
    for got, want in zip(tg_vjp(spec.fn, xs, u), want_grads, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-11)


@cases(lambda s: s.ref is not None)
def test_value_vs_numpy(spec, shape, rng, draw, value):
    xs = draw(spec, shape, rng)
    np.testing.assert_allclose(value(spec.fn, xs), spec.ref(np, *xs), rtol=1e-11, atol=1e-12)


@cases(lambda s: s.oracle and s.ref is not None)
def test_grad_vs_hips_autograd(spec, shape, rng, draw, value, tg_vjp, autograd_vjp):
    xs = draw(spec, shape, rng)
    w = rng.standard_normal(_shape_of(spec.fn, xs, value))
    for got, want in zip(tg_vjp(spec.fn, xs, w), autograd_vjp(spec.ref, xs, w), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-11)


@cases(lambda s: s.name not in NOT_A_DERIVATIVE)
def test_grad_vs_finite_differences(spec, shape, rng, draw, value, tg_vjp, fd_dot):
    xs = draw(spec, shape, rng)
    u = rng.standard_normal(_shape_of(spec.fn, xs, value))
    for i, (x, g) in enumerate(zip(xs, tg_vjp(spec.fn, xs, u), strict=True)):
        assert g.shape == x.shape
        v = rng.standard_normal(x.shape)
        assert np.vdot(g, v) == pytest.approx(fd_dot(spec.fn, xs, i, v, u), rel=1e-6, abs=1e-8)


SMALL = {(3, 3): (2, 2)}  # gradgradcheck's cost grows as the fourth power of n


@cases(lambda s: s.name not in NOT_A_DERIVATIVE | {"cdist_mm_above_25_rows"}, first=True)
def test_gradcheck_and_gradgradcheck(spec, shape, rng, draw, leaves):
    """First and second derivatives (double backward through the Python backward rows)."""
    xs = leaves(draw(spec, SMALL.get(shape, shape), rng))
    assert gradcheck(spec.fn, xs, eps=1e-6, atol=1e-6)
    assert gradgradcheck(spec.fn, xs, eps=1e-6, atol=1e-5)


@cases(first=True)
def test_float32_matches_torch_float32(spec, shape, rng, draw, torch):
    xs = draw(spec, shape, rng, np.float32)
    got = spec.fn(*[tg.tensor(x, requires_grad=True) for x in xs])
    txs = [torch.tensor(x, requires_grad=True) for x in xs]
    want = spec.fn(*txs)
    assert got.dtype == tg.float32
    np.testing.assert_allclose(np.asarray(got.detach()), want.detach().numpy(), rtol=2e-4,
                               atol=2e-5)
    u = rng.standard_normal(tuple(got.shape)).astype(np.float32)
    tx = [tg.tensor(x, requires_grad=True) for x in xs]
    g_tg = tg.autograd.grad(spec.fn(*tx), tx, grad_outputs=tg.tensor(u))
    g_t = torch.autograd.grad(want, txs, grad_outputs=torch.tensor(u))
    for a, b in zip(g_tg, g_t, strict=True):
        assert a.dtype == tg.float32
        np.testing.assert_allclose(np.asarray(a), b.numpy(), rtol=2e-3, atol=2e-4)


@cases(lambda s: s.name in REPLAYS, first=True)
def test_composites_replay(spec, shape, rng, draw, value, tg_vjp):
    """Composites of primitives trace, and replay at new inputs to f(x2) and its gradient."""
    x1, x2 = draw(spec, shape, rng), draw(spec, shape, rng)
    u = rng.standard_normal(_shape_of(spec.fn, x1, value))
    f = lambda *xs: (spec.fn(*xs) * tg.tensor(u)).sum()  # noqa: E731
    t = tg.jit.trace(f, *x1, argnums=tuple(range(len(x1))))
    got = t.grad(*x2)
    got = got if isinstance(got, tuple) else (got,)
    for g, want in zip(got, tg_vjp(spec.fn, x2, u), strict=True):
        np.testing.assert_allclose(g, want, rtol=1e-12, atol=1e-13)


FACTORISING = ["inv", "det", "slogdet", "solve", "cholesky", "solve_triangular", "eigh",
               "eigvalsh", "svd", "svdvals", "qr", "lstsq", "pinv", "matrix_norm_nuc",
               "cholesky_solve", "logdet"]


@pytest.mark.parametrize("name", FACTORISING)
def test_trace_refuses_with_the_op_name(name, rng, draw):
    spec = BY_NAME[name]
    xs = draw(spec, spec.shapes[0], rng)
    f = lambda *a: spec.fn(*a).sum()  # noqa: E731
    with pytest.raises(RuntimeError, match=r"tapegrad\.jit\.trace: .*(linalg\.|cholesky)"
                       r".* cannot be traced") as info:
        tg.jit.trace(f, *xs, argnums=tuple(range(len(xs))))
    assert "docs/limits.md" in str(info.value)
    with pytest.raises(RuntimeError, match="cannot be traced"):
        tg.compile(f)(*xs)


def test_trace_computes_a_factorisation_of_a_constant():
    """Inside a traced function a factorisation of a constant is a constant of f."""
    M = tg.tensor([[2.0, 1.0], [1.0, 3.0]])
    t = tg.jit.trace(lambda x: (tg.linalg.inv(M) @ x).sum(), np.ones(2))
    np.testing.assert_allclose(t.grad(np.array([3.0, -1.0])),
                               np.linalg.inv(np.asarray(M)).sum(0), rtol=1e-14)


# ---- node names, named tuples, methods -----------------------------------------------------
def test_named_results_and_node_names():
    A = tg.tensor([[4.0, 1.0], [1.0, 3.0]], requires_grad=True)
    assert tg.linalg.det(A).grad_fn.name() == "LinalgDetBackward0"
    sign, lad = tg.linalg.slogdet(A)
    assert sign.requires_grad and lad.grad_fn.name() == "LinalgSlogdetBackward0"  # (as PyTorch)
    w, V = tg.linalg.eigh(A)
    assert tg.linalg.eigh(A).eigenvectors.shape == (2, 2)
    assert tg.linalg.svd(A).Vh.shape == (2, 2)
    assert tg.linalg.qr(A).R.shape == (2, 2)
    assert tg.linalg.cholesky_ex(A).info.dtype == tg.int32
    assert tg.linalg.lstsq(A, A).rank.dtype == tg.int64
    assert tg.slogdet(A).logabsdet.item() == pytest.approx(math.log(11.0))


def test_tensor_methods_match_functions(torch):
    a = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
    A, T = tg.tensor(a), torch.tensor(a)
    for name, call in [("det", lambda x: x.det()), ("logdet", lambda x: x.logdet()),
                       ("inverse", lambda x: x.inverse()), ("cholesky", lambda x: x.cholesky()),
                       ("pinverse", lambda x: x.pinverse()),
                       ("matrix_power", lambda x: x.matrix_power(3)),
                       ("cross", lambda x: x.cross(x.flip(0), dim=1)),
                       ("slogdet", lambda x: x.slogdet()[1]),
                       ("norm_nuc", lambda x: x.norm(p="nuc"))]:
        np.testing.assert_allclose(np.asarray(call(A)), call(T).numpy(), rtol=1e-12,
                                   atol=1e-14, err_msg=name)


def test_legacy_torch_cross_default_dim_warns_like_torch(torch):
    a = np.arange(9.0).reshape(3, 3)
    b = np.ones((3, 3))
    with pytest.warns(UserWarning, match="without specifying the dim arg is deprecated"):
        got = tg.cross(tg.tensor(a), tg.tensor(b))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = torch.cross(torch.tensor(a), torch.tensor(b))
    np.testing.assert_array_equal(np.asarray(got), want.numpy())


def test_lstsq_fields_follow_the_driver(torch, rng):
    a, b = rng.standard_normal((5, 3)), rng.standard_normal((5, 2))
    for driver in (None, "gelsy", "gelsd", "gelss", "gels"):
        got = tg.linalg.lstsq(tg.tensor(a), tg.tensor(b), driver=driver)
        want = torch.linalg.lstsq(torch.tensor(a), torch.tensor(b), driver=driver)
        for field in ("solution", "residuals", "rank", "singular_values"):
            g, w = np.asarray(getattr(got, field)), getattr(want, field).numpy()
            assert g.shape == w.shape, (driver, field)
            np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12, err_msg=f"{driver} {field}")


def test_matrix_rank_and_pinv_of_rank_deficient(torch):
    a = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
    assert tg.linalg.matrix_rank(tg.tensor(a)).item() == 2
    assert tg.linalg.matrix_rank(tg.tensor(a), hermitian=True).item() == \
        torch.linalg.matrix_rank(torch.tensor(a), hermitian=True).item()
    assert tg.linalg.matrix_rank(tg.tensor(a), atol=1.0, rtol=0.0).item() == \
        torch.linalg.matrix_rank(torch.tensor(a), atol=1.0, rtol=0.0).item()
    x, t = tg.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
    u = np.arange(9.0).reshape(3, 3)
    p, q = tg.linalg.pinv(x), torch.linalg.pinv(t)
    np.testing.assert_allclose(np.asarray(p.detach()), q.detach().numpy(), rtol=1e-10,
                               atol=1e-12)
    (p * tg.tensor(u)).sum().backward()
    (q * torch.tensor(u)).sum().backward()
    np.testing.assert_allclose(np.asarray(x.grad), t.grad.numpy(), rtol=1e-9, atol=1e-11)


def test_det_of_singular_matrix_gradient_is_the_cofactors(torch):
    a = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
    batch = np.stack([a, np.eye(3) * 2.0])
    for arr in (a, batch):
        x, t = tg.tensor(arr, requires_grad=True), torch.tensor(arr, requires_grad=True)
        tg.linalg.det(x).sum().backward()
        # PyTorch's cofactors come from its create_graph path; its plain backward returns
        # zeros for an exactly singular matrix (docs/limits.md)
        want, = torch.autograd.grad(torch.linalg.det(t).sum(), t, create_graph=True)
        np.testing.assert_allclose(np.asarray(x.grad), want.detach().numpy(), rtol=1e-9,
                                   atol=1e-12)


def test_inv_ex_and_cholesky_ex_info(torch):
    sing = np.array([[[1.0, 2.0], [2.0, 4.0]], [[1.0, 0.0], [0.0, 1.0]]])
    got = tg.linalg.inv_ex(tg.tensor(sing))
    want = torch.linalg.inv_ex(torch.tensor(sing))
    np.testing.assert_array_equal(np.asarray(got.info), want.info.numpy())
    np.testing.assert_allclose(np.asarray(got.inverse)[1], np.eye(2))
    npd = np.array([[[4.0, 2.0], [2.0, 5.0]], [[1.0, 2.0], [2.0, 1.0]]])
    got = tg.linalg.cholesky_ex(tg.tensor(npd))
    want = torch.linalg.cholesky_ex(torch.tensor(npd))
    np.testing.assert_array_equal(np.asarray(got.info), want.info.numpy())
    np.testing.assert_allclose(np.asarray(got.L)[0], want.L.numpy()[0])
    spd = tg.tensor(npd[0], requires_grad=True)
    L, info = tg.linalg.cholesky_ex(spd)
    assert info.item() == 0 and L.requires_grad


def test_out_argument(torch):
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    out = tg.empty(2, 2)
    r = tg.linalg.inv(tg.tensor(a), out=out)
    assert r is out
    np.testing.assert_allclose(np.asarray(out), torch.linalg.inv(torch.tensor(a)).numpy())


# ---- errors: PyTorch's wording, and nothing recorded ----------------------------------------
def _f64(torch, a):
    return torch.tensor(np.asarray(a, np.float64))


ERRORS = {
    "inv_singular": lambda L, t: L.linalg.inv(t([[1.0, 2.0], [2.0, 4.0]])),
    "inv_zero": lambda L, t: L.linalg.inv(t(np.zeros((3, 3)))),
    "inv_batch_singular": lambda L, t: L.linalg.inv(t(np.stack([np.eye(3), np.zeros((3, 3))]))),
    "inv_not_square": lambda L, t: L.linalg.inv(t(np.ones((2, 3)))),
    "inv_1d": lambda L, t: L.linalg.inv(t(np.ones(3))),
    "inv_int": lambda L, t: L.linalg.inv(L.ones(2, 2, dtype=L.int64)),
    "inverse_top_singular": lambda L, t: L.inverse(t([[1.0, 2.0], [2.0, 4.0]])),
    "solve_singular": lambda L, t: L.linalg.solve(t([[1.0, 2.0], [2.0, 4.0]]), t([1.0, 1.0])),
    "solve_batch_singular": lambda L, t: L.linalg.solve(
        t(np.stack([np.eye(2), np.zeros((2, 2))])), t(np.ones((2, 2)))),
    "solve_not_square": lambda L, t: L.linalg.solve(t(np.ones((2, 3))), t(np.ones(2))),
    "solve_shapes": lambda L, t: L.linalg.solve(t(np.eye(2)), t(np.ones((3, 1)))),
    "solve_vector_shapes": lambda L, t: L.linalg.solve(t(np.eye(2)), t(np.ones(3))),
    "solve_dtypes": lambda L, t: L.linalg.solve(t(np.eye(2)), L.ones(2, dtype=L.float32)),
    "cholesky_not_pd": lambda L, t: L.linalg.cholesky(t([[1.0, 2.0], [2.0, 1.0]])),
    "cholesky_negative": lambda L, t: L.linalg.cholesky(t(-np.eye(3))),
    "cholesky_batch": lambda L, t: L.linalg.cholesky(t(np.stack([np.eye(2), -np.eye(2)]))),
    "cholesky_not_square": lambda L, t: L.linalg.cholesky(t(np.ones((2, 3)))),
    "det_not_square": lambda L, t: L.linalg.det(t(np.ones((2, 3)))),
    "det_1d": lambda L, t: L.linalg.det(t(np.ones(3))),
    "slogdet_not_square": lambda L, t: L.linalg.slogdet(t(np.ones((2, 3)))),
    "eigh_not_square": lambda L, t: L.linalg.eigh(t(np.ones((2, 3)))),
    "svd_1d": lambda L, t: L.linalg.svd(t(np.ones(3))),
    "qr_1d": lambda L, t: L.linalg.qr(t(np.ones(3))),
    "solve_triangular_1d_b": lambda L, t: L.linalg.solve_triangular(
        t(np.eye(2)), t(np.ones(2)), upper=True),
    "cross_length": lambda L, t: L.linalg.cross(t(np.ones(2)), t(np.ones(2))),
    "cross_ndim": lambda L, t: L.linalg.cross(t(np.ones(3)), t(np.ones((4, 3)))),
    "matrix_norm_1d": lambda L, t: L.linalg.matrix_norm(t(np.ones(3))),
    "matrix_norm_order": lambda L, t: L.linalg.matrix_norm(t(np.ones((3, 3))), ord=3),
    "norm_3d_with_ord": lambda L, t: L.linalg.norm(t(np.ones((3, 3, 3))), ord=2),
    "matrix_power_not_square": lambda L, t: L.linalg.matrix_power(t(np.ones((3, 2))), 2),
    "multi_dot_one": lambda L, t: L.linalg.multi_dot([t(np.ones(3))]),
    "inv_list": lambda L, t: L.linalg.inv([[1.0]]),
    "det_list": lambda L, t: L.linalg.det([[1.0]]),
    "svd_list": lambda L, t: L.linalg.svd([[1.0]]),
    "cholesky_list": lambda L, t: L.linalg.cholesky([[1.0]]),
    "solve_list_b": lambda L, t: L.linalg.solve(t(np.eye(2)), [1.0, 2.0]),
    "lstsq_list": lambda L, t: L.linalg.lstsq([[1.0]], [[1.0]]),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(name, torch, tape):
    call = ERRORS[name]
    with pytest.raises(Exception) as want:
        call(torch, lambda a: _f64(torch, a))
    rows, slots = tape.nrows, tape.nslots

    def t(a):
        return tg.tensor(np.asarray(a, np.float64), requires_grad=True)
    with pytest.raises(Exception) as got:
        call(tg, t)
    assert str(got.value) == str(want.value)
    if type(want.value).__name__ == "_LinAlgError":
        assert isinstance(got.value, tg.linalg.LinAlgError)
    assert isinstance(got.value, RuntimeError) == isinstance(want.value, RuntimeError)
    assert (tape.nrows, tape.nslots) == (rows, slots)  # nothing left half-recorded


def test_linalg_error_is_a_runtime_error():
    assert issubclass(tg.linalg.LinAlgError, RuntimeError)


# ---- properties: random well-conditioned matrices ------------------------------------------
def _q_diag_qt(seed, n, batch):
    """A = Q diag(s) Q^T with s in [0.5, 2]: symmetric positive definite, cond <= 4."""
    r = np.random.default_rng(seed)
    q, _ = np.linalg.qr(r.standard_normal(batch + (n, n)))
    s = r.uniform(0.5, 2.0, batch + (n,))
    return (q * s[..., None, :]) @ np.swapaxes(q, -1, -2)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), n=st.integers(1, 5),
       batch=st.sampled_from([(), (2,), (2, 1)]))
def test_property_factorisations_invert_each_other(seed, n, batch):
    a = _q_diag_qt(seed, n, batch)
    A = tg.tensor(a, requires_grad=True)
    L = tg.linalg.cholesky(A)
    np.testing.assert_allclose(np.asarray((L @ L.mT).detach()), a, atol=1e-12)
    w, V = tg.linalg.eigh(A)
    np.testing.assert_allclose(np.asarray(((V * w.unsqueeze(-2)) @ V.mT).detach()), a,
                               atol=1e-12)
    U, s, Vh = tg.linalg.svd(A, full_matrices=False)
    np.testing.assert_allclose(np.asarray(s.detach()), np.asarray(w.detach())[..., ::-1],
                               rtol=1e-10)
    Q, R = tg.linalg.qr(A)
    np.testing.assert_allclose(np.asarray((Q @ R).detach()), a, atol=1e-12)
    ident = tg.linalg.inv(A) @ A
    np.testing.assert_allclose(np.asarray(ident.detach()), np.broadcast_to(np.eye(n), a.shape),
                               atol=1e-12)
    # d logdet A = A^-T: the same from slogdet, logdet, cholesky and eigh
    g1, = tg.autograd.grad(tg.linalg.slogdet(A).logabsdet.sum(), [A])
    g2, = tg.autograd.grad((2 * tg.log(tg.linalg.diagonal(L))).sum(), [A])
    g3, = tg.autograd.grad(tg.log(w).sum(), [A])
    want = np.swapaxes(np.linalg.inv(a), -1, -2)
    for g in (g1, g2, g3):
        np.testing.assert_allclose(np.asarray(g), want, rtol=1e-9, atol=1e-10)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), n=st.integers(1, 4), k=st.integers(1, 3))
def test_property_solvers_agree(seed, n, k):
    """Five ways to A^-1 B agree, with their gradients (gA compared on symmetric
    perturbations: cholesky's gradient is the symmetric part, as PyTorch's)."""
    r = np.random.default_rng(seed)
    a = _q_diag_qt(seed, n, ())
    b = r.standard_normal((n, k))
    A, B = tg.tensor(a, requires_grad=True), tg.tensor(b, requires_grad=True)
    xs = [tg.linalg.solve(A, B), tg.linalg.inv(A) @ B,
          tg.cholesky_solve(B, tg.linalg.cholesky(A)), tg.linalg.lstsq(A, B).solution,
          tg.linalg.pinv(A) @ B]
    u = tg.tensor(r.standard_normal((n, k)))
    grads = [tg.autograd.grad((x * u).sum(), [A, B]) for x in xs]
    for x, (ga, gb) in zip(xs[1:], grads[1:], strict=True):
        np.testing.assert_allclose(np.asarray(x.detach()), np.asarray(xs[0].detach()),
                                   rtol=1e-9, atol=1e-10)
        np.testing.assert_allclose(_sym(np.asarray(ga)), _sym(np.asarray(grads[0][0])),
                                   rtol=1e-8, atol=1e-9)
        np.testing.assert_allclose(np.asarray(gb), np.asarray(grads[0][1]), rtol=1e-8,
                                   atol=1e-9)


def _sym(g):
    return 0.5 * (g + np.swapaxes(g, -1, -2))
