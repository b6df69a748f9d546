"""The short paths a training step takes (issue 20, branch mlp32), against PyTorch 2.13:
F.linear's dtype check when all operands share one dtype (and its refusals when they do
not), a leaf's gradient read from one adjoint span (every shape, dtype and use count), and
cross_entropy's shape reads (every input rank, its refusal of a 0-d input)."""
import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn.functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional


def _pair(a, requires_grad=False):
    return (tg.tensor(a, requires_grad=requires_grad),
            torch.tensor(a, requires_grad=requires_grad))


def _raises_like(fn_tg, fn_torch):
    """Both raise, the same exception type, and tapegrad's message starts with PyTorch's
    first sentence."""
    with pytest.raises(Exception) as theirs:
        fn_torch()
    with pytest.raises(type(theirs.value)) as ours:
        fn_tg()
    head = str(theirs.value).split(",")[0]
    assert head in str(ours.value), (str(ours.value), str(theirs.value))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("shape", [(4, 3), (2, 5, 3), (3,)])
def test_linear_one_dtype_matches_torch(dtype, bias, shape):
    rng = np.random.default_rng(1)
    x, tx = _pair(rng.standard_normal(shape).astype(dtype), True)
    w, tw = _pair(rng.standard_normal((6, 3)).astype(dtype), True)
    b, tb = _pair(rng.standard_normal(6).astype(dtype), True) if bias else (None, None)
    y, ty = F.linear(x, w, b), TF.linear(tx, tw, tb)
    assert y.dtype == np.dtype(dtype) and tuple(y.shape) == tuple(ty.shape)
    (y * y).sum().backward()
    (ty * ty).sum().backward()
    tol = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(y.detach().numpy(), ty.detach().numpy(), rtol=tol, atol=tol)
    for a, t in [(x, tx), (w, tw)] + ([(b, tb)] if bias else []):
        assert a.grad.dtype == np.dtype(dtype)
        np.testing.assert_allclose(a.grad.numpy(), t.grad.numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("which", ["input", "weight", "bias"])
def test_linear_mixed_dtypes_refused_as_torch(which):
    """One operand float32 and the rest int64 (no float stand-in lets them promote): the
    check after the one-dtype path refuses in PyTorch's words."""
    dts = {"input": "float32", "weight": "float32", "bias": "float32", which: "int64"}
    a = {"input": np.ones((2, 3)), "weight": np.ones((4, 3)), "bias": np.ones(4)}
    ours = {k: tg.tensor(v.astype(dts[k])) for k, v in a.items()}
    theirs = {k: torch.tensor(v.astype(dts[k])) for k, v in a.items()}
    _raises_like(lambda: F.linear(ours["input"], ours["weight"], ours["bias"]),
                 lambda: TF.linear(theirs["input"], theirs["weight"], theirs["bias"]))


def test_linear_mixed_float_dtypes_under_float32_default():
    """With float32 the default (as PyTorch's), float32 input and float64 weight are refused
    as PyTorch refuses them; float64 input meeting a float32 bias too."""
    prev = tg.get_default_dtype()
    tg.set_default_dtype(tg.float32)
    try:
        for dx, dw, db in (("float32", "float64", "float64"), ("float64", "float64", "float32"),
                           ("float32", "float64", None)):
            x = np.ones((2, 3), dx)
            w = np.ones((4, 3), dw)
            b = None if db is None else np.ones(4, db)
            _raises_like(
                lambda: F.linear(tg.tensor(x), tg.tensor(w), None if b is None else tg.tensor(b)),
                lambda: TF.linear(torch.tensor(x), torch.tensor(w),
                                  None if b is None else torch.tensor(b)))
    finally:
        tg.set_default_dtype(prev)


def test_linear_complex_operand_refused_as_before():
    """A complex weight or bias (whose values a real op cannot read) meets the dtype
    check's own refusal, in PyTorch's words for the mix, not the complex tensor's."""
    x, w, c = np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 3)) + 1j
    _raises_like(lambda: F.linear(tg.tensor(x), tg.tensor(c)),
                 lambda: TF.linear(torch.tensor(x), torch.tensor(c)))
    _raises_like(lambda: F.linear(tg.tensor(x), tg.tensor(w), tg.tensor(c[:, 0])),
                 lambda: TF.linear(torch.tensor(x), torch.tensor(w), torch.tensor(c[:, 0])))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(), (1,), (5,), (3, 4), (2, 1, 3)])
@pytest.mark.parametrize("uses", [1, 2])
def test_leaf_gradient_shape_dtype_values(dtype, shape, uses):
    """A leaf's gradient from its one adjoint span (one use) or their sum (two uses): its
    shape, dtype and values as PyTorch's, a new array (not a view of the adjoint buffer,
    which the next backward reuses)."""
    rng = np.random.default_rng(2)
    a = rng.standard_normal(shape).astype(dtype)
    x, tx = _pair(a, True)
    c = rng.standard_normal(shape).astype(dtype)
    y = (x * tg.tensor(c)).exp().sum()
    ty = (tx * torch.tensor(c)).exp().sum()
    if uses == 2:
        y = y + (x * x).sum()
        ty = ty + (tx * tx).sum()
    y.backward()
    ty.backward()
    g = x.grad
    assert tuple(g.shape) == shape and g.dtype == np.dtype(dtype)
    tol = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(np.asarray(g.detach()), tx.grad.numpy(),
                               rtol=tol, atol=tol)
    before = np.array(g.detach(), copy=True)
    x2 = tg.tensor(a, requires_grad=True)  # a second backward reuses the adjoint buffer
    (x2 * 3.0).sum().backward()
    np.testing.assert_array_equal(np.asarray(g.detach()), before)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_leaf_gradient_survives_next_backward(dtype):
    """A gradient is a copy of its adjoint span: the next backward, which reuses this
    thread's adjoint buffer from 2^15 values on (arena.adjoint_arena), leaves it as it was."""
    a = np.linspace(-1, 1, 40_000).astype(dtype).reshape(200, 200)
    x = tg.tensor(a, requires_grad=True)
    (x * x).sum().backward()
    g = x.grad
    x2 = tg.tensor(a, requires_grad=True)
    (x2 * 5.0).sum().backward()
    np.testing.assert_array_equal(np.asarray(g.detach()), 2 * a)
    np.testing.assert_array_equal(np.asarray(x2.grad.detach()), np.full_like(a, 5.0))


def test_float32_leaf_in_a_float64_graph():
    """A float32 leaf whose graph computes in float64 (its arena promoted): its gradient is
    float32, as PyTorch's."""
    a = np.array([[0.5, -1.25], [2.0, 3.0]], np.float32)
    b = np.array([[1.5, 2.0], [-0.5, 0.25]])
    x, tx = _pair(a, True)
    (x * tg.tensor(b)).sum().backward()
    (tx * torch.tensor(b)).sum().backward()
    assert x.grad.dtype == np.float32 and tx.grad.dtype == torch.float32
    np.testing.assert_array_equal(x.grad.numpy(), tx.grad.numpy())


def test_python_float_leaf_gradient():
    x = tg.tensor(1.5, requires_grad=True)
    (x * x * x).backward()
    tx = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
    (tx * tx * tx).backward()
    assert x.grad.dtype == np.float64 and tuple(x.grad.shape) == ()
    assert x.grad.item() == tx.grad.item()


@pytest.mark.parametrize("shape,target", [
    ((5, 3), "index"), ((3,), "scalar"), ((4, 3, 2), "index"), ((4, 3), "probs"),
    ((4, 3, 2), "probs"), ((0, 3), "index")])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_every_rank_matches_torch(shape, target, reduction):
    rng = np.random.default_rng(3)
    x, tx = _pair(rng.standard_normal(shape), True)
    if target == "probs":
        p = rng.random(shape)
        t, tt = _pair(p / p.sum(axis=1 if len(shape) > 1 else 0, keepdims=True))
    elif target == "scalar":
        t, tt = _pair(np.array(2))
    else:
        idx = rng.integers(0, shape[1], (shape[0],) + shape[2:])
        t, tt = _pair(idx)
    y, ty = F.cross_entropy(x, t, reduction=reduction), TF.cross_entropy(tx, tt,
                                                                         reduction=reduction)
    np.testing.assert_allclose(np.asarray(y.detach()), ty.detach().numpy(), rtol=1e-12,
                               atol=1e-12, equal_nan=True)
    if x.numel() and reduction != "none":
        y.backward()
        ty.backward()
        np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-12, atol=1e-12)


def test_cross_entropy_refusals_as_torch():
    # (a 0-d input: tapegrad's own words, PyTorch's words for F.nll_loss's; PyTorch's
    # cross_entropy first complains of the target instead)
    with pytest.raises(ValueError, match=r"^Expected 1 or more dimensions \(got 0\)$"):
        F.cross_entropy(tg.tensor(1.0), tg.tensor(0))
    _raises_like(lambda: F.cross_entropy(tg.zeros(4, 3), tg.tensor([0, 1, 2])),
                 lambda: TF.cross_entropy(torch.zeros(4, 3), torch.tensor([0, 1, 2])))
    _raises_like(lambda: F.cross_entropy(tg.zeros(4, 3), tg.tensor([0, 1, 2, 3])),
                 lambda: TF.cross_entropy(torch.zeros(4, 3), torch.tensor([0, 1, 2, 3])))
