"""Issue 20's slowest scripts against PyTorch: the paths made cheaper keep PyTorch's values,
gradients and second derivatives.  |z| of a complex tensor (tapegrad/_complex.py's _Abs: a
plain backward runs its formula in NumPy, create_graph its ops)."""
import numpy as np
import pytest

import tapegrad as tg
from tapegrad import _complex
from tapegrad.ops import arithmetic

pytestmark = pytest.mark.oracle

SHAPES = [(), (1,), (5,), (3, 4), (2, 3, 2)]
CDTYPES = [("complex64", 1e-6), ("complex128", 1e-13)]


@pytest.fixture
def torch(torch_float64):
    return torch_float64


def _values(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    z = (rng.normal(size=shape) + 1j * rng.normal(size=shape)).astype(dtype)
    flat = z.reshape(-1)
    if flat.size >= 3:  # the special points: 0 (gradient 0, not nan), a real and an imaginary
        flat[0], flat[1], flat[2] = 0, -2.5, 1.5j
    return z


def _np(t):
    return np.asarray(t.detach().resolve_conj().numpy())


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype,tol", CDTYPES)
def test_abs_gradient_matches_torch(torch, shape, dtype, tol):
    z0 = _values(shape, dtype, 1)
    w0 = np.random.default_rng(2).normal(size=shape).astype(z0.real.dtype)
    res = {}
    for L in (tg, torch):
        z = L.tensor(z0, requires_grad=True)
        y = z.abs()
        (y * L.tensor(w0)).sum().backward()
        res[L] = (y, z.grad)
    for o, t in zip(res[tg], res[torch], strict=True):
        assert str(_np(o).dtype) == str(t.detach().numpy().dtype)
        np.testing.assert_allclose(_np(o), t.detach().numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("shape", [(), (4,), (2, 3)])
@pytest.mark.parametrize("dtype,tol", CDTYPES)
def test_abs_second_derivative_matches_torch(torch, shape, dtype, tol):
    """create_graph: the gradient is recorded (the ops path), and differentiates again."""
    z0 = _values(shape, dtype, 3)
    res = {}
    for L in (tg, torch):
        z = L.tensor(z0, requires_grad=True)
        loss = (z.abs() ** 3).sum() + (z * 1.5).abs().sum()
        g, = L.autograd.grad(loss, z, create_graph=True)
        assert g.requires_grad
        h, = L.autograd.grad((g.real * g.real + 3 * g.imag).sum(), z)
        res[L] = (g, h)
    for o, t in zip(res[tg], res[torch], strict=True):
        np.testing.assert_allclose(_np(o), t.detach().numpy(), rtol=50 * tol, atol=50 * tol)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_abs_plain_backward_is_the_recorded_formula_bit_for_bit(shape, dtype):
    """The NumPy gradient of a plain backward equals the ops' (create_graph's), to the last
    bit, at zeros, infinities and NaNs too."""
    z0 = _values(shape, dtype, 4)
    flat = z0.reshape(-1)
    if flat.size >= 6:
        flat[3], flat[4], flat[5] = complex(np.inf, 1), complex(np.nan, 0), 1e-30 + 1e-30j
    g0 = np.random.default_rng(5).normal(size=shape).astype(z0.real.dtype)
    got = {}
    for create in (False, True):
        z = tg.tensor(z0, requires_grad=True)
        g, = tg.autograd.grad(z.abs(), z, tg.tensor(g0), create_graph=create)
        got[create] = _np(g)
    assert got[False].dtype == got[True].dtype == np.dtype(dtype)
    # (array_equal: NaN == NaN, and 0.0 == -0.0: a plain backward's adjoint sum starts from
    # +0.0, the engine's, as before this path)
    np.testing.assert_array_equal(got[False], got[True])


def test_abs_numpy_gradient_is_pytorchs_formula(torch):
    """The NumPy formula alone, against PyTorch's g * z / |z| (0 at z = 0)."""
    z0 = _values((7,), np.complex128, 6)
    g0 = np.linspace(-1, 2, 7)
    re, im = (tg.tensor(np.ascontiguousarray(p)) for p in (z0.real, z0.imag))
    gre, gim = _complex._abs_grad_values(tg.tensor(g0), re, im)
    zt = torch.tensor(z0, requires_grad=True)
    zt.abs().backward(torch.tensor(g0))
    np.testing.assert_allclose(_np(gre) + 1j * _np(gim), zt.grad.numpy(), rtol=1e-15)


def test_complex_least_squares_loop_matches_torch(torch):
    """s106's loop: gradient descent on |A w - b|^2 with complex w."""
    A0 = np.array([[1 + 1j, 2 - 0.5j], [0.5j, -1 + 0j], [3 + 0j, 1 + 2j]])
    res = {}
    for L in (tg, torch):
        A = L.tensor(A0)
        b = A @ L.tensor([0.5 - 1j, 2 + 0.25j])
        w = L.zeros(2, dtype=L.complex128, requires_grad=True)
        for _ in range(30):
            loss = ((A @ w - b).abs() ** 2).sum()
            loss.backward()
            with L.no_grad():
                w -= 0.02 * w.grad
            w.grad.zero_()
        res[L] = w
    np.testing.assert_allclose(_np(res[tg]), res[torch].detach().numpy(), rtol=1e-13)


# ---- add/sub with alpha, lerp, addcmul: the exactly rounded value (ops/arithmetic.py) ------
def test_same_compares_values_nans_and_signs_of_zero():
    """_exactly's test, whose equal-bytes shortcut must not change its answer."""
    nan2 = np.array([np.nan]).view(np.int64) ^ 1  # (a NaN of another payload)
    cases = [(np.array([1.0, 2.0]), np.array([1.0, 2.0]), True),
             (np.array([0.0]), np.array([-0.0]), False),
             (np.array([np.nan]), nan2.view(np.float64), True),
             (np.array([1.0, np.nan]), np.array([1.0, 2.0]), False),
             (np.float32(1.5), np.array(1.5, np.float32), True),
             (np.array([1.0, 2.0], np.float32), np.array([1.0, 2.0 + 2 ** -20], np.float32),
              False)]
    for a, b, want in cases:
        assert arithmetic._same(a, b) is want and arithmetic._same(b, a) is want


@pytest.mark.parametrize("shape", [(), (7,), (3, 5)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_alpha_lerp_addcmul_round_once_as_torch(torch, shape, dtype):
    """Values bit for bit PyTorch's (one multiply-add), in place and not, and gradients; the
    values span magnitudes, so the two-rounding composite differs from the fused value at
    some of them (the other path of _exactly)."""
    rng = np.random.default_rng(8)
    x0, y0, z0 = (rng.normal(size=shape).astype(dtype) * 10.0 ** rng.integers(-3, 4, size=shape)
                  for _ in range(3))
    res = {}
    for L in (tg, torch):
        x, y, z = (L.tensor(v, requires_grad=True) for v in (x0, y0, z0))
        outs = [L.add(x, y, alpha=0.1), L.sub(x, y, alpha=-1.7), L.lerp(x, y, 0.3),
                L.lerp(x, y, 0.8), L.addcmul(x, y, z, value=0.7)]
        grads = L.autograd.grad(sum((o * (i + 1)).sum() for i, o in enumerate(outs)), (x, y, z))
        p = L.tensor(x0)
        with L.no_grad():
            p.add_(L.tensor(y0), alpha=-0.005)
            p.sub_(L.tensor(z0), alpha=1e-3)
        res[L] = ([o.detach() for o in outs] + [p], grads)
    for o, t in zip(res[tg][0], res[torch][0], strict=True):
        np.testing.assert_array_equal(o.numpy(), t.numpy())
    for o, t in zip(res[tg][1], res[torch][1], strict=True):  # (sums in another order)
        np.testing.assert_allclose(o.numpy(), t.numpy(), rtol=1e-6 if dtype == "float32"
                                   else 1e-15)


# ---- Tensor.T (ops/shape.py _T) and solve's batches (linalg.py _solve_values) --------------
@pytest.mark.parametrize("shape", [(), (4,), (2, 3), (2, 3, 4), (2, 1, 3, 2)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_T_matches_torch(torch, shape, dtype):
    """.T's values, node, gradient and second derivative, and that it is a view (an in-place
    change of the base shows through it)."""
    x0 = np.random.default_rng(9).normal(size=shape).astype(dtype)
    res = {}
    for L in (tg, torch):
        x = L.tensor(x0, requires_grad=True)
        y = x.T
        w = L.tensor(np.arange(y.numel(), dtype=dtype).reshape(tuple(y.shape)))
        g, = L.autograd.grad((y * y * w).sum(), x, create_graph=True)
        h, = L.autograd.grad((g * g).sum(), x)
        base = L.tensor(x0)
        view = base.T
        with L.no_grad():
            base.mul_(2)
        res[L] = (y.detach(), g.detach(), h, view, type(y.grad_fn).__name__, tuple(y.shape))
    for o, t in zip(res[tg], res[torch], strict=True):
        if isinstance(o, (str, tuple)):
            assert o == t
        else:
            np.testing.assert_allclose(o.numpy(), t.numpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("shapes", [((3, 3), (3, 2)), ((3, 3), (3,)), ((2, 3, 3), (2, 3, 1)),
                                    ((2, 3, 3), (3, 2)), ((3, 3), (4, 3, 2)),
                                    ((1, 3, 3), (2, 3, 3))])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_solve_with_and_without_broadcast_matches_torch(torch, shapes, left, dtype):
    sa, sb = shapes
    if not left and len(sb) < len(sa):
        return  # (torch refuses a vector-like B with left=False: PyTorch's own error)
    rng = np.random.default_rng(10)
    a0 = (rng.normal(size=sa) + 4 * np.eye(3)).astype(dtype)
    b0 = rng.normal(size=sb).astype(dtype)
    if not left:
        b0 = np.swapaxes(b0, -1, -2).copy()
    tol = 1e-4 if dtype == "float32" else 1e-12
    res = {}
    for L in (tg, torch):
        a, b = L.tensor(a0, requires_grad=True), L.tensor(b0, requires_grad=True)
        x = L.linalg.solve(a, b, left=left)
        g = L.autograd.grad((x * x).sum(), (a, b), create_graph=True)
        h = L.autograd.grad(sum((gi * gi).sum() for gi in g), (a, b))
        res[L] = (x.detach(), *(gi.detach() for gi in g), *h)
    for o, t in zip(res[tg], res[torch], strict=True):
        np.testing.assert_allclose(o.numpy(), t.numpy(), rtol=tol, atol=tol)


def test_solve_singular_still_raises_torchs_error(torch):
    """Batches broadcast or not: PyTorch's message, naming the singular batch element."""
    eye_and_zero = np.array([[[1.0, 0], [0, 1]], [[0, 0], [0, 0]]])
    for a, b in ((np.zeros((2, 2)), np.ones((2, 1))), (eye_and_zero, np.ones((2, 2, 1))),
                 (eye_and_zero, np.ones((3, 1, 2, 1)))):
        msgs = []
        for L in (tg, torch):
            with pytest.raises(RuntimeError, match="singular") as e:
                L.linalg.solve(L.tensor(a), L.tensor(b))
            msgs.append(str(e.value))
        assert msgs[0] == msgs[1]


def test_solve_ex_singular_in_a_broadcast_batch_matches_torch(torch):
    """The per-matrix fallback after a singular batch: results in the broadcast shape, the
    regular matrices' solutions PyTorch's."""
    a = np.array([[[2.0, 1], [0, 1]], [[0, 0], [0, 0]]])
    b = np.random.default_rng(11).normal(size=(3, 1, 2, 1))
    res = {L: L.linalg.solve_ex(L.tensor(a), L.tensor(b)) for L in (tg, torch)}
    assert tuple(res[tg].result.shape) == tuple(res[torch].result.shape) == (3, 2, 2, 1)
    np.testing.assert_allclose(res[tg].result[:, 0].numpy(), res[torch].result[:, 0].numpy(),
                               rtol=1e-15)
    assert res[tg].info.numpy()[..., 1].all() and not res[tg].info.numpy()[..., 0].any()


# ---- triu_indices / tril_indices (creation.py: small ones computed once) -------------------
@pytest.mark.parametrize("fn", ["triu_indices", "tril_indices"])
def test_tri_indices_match_torch_and_are_the_callers_own(torch, fn):
    for row, col, offset in [(4, 4, 1), (3, 5, -1), (5, 3, 2), (0, 3, 0), (1, 1, 0), (3, 3, -10),
                             (3, 3, 10), (64, 64, 0), (70, 70, 3), (2, 3000, 1)]:
        for dtype in (None, "int32"):
            kw = {} if dtype is None else {"dtype": getattr(tg, dtype)}
            kt = {} if dtype is None else {"dtype": getattr(torch, dtype)}
            ours = getattr(tg, fn)(row, col, offset, **kw)
            theirs = getattr(torch, fn)(row, col, offset, **kt)
            assert str(ours.dtype) == str(theirs.dtype)
            np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
            if ours.numel():  # (an in-place change of one result shows in no later one)
                ours.add_(7)
                np.testing.assert_array_equal(getattr(tg, fn)(row, col, offset, **kw).numpy(),
                                              theirs.numpy())


@pytest.mark.parametrize("shapes", [((3, 3), (3, 2)), ((2, 3, 3), (2, 3, 2)),
                                    ((2, 3, 3), (3, 2)), ((3, 3), (4, 3, 1)),
                                    ((1, 3, 3), (2, 3, 2))])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_triangular_solves_with_and_without_broadcast_match_torch(torch, shapes, dtype):
    """solve_triangular (both triangles, both sides) and cholesky_solve (the triangular solves
    of linalg.py's _trsm): values, gradients and second derivatives."""
    sa, sb = shapes
    rng = np.random.default_rng(12)
    l0 = (np.tril(rng.normal(size=sa)) + 3 * np.eye(3)).astype(dtype)
    b0 = rng.normal(size=sb).astype(dtype)
    tol = 1e-4 if dtype == "float32" else 1e-12
    res = {}
    for L in (tg, torch):
        lo, b = L.tensor(l0, requires_grad=True), L.tensor(b0, requires_grad=True)
        outs = [L.linalg.solve_triangular(lo, b, upper=False),
                L.linalg.solve_triangular(lo.mT, b, upper=True),
                L.linalg.solve_triangular(lo, b.mT, upper=False, left=False),
                L.cholesky_solve(b, lo), L.cholesky_solve(b, lo.mT, upper=True)]
        loss = sum((o * o).sum() * (i + 1) for i, o in enumerate(outs))
        g = L.autograd.grad(loss, (lo, b), create_graph=True)
        h = L.autograd.grad(sum((gi * gi).sum() for gi in g), (lo, b))
        res[L] = [o.detach() for o in outs] + [gi.detach() for gi in g] + list(h)
    for o, t in zip(res[tg], res[torch], strict=True):
        np.testing.assert_allclose(o.numpy(), t.numpy(), rtol=tol, atol=tol)


def test_solve_triangular_zero_diagonal_gives_inf_nan_as_torch(torch):
    for batch in ((), (2,)):
        a = np.broadcast_to(np.array([[1.0, 0], [2, 0]]), batch + (2, 2)).copy()
        b = np.ones(batch + (2, 1))
        res = [L.linalg.solve_triangular(L.tensor(a), L.tensor(b), upper=False).numpy()
               for L in (tg, torch)]
        np.testing.assert_array_equal(res[0], res[1])


# ---- _complex.make: parts of one float dtype and shape take a short path -------------------
@pytest.mark.parametrize("a_dtype,b_dtype", [("float32", "float32"), ("float64", "float64"),
                                             ("float32", "float64"), ("float64", "float32")])
@pytest.mark.parametrize("shapes", [((), ()), ((3,), (3,)), ((2, 3), (3,)), ((1, 3), (2, 1))])
def test_complex_from_parts_matches_torch(torch, a_dtype, b_dtype, shapes):
    rng = np.random.default_rng(13)
    a0, b0 = (rng.normal(size=s).astype(d) for s, d in zip(shapes, (a_dtype, b_dtype)))
    if a_dtype != b_dtype:  # (refused, as PyTorch)
        msgs = []
        for L in (tg, torch):
            with pytest.raises(RuntimeError) as e:
                L.complex(L.tensor(a0), L.tensor(b0))
            msgs.append(str(e.value))
        assert msgs[0] == msgs[1]
        return
    res = {}
    for L in (tg, torch):
        a, b = L.tensor(a0, requires_grad=True), L.tensor(b0, requires_grad=True)
        z = L.complex(a, b)
        ga, gb = L.autograd.grad((z * z).abs().sum(), (a, b))
        res[L] = (z.detach(), ga, gb)
    for o, t in zip(res[tg], res[torch], strict=True):
        assert str(o.dtype) == str(t.dtype)
        np.testing.assert_allclose(_np(o), t.numpy(), rtol=1e-5, atol=1e-6)


def test_complex_of_half_or_integer_parts_refused_as_before():
    with pytest.raises(TypeError, match="float32 and float64 parts"):
        _complex.make(tg.ones(2, dtype=tg.float16), tg.ones(2, dtype=tg.float16))
    z = _complex.make(tg.tensor([1, 2]), tg.tensor([3, 4]))  # (integers: the default float)
    assert z.dtype == tg.complex128 and _np(z).tolist() == [1 + 3j, 2 + 4j]
    z = _complex.make(tg.ones(2, 1, dtype=tg.float32), tg.zeros(3))  # (one dtype, one shape)
    assert z.dtype == tg.complex128 and tuple(z.shape) == (2, 3)
