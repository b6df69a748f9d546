"""Tensor creation, with PyTorch's names and float64 as the default float dtype."""
import numpy as np

from . import dtypes
from .tensor import Tensor, _leaf, norm

_rng = np.random.default_rng()


def _make(data, dtype, requires_grad):
    t = Tensor(norm(np.asarray(data, dtype=dtype)))
    return t.requires_grad_(True) if requires_grad else t


def _shape(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    return tuple(int(s) for s in size)


def _float(dtype):
    return dtypes.to_dtype(dtype) or dtypes.float64


def tensor(data, dtype=None, device=None, requires_grad=False):
    """A new leaf tensor holding a copy of ``data``.

    >>> tensor([1.0, 2.0])
    tensor([1., 2.])
    """
    t = Tensor(data.detach() if isinstance(data, Tensor) else data, dtype=dtype)
    if isinstance(data, np.ndarray) or isinstance(data, Tensor):
        t._data = norm(np.array(t._data, copy=True))
    return t.requires_grad_(True) if requires_grad else t


def as_tensor(data, dtype=None, device=None):
    """A tensor sharing ``data``'s memory where it can (a C-contiguous ndarray of the
    requested dtype, not 0-d float64, which tapegrad holds as a Python float)."""
    if isinstance(data, Tensor):
        return data if dtype is None else data.to(dtype)
    if isinstance(data, np.ndarray) and data.ndim and data.flags.c_contiguous and (
            dtype is None or np.dtype(dtype) == data.dtype):
        return _leaf(data)
    return Tensor(data, dtype=dtype)


def from_numpy(ndarray):
    """A tensor sharing ``ndarray``'s memory (a non-contiguous array is copied first)."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"from_numpy(): expected np.ndarray (got {type(ndarray).__name__})")
    return as_tensor(ndarray)


def zeros(*size, dtype=None, requires_grad=False):
    return _make(np.zeros(_shape(size)), _float(dtype), requires_grad)


def ones(*size, dtype=None, requires_grad=False):
    return _make(np.ones(_shape(size)), _float(dtype), requires_grad)


def full(size, fill_value, dtype=None, requires_grad=False):
    if dtype is None:
        dtype = dtypes.result_type((np.asarray(fill_value).dtype, None))
    return _make(np.full(_shape((size,)), fill_value), dtypes.to_dtype(dtype), requires_grad)


def _like(input, op):
    if not isinstance(input, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    return input.shape


def zeros_like(input, dtype=None, requires_grad=False):
    shape = _like(input, "zeros_like")
    return _make(np.zeros(shape), dtypes.to_dtype(dtype) or input.dtype, requires_grad)


def ones_like(input, dtype=None, requires_grad=False):
    shape = _like(input, "ones_like")
    return _make(np.ones(shape), dtypes.to_dtype(dtype) or input.dtype, requires_grad)


def full_like(input, fill_value, dtype=None, requires_grad=False):
    shape = _like(input, "full_like")
    return _make(np.full(shape, fill_value), dtypes.to_dtype(dtype) or input.dtype,
                 requires_grad)


def _number(v, op, name):
    """A Python number from ``v`` (a one-element Tensor too), before NumPy sees it: NumPy
    would do its arithmetic through the Tensor's operators, recording rows."""
    if isinstance(v, Tensor):
        if v.numel() != 1:
            raise RuntimeError(f"{op}(): '{name}' must be a number or a one-element tensor, "
                               f"got shape {tuple(v.shape)}")
        return v.item()
    if not isinstance(v, (int, float, np.integer, np.floating)):
        raise TypeError(f"{op}(): argument '{name}' must be Number, not {type(v).__name__}")
    return v


def arange(start, end=None, step=1, dtype=None, requires_grad=False):
    if end is None:
        start, end = 0, start
    start, end, step = (_number(v, "arange", k) for v, k in
                        ((start, "start"), (end, "end"), (step, "step")))
    data = np.arange(start, end, step)
    dt = dtypes.to_dtype(dtype) or (dtypes.float64 if data.dtype.kind == "f" else dtypes.int64)
    return _make(data, dt, requires_grad)


def linspace(start, end, steps, dtype=None, requires_grad=False):
    start, end = _number(start, "linspace", "start"), _number(end, "linspace", "end")
    return _make(np.linspace(start, end, steps), _float(dtype), requires_grad)


def eye(n, m=None, dtype=None, requires_grad=False):
    return _make(np.eye(n, m), _float(dtype), requires_grad)


def manual_seed(seed):
    """Seed tapegrad's generator (rand, randn)."""
    global _rng
    _rng = np.random.default_rng(seed)


def rand(*size, dtype=None, requires_grad=False):
    """Uniform on [0, 1)."""
    return _make(_rng.random(_shape(size)), _float(dtype), requires_grad)


def randn(*size, dtype=None, requires_grad=False):
    """Standard normal."""
    return _make(_rng.standard_normal(_shape(size)), _float(dtype), requires_grad)
