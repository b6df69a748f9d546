"""Tensor methods that are PyTorch spellings of functions defined elsewhere (creation, casts,
nn.init's fills) or questions about a layout tapegrad does not have (strides, contiguity),
bound to Tensor here, once every module they use is imported (tapegrad/__init__.py); and
top-level spellings of methods and global switches that scripts set (FUNCTIONS)."""
import numpy as np

from . import creation, dtypes, ops
from ._errors import missing, no_overload
from .autograd import anomaly
from .nn import init
from .ops import views
from .tensor import Tensor
from .typenames import typename


def _size(size, op):
    if not size:
        raise missing(op, "size")
    return tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size


def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
    """Zeros of ``size`` with self's dtype (unless ``dtype``), as PyTorch's new_zeros."""
    return creation.zeros(*_size(size, "new_zeros"), dtype=dtype or self.dtype,
                          requires_grad=requires_grad)


def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
    return creation.ones(*_size(size, "new_ones"), dtype=dtype or self.dtype,
                          requires_grad=requires_grad)


def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
    return creation.empty(*_size(size, "new_empty"), dtype=dtype or self.dtype,
                          requires_grad=requires_grad)


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


def _row_major(shape):
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def _reshaped(shape, strides, new):
    """PyTorch's strides of ``new``-shaped view of a (shape, strides) tensor (its
    computeStride), or None where no view has them (reshape then copies)."""
    if not shape:
        return (1,) * len(new)
    if 0 in shape:
        return tuple(strides) if tuple(new) == tuple(shape) else _row_major(new)
    out = [0] * len(new)
    view_d, base, tensor_n, view_n = len(new) - 1, strides[-1], 1, 1
    for d in range(len(shape) - 1, -1, -1):
        tensor_n *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and strides[d - 1] != tensor_n * base):
            while view_d >= 0 and (view_n < tensor_n or new[view_d] == 1):
                out[view_d] = view_n * base
                view_n *= new[view_d]
                view_d -= 1
            if view_n != tensor_n:
                return None
            if d > 0:
                base, tensor_n, view_n = strides[d - 1], 1, 1
    return tuple(out) if view_d == -1 else None


def _unravel(pos, shape):
    """The index of row-major position ``pos`` (the first dim unbounded: a step past the
    end along a size-1 dim still names its stride)."""
    idx = []
    for n in reversed(shape[1:]):
        pos, r = divmod(pos, n) if n else (pos, 0)
        idx.append(r)
    return [pos, *reversed(idx)] if shape else []


def _layout(t):
    """PyTorch's (strides, storage offset) of ``t``: row-major for a tensor of its own;
    a view's, from its NumPy view of its base's values (ops/views.py), composed with the
    base's own layout (a transpose of a slice...).  Values here are always row-major
    copies: this is the layout PyTorch would give, for stride() and is_contiguous()."""
    shape = tuple(t.shape)
    vb = views.of(t)
    if vb is None and getattr(t, "_da", None) is not None:
        da = t._da  # a detach() (or a .data: a 1-tuple) shares its tensor's memory, so
        return _layout(da[0] if type(da) is tuple else da)  # its layout too
    if vb is None or vb[2] is None:
        base = views.expanded_from(t)
        return (_row_major(shape), 0) if base is None else _expanded(base, shape)
    strides, offset = _layout(vb[0])
    src, view = vb[2], vb[3]
    if not src.size:  # (NumPy gives an empty array's views no strides to read)
        return _row_major(shape), offset
    if src.shape == shape and view.strides == src.strides and \
            view.ctypes.data == src.ctypes.data:
        return strides, offset  # (x[:], x.view(x.shape))
    item = src.itemsize
    if view.size == src.size and view.ctypes.data == src.ctypes.data and view.strides == \
            tuple(s * item for s in _row_major(shape)):  # a reshape, squeeze or unsqueeze
        for d in range(len(shape)):  # unsqueeze(d): PyTorch's stride for the new dim
            if len(shape) == src.ndim + 1 and shape[d] == 1 and shape[:d] + shape[d + 1:] == \
                    src.shape:
                new = src.shape[d] * strides[d] if d < src.ndim else 1
                return strides[:d] + (new,) + strides[d:], offset
        new = _reshaped(src.shape, strides, shape)
        return (new, offset) if new is not None else (_row_major(shape), 0)
    start = (view.ctypes.data - src.ctypes.data) // item
    at = _unravel(start, src.shape)

    def storage(idx):
        return sum(i * s for i, s in zip(idx, strides))

    here = storage(at)
    out = [storage(_unravel(start + st // item, src.shape)) - here for st in view.strides]
    for d in range(len(shape) - 1, -1, -1):  # x[None]: unsqueeze's stride for the new dim
        if shape[d] == 1 and view.strides[d] == 0:
            out[d] = shape[d + 1] * out[d + 1] if d + 1 < len(shape) else 1
    return tuple(out), offset + here


def _expanded(base, shape):
    """PyTorch's layout of ``base.expand(shape)``: a dim of 1 made larger steps by 0, a new
    leading dim of 1 by the elements after it (its inferExpandGeometry)."""
    strides, offset = _layout(base)
    lead, out = len(shape) - base.ndim, [0] * len(shape)
    for i in range(len(shape) - 1, -1, -1):
        d = i - lead
        size = base.shape[d] if d >= 0 else 1
        out[i] = 0 if size != shape[i] else strides[d] if d >= 0 else \
            shape[i + 1] * out[i + 1] if i + 1 < len(shape) else 1
    return tuple(out), offset


def contiguous(self, memory_format=None):
    """Self where its PyTorch layout is row-major, else a row-major copy, recorded
    (CloneBackward0) so gradients flow through it.  (Any ``memory_format`` is taken: a
    copy here is row-major whatever is asked.)"""
    return self if is_contiguous(self) else self.clone()


_ORDERS = {"channels_last": (4, (1, 3, 2, 0)), "channels_last_3d": (5, (1, 4, 3, 2, 0))}


def is_contiguous(self, memory_format=None):
    """Whether PyTorch's layout of self (``stride()``) is row-major, or ``memory_format``'s:
    every dim of more than one element at the stride of the elements after it."""
    shape, strides = tuple(self.shape), _layout(self)[0]
    name = getattr(memory_format, "name", "contiguous_format")
    if name not in _ORDERS and name != "contiguous_format":
        raise RuntimeError(f"is_contiguous(): memory format {memory_format} is not supported "
                           f"(use contiguous_format, channels_last or channels_last_3d)")
    ndim, order = _ORDERS.get(name, (len(shape), range(len(shape) - 1, -1, -1)))
    if len(shape) != ndim:
        return False
    if 0 in shape:
        return True
    expected = 1
    for d in order:
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True


def stride(self, dim=None):
    """PyTorch's strides in elements: a tensor's own values are row-major; a view's are
    its base's, stepped as the view steps (a transpose swaps them, a slice multiplies,
    an expand gives 0)."""
    strides = _layout(self)[0]
    if dim is None:
        return strides
    n = len(strides)
    if not -max(n, 1) <= dim < max(n, 1):
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(n, 1)}, {max(n, 1) - 1}], but got {dim})")
    return strides[dim] if n else 1


_VIEW_ERROR = ("view size is not compatible with input tensor's size and stride (at least one "
               "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")


def view(self, *shape):
    """The same values in a new shape, where PyTorch's strides of self allow a view (its
    computeStride); else PyTorch's error, which names reshape (a copy where needed)."""
    if not shape and self.numel() != 1:  # (to 0-d: tapegrad's own x.view(*shape))
        raise no_overload("view", "torch.dtype dtype", "tuple of ints size")
    if len(shape) == 1 and isinstance(shape[0], (dtypes.dtype, dtypes.RefusedDtype)):
        raise NotImplementedError(
            f"view(dtype): tapegrad does not support reading a tensor's bytes as another "
            f"dtype ({self.dtype} as {shape[0]}): its views share one dtype's "
            "values; use .to(dtype) for a converted copy, or NumPy's "
            ".numpy().view(dtype) for the bits")
    new = ops.shape._infer_shape(ops.shape._sizes(shape), self.numel())
    if views.of(self) is not None or views.expanded_from(self) is not None or \
            getattr(self, "_da", None) is not None:
        if _reshaped(tuple(self.shape), _layout(self)[0], new) is None:
            raise RuntimeError(_VIEW_ERROR)
    return ops.shape.reshape(self, *new)


ops.shape.RESHAPE_COPIES[0] = lambda x, shape: _reshaped(
    tuple(x.shape), _layout(x)[0], tuple(shape)) is None


def view_as(self, other):
    """``self.view(other.size())``."""
    return view(self, tuple(other.shape))  # (a tuple: other may be 0-d)


def storage_offset(self):
    """PyTorch's offset of self's first element in its base's storage (0 unless a view)."""
    return _layout(self)[1]


def element_size(self):
    """Bytes per element."""
    return self.dtype.itemsize


def ndimension(self):
    return self.dim()


def _python_loop(self, op, fn, *others):
    """``self`` holding ``fn(element, *others' elements)`` for each element, in place (a
    Python call per element: PyTorch's CPU loop of apply_ and map_; no gradient)."""
    for t in (self, *others):
        if t.requires_grad:
            raise RuntimeError(f"Can't call {op}() on Variable that requires grad. Use "
                               f"var.detach().{op}() instead.")
    columns = [np.broadcast_to(np.asarray(t.detach()._data), tuple(self.shape)).reshape(-1)
               for t in (self, *others)]
    values = [fn(*row) for row in zip(*(c.tolist() for c in columns), strict=True)]
    values = np.asarray(values) if values else np.zeros(0, self.dtype)
    return init._fill(self, values.reshape(tuple(self.shape)))


def apply_(self, callable):  # noqa: A002 (PyTorch's name)
    """Each element replaced by ``callable(element)``, in place (cast to self's dtype)."""
    return _python_loop(self, "apply_", callable)


def map_(self, tensor, callable):  # noqa: A002 (PyTorch's name)
    """Each element replaced by ``callable(element, tensor's element)`` (``tensor``
    broadcast to self's shape), in place."""
    return _python_loop(self, "map_", callable, tensor)


def _is_view(self):
    """Whether in-place ops on self write through to a base tensor (ops/views.py)."""
    return views.of(self) is not None


def __contains__(self, element):
    """``element in t``: any element equal to it, as PyTorch."""
    if not isinstance(element, (Tensor, int, float, bool)):
        raise RuntimeError(f"Tensor.__contains__ only supports Tensor or scalar, but you "
                           f"passed in a {type(element)}.")
    return bool((self == element).any())


def module_load(self, other, assign=False):
    """What ``load_state_dict`` puts in place of ``self`` given ``other`` (a subclass may
    change it): ``other`` detached with ``assign``, else ``self`` with other's values
    copied in, detached (PyTorch's default)."""
    return other.detach() if assign else self.copy_(other).detach()


METHODS = {
    "module_load": module_load, "new_zeros": new_zeros, "new_ones": new_ones,
    "new_empty": new_empty,
    "new_full": new_full, "new_tensor": new_tensor, "type_as": type_as,
    "contiguous": contiguous, "is_contiguous": is_contiguous, "stride": stride,
    "storage_offset": storage_offset, "view": view, "view_as": view_as, "apply_": apply_,
    "map_": map_, "element_size": element_size, "ndimension": ndimension,
    "__contains__": __contains__, "_is_view": _is_view,
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
    return self.transpose(0, 1) if self.ndim == 2 else self  # (TransposeBackward0, as PyTorch)


Tensor.H = property(_H)
Tensor.mH = property(lambda self: self.mT, doc="The transpose of the last two dims (real).")
Tensor.adjoint = lambda self: self.mT


# ---- top-level spellings of methods, and global switches scripts set --------------------
def detach(input):
    """``torch.detach(t)``: ``t.detach()``."""
    return input.detach()


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
