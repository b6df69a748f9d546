"""dtypes (NumPy's) under PyTorch's names, and PyTorch's type promotion."""
import numpy as np

float64 = double = np.dtype(np.float64)
float32 = float = np.dtype(np.float32)
int64 = long = np.dtype(np.int64)
int32 = int = np.dtype(np.int32)
bool = np.dtype(np.bool_)  # noqa: A001 (PyTorch's name)
float16 = half = np.dtype(np.float16)
int16 = short = np.dtype(np.int16)
int8 = np.dtype(np.int8)
uint8 = np.dtype(np.uint8)
dtype = np.dtype  # isinstance(x.dtype, torch.dtype)

_DEFAULT_FLOAT = float64  # set_default_dtype changes it (float64 unless told otherwise)
_FLOATING = (float64, float32, np.dtype(np.float16))


def set_default_dtype(d):
    """The dtype of Python floats, float lists and float creation functions: float64
    (tapegrad's default) or float32 (PyTorch's), as ``torch.set_default_dtype``."""
    global _DEFAULT_FLOAT
    dt = np.dtype(d)
    if dt not in (float64, float32):
        raise TypeError("only floating-point types are supported as the default type "
                        f"(tapegrad: float32 or float64, got {dt})")
    _DEFAULT_FLOAT = dt


def get_default_dtype():
    return _DEFAULT_FLOAT


def default_float():
    """The default float dtype now (module attribute: set_default_dtype rebinds it)."""
    return _DEFAULT_FLOAT


def is_floating(dt):
    return dt.kind == "f"


def _category(dt):
    return {"b": 0, "i": 1, "u": 1, "f": 2}.get(dt.kind, 3)


def to_dtype(dt):
    """A NumPy dtype from a tapegrad dtype, NumPy dtype or Python type (None stays None)."""
    return None if dt is None else np.dtype(dt)


def name(dt):
    """PyTorch's spelling of a dtype, for repr and messages."""
    return "tapegrad." + str(dt)


_TORCH_WORDS = {"float64": "double", "float32": "float", "float16": "half", "int64": "long",
                "int32": "int", "int16": "short", "int8": "char", "uint8": "byte",
                "bool": "bool"}


def torch_word(dt):
    """PyTorch's scalar-type word for a dtype in its error messages ('double', 'long'...;
    capitalised where PyTorch writes 'Double'); NumPy's name for the others."""
    return _TORCH_WORDS.get(str(dt), str(dt))


def result_type(*operands):
    """PyTorch's promotion: operands are (dtype, ndim) pairs, ndim None for a Python scalar.

    The highest category (bool < int < float) wins.  Within it, dimensioned tensors
    decide; else zero-dim tensors; else a Python scalar gives the default dtype.
    """
    cat = max(_category(dt) for dt, _ in operands)
    for tier in (lambda n: n is not None and n > 0, lambda n: n == 0):
        dts = [dt for dt, n in operands if tier(n) and _category(dt) == cat]
        if dts:
            return np.result_type(*dts)
    return (bool, int64, _DEFAULT_FLOAT)[cat] if cat < 3 else operands[0][0]
