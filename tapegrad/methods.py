"""Tensor methods that are PyTorch spellings of functions defined elsewhere (creation, casts,
nn.init's fills) or questions about a layout tapegrad does not have (strides, contiguity),
bound to Tensor here, once every module they use is imported (tapegrad/__init__.py); and
top-level spellings of methods and global switches that scripts set (FUNCTIONS)."""
import numpy as np

from . import creation, dtypes
from .autograd import anomaly
from .nn import init
from .ops import views
from .tensor import Tensor


def _size(size):
    return tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size


def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
    """Zeros of ``size`` with self's dtype (unless ``dtype``), as PyTorch's new_zeros."""
    return creation.zeros(*_size(size), dtype=dtype or self.dtype, requires_grad=requires_grad)


def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
    return creation.ones(*_size(size), dtype=dtype or self.dtype, requires_grad=requires_grad)


def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
    return creation.empty(*_size(size), dtype=dtype or self.dtype, requires_grad=requires_grad)


def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
    return creation.full(size, fill_value, dtype=dtype or self.dtype,
                         requires_grad=requires_grad)


def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    """A new leaf holding a copy of ``data``, with self's dtype unless ``dtype``."""
    if isinstance(data, Tensor):
        data = data.detach().numpy()
    return creation.tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)


def type_as(self, other):
    """Cast to ``other``'s dtype."""
    return self.to(other.dtype)


def contiguous(self, memory_format=None):
    """Self: a tensor's elements are always read in row-major order here."""
    return self


def is_contiguous(self, memory_format=None):
    return True


def stride(self, dim=None):
    """Row-major strides in elements (the layout every tensor presents here)."""
    shape = tuple(self.shape)
    strides = tuple(int(np.prod(shape[i + 1:], dtype=np.int64)) for i in range(len(shape)))
    return strides if dim is None else strides[dim]


def element_size(self):
    """Bytes per element."""
    return self.dtype.itemsize


def ndimension(self):
    return self.dim()


def uniform_(self, a=0.0, b=1.0, generator=None):
    """Fill in place with draws from U(a, b) (no gradient recorded), as nn.init.uniform_."""
    return init.uniform_(self, a, b, generator)


def normal_(self, mean=0.0, std=1.0, generator=None):
    return init.normal_(self, mean, std, generator)


def _is_view(self):
    """Whether in-place ops on self write through to a base tensor (ops/views.py)."""
    return views.of(self) is not None


def __contains__(self, element):
    """``element in t``: any element equal to it, as PyTorch."""
    if not isinstance(element, (Tensor, int, float, bool)):
        raise RuntimeError(f"Tensor.__contains__ only supports Tensor or scalar, but you "
                           f"passed in a {type(element)}.")
    return bool((self == element).any())


METHODS = {
    "new_zeros": new_zeros, "new_ones": new_ones, "new_empty": new_empty,
    "new_full": new_full, "new_tensor": new_tensor, "type_as": type_as,
    "contiguous": contiguous, "is_contiguous": is_contiguous, "stride": stride,
    "element_size": element_size, "ndimension": ndimension, "uniform_": uniform_,
    "normal_": normal_, "__contains__": __contains__, "_is_view": _is_view,
    "_base": property(views.root),
    "half": lambda self: self.to(dtypes.float16), "byte": lambda self: self.to(dtypes.uint8),
    "char": lambda self: self.to(dtypes.int8), "short": lambda self: self.to(dtypes.int16),
}
for _name, _fn in METHODS.items():
    setattr(Tensor, _name, _fn)


def _H(self):  # noqa: N802 (PyTorch's name)
    """The conjugate transpose of a matrix: its transpose here (real dtypes only)."""
    if self.ndim not in (0, 2):
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self.ndim}"
                           f"-D tensor.")
    return self.T


Tensor.H = property(_H)
Tensor.mH = property(lambda self: self.mT, doc="The transpose of the last two dims (real).")
Tensor.adjoint = lambda self: self.mT


# ---- top-level spellings of methods, and global switches scripts set --------------------
def detach(input):
    """``torch.detach(t)``: ``t.detach()``."""
    return input.detach()


def typename(obj):
    """PyTorch's type name: ``'torch.FloatTensor'`` for a float32 tensor."""
    return obj.type() if isinstance(obj, Tensor) else type(obj).__name__


def is_nonzero(input):
    """The truth of a one-element tensor, with PyTorch's errors otherwise."""
    n = input.numel()
    if n == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if n > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(input.item())


_SWITCHES = {"deterministic": False, "matmul_precision": "highest", "warn_only": False}


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Recorded only: tapegrad's kernels are deterministic already (one order of
    accumulation per tape; batch replay gives each point the same code)."""
    _SWITCHES["deterministic"] = bool(mode)
    _SWITCHES["warn_only"] = bool(warn_only)


def are_deterministic_algorithms_enabled():
    return _SWITCHES["deterministic"]


def is_deterministic_algorithms_warn_only_enabled():
    return _SWITCHES["warn_only"]


def get_deterministic_debug_mode():
    """0 (off), 1 (warn) or 2 (error), PyTorch's spelling of the switch above."""
    return 0 if not _SWITCHES["deterministic"] else 1 if _SWITCHES["warn_only"] else 2


def set_deterministic_debug_mode(debug_mode):
    mode = {"default": 0, "warn": 1, "error": 2}.get(debug_mode, debug_mode)
    if mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected one of 0, 1, 2, but got "
                           f"{debug_mode}")
    use_deterministic_algorithms(mode > 0, warn_only=mode == 1)


def set_float32_matmul_precision(precision):
    """Recorded only: float32 products run in float32 BLAS here at every setting."""
    if precision not in ("highest", "high", "medium"):
        raise RuntimeError(f"Invalid precision: {precision}")
    _SWITCHES["matmul_precision"] = precision


def get_float32_matmul_precision():
    return _SWITCHES["matmul_precision"]


def set_anomaly_enabled(enabled, check_nan=True):
    """Anomaly mode on or off (``torch.autograd.set_detect_anomaly`` without a scope)."""
    anomaly._set(enabled, check_nan)


FUNCTIONS = {f.__name__: f for f in (
    detach, typename, is_nonzero, use_deterministic_algorithms,
    are_deterministic_algorithms_enabled, is_deterministic_algorithms_warn_only_enabled,
    get_deterministic_debug_mode, set_deterministic_debug_mode, set_float32_matmul_precision,
    get_float32_matmul_precision, set_anomaly_enabled)}
FUNCTIONS["is_anomaly_enabled"] = anomaly.is_anomaly_enabled
FUNCTIONS["is_anomaly_check_nan_enabled"] = anomaly.is_anomaly_check_nan_enabled


def _inplace_function(name):
    def fn(input, *args, **kwargs):
        return getattr(input, name)(*args, **kwargs)
    fn.__name__ = name
    fn.__doc__ = f"``torch.{name}(t, ...)``: ``t.{name}(...)``, in place."
    return fn


# PyTorch's top-level in-place spellings (torch.clamp_(x, 0, 1) is x.clamp_(0, 1))
for _name in ("clamp_", "clip_", "relu_", "sigmoid_", "tanh_", "exp_", "log_", "sqrt_",
              "abs_", "neg_", "fill_", "zero_", "square_", "rsqrt_", "reciprocal_",
              "floor_", "ceil_", "round_", "trunc_", "frac_", "sin_", "cos_", "log1p_",
              "expm1_", "index_fill_", "index_add_", "index_copy_", "index_put_",
              "nan_to_num_", "xlogy_", "logit_"):
    FUNCTIONS[_name] = _inplace_function(_name)


# ---- PyTorch's legacy tensor types: torch.FloatTensor([1, 2]), isinstance(t, LongTensor) --
class _LegacyType(type):
    """A legacy type (``torch.FloatTensor``...): calling it makes a tensor of its dtype
    from data (``FloatTensor([1, 2])``) or sizes (``FloatTensor(2, 3)``, uninitialised);
    ``isinstance(t, FloatTensor)`` asks for a Tensor of that dtype; ``t.type(LongTensor)``
    casts (NumPy reads the class's ``dtype``)."""

    def __call__(cls, *args):
        if len(args) == 1 and not isinstance(args[0], (int, np.integer)):
            data = args[0]
            if isinstance(data, Tensor):
                return data.detach().to(cls.dtype)
            if isinstance(data, (tuple, list)) and not data:
                return creation.empty(0, dtype=cls.dtype)
            return creation.tensor(data, dtype=cls.dtype)
        return creation.empty(*args, dtype=cls.dtype)

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype == cls.dtype

    def __repr__(cls):
        return f"<class 'tapegrad.{cls.__name__}'>"


for _dt, _tname in (("float64", "DoubleTensor"), ("float32", "FloatTensor"),
                    ("float16", "HalfTensor"), ("int64", "LongTensor"),
                    ("int32", "IntTensor"), ("int16", "ShortTensor"), ("int8", "CharTensor"),
                    ("uint8", "ByteTensor"), ("bool", "BoolTensor")):
    FUNCTIONS[_tname] = _LegacyType(_tname, (), {"dtype": np.dtype(_dt)})
