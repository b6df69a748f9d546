"""float16 by a number as PyTorch 2.13 computes it (ops/_pointwise.py _half_by_number):
mul and div read the number as it is in float32 and round once; add, sub, pow, comparisons
and a number over a tensor cast it to half first.  Each case against torch."""
import numpy as np
import pytest

import tapegrad as tg

torch = pytest.importorskip("torch")

VALUES = [3.0, 1.7, -2.3, 0.1, 65000.0, 6e-5, -0.0, 1e-3]
NUMBERS = [0.1, 3, True, 1e-8, 300.0, np.float64(0.7), -1.3]
CALLS = {
    "mul": lambda x, c: x * c, "rmul": lambda x, c: c * x, "mul_method": lambda x, c: x.mul(c),
    "div": lambda x, c: x / c, "add": lambda x, c: x + c, "add_alpha": lambda x, c: x.add(c, alpha=2),
    "sub": lambda x, c: x - c, "rsub": lambda x, c: c - x, "pow": lambda x, c: x ** c,
    "ge": lambda x, c: x >= c, "rdiv": lambda x, c: c / x,
    # a number first to the functions: mul casts it to half first, div as ``c / x``
    "mul_fn_number_first": lambda x, c: _lib(x).mul(c, x),
    "div_fn_number_first": lambda x, c: _lib(x).div(c, x),
}


def _lib(x):
    return tg if isinstance(x, tg.Tensor) else torch


def same(got, want):
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
    np.testing.assert_array_equal(np.asarray(got.tolist(), dtype=float),
                                  np.asarray(want.tolist(), dtype=float))


# (PyTorch refuses - with a bool, and an exponent beyond half's range)
CASES = [(n, c) for n in CALLS for c in NUMBERS
         if not (isinstance(c, bool) and n in ("sub", "rsub")) and not (n == "pow" and c == 300.0)]


@pytest.mark.parametrize("name, c", CASES, ids=repr)
def test_half_by_a_number_is_pytorchs(name, c):
    call = CALLS[name]
    same(call(tg.tensor(VALUES).half(), c), call(torch.tensor(VALUES).half(), c))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int64"])
@pytest.mark.parametrize("name", ["mul", "div", "add", "rmul"])
def test_half_by_a_0d_tensor_is_pytorchs(name, dtype):
    """A 0-d tensor on the right is read as a number (PyTorch's cpu_scalar); on the left
    it is cast to half first."""
    call = CALLS[name]
    v = 3 if dtype == "int64" else 0.1
    got = call(tg.tensor(VALUES).half(), tg.tensor(v, dtype=getattr(tg, dtype)))
    same(got, call(torch.tensor(VALUES).half(), torch.tensor(v, dtype=getattr(torch, dtype))))


def test_half_times_a_number_records_and_differentiates():
    x = tg.tensor([3.0, 1.7], requires_grad=True)
    t = torch.tensor([3.0, 1.7], requires_grad=True)
    y, yt = x.half() * 0.1, t.half() * 0.1
    same(y, yt)
    y.float().sum().backward()
    yt.float().sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=1e-3)
