"""The PyTorch-facing API: creation, dtypes and promotion, Tensor methods, repr, grad_fn
names and graph views, autograd entry points, grad modes, nn.functional, Variable.

Where PyTorch is installed the expectation is PyTorch's own answer (with float64 as its
default dtype, tapegrad's default), so these tests say "what torch does", not a copy of it.
"""
import math
import threading

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn.functional as F

# PyTorch warns when a test reads a non-leaf's .grad (to check that it is None, here)
pytestmark = pytest.mark.filterwarnings("ignore:The .grad attribute of a Tensor that is not")


@pytest.fixture
def torch64(torch):
    """PyTorch with float64 as its default dtype, as tapegrad's; restored afterwards."""
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    yield torch
    torch.set_default_dtype(old)


def dtype_name(dt):
    """'float64' for tapegrad's and for PyTorch's dtypes."""
    return str(dt).replace("torch.", "").replace("tapegrad.", "")


def same(t, tt):
    """tapegrad tensor ``t`` equals PyTorch tensor ``tt``: shape, dtype, values."""
    assert tuple(t.shape) == tuple(tt.shape)
    assert dtype_name(t.dtype) == dtype_name(tt.dtype)
    np.testing.assert_array_equal(np.asarray(t.detach()), tt.detach().numpy())


# ---- creation ----------------------------------------------------------------------------

CREATION = {
    "tensor float list": lambda L: L.tensor([1.0, 2.5]),
    "tensor int list": lambda L: L.tensor([[1, 2], [3, 4]]),
    "tensor bool list": lambda L: L.tensor([True, False]),
    "tensor mixed list": lambda L: L.tensor([1, 2.5]),
    "tensor float scalar": lambda L: L.tensor(3.5),
    "tensor dtype float32": lambda L: L.tensor([1, 2], dtype=L.float32),
    "tensor dtype float alias": lambda L: L.tensor([1.5], dtype=L.float),
    "tensor dtype double alias": lambda L: L.tensor([1], dtype=L.double),
    "tensor dtype long alias": lambda L: L.tensor([1.0, 2.0], dtype=L.long),
    "tensor float32 ndarray": lambda L: L.tensor(np.array([1.5, 2.0], np.float32)),
    "tensor int32 ndarray": lambda L: L.tensor(np.array([1, 2], np.int32)),
    "tensor of tensor": lambda L: L.tensor(L.tensor([1.0, 2.0])),
    "as_tensor list": lambda L: L.as_tensor([1.0, 2.0]),
    "as_tensor ndarray": lambda L: L.as_tensor(np.arange(3.0)),
    "from_numpy float64": lambda L: L.from_numpy(np.arange(6.0).reshape(2, 3)),
    "from_numpy int64": lambda L: L.from_numpy(np.arange(3)),
    "from_numpy float32": lambda L: L.from_numpy(np.ones(2, np.float32)),
    "zeros varargs": lambda L: L.zeros(2, 3),
    "zeros tuple": lambda L: L.zeros((2, 3)),
    "zeros 0-d": lambda L: L.zeros(()),
    "ones float32": lambda L: L.ones(3, dtype=L.float32),
    "ones list": lambda L: L.ones([2, 1]),
    "full int": lambda L: L.full((2,), 3),
    "full float": lambda L: L.full((2, 2), 1.5),
    "full bool": lambda L: L.full((2,), True),
    "full dtype": lambda L: L.full((2,), 3, dtype=L.float32),
    "zeros_like int": lambda L: L.zeros_like(L.tensor([1, 2])),
    "zeros_like float32": lambda L: L.zeros_like(L.ones(2, dtype=L.float32)),
    "ones_like": lambda L: L.ones_like(L.tensor([[1.0, 2.0]])),
    "ones_like dtype": lambda L: L.ones_like(L.tensor([1, 2]), dtype=L.float64),
    "arange int": lambda L: L.arange(5),
    "arange start end": lambda L: L.arange(2, 7),
    "arange float step": lambda L: L.arange(0, 1, 0.25),
    "arange float end": lambda L: L.arange(4.0),
    "arange dtype": lambda L: L.arange(3, dtype=L.float32),
    "linspace": lambda L: L.linspace(0, 1, 5),
    "linspace float32": lambda L: L.linspace(-1, 1, 3, dtype=L.float32),
    "eye": lambda L: L.eye(3),
    "eye rect": lambda L: L.eye(2, 3),
}


@pytest.mark.filterwarnings("ignore:To copy construct from a tensor")
@pytest.mark.parametrize("name", list(CREATION))
def test_creation_matches_torch(name, torch64):
    t, tt = CREATION[name](tg), CREATION[name](torch64)
    same(t, tt)
    assert t.requires_grad is False and t.is_leaf


SCALAR_CREATION = {
    "tensor int scalar": lambda L: L.tensor(3),
    "tensor bool scalar": lambda L: L.tensor(True),
    "tensor float32 scalar": lambda L: L.tensor(2.5, dtype=L.float32),
    "full 0-d int": lambda L: L.full((), 2),
    "int sum": lambda L: L.tensor([1, 2]).sum(),
    "float32 sum": lambda L: L.tensor([1.0, 2.0], dtype=L.float32).sum(),
    "int select": lambda L: L.arange(3)[1],
    "float32 select": lambda L: L.ones(2, dtype=L.float32)[0],
}


@pytest.mark.parametrize("name", list(SCALAR_CREATION))
def test_zero_dim_tensors_of_every_dtype_stay_zero_dim(name, torch64):
    t, tt = SCALAR_CREATION[name](tg), SCALAR_CREATION[name](torch64)
    assert tt.shape == ()
    same(t, tt)


def test_zero_dim_float64_tensor_is_zero_dim():
    for t in (tg.tensor(3.5), tg.zeros(()), tg.tensor([1.0, 2.0]).sum(), tg.ones(2)[0]):
        assert t.shape == () and t.ndim == 0 and t.dim() == 0 and t.numel() == 1


def test_numpy_scalar_keeps_its_dtype(torch64):
    assert dtype_name(tg.tensor(np.float32(2.5)).dtype) == \
        dtype_name(torch64.tensor(np.float32(2.5)).dtype) == "float32"


def test_tensor_copies_its_input():
    a = np.array([1.0, 2.0])
    t = tg.tensor(a)
    a[0] = 9.0
    src = tg.tensor([1.0, 2.0])
    u = tg.tensor(src)
    src.numpy()[1] = 7.0
    assert t.tolist() == [1.0, 2.0] and u.tolist() == [1.0, 2.0]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_from_numpy_shares_memory(dtype):
    a = np.arange(4, dtype=dtype)
    t = tg.from_numpy(a)
    a[0] = 9
    assert t.tolist()[0] == 9
    t.numpy()[1] = 8
    assert a[1] == 8


def test_as_tensor_shares_memory_of_a_matching_ndarray():
    a = np.arange(3.0)
    t = tg.as_tensor(a)
    a[0] = 9.0
    assert t.tolist()[0] == 9.0


def test_as_tensor_of_a_tensor_is_that_tensor():
    t = tg.tensor([1.0, 2.0])
    assert tg.as_tensor(t) is t


def test_manual_seed_reproduces_rand_and_randn(torch64):
    tg.manual_seed(1234)
    a = (tg.rand(3, 4), tg.randn(5), tg.randn(2, 2, dtype=tg.float32))
    tg.manual_seed(1234)
    b = (tg.rand(3, 4), tg.randn(5), tg.randn(2, 2, dtype=tg.float32))
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y))
    tg.manual_seed(1235)
    assert not np.array_equal(np.asarray(tg.rand(3, 4)), np.asarray(a[0]))
    for t, tt in zip(a, (torch64.rand(3, 4), torch64.randn(5),
                         torch64.randn(2, 2, dtype=torch64.float32)), strict=True):
        assert tuple(t.shape) == tuple(tt.shape)
        assert dtype_name(t.dtype) == dtype_name(tt.dtype)


def test_rand_and_randn_distributions():
    tg.manual_seed(0)
    u = np.asarray(tg.rand(20000))
    n = np.asarray(tg.randn(20000))
    assert u.min() >= 0.0 and u.max() < 1.0 and abs(u.mean() - 0.5) < 0.02
    assert abs(n.mean()) < 0.05 and abs(n.std() - 1.0) < 0.05
    r = tg.rand(2, 3, requires_grad=True)
    assert r.requires_grad and r.is_leaf


# ---- dtypes and promotion ----------------------------------------------------------------

PROMOTION = {
    "int * float32": lambda L: L.tensor([1, 2]) * L.tensor([1.0, 2.0], dtype=L.float32),
    "float32 * python float": lambda L: L.tensor([1.0, 2.0], dtype=L.float32) * 2.5,
    "python float * float32": lambda L: 2.5 * L.tensor([1.0, 2.0], dtype=L.float32),
    "float32 1-d * float64 0-d": lambda L: L.tensor([1.0], dtype=L.float32) * L.tensor(2.5),
    "float32 1-d + float64 1-d": lambda L: L.tensor([1.0], dtype=L.float32) + L.tensor([1.0]),
    "int64 / int64": lambda L: L.tensor([1, 2]) / L.tensor([2, 4]),
    "int64 / python int": lambda L: L.tensor([1, 2]) / 2,
    "int64 * python float": lambda L: L.tensor([1, 2]) * 2.5,
    "int64 * python int": lambda L: L.tensor([1, 2]) * 3,
    "int64 + bool": lambda L: L.tensor([1, 2]) + True,
    "bool + bool": lambda L: L.tensor([True]) + L.tensor([True]),
    "int64 ** 2": lambda L: L.tensor([1, 2]) ** 2,
    "int64 ** 0.5": lambda L: L.tensor([1, 4]) ** 0.5,
    "2 ** int64": lambda L: 2 ** L.tensor([1, 2]),
    "int 0-d * float32 1-d": lambda L: L.tensor(2) * L.tensor([1.0, 2.0], dtype=L.float32),
    "int64 1-d * float64 0-d": lambda L: L.tensor([1, 2]) * L.tensor(2.5),
    "int64 sum": lambda L: L.tensor([1, 2]).sum(),
    "bool sum": lambda L: L.tensor([True, True]).sum(),
    "float32 exp": lambda L: L.tensor([1.0, 2.0], dtype=L.float32).exp(),
    "int64 exp": lambda L: L.tensor([1, 2]).exp(),
    "int64 sqrt": lambda L: L.tensor([1, 4]).sqrt(),
    "int64 neg": lambda L: -L.tensor([1, 2]),
    "float32 mean(0)": lambda L: L.tensor([[1.0, 2.0]], dtype=L.float32).mean(0),
    "float32 .double()": lambda L: L.tensor([1.0], dtype=L.float32).double(),
    "float64 .float()": lambda L: L.tensor([1.0]).float(),
    "float64 .long()": lambda L: L.tensor([1.7]).long(),
}


@pytest.mark.parametrize("name", list(PROMOTION))
def test_dtype_promotion_matches_torch(name, torch64):
    t, tt = PROMOTION[name](tg), PROMOTION[name](torch64)
    assert dtype_name(t.dtype) == dtype_name(tt.dtype)
    np.testing.assert_allclose(np.asarray(t, np.float64).ravel(),
                               tt.double().numpy().ravel(), rtol=1e-6)


def test_int32_times_zero_dim_int64_stays_int32(torch64):
    t = tg.tensor([1, 2], dtype=tg.int32) * tg.tensor(2)
    tt = torch64.tensor([1, 2], dtype=torch64.int32) * torch64.tensor(2)
    assert dtype_name(t.dtype) == dtype_name(tt.dtype) == "int32"


def test_dtype_names_and_default():
    assert tg.float64 == tg.double and tg.float32 == tg.float and tg.int64 == tg.long
    assert tg.tensor(1.0).dtype == tg.float64
    assert tg.tensor([1.0]).dtype == tg.float64
    assert tg.tensor([1]).dtype == tg.int64
    assert tg.tensor([True]).dtype == tg.bool
    assert tg.tensor([1.0]).is_floating_point() and not tg.tensor([1]).is_floating_point()


@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_float32_leaves_get_float32_grad(shape, torch64):
    data = np.linspace(0.5, 1.5, int(np.prod(shape))).reshape(shape)
    x = tg.tensor(data, dtype=tg.float32, requires_grad=True)
    two = tg.tensor(2.0, dtype=tg.float32)  # (a 0-d float64 would promote a 0-d x)
    y = (x * x * 3.0 + x.exp() * two).sum()
    assert y.dtype == tg.float32
    y.backward()
    xt = torch64.tensor(data, dtype=torch64.float32, requires_grad=True)
    (xt * xt * 3.0 + xt.exp() * torch64.tensor(2.0, dtype=torch64.float32)).sum().backward()
    assert x.grad.dtype == tg.float32
    assert tuple(x.grad.shape) == shape
    np.testing.assert_allclose(np.asarray(x.grad), xt.grad.numpy(), rtol=1e-6)


def test_float32_leaf_mixed_with_float64_constant_keeps_float32_grad():
    x = tg.tensor([1.0, 2.0], dtype=tg.float32, requires_grad=True)
    (x * tg.tensor(3.0)).sum().backward()  # 0-d float64 does not promote
    assert x.grad.dtype == tg.float32 and x.grad.tolist() == [3.0, 3.0]


# ---- the Tensor API ----------------------------------------------------------------------

def test_metadata():
    t = tg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert t.shape == (2, 3) and isinstance(t.shape, tuple) and repr(t.shape) == \
        "torch.Size([2, 3])"
    assert t.size() == (2, 3) and t.size(0) == 2 and t.size(1) == 3 and t.size(-1) == 3
    assert t.numel() == 6 and t.dim() == 2 and t.ndim == 2 and t.dtype == tg.float64
    assert tg.tensor(5.0).shape == () and tg.tensor(5.0).size() == ()


def test_conversions(torch64):
    s = tg.tensor(2.5)
    assert s.item() == 2.5 and type(s.item()) is float
    assert tg.tensor([7]).item() == 7 and type(tg.tensor([7]).item()) is int
    assert float(tg.tensor([2.5])) == 2.5 and int(tg.tensor(2.7)) == 2
    assert bool(tg.tensor([0.0])) is False and bool(tg.tensor(3.0)) is True
    t = tg.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert t.tolist() == [[1.0, 2.0], [3.0, 4.0]] and s.tolist() == 2.5
    assert tg.tensor([1, 2]).tolist() == [1, 2] and type(tg.tensor([1, 2]).tolist()[0]) is int
    a = t.numpy()
    assert isinstance(a, np.ndarray) and a.dtype == np.float64 and a.shape == (2, 2)
    a[0, 0] = 10.0  # numpy() shares memory, as PyTorch's
    assert t.tolist()[0][0] == 10.0
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    b = np.asarray(x.detach())
    assert b.dtype == np.float64 and b.tolist() == [1.0, 2.0]
    assert np.asarray(tg.tensor([1, 2])).dtype == np.int64
    assert np.asarray(tg.tensor(3.0)).shape == ()
    assert np.asarray(tg.ones(2), dtype=np.float32).dtype == np.float32


def test_len_iter_and_indexing_match_torch(torch64):
    data = np.arange(24.0).reshape(2, 3, 4)
    t, tt = tg.tensor(data), torch64.tensor(data)
    assert len(t) == len(tt) == 2
    rows = list(t)
    assert len(rows) == 2 and all(isinstance(r, tg.Tensor) for r in rows)
    for r, rt in zip(rows, tt, strict=True):
        same(r, rt)
    keys = [0, -1, (1, 2), (1, 2, 3), slice(1, None), (slice(None), 1),
            (slice(None), slice(0, 3, 2)), None, (None, 0), Ellipsis, (Ellipsis, 1),
            (0, Ellipsis, None), (slice(None, None, 2), None, slice(1, 3))]
    for key in keys:
        same(t[key], tt[key])


def test_0d_tensor_has_no_len_and_cannot_be_iterated():
    with pytest.raises(TypeError, match="0-d"):
        len(tg.tensor(1.0))
    with pytest.raises(TypeError, match="0-d"):
        iter(tg.tensor(1.0))


def test_comparisons_give_bool_tensors_without_grad(torch64):
    x = tg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    xt = torch64.tensor([1.0, 2.0, 3.0], requires_grad=True)
    for f in (lambda a: a > 2.0, lambda a: a < 2, lambda a: a == 2.0, lambda a: a != 2.0,
              lambda a: a >= a * 1.0, lambda a: a <= 1.5, lambda a: a.gt(1.0),
              lambda a: a.eq(a.detach())):
        m, mt = f(x), f(xt)
        same(m, mt)
        assert m.dtype == tg.bool and m.requires_grad is False and m.grad_fn is None


@pytest.mark.parametrize("name", ["sign", "sigmoid", "exp", "tanh", "sqrt", "sin", "log1p",
                                  "erf"])
def test_unary_ops_of_bool_tensors_as_pytorch(torch64, name):
    b = [[True, False], [False, True]]
    t, tt = getattr(tg, name)(tg.tensor(b)), getattr(torch64, name)(torch64.tensor(b))
    assert dtype_name(t.dtype) == dtype_name(tt.dtype)
    np.testing.assert_allclose(np.asarray(t), tt.numpy(), rtol=1e-15)  # erf(1): 1 ulp apart


# ---- repr, against PyTorch's -----------------------------------------------------------

REPR_CASES = {
    "softmax-like": ([2.0, 1.0, 0.1], {}),
    "integral floats": ([1.0, 2.0], {}),
    "0-d integral": (3.0, {}),
    "0-d fraction": (-0.5, {}),
    "2-d requires grad": ([[1.5, 2.0], [3.0, 4.0]], {"requires_grad": True}),
    "0-d requires grad": (2.5, {"requires_grad": True}),
    "small and large": ([1e-5, 1.0], {}),
    "huge": ([1e9, 1.0], {}),
    "ratio under 1000": ([0.001, 0.5], {}),
    "ints": ([[1, 2], [3, 4]], {}),
    "bools": ([True, False], {}),
    "nan": ([float("nan"), 1.5], {}),
    "-inf": ([float("-inf"), 2.5], {}),
    "negative": ([-1.0, 2.5], {}),
    "3-d": ([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]], {}),
    "float32": ([1.5, 2.0], {"dtype": "float32"}),
    "float32 requires grad": ([1.0, 2.0], {"dtype": "float32", "requires_grad": True}),
    "int32": ([1, 2], {"dtype": "int32"}),
    "empty 2-d": (np.zeros((0, 3)), {}),
    "1e8 integral": ([2.0, 1e8], {}),
    "int 0-d": (3, {}),
    "inf integral": ([float("inf"), 1.0], {}),
    "integral ratio over 1000": ([1.0, 2000.0], {}),
    "integral 0 and 1e8": ([0.0, 1e8], {}),
    "empty 1-d": ([], {}),
    "summarized ints": (list(range(2000)), {}),
    "summarized floats": (list(np.arange(2000.0)), {}),
}
def _repr_pair(torch, data, kw):
    kw_tg = dict(kw)
    kw_th = dict(kw)
    if "dtype" in kw:
        kw_tg["dtype"] = getattr(tg, kw["dtype"])
        kw_th["dtype"] = getattr(torch, kw["dtype"])
    got = repr(tg.tensor(data, **kw_tg))
    want = repr(torch.tensor(data, **kw_th))
    return got, want


@pytest.mark.parametrize("name", list(REPR_CASES))
def test_repr_matches_torch(name, torch64):
    data, kw = REPR_CASES[name]
    got, want = _repr_pair(torch64, data, kw)
    assert got == want


def test_repr_literal_examples():
    assert repr(tg.tensor([2.0, 1.0, 0.1])) == "tensor([2.0000, 1.0000, 0.1000])"
    assert repr(tg.tensor([1.0, 2.0])) == "tensor([1., 2.])"
    assert repr(tg.tensor(3.0)) == "tensor(3.)"
    assert repr(tg.tensor([[1.5, 2.0], [3.0, 4.0]], requires_grad=True)) == \
        "tensor([[1.5000, 2.0000],\n        [3.0000, 4.0000]], requires_grad=True)"
    x = tg.tensor([2.0], requires_grad=True)
    assert repr(x + 3) == "tensor([5.], grad_fn=<AddBackward0>)"


@pytest.mark.parametrize("fn", [
    lambda x: x + 3, lambda x: x * 2.5, lambda x: (x * x).sum(), lambda x: x[0],
    lambda x: x.float(), lambda x: x.exp() / 3, lambda x: x.reshape(2, 1),
    lambda x: x.sum(0, keepdim=True)], ids=["add", "mul", "sum", "select", "float", "div",
                                            "reshape", "sum_keepdim"])
def test_repr_of_non_leaves_matches_torch(fn, torch64):
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    xt = torch64.tensor([1.0, 2.0], requires_grad=True)
    assert repr(fn(x)) == repr(fn(xt))
    x.grad = None
    (fn(x) * 1.0).sum().backward()
    xt.grad = None
    (fn(xt) * 1.0).sum().backward()
    assert repr(x.grad) == repr(xt.grad)


# ---- grad_fn names --------------------------------------------------------------------------

GRAD_FN = {
    "tensor + tensor": lambda L, x, y: x + y,
    "tensor + int": lambda L, x, y: x + 2,
    "float + tensor": lambda L, x, y: 2.0 + x,
    "tensor - tensor": lambda L, x, y: x - y,
    "tensor - float": lambda L, x, y: x - 2.0,
    "float - tensor": lambda L, x, y: 2.0 - x,
    "tensor * tensor": lambda L, x, y: x * y,
    "tensor * float": lambda L, x, y: x * 2.0,
    "int * tensor": lambda L, x, y: 2 * x,
    "tensor / tensor": lambda L, x, y: x / y,
    "tensor / float": lambda L, x, y: x / 2.0,
    "float / tensor": lambda L, x, y: 2.0 / x,
    "tensor ** tensor": lambda L, x, y: x ** y,
    "tensor ** int": lambda L, x, y: x ** 2,
    "float ** tensor": lambda L, x, y: 2.0 ** x,
    "tensor + const tensor": lambda L, x, y: x + L.tensor([[1.0, 2.0]]),
    "neg": lambda L, x, y: -x,
    "exp": lambda L, x, y: x.exp(),
    "log": lambda L, x, y: x.log(),
    "sin": lambda L, x, y: x.sin(),
    "fn sin": lambda L, x, y: L.sin(x),
    "cos": lambda L, x, y: x.cos(),
    "abs": lambda L, x, y: x.abs(),
    "sqrt": lambda L, x, y: x.sqrt(),
    "tanh": lambda L, x, y: x.tanh(),
    "sigmoid": lambda L, x, y: x.sigmoid(),
    "relu": lambda L, x, y: x.relu(),
    "log1p": lambda L, x, y: x.log1p(),
    "expm1": lambda L, x, y: x.expm1(),
    "tan": lambda L, x, y: x.tan(),
    "sum()": lambda L, x, y: x.sum(),
    "sum(0)": lambda L, x, y: x.sum(0),
    "sum(1, keepdim)": lambda L, x, y: x.sum(1, keepdim=True),
    "mean()": lambda L, x, y: x.mean(),
    "mean(0)": lambda L, x, y: x.mean(0),
    "reshape": lambda L, x, y: x.reshape(4),
    "view": lambda L, x, y: x.view(4),
    "flatten": lambda L, x, y: x.flatten(),
    "x[0]": lambda L, x, y: x[0],
    "x[1:]": lambda L, x, y: x[1:],
    "x[:, 1]": lambda L, x, y: x[:, 1],
    "x[[0, 1]]": lambda L, x, y: x[[0, 1]],
    "x[..., 0]": lambda L, x, y: x[..., 0],
    "transpose": lambda L, x, y: x.transpose(0, 1),
    "T": lambda L, x, y: x.T,
    "permute": lambda L, x, y: x.permute(1, 0),
    "unsqueeze": lambda L, x, y: x.unsqueeze(0),
    "squeeze()": lambda L, x, y: x.unsqueeze(0).squeeze(),
    "expand": lambda L, x, y: x[0].expand(3, 2),
    ".float()": lambda L, x, y: x.float(),
    "squeeze(0)": lambda L, x, y: x.unsqueeze(0).squeeze(0),
    "mean((0, 1))": lambda L, x, y: x.mean((0, 1)),
    "sum((0, 1))": lambda L, x, y: x.sum((0, 1)),
    "x[None]": lambda L, x, y: x[None],
    "x[:, None]": lambda L, x, y: x[:, None],
    "log_softmax": lambda L, x, y: L.log_softmax(x, dim=0),
    "softmax": lambda L, x, y: L.softmax(x, dim=0),
    "linear": lambda L, x, y: L.nn.functional.linear(x, y, y[0]),
    "linear no bias": lambda L, x, y: L.nn.functional.linear(x, y),
}
GRAD_FN_DIFFS = {}  # name: (fn, "BUG ...") for a grad_fn name known to differ


def _names(lib, fn):
    x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = lib.tensor([[2.0, 3.0], [4.0, 5.0]], requires_grad=True)
    out = fn(lib, x, y)
    node = out.grad_fn
    name = node.name()
    assert name == type(node).__name__ or lib is tg  # PyTorch: name() is the class name
    return name


@pytest.mark.parametrize("name", list(GRAD_FN) + [
    pytest.param(k, marks=pytest.mark.xfail(strict=True, reason=v[1]))
    for k, v in GRAD_FN_DIFFS.items()])
def test_grad_fn_name_matches_torch(name, torch64):
    fn = GRAD_FN[name] if name in GRAD_FN else GRAD_FN_DIFFS[name][0]
    assert _names(tg, fn) == _names(torch64, fn)


def test_grad_fn_and_next_functions_structure(torch64):
    def build(L):
        a = L.tensor([1.0, 2.0], requires_grad=True)
        b = L.tensor([3.0, 4.0], requires_grad=True)
        c = a * b
        d = c.exp()
        e = d + a
        f = (e * 2.0).sum()
        return a, b, c, d, e, f

    def shape_of(node, depth=0):
        if node is None:
            return None
        if depth > 6:
            return "..."
        return (node.name(), tuple((shape_of(n, depth + 1), i) for n, i in node.next_functions))

    got, want = build(tg), build(torch64)
    assert shape_of(got[-1].grad_fn) == shape_of(want[-1].grad_fn)
    a, b, c, d, e, f = got
    assert a.grad_fn is None and b.grad_fn is None
    assert c.grad_fn is c.grad_fn  # stable node objects
    assert e.grad_fn.next_functions[0][0] is d.grad_fn
    assert d.grad_fn.next_functions[0][0] is c.grad_fn
    acc_a = c.grad_fn.next_functions[0][0]
    assert type(acc_a).__name__ == "AccumulateGrad"
    assert acc_a.variable is a and c.grad_fn.next_functions[1][0].variable is b
    assert e.grad_fn.next_functions[1][0] is acc_a  # one AccumulateGrad per leaf
    assert acc_a.next_functions == ()
    assert isinstance(acc_a, tg.autograd.AccumulateGrad)
    assert isinstance(c.grad_fn, tg.autograd.Node)


def test_next_functions_with_constants_and_repeats(torch64):
    for L in (tg, torch64):
        x = L.tensor(2.0, requires_grad=True)
        sq = x * x
        (n0, i0), (n1, i1) = sq.grad_fn.next_functions
        assert n0 is n1 and n0.variable is x and (i0, i1) == (0, 0)
        with_const = x * L.tensor(3.0)
        assert with_const.grad_fn.next_functions[1] == (None, 0)
        with_scalar = 3.0 / x
        assert len(with_scalar.grad_fn.next_functions) == 2
        assert with_scalar.grad_fn.next_functions[1] == (None, 0)


# ---- autograd entry points ----------------------------------------------------------------

def test_autograd_grad_on_non_leaf_inputs(torch64):
    results = []
    for L in (tg, torch64):
        x = L.tensor([1.0, -2.0, 0.5], requires_grad=True)
        u = x.sin() * 3
        v = u * u
        y = (v.exp() * 0.01 + u).sum()
        gu, gx, gv = L.autograd.grad(y, [u, x, v])
        results.append([np.asarray(g.detach()) for g in (gu, gx, gv)])
        assert x.grad is None and u.grad is None  # grad() does not accumulate
    for g, gt in zip(*results, strict=True):
        np.testing.assert_allclose(g, gt, rtol=1e-13)


def test_autograd_grad_outputs_several(torch64):
    out = []
    for L in (tg, torch64):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        y1, y2 = x * x, x.exp().sum()
        g = L.autograd.grad([y1, y2], [x], grad_outputs=[L.tensor([1.0, -1.0]), None])
        out.append(np.asarray(g[0].detach()))
        assert isinstance(g, tuple)
    np.testing.assert_allclose(out[0], out[1], rtol=1e-14)


def test_tapegrad_grad_alias_and_materialize_grads():
    x = tg.tensor(3.0, requires_grad=True)
    unused = tg.tensor([1.0, 2.0], requires_grad=True)
    gx, gu = tg.grad(x * x, [x, unused], materialize_grads=True)
    assert gx.item() == 6.0 and gu.tolist() == [0.0, 0.0]


def test_backward_inputs_only_accumulates_into_those(torch64):
    for L in (tg, torch64):
        a = L.tensor(2.0, requires_grad=True)
        b = L.tensor(3.0, requires_grad=True)
        u = a * b
        y = u * u
        y.backward(inputs=[a], retain_graph=True)
        assert a.grad.item() == 2 * 6.0 * 3.0 and b.grad is None and u.grad is None
        y.backward(inputs=[u], retain_graph=True)
        assert u.grad.item() == 12.0 and b.grad is None and a.grad.item() == 36.0
        y.backward(inputs=b)
        assert b.grad.item() == 24.0 and a.grad.item() == 36.0


def test_retain_grad_populates_non_leaf_grad(torch64):
    res = []
    for L in (tg, torch64):
        a = L.tensor([1.0, 2.0], requires_grad=True)
        u = a * a
        u.retain_grad()
        v = u.exp()
        w = (v * 3).sum()
        assert u.retains_grad and not v.retains_grad and not a.retains_grad
        w.backward(retain_graph=True)
        first = np.asarray(u.grad.detach()).copy()
        w.backward()  # accumulates into the retained grad too
        res.append((first, np.asarray(u.grad.detach()), v.grad, np.asarray(a.grad.detach())))
    (f1, u1, v1, a1), (f2, u2, v2, a2) = res
    np.testing.assert_allclose(f1, f2, rtol=1e-14)
    np.testing.assert_allclose(u1, u2, rtol=1e-14)
    np.testing.assert_allclose(a1, a2, rtol=1e-14)
    assert v1 is None and v2 is None


def test_retain_grad_on_a_leaf_is_a_no_op():
    a = tg.tensor([1.0, 2.0], requires_grad=True)
    a.retain_grad()
    (a * a).sum().backward()
    assert a.grad.tolist() == [2.0, 4.0] and not a.retains_grad


def test_leaf_grad_accumulates_until_set_to_none():
    a = tg.tensor([1.0, 2.0], requires_grad=True)
    (a * 2).sum().backward()
    (a * a).sum().backward()
    assert a.grad.tolist() == [4.0, 6.0]
    a.grad = None
    (a * 3).sum().backward()
    assert a.grad.tolist() == [3.0, 3.0]


def test_leaf_grad_accumulates_in_place(torch64):
    for L in (torch64, tg):
        a = L.tensor(1.0, requires_grad=True)
        (a * 2).backward()
        g = a.grad
        (a * 3).backward()
        assert a.grad is g and g.item() == 5.0


def test_requires_grad_flags():
    a = tg.tensor([1.0, 2.0])
    assert a.requires_grad_() is a and a.requires_grad and a.is_leaf
    a.requires_grad_(False)
    assert not a.requires_grad
    a.requires_grad = True
    assert a.requires_grad
    y = a * 2
    assert y.requires_grad and not y.is_leaf
    y.requires_grad_(True)  # allowed: it already requires grad
    (y.sum()).backward()
    assert a.grad.tolist() == [2.0, 2.0]


def test_detach_shares_memory_and_records_nothing():
    a = tg.tensor([1.0, 2.0], requires_grad=True)
    d = a.detach()
    assert d.is_leaf and not d.requires_grad and d.grad_fn is None
    d.numpy()[0] = 5.0
    assert a.detach().tolist() == [5.0, 2.0]


def test_detach_in_place(torch64):
    for L in (tg, torch64):
        a = L.tensor([1.0, 2.0], requires_grad=True)
        b = a * 2
        c = b * 3
        assert b.detach_() is b
        assert b.is_leaf and not b.requires_grad and b.grad_fn is None
        assert b.tolist() == [2.0, 4.0]
        c.sum().backward()  # c's graph was recorded before: it still reaches a
        assert a.grad.tolist() == [6.0, 6.0]
        assert (b * a).grad_fn.next_functions[0] == (None, 0)


def test_data_property(torch64):
    for L in (tg, torch64):
        a = L.tensor([1.0, 2.0], requires_grad=True)
        d = a.data
        assert d.is_leaf and not d.requires_grad and d.tolist() == [1.0, 2.0]
        d.numpy()[1] = 7.0  # shares memory
        assert a.detach().tolist() == [1.0, 7.0]
        a.data = L.tensor([3.0, 4.0])  # swaps the values, keeps requires_grad
        assert a.requires_grad and a.is_leaf
        (a * a).sum().backward()
        assert a.grad.tolist() == [6.0, 8.0]


def test_requires_grad_false_after_use_gets_no_grad(torch64):
    for L in (torch64, tg):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        w = L.tensor([5.0, 6.0], requires_grad=True)
        keep = x * w
        x.requires_grad_(False)
        (x * w).sum().backward()
        assert w.grad.tolist() == [1.0, 2.0]
        assert x.grad is None, L.__name__
        del keep


# ---- grad modes ----------------------------------------------------------------------------

def test_set_grad_enabled_as_function_context_and_decorator(torch64):
    for L in (tg, torch64):
        a = L.tensor(1.0, requires_grad=True)
        L.set_grad_enabled(False)
        try:
            assert not L.is_grad_enabled() and not (a * 2).requires_grad
        finally:
            L.set_grad_enabled(True)
        assert L.is_grad_enabled() and (a * 2).requires_grad
        with L.set_grad_enabled(False):
            assert not (a * 2).requires_grad
            with L.set_grad_enabled(True):
                assert (a * 2).requires_grad
            assert not (a * 2).requires_grad
        assert L.is_grad_enabled()

        @L.set_grad_enabled(False)
        def f(x):
            return x * 2

        assert L.is_grad_enabled()  # decorating does not switch the mode
        assert not f(a).requires_grad and L.is_grad_enabled()


def test_enable_grad_inside_no_grad(torch64):
    for L in (tg, torch64):
        a = L.tensor(1.0, requires_grad=True)

        @L.enable_grad()
        def g(x):
            return x * 2

        with L.no_grad():
            assert not (a * 2).requires_grad
            with L.enable_grad():
                assert (a * 2).requires_grad and L.is_grad_enabled()
            assert not (a * 2).requires_grad and not L.is_grad_enabled()
            assert g(a).requires_grad
        assert L.is_grad_enabled()


def test_grad_modes_restore_after_an_exception():
    # set_grad_enabled(False) switches on construction, as PyTorch's: build each in turn
    for make in (tg.no_grad, lambda: tg.set_grad_enabled(False), tg.inference_mode):
        with pytest.raises(ZeroDivisionError):  # noqa: PT012
            with make():
                assert not tg.is_grad_enabled()
                raise ZeroDivisionError
        assert tg.is_grad_enabled()


def test_inference_mode_forms(torch64):
    for L in (tg, torch64):
        a = L.tensor(1.0, requires_grad=True)
        with L.inference_mode():
            assert not (a * 2).requires_grad
        with L.inference_mode(False):
            assert (a * 2).requires_grad

        @L.inference_mode()
        def f(x):
            return x * 2

        assert not f(a).requires_grad and (a * 2).requires_grad


@pytest.mark.parametrize("mode", ["no_grad", "set_grad_enabled(False)", "inference_mode",
                                  "set_grad_enabled function"])
def test_grad_modes_are_thread_local(mode):
    entered, done = threading.Event(), threading.Event()
    seen = {}

    def off():
        if mode == "set_grad_enabled function":
            tg.set_grad_enabled(False)
            entered.set()
            done.wait(5)
            seen["off"] = tg.is_grad_enabled()
            return
        ctx = {"no_grad": tg.no_grad, "inference_mode": tg.inference_mode,
               "set_grad_enabled(False)": lambda: tg.set_grad_enabled(False)}[mode]()
        with ctx:
            entered.set()
            done.wait(5)
            seen["off"] = tg.is_grad_enabled()

    def on():
        entered.wait(5)
        a = tg.tensor(1.0, requires_grad=True)
        seen["on"] = (tg.is_grad_enabled(), (a * 2).requires_grad)
        done.set()

    threads = [threading.Thread(target=off), threading.Thread(target=on)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"off": False, "on": (True, True)}
    assert tg.is_grad_enabled()


# ---- nn.functional --------------------------------------------------------------------------

SOFTMAX_INPUTS = {
    "[1000, 0]": [1000.0, 0.0],
    "[-1000, -1000]": [-1000.0, -1000.0],
    "2-d wide range": [[1000.0, 0.0, -1000.0], [1.0, 2.0, 3.0]],
    "[800, 799.5, -5]": [800.0, 799.5, -5.0],
}


@pytest.mark.parametrize("fname", ["softmax", "log_softmax"])
@pytest.mark.parametrize("name", list(SOFTMAX_INPUTS))
@pytest.mark.parametrize("dim", [0, -1])
def test_softmax_family_is_stable_and_matches_torch(fname, name, dim, torch64):
    import torch.nn.functional as TF
    data = SOFTMAX_INPUTS[name]
    x = tg.tensor(data, requires_grad=True)
    xt = torch64.tensor(data, requires_grad=True)
    y, yt = getattr(F, fname)(x, dim=dim), getattr(TF, fname)(xt, dim=dim)
    assert np.all(np.isfinite(np.asarray(y.detach())))
    np.testing.assert_allclose(np.asarray(y.detach()), yt.detach().numpy(), rtol=1e-14,
                               atol=1e-300)
    w = np.linspace(1.0, 2.0, int(np.prod(np.shape(data)))).reshape(np.shape(data))
    (y * tg.tensor(w)).sum().backward()
    (yt * torch64.tensor(w)).sum().backward()
    assert np.all(np.isfinite(np.asarray(x.grad)))
    np.testing.assert_allclose(np.asarray(x.grad), xt.grad.numpy(), rtol=1e-12, atol=1e-15)


def test_softmax_methods_and_top_level_aliases():
    x = tg.tensor([1.0, 2.0, 3.0])
    for y in (x.softmax(0), tg.softmax(x, dim=0), x.log_softmax(0).exp(),
              tg.log_softmax(x, dim=0).exp()):
        np.testing.assert_allclose(np.asarray(y), np.exp([1, 2, 3]) / np.exp([1, 2, 3]).sum())


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_reductions_match_torch(reduction, torch64):
    import torch.nn.functional as TF
    a0, b0 = [[1.0, 2.0], [3.0, 4.0]], [[0.5, 2.5], [1.0, -1.0]]
    a, b = tg.tensor(a0, requires_grad=True), tg.tensor(b0, requires_grad=True)
    at, bt = torch64.tensor(a0, requires_grad=True), torch64.tensor(b0, requires_grad=True)
    loss = F.mse_loss(a, b, reduction=reduction)
    loss_t = TF.mse_loss(at, bt, reduction=reduction)
    same(loss, loss_t)
    w = tg.tensor([[1.0, 2.0], [3.0, 4.0]]) if reduction == "none" else tg.tensor(1.0)
    (loss * w).sum().backward()
    (loss_t * torch64.tensor(np.asarray(w))).sum().backward()
    np.testing.assert_allclose(np.asarray(a.grad), at.grad.numpy(), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(b.grad), bt.grad.numpy(), rtol=1e-14)


def test_functional_activations_match_torch(torch64):
    import torch.nn.functional as TF
    data = [-2.0, -0.0, 0.0, 0.5, 3.0]
    for name in ("relu", "sigmoid", "tanh"):
        x = tg.tensor(data, requires_grad=True)
        xt = torch64.tensor(data, requires_grad=True)
        y, yt = getattr(F, name)(x), getattr(TF, name)(xt)
        np.testing.assert_allclose(np.asarray(y.detach()), yt.detach().numpy(), rtol=1e-15)
        y.sum().backward()
        yt.sum().backward()
        np.testing.assert_allclose(np.asarray(x.grad), xt.grad.numpy(), rtol=1e-13)


# ---- Variable -------------------------------------------------------------------------------

def test_variable_makes_tensors(torch64):
    from torch.autograd import Variable as TV
    V = tg.autograd.Variable
    for Var, L in ((V, tg), (TV, torch64)):
        v = Var(L.tensor([1.0, 2.0]))
        assert isinstance(v, L.Tensor) and not v.requires_grad and v.is_leaf
        w = Var(L.tensor([3.0, 4.0]), requires_grad=True)
        assert w.requires_grad and w.is_leaf and w.grad_fn is None
        (v * w).sum().backward()
        assert w.grad.tolist() == [1.0, 2.0] and v.grad is None


def test_public_names():
    for name in ("tensor", "as_tensor", "from_numpy", "zeros", "ones", "full", "zeros_like",
                 "ones_like", "arange", "linspace", "eye", "rand", "randn", "manual_seed",
                 "no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "grad",
                 "Tensor", "float64", "float32", "int64", "bool", "double", "float", "long",
                 "exp", "log", "sin", "cos", "tanh", "sigmoid", "relu", "sum", "mean",
                 "reshape", "transpose"):
        assert hasattr(tg, name), name
    assert tg.autograd.grad is tg.grad
    assert math.isclose(tg.exp(tg.tensor(1.0)).item(), math.e)
