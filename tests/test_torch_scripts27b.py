"""Differences from PyTorch found by the scripts s905 onward (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch."""
import numpy as np
import pytest

import tapegrad as tg
from conftest import raises_as_torch as _raises_as

pytestmark = pytest.mark.oracle
nan = float("nan")


# ---- clamp by Tensor bounds: a NaN bound (or input) gives NaN, and no gradient ---------
@pytest.mark.parametrize("x, lo, hi", [
    ([1.0, 2.0, nan], [nan, 0.0, 0.0], None), ([1.0, 2.0], None, [nan, 0.0]),
    ([1.0, 2.0, 3.0], [0.0, nan, 0.0], [nan, 5.0, 1.0]), ([nan, 0.5], [0.0, 0.0], [1.0, 1.0])])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_clamp_by_nan_tensor_bounds_as_pytorch(x, lo, hi, dtype, torch_float64):
    def run(L):
        dt = getattr(L, dtype)
        xs = L.tensor(x, dtype=dt, requires_grad=True)
        bs = [None if b is None else L.tensor(b, dtype=dt, requires_grad=True) for b in (lo, hi)]
        y = L.clamp(xs, *bs)
        (y * L.arange(1.0, len(x) + 1, dtype=dt)).sum().backward()
        return y.detach().numpy(), [t.grad.numpy() for t in [xs] + [b for b in bs if b is not None]]
    (y, gs), (ty, tgs) = run(tg), run(torch_float64)
    assert y.dtype == ty.dtype
    np.testing.assert_array_equal(y, ty)
    for g, tgr in zip(gs, tgs, strict=True):
        np.testing.assert_array_equal(g, tgr)


def test_clamp_by_integer_tensor_bounds_stays_integer(torch_float64):
    def run(L):
        y = L.clamp(L.tensor([1, 5, 9]), L.tensor([2, 0, 0]), L.tensor([6, 6, 6]))
        return y.dtype is L.int64, y.tolist()
    assert run(tg) == run(torch_float64)


# ---- refusals in PyTorch's words (tapegrad's details after them, if any) ---------------
@pytest.mark.parametrize("call", [
    lambda L: L.nn.functional.mse_loss(L.tensor([1, 2]), L.tensor([1, 3])),
    lambda L: L.nn.functional.mse_loss(L.tensor([1, 2]), L.tensor([1, 3]), reduction="none"),
    lambda L: L.nn.functional.mse_loss(L.tensor([True]), L.tensor([False])),
    lambda L: L.nn.functional.smooth_l1_loss(L.tensor([1, 2]), L.tensor([1, 3])),
    lambda L: L.nn.functional.huber_loss(L.tensor([1, 2], dtype=L.int32),
                                         L.tensor([1, 3], dtype=L.int32)),
    lambda L: L.einsum("ij", L.ones(2, 2), L.ones(2, 2)),
    lambda L: L.einsum("ij,jk->ik", L.ones(2, 2)),
    lambda L: L.einsum("ij->jij", L.ones(2, 2)), lambda L: L.einsum("ij->ii", L.ones(2, 3)),
    lambda L: L.zeros(3).index_put_((L.tensor([0, 1]),), L.tensor([1.0, 2.0, 3.0])),
    lambda L: L.zeros(2, 3).index_put_((L.tensor([0, 1]),), L.ones(3, 3), accumulate=True),
    lambda L: L.zeros(3).index_put_((L.tensor([0.0]),), L.tensor([1.0])),
    lambda L: L.zeros(3).index_put((L.tensor([5]),), L.tensor([1.0])),
    lambda L: L.zeros(2, 3).index_put_((L.tensor([0]), L.tensor([-4])), L.tensor([1.0])),
    lambda L: L.autograd.functional.jacobian(lambda z: z * 2, L.ones(2), strategy="forward-mode"),
    lambda L: setattr(_with_buffer(L), "buf", 5)])
def test_refusals_in_pytorchs_words(call, raises_as_torch):
    raises_as_torch(call, prefix=True)


def _with_buffer(L):
    m = L.nn.Module()
    m.register_buffer("buf", L.zeros(2))
    return m


@pytest.mark.parametrize("values, accumulate", [([1.0, 2.0], True), ([3.0], False)])
def test_index_put_still_writes_what_pytorch_does(values, accumulate, torch_float64):
    def run(L):
        out = L.zeros(3, 2)
        out.index_put_((L.tensor([2, -1]),), L.tensor(values), accumulate=accumulate)
        return out.tolist()
    assert run(tg) == run(torch_float64)


# ---- clamp_ of an integer tensor by float bounds: PyTorch's words name what it casts --------
@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "int8", "uint8", "bool", "uint16"])
@pytest.mark.parametrize("bound", [0.5, "tensor", "float32", "float16"])
@pytest.mark.parametrize("how", ["clamp_min", "clamp_max", "both", "clamp_min_"])
def test_integer_clamp_in_place_by_floats_refused_as_pytorch(dtype, bound, how, torch_float64):
    """(Against PyTorch with float64 its default, as tapegrad's: a Python float's word.)"""
    def call(L):
        b = bound if bound == 0.5 else L.tensor(0.5) if bound == "tensor" else \
            L.tensor([0.5], dtype=getattr(L, bound))
        x = L.zeros(1, dtype=getattr(L, dtype))
        if how == "clamp_min_":
            return x.clamp_min_(b)
        return x.clamp_(**{"clamp_min": {"min": b}, "clamp_max": {"max": b},
                           "both": {"min": b, "max": b}}[how])
    _raises_as(call, torch_float64)
