"""Vector outputs by replay: jacobian, jacobian_batch, vjp_batch and jvp_batch of compiled
functions and traced tapes, against torch.func and against loops of single points; guards
keep holding (retrace, raise, mask), never a silently wrong Jacobian."""
import pickle

import numpy as np
import pytest

import tapegrad as tg

torch = pytest.importorskip("torch")
func = torch.func

pytestmark = pytest.mark.oracle


def _f(lib):
    """R^3 x R^3 -> R^(2, 2): sums, products, a transcendental, a broadcast."""
    def f(x, y):
        a = (x * y).sum()
        b = x[0].sin() * y[1]
        c = (x ** 2).sum() * y[0]
        d = (x.exp() / (1 + y * y)).sum()
        return lib.stack([a, b, c, d]).reshape(2, 2)
    return f


def _points(B, rng=None):
    rng = rng or np.random.default_rng(0)
    return rng.normal(size=(B, 3)), rng.normal(size=(B, 3))


def _t(a):
    return torch.tensor(a, dtype=torch.float64)


@pytest.mark.parametrize("argnums", [0, 1, (0, 1), (1, 0)])
def test_jacobian_batch_equals_torch_func(argnums):
    X, Y = _points(7)
    J = tg.compile(_f(tg), argnums=argnums).jacobian_batch(X, Y)
    want = func.vmap(func.jacrev(_f(torch), argnums=argnums))(_t(X), _t(Y))
    if isinstance(argnums, int):
        J, want = (J,), (want,)
    assert isinstance(J, tuple) and len(J) == len(want)
    for a, b in zip(J, want):
        assert a.shape == (7, 2, 2, 3)
        np.testing.assert_allclose(a, b.numpy(), rtol=1e-12, atol=1e-14)


def test_traced_tape_jacobians_equal_a_loop_of_single_points():
    X, Y = _points(9)
    t = tg.jit.trace(_f(tg), X[0], Y[0], argnums=(0, 1))
    J0, J1 = t.jacobian_batch(X, Y)
    for b in range(9):
        j0, j1 = t.jacobian(X[b], Y[b])
        np.testing.assert_array_equal(J0[b], j0)
        np.testing.assert_array_equal(J1[b], j1)
    np.testing.assert_allclose(t.value(X[3], Y[3]),
                               _f(torch)(_t(X[3]), _t(Y[3])).numpy(), rtol=1e-13)
    assert t.value_batch(X, Y).shape == (9, 2, 2)


def test_vjp_and_jvp_batch_equal_torch_per_point():
    X, Y = _points(6)
    rng = np.random.default_rng(1)
    U = rng.normal(size=(6, 2, 2))
    TX, TY = rng.normal(size=(6, 3)), rng.normal(size=(6, 3))
    c = tg.compile(_f(tg), argnums=(0, 1))
    V, (gx, gy) = c.vjp_batch(X, Y, v=U)
    V2, jv = c.jvp_batch(X, Y, v=(TX, TY))
    for b in range(6):
        out, (wx, wy) = torch.autograd.functional.vjp(_f(torch), (_t(X[b]), _t(Y[b])), _t(U[b]))
        np.testing.assert_allclose(V[b], out.numpy(), rtol=1e-13)
        np.testing.assert_allclose(gx[b], wx.numpy(), rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(gy[b], wy.numpy(), rtol=1e-12, atol=1e-14)
        _, want = func.jvp(_f(torch), (_t(X[b]), _t(Y[b])), (_t(TX[b]), _t(TY[b])))
        np.testing.assert_allclose(jv[b], want.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(V, V2)
    # one argnum: a bare array in and out
    _, g = tg.compile(_f(tg), argnums=1).vjp_batch(X, Y, v=U)
    np.testing.assert_array_equal(g, gy)


def test_scalar_and_identity_outputs():
    X = np.random.default_rng(2).normal(size=(5, 4))
    rosen = tg.compile(lambda x: (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum())
    np.testing.assert_allclose(rosen.jacobian_batch(X), rosen.grad_batch(X), rtol=1e-14)
    J = tg.compile(lambda x: x[1:]).jacobian_batch(X)  # the output aliases the input
    np.testing.assert_array_equal(J, np.broadcast_to(np.eye(4)[1:], (5, 3, 4)))
    f = tg.compile(lambda x: x * x.sum())  # read-only inputs (broadcast): copied, as ever
    R = np.broadcast_to(X[0], X.shape)
    np.testing.assert_array_equal(f.jacobian_batch(R), f.jacobian_batch(R.copy()))
    np.testing.assert_array_equal(f.vjp_batch(R, v=X)[1], f.vjp_batch(R.copy(), v=X)[1])


def test_many_points_on_every_core_equal_the_analytic_jacobian():
    """Enough points for the threads to share the batch: Rosenbrock's residuals."""
    rng = np.random.default_rng(3)
    B, n = 4000, 10
    X = rng.normal(size=(B, n))
    c = tg.compile(lambda x: tg.cat([10 * (x[1:] - x[:-1] ** 2), 1 - x[:-1]]))
    J = c.jacobian_batch(X)
    want = np.zeros((B, 2 * (n - 1), n))
    i = np.arange(n - 1)
    want[:, i, i + 1] = 10
    want[:, i, i] = -20 * X[:, :-1]
    want[:, n - 1 + i, i] = -1
    np.testing.assert_allclose(J, want, rtol=1e-14, atol=0)
    U = rng.normal(size=(B, 2 * (n - 1)))  # a seed per point, every core
    V, g = c.vjp_batch(X, v=U)
    np.testing.assert_allclose(g, np.einsum("bm,bmn->bn", U, want), rtol=1e-12, atol=1e-12)
    T = rng.normal(size=(B, n))
    np.testing.assert_allclose(c.jvp_batch(X, v=T)[1], np.einsum("bmn,bn->bm", want, T),
                               rtol=1e-12, atol=1e-12)


def _branchy(x):
    if x[0] > 0:
        return tg.stack([x[0] * x[1], x[1].exp()])
    return tg.stack([x[1] ** 3, -x[0]])


def _branchy_jac(x):
    if x[0] > 0:
        return np.array([[x[1], x[0]], [0.0, np.exp(x[1])]])
    return np.array([[0.0, 3 * x[1] ** 2], [-1.0, 0.0]])


def test_guards_retrace_raise_and_mask():
    X = np.array([[1.0, 2.0], [-1.0, 0.5], [2.0, -1.0], [-3.0, 1.5]])
    want = np.stack([_branchy_jac(x) for x in X])
    c = tg.compile(_branchy)
    np.testing.assert_allclose(c.jacobian_batch(X), want, rtol=1e-14)
    np.testing.assert_allclose(c.jvp_batch(X, v=X)[1], np.einsum("bij,bj->bi", want, X))
    assert c.mask is None
    t = tg.jit.trace(_branchy, X[0])
    with pytest.raises(tg.replay.DivergenceError, match="point 1 takes another branch"):
        t.jacobian_batch(X)
    J = t.jacobian_batch(X, on_divergence="mask")
    np.testing.assert_array_equal(t.mask, [True, False, True, False])
    np.testing.assert_allclose(J[t.mask], want[t.mask], rtol=1e-14)
    assert np.isnan(J[~t.mask]).all()
    np.testing.assert_allclose(t.jacobian_batch(X, on_divergence="retrace"), want, rtol=1e-14)


def test_vector_output_refuses_a_gradient_and_bad_seeds():
    c = tg.compile(lambda x: x * 2)
    x = np.ones(3)
    np.testing.assert_array_equal(c(x), [2.0, 2.0, 2.0])
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar "
                                           "outputs.*jacobian"):
        c.grad(x)
    with pytest.raises(RuntimeError, match="only for scalar outputs"):
        tg.jit.trace(lambda x: x * 2, x).grad_batch(np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"vjp_batch: v has shape \(2, 2\).*\(2, 3\)"):
        c.vjp_batch(np.ones((2, 3)), v=np.ones((2, 2)))
    with pytest.raises(ValueError, match="jvp_batch: v holds 2 tangents"):
        c.jvp_batch(np.ones((2, 3)), v=(np.ones((2, 3)), np.ones((2, 3))))
    with pytest.raises(ValueError, match=r"tangent of input 0 has shape \(3,\)"):
        c.jvp_batch(np.ones((2, 3)), v=np.ones(3))


def test_vector_traces_save_load_and_pickle(tmp_path):
    X, Y = _points(4)
    t = tg.jit.trace(_f(tg), X[0], Y[0])
    want = t.jacobian_batch(X, Y)
    t.save(tmp_path / "f.npz")
    for u in (tg.jit.load(tmp_path / "f.npz"), pickle.loads(pickle.dumps(t))):
        assert u.out_shape == (2, 2)
        np.testing.assert_array_equal(u.jacobian_batch(X, Y), want)


def test_jacobian_batch_index_and_out_equal_the_plain_call():
    """index= reads shared rows by index, out= writes the kept entries of each block where
    the caller's layout says (a CSR matrix's data): the plain call's blocks, bit for bit."""
    rng = np.random.default_rng(5)
    P, Y = rng.normal(size=(4, 3)), rng.normal(size=(6, 3))
    idx = np.array([3, 0, 0, 2, 1, 3], np.int32)
    f = tg.compile(_f(tg), argnums=(0, 1), fused=False)
    J0 = f.jacobian_batch(P[idx], Y)
    J = f.jacobian_batch(P, Y, index=(idx, None))
    assert all(np.array_equal(a, b) for a, b in zip(J, J0, strict=True))
    mask = np.ones((4, 6), bool)
    mask[1, :3] = mask[3, 4] = False  # b = x[0].sin() y[1]: x's columns only at 0
    count = mask.sum(axis=1)
    start = (np.arange(6)[:, None] * count.sum() + np.cumsum(count) - count)[::-1].copy()
    data = np.zeros(6 * count.sum())
    assert f.jacobian_batch(P, Y, index=(idx, None), out=(data, start.reshape(6, 2, 2),
                                                          mask)) is data
    blocks = np.concatenate([J0[0].reshape(6, 4, 3), J0[1].reshape(6, 4, 3)], axis=2)
    for b in range(6):
        assert np.array_equal(data[start[b, 0]:start[b, 0] + count.sum()], blocks[b][mask])


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(index=(np.arange(5),)), TypeError, "index must be a tuple of 2 entries"),
    (dict(index=(np.arange(5.0), None)), TypeError, r"index\[0\] must be a 1-d integer"),
    (dict(index=(np.array([0, 1, 2, 3, 9]), None)), IndexError,
     r"index\[0\] holds 9, out of bounds for input 0's 4 rows"),
    (dict(index=(np.arange(4), None)), ValueError, "disagree on the number of points: 4 and 5"),
    (dict(index=(np.arange(5) % 4, None), out=np.zeros(9)), TypeError, r"out must be \(data"),
    (dict(index=(np.arange(5) % 4, None), out=(np.zeros(200, np.float32), np.zeros((5, 4), int),
                                           np.ones((4, 6), bool))), TypeError,
     "out's data must be a writable C-contiguous 1-d float64 array"),
    (dict(index=(np.arange(5) % 4, None), out=(np.zeros(200), np.zeros((5, 3), int),
                                           np.ones((4, 6), bool))), ValueError,
     r"out's start must be integers of shape \(5, 4\)"),
    (dict(index=(np.arange(5) % 4, None), out=(np.zeros(200), np.zeros((5, 4), int),
                                           np.ones((4, 3), bool))), ValueError,
     r"out's mask must be booleans of shape \(4, 6\)"),
    (dict(index=(np.arange(5) % 4, None), out=(np.zeros(200), np.full((5, 4), 196),
                                           np.ones((4, 6), bool))), IndexError,
     "out's row 0 of point 0 starts at 196 and holds 6 entries, outside data's 200"),
])
def test_jacobian_batch_index_out_errors(kwargs, error, match):
    """Bad index= or out= raise naming the op, the shapes and the fix; data untouched."""
    P, Y = np.ones((4, 3)), np.ones((5, 3))
    f = tg.compile(_f(tg), argnums=(0, 1), fused=False)
    out = kwargs.get("out")
    before = None if not isinstance(out, tuple) else out[0].copy()
    with pytest.raises(error, match=match):
        f.jacobian_batch(P, Y, **kwargs)
    if before is not None:
        assert np.array_equal(out[0], before)


def test_jacobian_batch_index_of_no_points():
    f = tg.compile(_f(tg), argnums=(0, 1), fused=False)
    Jx, Jy = f.jacobian_batch(np.ones((4, 3)), np.ones((0, 3)), index=(np.zeros(0, int), None))
    assert Jx.shape == Jy.shape == (0, 2, 2, 3)
