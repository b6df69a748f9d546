"""Values beyond a dtype's range at creation, against PyTorch 2.13: ``tensor()`` of Python
numbers for an integer dtype refuses what c10's ``overflows`` refuses, in its words (NumPy
raised ValueError/OverflowError of its own, refused -1 for uint8 and took 255.9); a float
beyond float16/float32 is inf without NumPy's RuntimeWarning (``tensor``, ``new_full``);
an array's cast stays unchecked as PyTorch's.  (PyTorch's fills refuse a finite number
beyond float16's or float32's range, but for ``full`` of one element, ``new_full``, a
setitem and ``where``: docs/limits.md.)"""
import warnings

import numpy as np
import pytest

import tapegrad as tg

torch = pytest.importorskip("torch")

NAN, INF = float("nan"), float("inf")
CASES = {
    "nan list int64": lambda m: m.tensor([NAN], dtype=m.int64),
    "nan int64": lambda m: m.tensor(NAN, dtype=m.int64),
    "inf int32": lambda m: m.tensor([INF], dtype=m.int32),
    "-inf int16": lambda m: m.tensor([-INF], dtype=m.int16),
    "1e30 int64": lambda m: m.tensor([1e30], dtype=m.int64),
    "3e9 int32": lambda m: m.tensor([3e9], dtype=m.int32),
    "2**40 int32": lambda m: m.tensor([2 ** 40], dtype=m.int32),
    "2**31 int32": lambda m: m.tensor([2 ** 31], dtype=m.int32),
    "-2**31 int32": lambda m: m.tensor([-2 ** 31], dtype=m.int32),
    "300 uint8": lambda m: m.tensor([300], dtype=m.uint8),
    "-1 uint8 wraps": lambda m: m.tensor([-1, 3], dtype=m.uint8),
    "-255 uint8 wraps": lambda m: m.tensor([-255], dtype=m.uint8),
    "-256 uint8": lambda m: m.tensor([-256], dtype=m.uint8),
    "-1.0 uint8": lambda m: m.tensor([-1.0], dtype=m.uint8),
    "255.9 uint8": lambda m: m.tensor([255.9], dtype=m.uint8),
    "255.0 uint8": lambda m: m.tensor([255.0, 0.5], dtype=m.uint8),
    "128 int8": lambda m: m.tensor([[1, 2], [128, 0]], dtype=m.int8),
    "-129.5 int8": lambda m: m.tensor([-129.5], dtype=m.int8),
    "-128.9 int8 truncates": lambda m: m.tensor([-128.9], dtype=m.int8),
    "40000 int16": lambda m: m.tensor([40000], dtype=m.int16),
    "3.7 -2.5 int64": lambda m: m.tensor([3.7, -2.5], dtype=m.int64),
    "bools uint8": lambda m: m.tensor([True, 2], dtype=m.uint8),
    "empty int8": lambda m: m.tensor([], dtype=m.int8),
    "2**63 int64": lambda m: m.tensor(2 ** 63, dtype=m.int64),
    "2**64 list int64": lambda m: m.tensor([2 ** 64], dtype=m.int64),
    "-2**63 int64": lambda m: m.tensor(-2 ** 63, dtype=m.int64),
    "2**63 with a small int64": lambda m: m.tensor([2 ** 63, 3], dtype=m.int64),
    "2**63 with a float int64": lambda m: m.tensor([1.5, 2 ** 63], dtype=m.int64),
    "2**64 - 1 uint64": lambda m: m.tensor([2 ** 64 - 1, 3], dtype=m.uint64),
    "1e6 float16": lambda m: m.tensor(1e6, dtype=m.float16),
    "1e5 list float16": lambda m: m.tensor([[1e5, 1.0]], dtype=m.float16),
    "1e40 float32": lambda m: m.tensor([1e40], dtype=m.float32),
    "-1e300 float32": lambda m: m.tensor([-1e300], dtype=m.float32),
    "2**70 float32": lambda m: m.tensor([2 ** 70], dtype=m.float32),
    "1.5e-50 float16": lambda m: m.tensor([1.5e-50], dtype=m.float16),
    "array 1e6 float16": lambda m: m.tensor(np.array([1e6]), dtype=m.float16),
    "array nan int64 unchecked": lambda m: m.tensor(np.array([NAN]), dtype=m.int64),
    "array 300 uint8 unchecked": lambda m: m.tensor(np.array([300, 7]), dtype=m.uint8),
    "as_tensor 300 uint8": lambda m: m.as_tensor([300], dtype=m.uint8),
    "new_tensor 1e6 float16": lambda m: m.zeros(2).new_tensor([1e6], dtype=m.float16),
    "new_full 1e6 float16": lambda m: m.zeros(2).new_full((1,), 1e6, dtype=m.float16),
}


def _outcome(mod, make):
    """(values, dtype name) or (error type, message), with every warning an error (PyTorch
    warns on none of these)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            t = make(mod)
        except Exception as e:  # noqa: BLE001 (the outcome compared)
            return type(e).__name__, str(e).split("\n")[0]
    return t.tolist(), str(t.dtype).rsplit(".", 1)[-1]


@pytest.mark.parametrize("name", list(CASES))
def test_creation_range_as_pytorch(name):
    want = _outcome(torch, CASES[name])
    got = _outcome(tg, CASES[name])
    if isinstance(want[0], str):
        assert got == want
    else:
        assert got[1] == want[1]
        np.testing.assert_array_equal(np.array(got[0], dtype=float),
                                      np.array(want[0], dtype=float))
