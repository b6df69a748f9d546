"""dtypes and layouts as PyTorch's, checked against torch: ``tapegrad.float32`` prints as
``torch.float32`` and answers PyTorch's questions while equal to NumPy's dtype; tensor
reprs name the dtype exactly where PyTorch does under either default dtype; ``stride()``,
``is_contiguous()``, ``storage_offset()`` and ``contiguous()`` follow PyTorch's views."""
import contextlib
import io
import pickle

import numpy as np
import pytest

import tapegrad as tg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

NAMES = ["float64", "double", "float32", "float", "float16", "half", "int64", "long",
         "int32", "int", "int16", "short", "int8", "uint8", "bool"]


@contextlib.contextmanager
def default_dtype(name):
    """Both libraries with the default float dtype ``name``."""
    old, old_tg = torch.get_default_dtype(), tg.get_default_dtype()
    torch.set_default_dtype(getattr(torch, name))
    tg.set_default_dtype(getattr(tg, name))
    try:
        yield
    finally:
        torch.set_default_dtype(old)
        tg.set_default_dtype(old_tg)


@pytest.mark.parametrize("name", NAMES)
def test_dtype_objects_answer_as_torch(name):
    d, dt = getattr(tg, name), getattr(torch, name)
    assert (str(d), repr(d)) == (str(dt), repr(dt))
    assert isinstance(d, tg.dtype) and not isinstance(np.dtype(d), tg.dtype)
    for attr in ("is_floating_point", "is_complex", "is_signed", "itemsize"):
        assert getattr(d, attr) == getattr(dt, attr), attr
    assert str(d.to_real()) == str(dt.to_real())
    if dt.is_floating_point:
        assert str(d.to_complex()) == str(dt.to_complex())
    elif not dt.is_floating_point:
        with pytest.raises(RuntimeError, match="Unknown Complex ScalarType"):
            d.to_complex()
    t = tg.zeros(2, dtype=d)
    assert t.dtype is d and str(t.dtype) == str(torch.zeros(2, dtype=dt).dtype)
    assert t.type() == torch.zeros(2, dtype=dt).type()


@pytest.mark.parametrize("name", ["float64", "float32", "int64", "bool", "uint8"])
def test_dtype_objects_stand_for_numpy_dtypes(name):
    d, nd = getattr(tg, name), np.dtype(name)
    assert d == nd and nd == d and d == nd.type and not d != nd and hash(d) == hash(nd)
    assert d != getattr(tg, "int16") and d != name  # (PyTorch's: not equal to a string)
    assert {nd: 1}[d] == 1 and {d: 1}[nd] == 1
    assert np.zeros(3, dtype=d).dtype == nd and np.arange(3).astype(d).dtype == nd
    x = tg.ones(2, dtype=d)
    assert x.numpy().dtype == x.dtype and np.asarray(x).astype(x.dtype).dtype == nd
    assert pickle.loads(pickle.dumps(d)) is d
    assert d.kind == nd.kind and d.name == nd.name  # (NumPy's attributes, read through)


def test_dtypes_given_to_the_user():
    assert tg.get_default_dtype() is tg.float64
    with default_dtype("float32"):
        assert tg.get_default_dtype() is tg.float32 and tg.randn(2).dtype is tg.float32
        assert tg.nn.Linear(2, 2).weight.dtype is tg.float32
    assert tg.tensor(2.0).dtype is tg.float64  # (a 0-d float64 held as a Python float)
    assert tg.nn.Parameter(tg.ones(2)).dtype is tg.float64
    assert str(tg.promote_types(tg.int64, tg.float32)) == "torch.float32"
    assert str(tg.result_type(tg.tensor([1, 2]), 1.0)) == "torch.float64"
    assert tg.can_cast(tg.float32, tg.int32) == torch.can_cast(torch.float32, torch.int32)
    for name in ("float32", "float64", "float16"):
        assert repr(tg.finfo(getattr(tg, name))) == repr(torch.finfo(getattr(torch, name)))
        assert tg.finfo(getattr(tg, name)).dtype == torch.finfo(getattr(torch, name)).dtype
    for name in ("int64", "int32", "int8", "uint8"):
        assert repr(tg.iinfo(getattr(tg, name))) == repr(torch.iinfo(getattr(torch, name)))


def test_type_casts_as_torch():
    x, xt = tg.zeros(2, 3), torch.zeros(2, 3, dtype=torch.float64)
    for arg in (tg.float32, "torch.IntTensor", tg.int64):
        targ = arg if isinstance(arg, str) else getattr(torch, str(arg).split(".")[1])
        assert x.type(arg).type() == xt.type(targ).type()
        assert str(x.type(arg).dtype) == str(xt.type(targ).dtype)


@pytest.mark.parametrize("default", ["float64", "float32"])
def test_reprs_name_the_dtype_where_torch_does(default):
    with default_dtype(default):
        for name in ("float32", "float64", "int64", "bool", "int32", "uint8", "float16"):
            for data in ([1.5, 2.0], [], [[0.0]], 3.0):
                xs = [L.tensor(data, dtype=getattr(L, name)) for L in (tg, torch)]
                assert repr(xs[0]) == repr(xs[1]), (name, data)
        a = [L.tensor([1.0, 2.0], requires_grad=True) for L in (tg, torch)]
        assert repr(a[0]) == repr(a[1]) and repr(a[0] * 2) == repr(a[1] * 2)
        assert str(tg.get_default_dtype()) == str(torch.get_default_dtype())


def test_dtypes_save_and_load_as_before():
    buf = io.BytesIO()
    tg.save({"d": tg.float32, "n": np.dtype("int64"), "x": tg.ones(2, dtype=tg.float32)}, buf)
    buf.seek(0)
    got = tg.load(buf)
    assert got["d"] is tg.float32 and got["n"] == np.int64 and got["x"].dtype is tg.float32


VIEWS = {
    "t": lambda L, x: x.t(), "T": lambda L, x: x.T, "slice": lambda L, x: x[:, ::2],
    "rows": lambda L, x: x[1:], "narrow": lambda L, x: x.narrow(1, 1, 2),
    "select": lambda L, x: x[:, 1], "diagonal": lambda L, x: x.diagonal(),
    "t_select": lambda L, x: x.t()[0], "t_slice": lambda L, x: x.t()[1:3],
    "unsqueeze": lambda L, x: x.unsqueeze(0), "t_unsqueeze0": lambda L, x: x.t().unsqueeze(0),
    "t_unsqueeze1": lambda L, x: x.t().unsqueeze(1),
    "t_unsqueeze2": lambda L, x: x.t().unsqueeze(2), "none": lambda L, x: x[None, :, 1:],
    "chunk": lambda L, x: x.chunk(2, 1)[1], "split": lambda L, x: x.split(1)[1],
    "t_reshape": lambda L, x: x.t().reshape(2, 2, 3), "t_flat": lambda L, x: x.t().reshape(12),
    "row_t": lambda L, x: x[1:2, :].t(), "squeeze": lambda L, x: x[:, 0:1].t().squeeze(0),
    "expand": lambda L, x: x[:, :1].expand(3, 4), "expand_t": lambda L, x: x.t().expand(2, 4, 3),
    "new_dims": lambda L, x: x[0].expand(2, 3, 4), "unbind": lambda L, x: x.unbind(1)[2],
    "permute3": lambda L, x: x.reshape(2, 3, 2).permute(2, 0, 1)[1:, :, ::2],
    "movedim": lambda L, x: x.reshape(2, 3, 2).movedim(0, 2),
    "mT": lambda L, x: x.reshape(2, 3, 2).mT, "copy": lambda L, x: x.t().contiguous(),
    "channels_last": lambda L, x: L.ones(2, 3, 4, 5).permute(0, 2, 3, 1).permute(0, 3, 1, 2),
    "scalar": lambda L, x: x[1, 1], "empty": lambda L, x: x[:0], "empty_rows": lambda L, x: x[:, 1:1]}


@pytest.mark.parametrize("grad", [False, True])
@pytest.mark.parametrize("name", list(VIEWS))
def test_views_have_torch_strides(name, grad):
    x = tg.tensor(np.arange(12.0).reshape(3, 4), requires_grad=grad)
    xt = torch.tensor(np.arange(12.0).reshape(3, 4), requires_grad=grad)
    y, yt = VIEWS[name](tg, x), VIEWS[name](torch, xt)
    assert y.stride() == yt.stride()
    assert y.storage_offset() == yt.storage_offset() or not y.numel()  # (NumPy: no offset)
    assert y.is_contiguous() == yt.is_contiguous()
    for d in range(-y.dim(), y.dim()):
        assert y.stride(d) == yt.stride(d)
    if y.dim() == 4:
        assert y.is_contiguous(memory_format=tg.channels_last) == \
            yt.is_contiguous(memory_format=torch.channels_last)
    c, ct = y.contiguous(), yt.contiguous()
    assert (c is y) == (ct is yt) and c.stride() == ct.stride() and c.is_contiguous()
    np.testing.assert_array_equal(c.detach().numpy(), ct.detach().numpy())
    if yt.requires_grad:  # the copy passes the gradient on
        (c * tg.arange(c.numel()).reshape(c.shape)).sum().backward()
        (ct * torch.arange(ct.numel()).reshape(ct.shape)).sum().backward()
        np.testing.assert_array_equal(x.grad.numpy(), xt.grad.numpy())


def test_stride_dim_out_of_range_as_torch():
    with pytest.raises(IndexError, match="Dimension out of range"):
        tg.zeros(2, 3).stride(2)
    assert tg.zeros(2, 3).stride(-1) == 1 and tg.tensor(1.0).stride() == ()
