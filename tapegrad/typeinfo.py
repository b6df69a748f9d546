"""Questions about dtypes, under PyTorch's names: ``finfo``, ``iinfo``, ``promote_types``,
``result_type``, ``can_cast``, ``is_floating_point``, ``is_complex``, ``numel``.

>>> import tapegrad as tg
>>> tg.finfo(tg.float32).eps
1.1920928955078125e-07
>>> tg.promote_types(tg.int64, tg.float32)
torch.float32
"""
import numpy as np

from . import dtypes
from .tensor import Tensor


class finfo:  # noqa: N801 (PyTorch's name)
    """Machine limits of a float dtype (the default dtype when none is given)."""

    def __init__(self, type=None):  # noqa: A002 (PyTorch's name)
        if type is dtypes.REFUSED["bfloat16"]:  # (no NumPy dtype, but its limits are known:
            self.bits, self.eps = 16, 2.0 ** -7  # 8 exponent bits, 7 of mantissa)
            self.max, self.tiny = (2 - 2.0 ** -7) * 2.0 ** 127, 2.0 ** -126
            self.min, self.smallest_normal, self.resolution = -self.max, self.tiny, 0.01
            self.dtype = "bfloat16"
            return
        dt = np.dtype(dtypes.default_float() if type is None else type)
        if dt.kind not in "fc":  # (PyTorch's words, its 'torch.finfo' included)
            raise TypeError("torch.finfo() requires a floating point input type. Use "
                            "torch.iinfo to handle 'torch.finfo'")
        info = np.finfo(dt)  # (a complex dtype's: its real part's, as PyTorch's)
        self.bits = info.bits
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = self.smallest_normal = float(info.tiny)
        self.resolution = 10.0 ** -info.precision  # (PyTorch's: a power of ten)
        self.dtype = info.dtype.name  # (a string, as PyTorch's)

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.tiny:g}, tiny={self.tiny:g}, "
                f"dtype={self.dtype})")


class iinfo:  # noqa: N801 (PyTorch's name)
    """Limits of an integer dtype."""

    def __init__(self, type):  # noqa: A002 (PyTorch's name)
        dt = np.dtype(type)
        if dt.kind == "b":
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if dt.kind not in "iu":
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to "
                            "handle 'torch.iinfo'")
        info = np.iinfo(dt)
        self.bits = info.bits
        self.max = int(info.max)
        self.min = int(info.min)
        self.dtype = dt.name

    def __repr__(self):
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


def promote_types(type1, type2):
    """The dtype PyTorch promotes two dtypes to: the higher category (bool < int < float <
    complex) wins, within one category the wider type (a float and a complex: the complex
    of the wider float)."""
    return dtypes.of(dtypes.promote(np.dtype(type1), np.dtype(type2)))


def _operand(x):
    if isinstance(x, Tensor):
        return x.dtype, x.ndim
    if isinstance(x, (bool, np.bool_)):
        return dtypes.bool, None
    if isinstance(x, (int, np.integer)):
        return dtypes.int64, None
    if isinstance(x, (float, np.floating)):
        return dtypes.float64, None
    if isinstance(x, (complex, np.complexfloating)):
        return dtypes.complex128, None
    raise TypeError(f"result_type(): argument must be a Tensor or a Number, not "
                    f"{type(x).__name__}")


def result_type(tensor1, tensor2):
    """The dtype an elementwise op of the two (tensors or numbers) computes in."""
    return dtypes.of(dtypes.result_type(_operand(tensor1), _operand(tensor2)))


def can_cast(from_, to):
    """Whether PyTorch casts ``from_`` to ``to`` implicitly (never to a lower category:
    float to int, int to bool)."""
    return dtypes._category(np.dtype(from_)) <= dtypes._category(np.dtype(to))


def is_floating_point(input):
    """True for a float tensor."""
    return _tensor(input, "is_floating_point").dtype.kind == "f"


def numel(input):
    """The number of elements."""
    return _tensor(input, "numel").numel()


def _tensor(x, op):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(x).__name__}")
    return x


__all__ = ["can_cast", "finfo", "iinfo", "is_floating_point", "numel", "promote_types",
           "result_type"]
