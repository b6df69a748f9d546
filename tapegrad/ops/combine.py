"""Shape composites with PyTorch's names: stacking (hstack, vstack, dstack, column_stack,
atleast_*d), splitting (tensor_split, hsplit...), grids (meshgrid, cartesian_prod,
combinations, vander), picking and scattering (take_along_dim, take, repeat_interleave,
scatter, scatter_add, index_add, index_copy, index_fill), and spellings (ravel, unflatten,
broadcast_tensors, fliplr, rot90).  All are written with shape.py's rows: views, GATHER
(picking), PUT (writing) and SCATTER (adding into positions, GATHER's transpose).
"""
import dataclasses
import itertools
import operator
import warnings

import numpy as np

from .. import dtypes
from .._errors import with_note
from ..tensor import Size, Tensor, _leaf, _wrap_dim, host_values, norm
from . import indexing, scans
from . import shape as sh
from . import views
from ._record import named_result, no_derivative, node, output, slot, tape_for_grad
from .registry import api
from .spec import Spec
from .spec import lib as _lib
from .strided import VIEW_NAMES, broadcast_shape


def _tensor(x, op, pos=1, name="input"):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument '{name}' (position {pos}) must be Tensor, not "
                        f"{type(x).__name__}")
    return x


def _seq(tensors, op):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"{op}(): expected Tensor as element {i} in argument 0, but got "
                            f"{type(t).__name__}")
    return tensors


# ---- atleast_*d, stacking ----------------------------------------------------------------
def _atleast(tensors, n, op):
    ts = _seq(tensors, op)
    out = []
    for t in ts:
        if t.ndim == 0:  # (PyTorch's steps, which its node names show: a 0-d reshape)
            t = t.reshape((1,) * n)
        elif t.ndim == 1 and n >= 2:
            t = sh.unsqueeze(t, 0) if n == 2 else sh.unsqueeze(sh.unsqueeze(t, 0), -1)
        elif t.ndim == 2 and n == 3:
            t = sh.unsqueeze(t, -1)
        out.append(t)
    single = len(tensors) == 1 and isinstance(tensors[0], Tensor)
    return out[0] if single else tuple(out)


@api(method=False)
def atleast_1d(*tensors):
    """Each tensor with at least one dimension (0-d becomes shape ``(1,)``)."""
    return _atleast(tensors, 1, "atleast_1d")


@api(method=False)
def atleast_2d(*tensors):
    """Each tensor with at least two dimensions (leading size-1 dims added)."""
    return _atleast(tensors, 2, "atleast_2d")


@api(method=False)
def atleast_3d(*tensors):
    """Each tensor with at least three dimensions (``(n,)`` becomes ``(1, n, 1)``)."""
    return _atleast(tensors, 3, "atleast_3d")


def _listed(tensors, op):
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{op}(): argument 'tensors' (position 1) must be tuple of Tensors, "
                        f"not {type(tensors).__name__}")
    if not tensors:
        raise RuntimeError(f"{op} expects a non-empty TensorList")
    return _seq(tuple(tensors), op)


@api(method=False)
def hstack(tensors):
    """Join along dim 1 (dim 0 for 1-D tensors).

    >>> import tapegrad as tg
    >>> tg.hstack([tg.tensor([1.0]), tg.tensor([2.0, 3.0])]).tolist()
    [1.0, 2.0, 3.0]
    """
    ts = [atleast_1d(t) for t in _listed(tensors, "hstack")]
    return sh.cat(ts, 0 if ts[0].ndim == 1 else 1)


@api(method=False)
def vstack(tensors):
    """Join along dim 0, 1-D tensors as rows."""
    return sh.cat([atleast_2d(t) for t in _listed(tensors, "vstack")], 0)


@api(method=False)
def row_stack(tensors):
    """vstack's other name."""
    return vstack(tensors)


@api(method=False)
def dstack(tensors):
    """Join along dim 2 (the depth), after atleast_3d."""
    return sh.cat([atleast_3d(t) for t in _listed(tensors, "dstack")], 2)


@api(method=False)
def column_stack(tensors):
    """Join as columns: 0-d and 1-D tensors become columns, the rest join along dim 1."""
    ts = [t.reshape(t.numel(), 1) if t.ndim <= 1 else t
          for t in _listed(tensors, "column_stack")]
    return sh.cat(ts, 1)


# ---- splitting -----------------------------------------------------------------------------
@api
def tensor_split(input, indices_or_sections, dim=0):
    """Split into ``n`` nearly equal parts (the first ``size % n`` one longer), or at the
    given indices, along ``dim``: a tuple of views."""
    _tensor(input, "tensor_split")
    if input.ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a "
                           "tensor with 0 dims")
    d = _wrap_dim(dim, input.ndim, "tensor_split")
    size = input.shape[d]
    ios = indices_or_sections
    if isinstance(ios, Tensor):
        ios = ios.tolist() if ios.ndim else int(ios.item())
    if isinstance(ios, (int, np.integer)):
        n = int(ios)
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        q, r = divmod(size, n)
        bounds = list(itertools.accumulate([q + 1] * r + [q] * (n - r)))[:-1]
    else:
        bounds = [operator.index(i) for i in ios]
    starts = [0] + bounds
    ends = bounds + [size]
    out = []
    for a, b in zip(starts, ends, strict=True):
        a = min(max(a + size if a < 0 else a, 0), size)
        b = min(max(b + size if b < 0 else b, 0), size)
        out.append(sh.narrow(input, d, a, max(b - a, 0)))
    return tuple(out)


def _split_dir(input, ios, dim, op, need):
    _tensor(input, op)
    if input.ndim < need:
        raise RuntimeError(f"torch.{op} requires a tensor with at least {need} dimension, but "
                           f"got a tensor with {input.ndim} dimensions!")
    if isinstance(ios, (int, np.integer)) and input.shape[dim] % ios:
        raise RuntimeError(f"torch.{op} attempted to split along dimension {dim}, but the size "
                           f"of the dimension {input.shape[dim]} is not divisible by the split_"
                           f"size {ios}!")
    return tensor_split(input, ios, dim)


@api
def hsplit(input, indices_or_sections):
    """tensor_split along dim 1 (dim 0 for 1-D), equal parts only."""
    return _split_dir(input, indices_or_sections, 0 if input.ndim == 1 else 1, "hsplit", 1)


@api
def vsplit(input, indices_or_sections):
    """tensor_split along dim 0, equal parts only."""
    return _split_dir(input, indices_or_sections, 0, "vsplit", 2)


@api
def dsplit(input, indices_or_sections):
    """tensor_split along dim 2, equal parts only."""
    return _split_dir(input, indices_or_sections, 2, "dsplit", 3)


# ---- grids ----------------------------------------------------------------------------
@api(method=False)
def meshgrid(*tensors, indexing=None):
    """Coordinate grids of 0-d or 1-D tensors: ``indexing='ij'`` (the default, as PyTorch)
    gives shape ``(len(a), len(b), ...)``; ``'xy'`` swaps the first two."""
    ts = _seq(tensors, "meshgrid")
    if not ts:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    indexing = "ij" if indexing is None else indexing
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f"torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but "
                           f"received: {indexing}")
    for t in ts:
        if t.ndim > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list "
                               f"but got: {t}")
    ts = [t.reshape(-1) for t in ts]
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    sizes = [t.shape[0] for t in ts]
    out = []
    for i, t in enumerate(ts):
        view = [1] * len(ts)
        view[i] = sizes[i]
        out.append(sh.expand(t.reshape(view), *sizes))
    if swap:  # the first two inputs' grids, in the inputs' order
        out[0], out[1] = out[1], out[0]
    return tuple(out)


@api(method=False)
def cartesian_prod(*tensors):
    """Every combination of the 1-D tensors' elements, one per row (a single tensor: itself)."""
    ts = _seq(tensors, "cartesian_prod")
    if len(ts) == 1:
        return ts[0]
    grids = meshgrid(*ts, indexing="ij")
    return sh.stack([g.reshape(-1) for g in grids], 1)


@api(method=False)
def combinations(input, r=2, with_replacement=False):
    """The length-``r`` combinations of a 1-D tensor's elements, one per row."""
    _tensor(input, "combinations")
    if input.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return _leaf(norm(np.zeros(0, input.dtype)))
    pick = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    idx = np.array(list(pick(range(input.shape[0]), r)), np.int64).reshape(-1, r)
    return named_result(input[Tensor(idx)], "StackBackward0", input)  # (PyTorch stacks)


@api(method=False)
def vander(x, N=None, increasing=False):  # noqa: N803 (PyTorch's name)
    """The Vandermonde matrix: columns ``x^(N-1) .. x^0`` (``x^0 .. x^(N-1)`` increasing),
    built by cumulative products as PyTorch does."""
    _tensor(x, "vander", name="x")
    if x.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    if x.dtype.kind == "b" or (x.dtype.kind == "i" and x.dtype != np.int64):
        x = sh.to(x, np.int64)
    ones = Tensor(np.ones((x.shape[0], min(n, 1)), x.dtype))
    if n <= 1:
        out = ones
    else:
        out = sh.cat([ones, scans.cumprod(sh.expand(x.unsqueeze(1), x.shape[0], n - 1), 1)], 1)
    return out if increasing else sh.flip(out, 1)


# ---- picking ------------------------------------------------------------------------------
@api
@node("TakeBackward0")
def take(input, index):
    """The elements at the flat positions ``index`` (any shape)."""
    _tensor(input, "take")
    idx = flat_positions(input, index, "take")
    return sh._gathered(input, sh._arr(input), idx, "IndexBackward0") if input.ndim else \
        input.reshape(-1)[Tensor(idx)]


def flat_positions(input, index, op):
    """``index`` as flat positions of input (negative ones counted from the end), checked:
    take's and put's reading of an index."""
    idx = sh._index_array(index, op, op + "(): Expected a long tensor for index, but got {}",
                          sh.LONG)
    n = input.numel()
    bad = idx[(idx < -n) | (idx >= n)]
    if bad.size:
        raise IndexError(f"out of range: tried to access index {int(bad.flat[0])} on a tensor "
                         f"of {n} elements.")
    return np.where(idx < 0, idx + n, idx)


@api
def take_along_dim(input, indices, dim=None):
    """``gather`` with ``indices`` broadcast against input (all but ``dim``); ``dim=None``
    picks from the flattened input."""
    _tensor(input, "take_along_dim")
    _tensor(indices, "take_along_dim", 2, "indices")
    if indices.dtype != np.int64:
        raise RuntimeError("torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{dtypes.torch_name(indices.dtype)}")
    if dim is None:
        return sh.gather(input.reshape(-1), 0, indices.reshape(-1))
    if input.ndim != indices.ndim:
        raise RuntimeError("torch.take_along_dim(): input and indices should have the same "
                           f"number of dimensions, but got {input.ndim} dimensions for input, "
                           f"and {indices.ndim} dimensions for indices")
    d = _wrap_dim(dim, input.ndim, "take_along_dim")
    ishape, jshape = list(input.shape), list(indices.shape)
    ishape[d], jshape[d] = 1, 1
    b = list(np.broadcast_shapes(tuple(ishape), tuple(jshape)))
    bi, bj = list(b), list(b)
    bi[d], bj[d] = input.shape[d], indices.shape[d]
    x = sh.expand(input, *bi) if list(input.shape) != bi else input
    idx = np.broadcast_to(host_values(indices, "take_along_dim"), bj)
    return sh.gather(x, d, np.ascontiguousarray(idx))


@api
def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each element (each slice along ``dim``; of the flattened input when None) repeated
    ``repeats`` times (an int, or one count per element).  ``repeat_interleave(counts)``
    repeats the indices ``0 .. len(counts) - 1``."""
    _tensor(input, "repeat_interleave")
    if repeats is None:  # the one-argument form
        counts = host_values(input, "repeat_interleave")
        if counts.ndim > 1 or counts.dtype.kind not in "iu":
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        if (counts < 0).any():
            raise RuntimeError("repeats can not be negative")
        return _leaf(norm(np.repeat(np.arange(counts.size, dtype=np.int64), counts)))
    x = input.reshape(-1) if dim is None else input
    d = 0 if dim is None else _wrap_dim(dim, input.ndim, "repeat_interleave")
    if x.ndim == 0:
        x = x.reshape(1)
    n = x.shape[d]
    r = host_values(repeats, "repeat_interleave")
    if r.dtype.kind not in "iu":
        raise RuntimeError("repeat_interleave: repeats must be an int or an integer tensor")
    if r.ndim > 1:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    if (r < 0).any():
        raise RuntimeError("repeats can not be negative")
    if r.ndim == 1 and r.size not in (1, n):
        raise RuntimeError(f"repeats must have the same size as input along dim, but got "
                           f"repeats.size(0) = {r.size} and input.size({d}) = {n}")
    index = np.repeat(np.arange(n, dtype=np.int64), r.reshape(-1) if r.size != 1 else
                      int(r.reshape(-1)[0]))  # (NumPy 2 refuses int() of a 1-element 1-D array)
    out = sh.index_select(x, d, index)
    # PyTorch repeats by a number as expand then reshape: its node is the reshape's
    return out if isinstance(repeats, Tensor) else named_result(out, "ViewBackward0", input)


# ---- scattering ----------------------------------------------------------------------
def _targets(shape, dim, index, op):
    """Flat positions into ``shape``: for each element of ``index``, its own coordinates
    with ``dim``'s replaced by its value (scatter's rule)."""
    nd = max(len(shape), 1)
    shape = tuple(shape) or (1,)
    idx = index.reshape(index.shape or (1,))
    if idx.ndim != nd:
        raise RuntimeError("Index tensor must have the same number of dimensions as self "
                           "tensor")
    for j, (a, b) in enumerate(zip(idx.shape, shape)):
        if j != dim and a > b:
            raise RuntimeError(f"Expected index {list(index.shape)} to be no larger than self "
                               f"{list(shape)} apart from dimension {dim}")
    bad = idx[(idx < 0) | (idx >= shape[dim])]
    if bad.size:
        raise RuntimeError(f"index {int(bad.flat[0])} is out of bounds for dimension {dim} "
                           f"with size {shape[dim]}")
    grids = list(np.indices(idx.shape, sparse=True))
    grids[dim] = idx
    return np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)[tuple(grids)]


def _src_part(src, shape, op):
    """The elements of ``src`` at the positions of an index of ``shape`` (its leading block)."""
    if tuple(src.shape) == tuple(shape):
        return src
    for j, (a, b) in enumerate(zip(shape, src.shape)):
        if a > b:
            raise RuntimeError(f"Expected index {list(shape)} to be no larger than src "
                               f"{list(src.shape)} in dimension {j}")
    flat = np.arange(src.numel(), dtype=np.int64).reshape(tuple(src.shape))
    pos = flat[tuple(slice(0, n) for n in shape)]
    return sh._gathered(src, sh._arr(src), np.ascontiguousarray(pos), "GatherBackward0")


def _index_arg(index, op):
    """scatter's index: an int32 or int64 tensor (PyTorch's words name scatter for all)."""
    if not isinstance(index, Tensor) or index.dtype not in sh.INT_OR_LONG:
        raise with_note(RuntimeError("scatter(): Expected dtype int32/int64 for index"),
                        f"{op}(): index of {getattr(index, 'dtype', type(index).__name__)}")
    return host_values(index, op).astype(np.int64, copy=False)


def _add_at(input, pos, src):
    """``input`` with ``src`` (same shape as ``pos``) added at flat positions ``pos``
    (repeats accumulate): a SCATTER row of src (when it requires grad), plus input."""
    value = np.zeros(input.numel(), input.dtype)
    np.add.at(value, pos.reshape(-1), np.asarray(src._data, input.dtype).reshape(-1))
    value = norm(value.reshape(tuple(input.shape)))
    if not sh._record_on(src):
        return input + _leaf(value) if sh._record_on(input) else \
            _leaf(norm(sh._arr(input) + value))
    tape = tape_for_grad()
    k = tape.push_meta(np.concatenate(([VIEW_NAMES.index("IndexBackward0")], pos.reshape(-1))))
    return input + output(tape, value, sh.SCATTER, slot(src, tape), -1, k)


def _put_at(input, pos, src):
    """``input`` with ``src`` (a tensor of pos's shape, or a 0-d one) written at ``pos``."""
    if not sh._record_on(input, src):
        out = np.array(sh._arr(input), copy=True)
        out.reshape(-1)[pos.reshape(-1)] = np.broadcast_to(
            np.asarray(src._data, out.dtype), pos.shape).reshape(-1)
        return _leaf(norm(out))
    return sh.put(input, src, pos)


_SCATTER_REDUCE = ("The reduce argument of torch.scatter with Tensor src is deprecated and "
                   "will be removed in a future PyTorch release. Use torch.scatter_reduce "
                   "instead for more reduction options.")


@api
def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    """``input`` with ``src``'s elements (or ``value``) written along ``dim`` at ``index``:
    ``out[index[i][j]][j] = src[i][j]`` (dim 0); with PyTorch's deprecated ``reduce``
    ('add' or 'multiply') combined with what is there instead, without a derivative (as
    PyTorch's: use scatter_add or scatter_reduce for one)."""
    _tensor(input, "scatter")
    if src is None and value is None:
        raise TypeError("scatter() missing 1 required positional argument: 'src' or 'value'")
    if src is None:
        src = value
    d = _wrap_dim(dim, input.ndim, "scatter")
    idx = _index_arg(index, "scatter")
    if reduce is not None and reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    pos = _targets(tuple(input.shape), d, idx, "scatter")
    if isinstance(src, Tensor):
        if src.dtype != input.dtype:
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        part = _src_part(src, idx.shape, "scatter")
    else:
        dtypes.check_fits(src, input.dtype)
        part = Tensor(np.asarray(src, input.dtype))
    if reduce is not None:
        if isinstance(src, Tensor):  # (PyTorch's words; its warning is once a process)
            warnings.warn(_SCATTER_REDUCE, UserWarning, stacklevel=2)
        return _reduced_at(input, pos, part, src, reduce)
    out = _put_at(input, pos, part)
    if out._tok is None:
        return out
    tensor_src = isinstance(src, Tensor)  # (PyTorch's node leads to input and src)
    return named_result(out, f"ScatterBackward{int(not tensor_src)}", input,
                        *([src] if tensor_src else []))


def _reduced_at(input, pos, part, src, reduce):
    """scatter's ``reduce``: NumPy's unbuffered add/multiply at ``pos`` (repeats combine),
    a result whose backward raises PyTorch's 'derivative ... not implemented'."""
    # (read as host values: while tracing the result is a constant of the rows, guarded)
    value = np.array(host_values(input, "scatter"), copy=True)
    vals = np.broadcast_to(np.asarray(host_values(part, "scatter"), value.dtype),
                           pos.shape).reshape(-1)
    (np.add if reduce == "add" else np.multiply).at(value.reshape(-1), pos.reshape(-1), vals)
    value = norm(value)
    if not sh._record_on(input, *([src] if isinstance(src, Tensor) else [])):
        return _leaf(value)
    return no_derivative("scatter", value, input, *([src] if isinstance(src, Tensor) else []))


@api
@node("ScatterAddBackward0")
def scatter_add(input, dim, index, src):
    """``input`` with ``src``'s elements added along ``dim`` at ``index`` (repeats add up)."""
    _tensor(input, "scatter_add")
    _tensor(src, "scatter_add", 4, "src")
    if src.dtype != input.dtype:  # (PyTorch's words name scatter)
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    d = _wrap_dim(dim, input.ndim, "scatter_add")
    idx = _index_arg(index, "scatter_add")
    pos = _targets(tuple(input.shape), d, idx, "scatter_add")
    return _add_at(input, pos, _src_part(src, idx.shape, "scatter_add"))


# PyTorch's index dtypes per op, and its refusal of another ({}: the dtype's name)
_INDEX_DTYPES = {
    "index_add": (sh.INT_OR_LONG, RuntimeError,
                  "index_add_(): Expected dtype int32/int64 for index but got: {}"),
    "index_copy": (sh.LONG, RuntimeError,
                   "index_copy_(): Expected a long tensor for index, but got {}"),
    "index_fill": (sh.LONG, IndexError, "index_fill_(): Expected dtype int64 for index.")}


def _index_positions(input, dim, index, op, source_shape=None):
    d = _wrap_dim(dim, input.ndim, op)
    a = host_values(index, op)
    if a.ndim > 1:
        raise IndexError(f"{op}_(): Index is supposed to be a vector, but got dim: {a.ndim} "
                         f"with type: {dtypes.torch_name(a.dtype)} and size: {list(a.shape)}")
    idx = sh._index_array(index, op, _INDEX_DTYPES[op][2], *_INDEX_DTYPES[op][:2])
    idx = idx.reshape(-1)
    size = input.shape[d] if input.ndim else 1
    # (index_fill counts a negative index from the end; index_add and index_copy refuse it)
    bad = idx[(idx < (-size if op == "index_fill" else 0)) | (idx >= size)]
    if bad.size:  # (PyTorch's words per kernel: index_add's a RuntimeError)
        msg = f"index {bad[0]} is out of bounds for dimension {d} with size {size}"
        raise (RuntimeError if op == "index_add" else IndexError)(
            f"index_copy_(): {msg}" if op == "index_copy" else msg)
    idx = np.where(idx < 0, idx + size, idx)
    flat = np.arange(input.numel(), dtype=np.int64).reshape(tuple(input.shape) or (1,))
    return d, np.take(flat, idx, axis=d if input.ndim else 0)


@api
@node("IndexAddBackward0")
def index_add(input, dim, index, source, *, alpha=1):
    """``input`` with ``alpha * source``'s slices added at the positions ``index`` of dim."""
    _tensor(input, "index_add")
    d, pos = _index_positions(input, dim, index, "index_add")
    if isinstance(source, Tensor) and source.dtype != input.dtype:
        raise RuntimeError(f"index_add_(): self ({dtypes.torch_name(input.dtype)}) and source "
                           f"({dtypes.torch_name(source.dtype)}) must have the same scalar type")
    src = source * alpha if alpha != 1 else source
    if tuple(src.shape) != pos.shape:
        raise RuntimeError(f"index_add_(): Source/destination tensor must have same slice "
                           f"shapes. Destination slice shape: {list(pos.shape)} at dimension "
                           f"{d} and source slice shape: {list(src.shape)}")
    return _add_at(input, pos, src)


@api
@node("IndexPutBackward0")
def index_put(input, indices, values, accumulate=False):
    """``input`` with ``values`` (broadcast) written at ``input[indices]`` (a tuple of index
    tensors), or added there with ``accumulate`` (repeated positions add up)."""
    _tensor(input, "index_put")
    # (indexing's checks: PyTorch's words for a float index or one out of bounds)
    key = tuple(indexing._index(i) if isinstance(i, Tensor) else i for i in indices)
    indexing._check_key(input, key)
    pos = sh._flat_index(tuple(input.shape))[key]
    v = values if isinstance(values, Tensor) else Tensor(np.asarray(values, input.dtype))
    if v.dtype != input.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{dtypes.torch_name(input.dtype)} for the destination "
                           f"and {dtypes.torch_name(v.dtype)} for the source.")
    try:
        np.broadcast_shapes(tuple(v.shape), pos.shape)
    except ValueError:
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(v.shape)} cannot be "
                           f"broadcast to indexing result of shape {list(pos.shape)}") from None
    part = sh.expand(v, *pos.shape) if tuple(v.shape) != pos.shape else v
    return _add_at(input, pos, part) if accumulate else _put_at(input, pos, part)


@api(export=False)
@node("UnfoldBackward0")
def unfold(input, dimension, size, step):
    """Windows of ``size`` elements, ``step`` apart, along ``dimension``: that dim becomes
    the number of windows and a new last dim holds each window (PyTorch's view; here a
    gather, noted as a view of input: ops/views.py)."""
    _tensor(input, "unfold")
    d = _wrap_dim(dimension, max(input.ndim, 1), "unfold")
    length = input.shape[d] if input.ndim else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {length} but size is "
                           f"{size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    n = (length - size) // step + 1
    windows = Tensor(np.arange(n)[:, None] * step + np.arange(size))
    y = sh.movedim(input, d, -1)[..., windows]  # (..., n, size)
    src = np.asarray(input._data)
    if not input.ndim:
        return views.note(sh.movedim(y, -2, d), input, None, windows._data)
    st = src.strides
    view = np.lib.stride_tricks.as_strided(  # (its NumPy view: positions and layout)
        src, src.shape[:d] + (n,) + src.shape[d + 1:] + (size,),
        st[:d] + (st[d] * step,) + st[d + 1:] + (st[d],), writeable=False)
    return views.note(sh.movedim(y, -2, d), input, src, view)


@api
@node("IndexCopyBackward0")
def index_copy(input, dim, index, source):
    """``input`` with the slices ``index`` of dim replaced by ``source``'s."""
    _tensor(input, "index_copy")
    d, pos = _index_positions(input, dim, index, "index_copy")
    if isinstance(source, Tensor) and source.dtype != input.dtype:
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, "
                           f"but got (self) {dtypes.torch_name(input.dtype)} and (source) "
                           f"{dtypes.torch_name(source.dtype)}")
    if tuple(source.shape) != pos.shape:
        raise RuntimeError("index_copy_(): Source/destination tensor must have same slice "
                           "shapes")
    return _put_at(input, pos, source)


@api
def index_fill(input, dim, index, value):
    """``input`` with the slices ``index`` of dim set to ``value``."""
    _tensor(input, "index_fill")
    _, pos = _index_positions(input, dim, index, "index_fill")
    dtypes.check_fits(value, input.dtype)
    if isinstance(value, Tensor):
        return named_result(_put_at(input, pos, value), "IndexFillBackward1", input, value)
    return named_result(_put_at(input, pos, Tensor(np.asarray(value, input.dtype))),
                        "IndexFillBackward0", input)


# ---- spellings -------------------------------------------------------------------------
@api
def ravel(input):
    """The elements as a 1-D tensor."""
    return _tensor(input, "ravel").reshape(-1)


@api
def unflatten(input, dim, sizes):
    """Dimension ``dim`` split into ``sizes`` (one of them may be -1)."""
    _tensor(input, "unflatten")
    d = _wrap_dim(dim, input.ndim, "unflatten")
    sizes = tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    shape = tuple(input.shape)
    known = int(np.prod([s for s in sizes if s != -1]))
    if -1 not in sizes and known != shape[d]:
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the "
                           f"size of dim {dim} ({shape[d]}) in the input tensor")
    return input.reshape(shape[:d] + sizes + shape[d + 1:])


@api(method=False)
def broadcast_tensors(*tensors):
    """The tensors expanded to their common broadcast shape."""
    ts = _seq(tensors, "broadcast_tensors")
    shape = ()
    for t in ts:  # (PyTorch's "The size of tensor a ..." error where two clash)
        shape = broadcast_shape("broadcast_tensors", shape, tuple(t.shape))
    return tuple(t if tuple(t.shape) == shape else sh.expand(t, *shape) for t in ts)


@api(method=False)
def broadcast_shapes(*shapes):
    """The shape that ``shapes`` broadcast to."""
    shapes = [(s,) if isinstance(s, int) else s for s in shapes]
    try:
        return Size(np.broadcast_shapes(*[tuple(s) for s in shapes]))
    except ValueError:
        raise RuntimeError(_broadcast_refusal(shapes)) from None


def _broadcast_refusal(shapes):
    """PyTorch's words for the first dim, right to left and shape by shape, that does not
    broadcast with the shape the earlier ones make."""
    common = [1] * max(len(s) for s in shapes)
    for k, shape in enumerate(shapes):
        for i in range(-1, -1 - len(shape), -1):
            if common[i] == 1:
                common[i] = shape[i]
            if shape[i] not in (1, common[i]):
                return (f"Attempting to broadcast a dimension of length {shape[i]} at {i}! "
                        f"Mismatching argument at index {k} had {shape}; but expected shape "
                        f"should be broadcastable to {common}")
    return "Shape mismatch: objects cannot be broadcast to a single shape"


@api
def fliplr(input):
    """Reverse dim 1."""
    if _tensor(input, "fliplr").ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return sh.flip(input, 1)


@api
def flipud(input):
    """Reverse dim 0."""
    if _tensor(input, "flipud").ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return sh.flip(input, 0)


@api
@node("Rot90Backward0")
def rot90(input, k=1, dims=(0, 1)):
    """Rotate by ``k`` quarter turns in the plane of ``dims`` (from the first toward the
    second)."""
    _tensor(input, "rot90")
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if input.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {input.ndim}")
    a, b = (_wrap_dim(x, input.ndim, "rot90") for x in dims)
    if a == b:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {a} and "
                           f"dim1 = {b}")
    k %= 4
    if k == 1:
        return sh.flip(input, b).transpose(a, b)
    if k == 2:
        return sh.flip(input, a, b)
    if k == 3:
        return sh.flip(input, a).transpose(a, b)
    return sh.clone(input)


def _scatter_index(shape):
    # a fixed index of `shape` with a repeat: rows 0 and 1 of each column both land on row 0
    return np.zeros(shape, np.int64) if shape[0] < 2 else \
        np.concatenate([np.zeros((2,) + shape[1:], np.int64),
                        np.arange(2, shape[0]).repeat(int(np.prod(shape[1:]))).reshape(
                            (shape[0] - 2,) + shape[1:])])


def _scatter_add_ref(np_, a, b):
    idx = _scatter_index(b.shape)
    onehot = (idx[None] == np.arange(a.shape[0]).reshape((-1,) + (1,) * b.ndim)).astype(float)
    return a + np_.sum(onehot * b[None], axis=1)


_TAKE = np.array([[2, 0], [1, 1]])


def _repeat_ref(np_, x):
    if np.ndim(x) == 0:  # (HIPS autograd's repeat has no VJP at 0-d: random programs skip it)
        raise IndexError("repeat_interleave's row: at least 1-d")
    return np_.repeat(x, 2, axis=0)


def _take_ref(x):
    if np.ndim(x) != 2 or np.shape(x)[0] != 2 or np.shape(x)[1] < 3:
        raise IndexError("take_along_dim's row: a (2, >= 3) input")  # (random programs)
    return x[np.arange(2)[:, None], _TAKE]


SPECS = [
    Spec("hstack", lambda a, b: _lib(a).hstack([a, b]),
         lambda np_, a, b: np_.concatenate([a, b], 0 if a.ndim == 1 else 1), arity=2,
         shapes=((3,), (2, 3))),
    Spec("vstack", lambda a, b: _lib(a).vstack([a, b]), lambda np_, a, b: np_.concatenate(
         [a.reshape((-1,) + a.shape[-1:]) if a.ndim else a.reshape(1, 1),
          b.reshape((-1,) + b.shape[-1:]) if b.ndim else b.reshape(1, 1)], 0), arity=2),
    Spec("meshgrid", lambda a, b: _lib(a).meshgrid(a, b, indexing="ij")[0] *
         _lib(a).meshgrid(a, b, indexing="ij")[1], lambda np_, a, b: a[:, None] * b[None, :],
         arity=2, shapes=((3,),)),
    Spec("repeat_interleave", lambda x: x.repeat_interleave(2, dim=0),
         lambda np_, x: _repeat_ref(np_, x), shapes=((3,), (2, 3))),
    Spec("take_along_dim", lambda x: _lib(x).take_along_dim(x, _lib(x).tensor(_TAKE), -1),
         lambda np_, x: _take_ref(x), shapes=((2, 3),)),
    Spec("scatter_add", lambda a, b: a.scatter_add(0, _lib(a).tensor(_scatter_index(
         tuple(b.shape))), b), _scatter_add_ref, arity=2, shapes=((3,), (3, 2))),
    Spec("index_add", lambda a, b: a.index_add(0, _lib(a).tensor([1, 1, 0]), b, alpha=2.0),
         lambda np_, a, b: a + 2.0 * np_.stack([b[2], b[0] + b[1], 0 * b[2]]) if a.shape[0] == 3
         else None, arity=2, shapes=((3,), (3, 2))),
]
SPECS = [dataclasses.replace(spec, shapes=spec.shapes[-1:]) for spec in SPECS]  # (one shape:
#                                           a composite's rows are checked by their own rows)
