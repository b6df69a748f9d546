"""PyTorch's other spellings and small composites that scripts call: ``greater``, ``divide``
(with ``rounding_mode``), ``sgn``, ``inner``, ``vdot``, ``msort``, ``diagflat``, ``frexp``,
``ldexp``, ``gcd``, the ``bitwise_*`` functions, the ``*_scatter`` embeddings, ``put``,
``masked_scatter``, ``as_strided``, ``split_with_sizes``, and the
questions about complex parts that a real tensor answers (``conj``, ``real``, ``is_neg``).

Every differentiable one is written from the primitives (``where``, ``take``, ``matmul``,
``mul``...), so it needs no rule of its own: gradients, create_graph and replay come with
them.  tests/test_api_gaps.py compares each with torch.
"""
import math

import numpy as np

from .. import dtypes
from .._errors import missing
from .._state import state
from ..return_types import named
from ..tensor import Tensor, _leaf, _wrap_dim, host_values, norm
from . import arithmetic as ar
from . import combine as cb
from . import control as cmp
from . import elementwise as ew
from . import linalg as la
from . import reductions as red
from . import shape as sh
from . import views
from ._record import named_result, node
from .registry import api

for _alias, _fn in (("greater", cmp.gt), ("greater_equal", cmp.ge), ("less", cmp.lt),
                    ("less_equal", cmp.le), ("not_equal", cmp.ne),
                    ("sgn", node("SgnBackward0")(ew.sign))):
    api(_fn, name=_alias)  # (torch.sgn is sign for real tensors)


# ---- division with a rounding mode --------------------------------------------------------
def _trunc_int(a, b):
    q = np.floor_divide(a, b)
    return q + ((np.remainder(a, b) != 0) & ((a < 0) != (b < 0)))


@api
def divide(input, other, *, rounding_mode=None):
    """``input / other``; ``rounding_mode='trunc'`` or ``'floor'`` rounds the quotient (its
    gradient is zero then), integers staying integers, as ``torch.div``.

    >>> import tapegrad as tg
    >>> tg.div(tg.tensor([-7.0, 7.0]), 2, rounding_mode="trunc").tolist()
    [-3.0, 3.0]
    """
    if rounding_mode is None:
        return ew.div(input, other)
    if rounding_mode == "floor":
        return named_result(ar.floor_quotient(input, other), "DivBackward2", input, _node_in(other))
    if rounding_mode != "trunc":
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                           f"but found '{rounding_mode}'")
    rd = dtypes.result_type(ar._kind(input), ar._kind(other))
    if rd.kind in "iub":
        a, b = ar._data(input, rd, "div"), ar._data(other, rd, "div")  # (NumPy's, no row)
        if (b == 0).any():
            raise RuntimeError("ZeroDivisionError")
        return _leaf(norm(_trunc_int(a, b)))
    return named_result(ar.div_trunc(input, other), "DivBackward2", input, _node_in(other))


def _node_in(other):
    """A number operand as PyTorch's node shows it (a wrapped tensor: None)."""
    return other if isinstance(other, Tensor) else None


api(divide, name="div")  # torch.div(a, b, rounding_mode=...); x / y stays ew.div


# ---- sums with a scale: torch.add(a, b, alpha=2) is a + 2 * b ----------------------------
def add(input, other, *, alpha=1):
    """``input + alpha * other``, broadcasting (``alpha`` 1: ``input + other``)."""
    if type(alpha) is not int:
        ar.check_alpha(input, other, alpha)
    return ew.add(input, other) if alpha == 1 else ar.add_scaled(input, other, alpha)


def sub(input, other, *, alpha=1):
    """``input - alpha * other``, broadcasting (``alpha`` 1: ``input - other``)."""
    if type(alpha) is not int:
        ar.check_alpha(input, other, alpha)
    return ew.sub(input, other) if alpha == 1 else ar.add_scaled(input, other, alpha, -1.0)


api(add)
api(sub)
api(sub, name="subtract")


# ---- products -----------------------------------------------------------------------------
@api
def inner(input, other):
    """The sums of products over the last dims: shape ``input.shape[:-1] + other.shape[:-1]``
    (a product when either is 0-d)."""
    if input.ndim == 0 or other.ndim == 0:
        return ew.mul(input, other)
    la.same_dtype(input, other, "both")
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but "
                           f"got shapes {list(input.shape)} and {list(other.shape)}")
    n = input.shape[-1]
    out = la.matmul(sh.reshape(input, -1, n), sh.reshape(other, -1, n).mT)
    return sh.reshape(out, *input.shape[:-1], *other.shape[:-1])


@api
def vdot(input, other):
    """The dot product of two 1-D tensors (their conjugate is themselves here)."""
    if input.ndim != 1 or other.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {other.ndim}D "
                           "tensors")
    return la.dot(input, other)


# ---- sorting and diagonals ----------------------------------------------------------------
@api
def msort(input):
    """Sorted along dim 0 (``sort(input, dim=0).values``)."""
    return sh.sort(input, 0)[0]


@api
@node("DiagEmbedBackward0")  # (PyTorch's node for diagflat)
def diagflat(input, offset=0):
    """The flattened input on the ``offset`` diagonal of a square matrix."""
    return sh.diag(sh.reshape(input, -1), offset)


# ---- floating-point pieces ----------------------------------------------------------------
_FrexpResult = named("frexp", ("mantissa", "exponent"))


@api
def frexp(input):
    """``(mantissa, exponent)`` with ``input = mantissa * 2 ** exponent``, ``|mantissa|`` in
    [0.5, 1); the mantissa's gradient is ``1 / 2 ** exponent``."""
    if input.dtype.kind != "f":
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    _, e = np.frexp(host_values(input, "frexp"))  # (the exponents, NumPy's: no row)
    e = e.astype(np.int32)
    one = np.ones(e.shape, input.dtype)
    if (-e < np.finfo(one.dtype).maxexp).all():  # (2 ** -e is finite)
        return _FrexpResult(ew.mul(input, Tensor(np.ldexp(one, -e))), _leaf(norm(e)))
    # a subnormal's 2 ** -e overflows: scaled in two exact halves
    half = -e // 2
    m = ew.mul(ew.mul(input, Tensor(np.ldexp(one, half))), Tensor(np.ldexp(one, -e - half)))
    return _FrexpResult(m, _leaf(norm(e)))


@api
def ldexp(input, other):
    """``input * 2 ** other``."""
    two = Tensor(np.asarray(2.0, input.dtype if input.dtype.kind == "f" else np.float64))
    return ew.mul(input, ew.pow(two, other))


def _integer_op(name, npfn):
    def fn(input, other):
        args = [host_values(x, name) for x in (input, other)]  # (NumPy's values, no row)
        for a in args:
            if a.dtype.kind not in "iub":
                raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                          f"'{dtypes.torch_name(a.dtype)}'")
        if all(a.dtype.kind == "b" for a in args):  # (an integer operand: its kernel's)
            ar.refuse(f"{name}_cpu", args[0].dtype)
        return _leaf(norm(npfn(*args)))
    fn.__name__ = name
    fn.__doc__ = f"``{name}`` of integer tensors, elementwise (broadcasting)."
    return fn


gcd = api(_integer_op("gcd", np.gcd), name="gcd")
lcm = api(_integer_op("lcm", np.lcm), name="lcm")
for _name, _np in (("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or),
                   ("bitwise_xor", np.bitwise_xor), ("bitwise_not", np.invert),
                   ("bitwise_left_shift", np.left_shift),
                   ("bitwise_right_shift", np.right_shift)):
    api(cmp.bitwise(_name, _np), name=_name)


@api
def rsub(input, other, *, alpha=1):
    """``other - alpha * input``."""
    return ew.sub(other, input if alpha == 1 else ew.mul(input, alpha)) if isinstance(
        other, Tensor) else ew.rsub(input if alpha == 1 else ew.mul(input, alpha), other)


# ---- embeddings: input with some positions taken from src ---------------------------------
def _embed(input, src, places, op):
    """``input`` with the flat positions ``places`` (an int array) holding ``src``'s
    elements in order: where(mask, take(src, k), input), so gradients reach both."""
    if not isinstance(src, Tensor):
        raise TypeError(f"{op}(): argument 'src' must be Tensor, not {type(src).__name__}")
    if tuple(places.shape) != tuple(src.shape):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size "
                           f"= {list(src.shape)}, slice size = {list(places.shape)}")
    if src.dtype != input.dtype:
        src = sh.to(src, input.dtype)
    k = np.full(input.numel(), -1, np.int64)
    k[places.reshape(-1)] = np.arange(places.size)
    mask = k >= 0
    if not mask.any():  # (src connected all the same: PyTorch gives it a zero gradient)
        none = Tensor(np.zeros(tuple(input.shape), np.bool_))
        return ew.where(none, red.sum(src), input) if src._rg else sh.clone(input)
    picked = cb.take(src, Tensor(np.where(mask, k, 0).reshape(tuple(input.shape))))
    return ew.where(Tensor(mask.reshape(tuple(input.shape))), picked, input)


def _positions(input):
    return np.arange(input.numel(), dtype=np.int64).reshape(tuple(input.shape))


@api
@node("SelectScatterBackward0")
def select_scatter(input, src, dim, index):
    """``input`` with ``input.select(dim, index)`` replaced by ``src``."""
    d = _wrap_dim(dim, input.ndim, "select_scatter")
    n = input.shape[d]
    if not -n <= index < n:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(input.shape)} at dimension {dim}")
    return _embed(input, src, np.take(_positions(input), index, axis=d), "select_scatter")


@api
@node("SliceScatterBackward0")
def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    """``input`` with the slice ``start:end:step`` of ``dim`` replaced by ``src``."""
    d = _wrap_dim(dim, input.ndim, "slice_scatter")
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    key = (slice(None),) * d + (slice(start, end, step),)
    return _embed(input, src, _positions(input)[key], "slice_scatter")


@api
@node("DiagonalScatterBackward0")
def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """``input`` with ``input.diagonal(offset, dim1, dim2)`` replaced by ``src``."""
    d1, d2 = _wrap_dim(dim1, input.ndim, "diagonal"), _wrap_dim(dim2, input.ndim, "diagonal")
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return _embed(input, src, np.diagonal(_positions(input), offset, d1, d2),
                  "diagonal_scatter")


@api
@node("PutBackward0")
def put(input, index, source, accumulate=False):
    """``input`` with the flat positions ``index`` given ``source``'s values (added to
    them with ``accumulate=True``)."""
    idx = cb.flat_positions(input, index, "put_").reshape(-1)
    if source.dtype != input.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got "
                           f"self.dtype = {dtypes.torch_name(input.dtype)} and source.dtype = "
                           f"{dtypes.torch_name(source.dtype)}")
    if idx.size != source.numel():
        raise RuntimeError(f"put_(): Expected source and index to have the same number of "
                           f"elements, but got source.numel() = {source.numel()}, "
                           f"index.numel() = {idx.size}")
    src = sh.reshape(source, -1)
    if accumulate:
        flat = cb.index_add(sh.reshape(input, -1), 0, Tensor(idx), sh.to(src, input.dtype))
        return sh.reshape(flat, *input.shape)
    return _embed(input, src, idx, "put")


@api
@node("MaskedScatterBackward0")
def masked_scatter(input, mask, source):
    """``input`` with the positions where ``mask`` (broadcast) holds taken from ``source``'s
    leading elements, in row-major order."""
    m = host_values(mask, "masked_scatter")  # (the positions written: no row follows them)
    if m.dtype != np.bool_:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {dtypes.torch_name(m.dtype)}")
    if source.dtype != input.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but "
                           f"got{dtypes.torch_name(input.dtype)} and "
                           f"{dtypes.torch_name(source.dtype)}")
    m = np.broadcast_to(m, tuple(input.shape))
    places = _positions(input)[m]
    if places.size > source.numel():
        raise RuntimeError("Number of elements of source < number of ones in mask")
    src = sh.reshape(source, -1)
    if places.size < source.numel():
        src = sh.narrow(src, 0, 0, places.size)
    return _embed(input, src, places, "masked_scatter")


# ---- strides and splits -------------------------------------------------------------------
def _strided_positions(input, size, stride, storage_offset):
    """The flat positions ``storage_offset + sum(i_k * stride_k)`` of a strided view of
    input's row-major storage, checked against its size."""
    size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    pos = np.full(size, int(storage_offset), np.int64)
    for k, (n, s) in enumerate(zip(size, stride, strict=True)):
        shape = [1] * len(size)
        shape[k] = n
        pos = pos + np.arange(n, dtype=np.int64).reshape(shape) * s
    need = int(pos.max()) + 1 if pos.size else 0
    if need > input.numel() or (pos.size and pos.min() < 0):
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage "
                           f"offset {storage_offset}, and itemsize {input.dtype.itemsize} "
                           f"requiring a storage size of {need * input.dtype.itemsize} are out "
                           f"of bounds for storage of size "
                           f"{input.numel() * input.dtype.itemsize}")
    return pos


@api
def as_strided(input, size, stride, storage_offset=0):
    """The elements at ``storage_offset + sum(i_k * stride_k)`` of input's row-major
    storage, in a tensor of ``size`` (a gather, noted as a view of input: ops/views.py)."""
    pos = _strided_positions(input, size, stride, storage_offset)
    if not pos.size:
        return sh.reshape(sh.narrow(sh.reshape(input, -1), 0, 0, 0), *pos.shape)
    src = np.asarray(input._data)
    view = pos  # (positions; a NumPy strided view of the values, where they are C-ordered,
    if src.flags.c_contiguous:  # so that stride() and storage_offset() read PyTorch's)
        view = np.lib.stride_tricks.as_strided(
            src.reshape(-1)[int(storage_offset):], pos.shape,
            [int(s) * src.itemsize for s in stride], writeable=False)
    out = views.note(cb.take(input, Tensor(pos)), input, src if view is not pos else None,
                     view)
    return named_result(out, "AsStridedBackward0", input)


@api
@node("AsStridedScatterBackward0")
def as_strided_scatter(input, src, size, stride, storage_offset=0):
    """``input`` with the elements of ``as_strided(input, size, stride, storage_offset)``
    replaced by ``src`` (positions the view repeats take src's last value there)."""
    return _embed(input, src, _strided_positions(input, size, stride, storage_offset),
                  "as_strided_scatter")


@api
def split_with_sizes(input, split_sizes, dim=0):
    """Pieces of the given sizes along ``dim`` (they must sum to its size)."""
    d = _wrap_dim(dim, input.ndim, "split_with_sizes")
    sizes = [int(s) for s in split_sizes]
    if sum(sizes) != input.shape[d]:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to "
                           f"{input.shape[d]} (input tensor's size at dimension {d}), but got "
                           f"split_sizes={sizes}")
    return sh.split(input, sizes, d)


def _unsafe(fn, name):
    """``fn`` whose pieces in-place ops may write (PyTorch's unsafe_ variants: no
    multi-output refusal, ops/views.py ``refusal``)."""
    def op(*args, **kwargs):
        return views.unmark(fn(*args, **kwargs))
    op.__name__, op.__doc__ = name, fn.__doc__
    api(op, name=name)


_unsafe(sh.split, "unsafe_split")
_unsafe(sh.chunk, "unsafe_chunk")
_unsafe(split_with_sizes, "unsafe_split_with_sizes")


@api(export=False)
def sum_to_size(input, *size):
    """Summed down to ``size`` (the shape input was expanded from)."""
    if not size:
        raise missing("sum_to_size", "size")
    size = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    shape = tuple(input.shape)
    lead = len(shape) - len(size)
    if lead < 0 or any(s != 1 and s != n for s, n in zip(size, shape[lead:], strict=True)):
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(shape)}}}.")
    out = input
    if lead:
        out = out.sum(tuple(range(lead)))
    pairs = enumerate(zip(size, shape[lead:], strict=True))
    dims = tuple(k for k, (s, n) in pairs if s == 1 and n != 1)
    return out.sum(dims, keepdim=True) if dims else out


# ---- questions and parts of a real tensor -------------------------------------------------
@api
def is_same_size(input, other):
    """True when the shapes are equal."""
    return tuple(input.shape) == tuple(other.shape)


@api
def is_signed(input):
    """True for a dtype that holds negative numbers (floats and signed integers)."""
    return input.dtype.kind in "fi"


def _real_only(name, doc):
    def fn(input):
        return input
    fn.__name__ = name
    fn.__doc__ = doc
    return fn


for _name in ("conj", "resolve_conj", "resolve_neg", "real"):
    api(_real_only(_name, f"``{_name}`` of a real tensor: the tensor itself, as PyTorch."),
        name=_name, method=_name != "real")  # (Tensor.real is a property: tapegrad/compat.py)
@api
def is_conj(input):
    """False: a real tensor carries no conjugate bit."""
    return False


@api
def is_neg(input):
    """False: a real tensor carries no negative bit."""
    return False


@api(method=False)
def imag(input):
    """Refused as PyTorch refuses it: real tensors have no imaginary part."""
    raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")


@api
def conj_physical(input):
    """The conjugate, materialised: the tensor itself for a real tensor."""
    return input


@api
def angle(input):
    """The argument of each element: 0 at and above zero, pi below (nan stays nan); zero
    gradient, as PyTorch's for real input."""
    x = input if input.dtype.kind == "f" else sh.to(input, dtypes.default_float())
    if not x._rg:
        value = Tensor(np.where(np.asarray(x._data) < 0, np.pi, 0.0).astype(x.dtype))
    else:  # recorded from x (a mask of its values would not follow replay): +0.0 times x
        z = ew.mul(ew.where(cmp.isfinite(x), x, 0.0), 0.0)
        z = ew.mul(z, z)
        value = ew.where(cmp.lt(x, 0.0), ew.add(z, math.pi), z)
    return ew.where(cmp.isnan(x), ew.mul(x, 0.0), value)  # (NaN; a zero gradient, as torch)
