"""Differences from PyTorch found by the scripts s538 onward (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch."""
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- binary_cross_entropy_with_logits: the result has the target's dtype ----------------
@pytest.mark.parametrize("x_dt, t_dt, pw_dt, w_dt", [
    ("float32", "float32", "float64", None), ("float64", "float32", "float64", None),
    ("float32", "float32", "float64", "float64"), ("float64", "float32", None, "float64"),
    ("float32", "float64", "float32", None), ("float32", "float32", None, None),
])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_bce_with_logits_dtype_is_the_targets(x_dt, t_dt, pw_dt, w_dt, reduction, torch_float64):
    def run(L):
        x = L.tensor([0.3, -1.2, 2.0], dtype=getattr(L, x_dt), requires_grad=True)
        t = L.tensor([1.0, 0.0, 1.0], dtype=getattr(L, t_dt))
        pw = None if pw_dt is None else L.tensor([3.0], dtype=getattr(L, pw_dt))
        w = None if w_dt is None else L.tensor([2.0, 1.0, 0.5], dtype=getattr(L, w_dt))
        out = L.nn.functional.binary_cross_entropy_with_logits(
            x, t, weight=w, pos_weight=pw, reduction=reduction)
        out.sum().backward()
        return str(out.dtype), out.tolist(), str(x.grad.dtype), x.grad.tolist()
    ours, theirs = run(tg), run(torch_float64)
    assert ours[0] == theirs[0] and ours[2] == theirs[2]
    assert ours[1] == pytest.approx(theirs[1], rel=1e-6)
    assert ours[3] == pytest.approx(theirs[3], rel=1e-6)


# ---- errors in PyTorch's types and words ------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda L: L.utils.data.TensorDataset(L.ones(20), L.ones(5)),
    lambda L: L.ones(4, 3).gather(1, L.tensor([1, 2, 0, 0])),
    lambda L: L.finfo(L.int32), lambda L: L.finfo(L.bool),
    lambda L: L.iinfo(L.float32), lambda L: L.iinfo(L.complex64), lambda L: L.iinfo(L.bool),
])
def test_refused_in_pytorchs_type_and_words(call, torch_float64):
    """The same exception type, and a message that opens with PyTorch's."""
    errors = []
    for L in (tg, torch_float64):
        with pytest.raises(Exception) as info:
            call(L)
        errors.append(info.value)
    ours, theirs = errors
    assert type(ours) is type(theirs)
    assert str(ours).startswith(str(theirs)), (str(ours), str(theirs))


# ---- finfo of a complex dtype: its real part's ----------------------------------------------
@pytest.mark.parametrize("name", ["complex64", "complex128"])
def test_finfo_of_a_complex_dtype_as_pytorch(name, torch_float64):
    ours, theirs = tg.finfo(getattr(tg, name)), torch_float64.finfo(getattr(torch_float64, name))
    assert repr(ours) == repr(theirs)
    for k in ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype"):
        assert getattr(ours, k) == getattr(theirs, k), k


# ---- isreal of a complex tensor: where the imaginary part is 0 ------------------------------
@pytest.mark.parametrize("values", [[1 + 0j, 1 + 1j, float("nan") + 0j], [0j], [2.5, -1.0]])
def test_isreal_as_pytorch(values, torch_float64):
    for make in (lambda L: L.isreal(L.tensor(values)), lambda L: L.tensor(values).isreal()):
        ours, theirs = make(tg), make(torch_float64)
        assert str(ours.dtype) == str(theirs.dtype) and ours.tolist() == theirs.tolist()


# ---- dim_order from the strides, is_set_to ---------------------------------------------------
VIEWS = [lambda L: L.ones(2, 3, 4), lambda L: L.ones(2, 3, 4).permute(2, 0, 1),
         lambda L: L.ones(2, 3, 4).transpose(0, 1), lambda L: L.ones(1, 3).t(),
         lambda L: L.ones(2, 1, 3).transpose(0, 1), lambda L: L.ones(3, 1).expand(3, 4),
         lambda L: L.ones(2, 3, 4, 5).permute(0, 2, 3, 1), lambda L: L.ones(4, 4)[::2].t(),
         lambda L: L.ones(3, 3, 2).permute(2, 1, 0), lambda L: L.ones(2, 2, 2).permute(1, 2, 0),
         lambda L: L.ones(5), lambda L: L.zeros(())]


@pytest.mark.parametrize("make", VIEWS)
def test_dim_order_as_pytorch(make, torch_float64):
    ours, theirs = make(tg), make(torch_float64)
    assert ours.stride() == theirs.stride()  # (the premise: PyTorch's strides)
    assert ours.dim_order() == theirs.dim_order()


@pytest.mark.parametrize("other", [
    lambda t: t, lambda t: t.view(2, 3), lambda t: t[0:], lambda t: t.detach(),
    lambda t: t.clone(), lambda t: t.t(), lambda t: t[1:], lambda t: t.reshape(3, 2)])
def test_is_set_to_as_pytorch(other, torch_float64):
    def run(L):
        t = L.arange(6.0).reshape(2, 3)
        return t.is_set_to(other(t))
    assert run(tg) == run(torch_float64)
