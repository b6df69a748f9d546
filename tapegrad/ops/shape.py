"""Shape ops: broadcasting (EXPAND), flat copies (VIEW), strided views (STRIDED), indexing
(GATHER), concatenation (CAT, STACK) and masked_fill.  All but masked_fill move values
without arithmetic, so each reverse rule is an accumulating copy; repeated targets
(broadcast, repeated indices, a tensor concatenated twice) accumulate.

Most ops here are a re-indexing of one input and need no rule of their own: a strided
view (transpose, narrow, select, flip, repeat, basic indexing...) is a STRIDED row whose
meta holds a base, a shape and (possibly negative or zero) strides; any other re-indexing
(fancy indexing, gather, index_select, roll) is a GATHER row whose meta lists the flat
source index of every output element.  Either meta starts with the index of the op's
PyTorch node name in VIEW_NAMES.

Rules that move elements take ``w``, the number of points side by side in each element
(1 for one point; the block width in batch replay, where element ``i`` of a slot holds
values ``[o + i*w, o + (i+1)*w)``).  Elementwise rules need no ``w``: they see ``n*w``.
Offsets, sizes and ``w`` arrive unsigned (see _sweep.py); meta positions are signed, so
``_u``/``_s`` convert at the few places where the two meet.

Every op checks its arguments before it touches the tape: a bad call raises PyTorch's
message and records nothing.
"""
import itertools
import operator
import sys

import numpy as np

from .. import dtypes
from .._errors import missing, with_note
from .._fp import call as quiet_call
from .._jit import rule
from .._rules import _s, _u, reach_input
from .._state import state
from ..device import parse_to
from ..return_types import named
from ..tensor import (COMPLEX_HOOKS, TRACE_HOOKS, EagerOnlyError, Tensor, _leaf, _nonleaf,
                      add_view,
                      _wrap_dim, host_values, norm)
from ..typenames import typename
from ._record import named_result, node, output, slot, tape_for_grad
from .control import _traced, eq, escape, ge, gt, guard, le, lt, ne
from .elementwise import add, mul, pass_rev, pass_tan, where
from . import layout, std_sort, views
from .registry import BY_NAME, ZERO, api, declare, meta_list
from .spec import Spec
from .spec import lib as _lib
from .strided import (
    STRIDED,
    VIEW_NAMES,
    _c_strides,
    _strided_meta,
    _view_name,
    broadcast_shape,
    expand_slot,
    view_names_layout,
)


def _prod(xs):
    n = 1
    for x in xs:
        n *= x
    return n


def _store(a):
    """Storage form of a result the caller owns: float for 0-d float64, else C order.
    (np.ascontiguousarray would turn a 0-d array into shape (1,).)"""
    a = np.asarray(a)
    if a.ndim == 0:
        return float(a) if a.dtype == np.float64 else a
    return np.ascontiguousarray(a)


def _arr(x):
    """x's values as an ndarray.  A 0-d float64 tensor holds a Python float, so this is a
    fresh array on every call: derive every view of one op from one call."""
    return np.asarray(x._data)


def _sizes(sizes):
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = sizes[0]
    try:
        if any(isinstance(s, (bool, np.bool_)) for s in sizes):
            raise TypeError
        return tuple(operator.index(s) for s in sizes)
    except TypeError:  # reshape('a'): name the op and the argument, as PyTorch
        bad = next((s for s in sizes if isinstance(s, (bool, np.bool_))
                    or not hasattr(type(s), "__index__")), sizes[0])  # (a float ndarray
        op = sys._getframe(1).f_code.co_name  # has __index__, and refuses it)
        raise TypeError(f"{op}(): argument 'shape' must be tuple of ints, not "
                        f"{type(bad).__name__}") from None


def _dims_arg(dims):
    return tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)


def _record_on(*ts):
    if state.grad_enabled:  # (a loop: any() of a generator cost ~1 us a view, issue 20)
        for t in ts:
            if t._rg:
                return True
    return False


def _view_base(src, key):
    """The element offset of the view ``src[key]`` for a key of ints and slices (an Ellipsis
    last at most), read from the key: a view's ``__array_interface__`` costs ~2 us a read,
    the larger part of slicing a small tensor (an LSTM's gates[:, :H]).  None otherwise."""
    base = 0
    last = len(key) - 1
    for i, (k, n, st) in enumerate(zip(key, src.shape, src.strides, strict=False)):
        if type(k) is int:
            base += (k + n if k < 0 else k) * st
        elif type(k) is slice:
            base += k.indices(n)[0] * st
        elif k is not Ellipsis or i != last:
            return None
    return base // src.itemsize


def _strided(x, src, view, name, shape=None, key=None, alias=True, base=None):
    """Record ``view``, a NumPy view of ``src = _arr(x)``, as a STRIDED row; the result is a
    copy of the view, reshaped to ``shape`` if given (repeat views a 2k-d expansion).
    ``key``: the view is ``src[key]`` (``()`` for a transpose), so its offset is known
    (_view_base); ``base``: that offset, given by a caller that knows it (narrow).
    ``alias``: a view in PyTorch, so in-place ops on the result write through to x
    (ops/views.py); flip and repeat copy there too."""
    value = np.array(view)
    value = _store(value.reshape(shape) if shape is not None else value)
    if not _record_on(x):
        return views.note(_leaf(value), x, src, view) if alias else _leaf(value)
    item = src.itemsize
    if base is None and key is not None and view.size:
        base = _view_base(src, key)
    if base is None:
        base = (view.__array_interface__["data"][0] - src.__array_interface__["data"][0]) // item
    strides = [st // item for st in view.strides]
    if view.size:  # the map must stay inside x: the compiled rules do not check
        lo = hi = base
        for n, st in zip(view.shape, strides):
            if st < 0:
                lo += (n - 1) * st
            else:
                hi += (n - 1) * st
        if not 0 <= lo <= hi < src.size:
            raise AssertionError(f"tapegrad internal error: {name} view of a tensor of shape "
                                 f"{src.shape} reaches elements {lo}..{hi}")
    out = _record_strided(x, value, name, view.shape, strides, base)
    return views.note(out, x, src, view) if alias else out


def _record_strided(x, value, name, shape, strides, base):
    """The STRIDED row of a view of ``x`` (element strides and base offset) whose copy is
    ``value``."""
    tape = tape_for_grad()
    sx = slot(x, tape, False)  # (STRIDED's rule reads no value: Tape.push_array's keep)
    k = tape.push_meta([_VIEW_CODE[name], len(shape), base, *shape, *strides])  # (_strided_meta)
    return output(tape, value, STRIDED, sx, -1, k, False)


_VIEW_CODE = {name: i for i, name in enumerate(VIEW_NAMES)}  # (tuple.index: ~0.3 us a view)


@api
def expand(input, *sizes):
    """Broadcast to ``sizes`` (-1 keeps a dimension) without copying in PyTorch.

    >>> import tapegrad as tg
    >>> tg.tensor([1.0, 2.0]).expand(2, -1).shape
    torch.Size([2, 2])
    """
    if not sizes and input.ndim:  # (a 0-d input to no sizes: tapegrad's own calls)
        raise missing("expand", "size")
    sizes = _sizes(sizes)
    return _expand(input, sizes, "expand")


@api
def broadcast_to(input, *sizes, size=None):
    """``input`` broadcast to ``size`` (PyTorch's expand); the sizes may come apart, as
    PyTorch's method takes them (``x.broadcast_to(2, 3)``).

    >>> import tapegrad as tg
    >>> tg.broadcast_to(tg.tensor(1.0), (2,)).tolist()
    [1.0, 1.0]
    """
    if not sizes and size is None and input.ndim:
        raise missing("broadcast_to", "size")
    return _expand(input, _sizes(sizes if size is None else (size,)), "broadcast_to")


def _expand(input, sizes, op):
    lead = len(sizes) - input.ndim
    if lead < 0:
        raise with_note(RuntimeError(
            f"expand({typename(input)}{{{list(input.shape)}}}, size={list(sizes)}): the number "
            f"of sizes provided ({len(sizes)}) must be greater or equal to the number of "
            f"dimensions in the tensor ({input.ndim})"), op)
    for i, s in enumerate(sizes[:lead]):
        if s == -1:
            raise with_note(RuntimeError(
                f"The expanded size of the tensor (-1) isn't allowed in a leading, "
                f"non-existing dimension {i}"), op)
    shape = tuple(input.shape[i - lead] if s == -1 and i >= lead else s
                  for i, s in enumerate(sizes))
    for i, (s, old) in reversed(list(enumerate(zip(shape[lead:], input.shape)))):
        if old != 1 and s != old:  # (the last dimension first, as PyTorch checks)
            raise with_note(RuntimeError(
                f"The expanded size of the tensor ({s}) must match the existing size "
                f"({old}) at non-singleton dimension {i + lead}.  Target sizes: {list(sizes)}."
                f"  Tensor sizes: {list(input.shape)}"), op)
    for s in shape:
        if s < 0:
            raise RuntimeError(f"{op}: Trying to create tensor with negative dimension {s}: "
                               f"{list(shape)}")
    src = _arr(input)
    value = np.empty(shape, src.dtype)  # (np.broadcast_to and a view's pointers: 4 us)
    value[...] = src
    value = _store(value)
    if not _record_on(input):
        out = _leaf(value)
    else:
        padded = (1,) * lead + src.shape  # size-1 dims get stride 0: they broadcast
        out = _record_strided(input, value, "ExpandBackward0", shape, _c_strides(padded), 0)
    views.note_expanded(out, input)
    add_view(input, out)  # (it shows input's in-place changes: ops/inplace.py _refresh_views)
    return out


@api
def permute(input, *dims):
    """Reorder dimensions."""
    if not dims and input.ndim:
        raise missing("permute", "dims")
    dims = _sizes(dims)
    if len(dims) != input.ndim:
        raise RuntimeError(
            f"permute(sparse_coo): number of dimensions in the tensor input does not match "
            f"the length of the desired ordering of dimensions i.e. input.dim() = "
            f"{input.ndim} is not equal to len(dims) = {len(dims)}")
    wrapped = [_wrap_dim(d, input.ndim, "permute") for d in dims]
    if len(set(wrapped)) != len(wrapped):
        raise with_note(RuntimeError("permute(): duplicate dims are not allowed."),
                        f"permute: dims {list(dims)} for a tensor of shape "
                        f"{tuple(input.shape)}")
    src = _arr(input)
    return _strided(input, src, src.transpose(wrapped), "PermuteBackward0", key=())


@api
def transpose(input, dim0, dim1):
    """Swap two dimensions."""
    return _transpose(input, dim0, dim1, "transpose", "TransposeBackward0")


def _transpose(input, dim0, dim1, op, name):
    perm = list(range(input.ndim))
    d0 = _wrap_dim(dim0, input.ndim, op)
    d1 = _wrap_dim(dim1, input.ndim, op)
    src = _arr(input)
    if input.ndim >= 2:
        perm[d0], perm[d1] = perm[d1], perm[d0]
    return _strided(input, src, src.transpose(perm), name, key=())


@api
def swapaxes(input, axis0, axis1):
    """Alias of ``transpose``."""
    return _transpose(input, axis0, axis1, "swapaxes", "TransposeBackward0")


@api
def swapdims(input, dim0, dim1):
    """Alias of ``transpose``."""
    return _transpose(input, dim0, dim1, "swapdims", "TransposeBackward0")


@api
def t(input):
    """Transpose of a tensor of at most 2 dimensions."""
    if input.ndim > 2:
        raise with_note(RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                                     f"{input.ndim}D"),
                        f"t(): shape {tuple(input.shape)}; use transpose or mT")
    return _transpose(input, 0, -1, "t", "TBackward0")


def _T(input):
    """``input.T``: every dimension reversed, permute's view without checking its dims (always
    a permutation here: half of a small ``A.T``'s time)."""
    src = _arr(input)
    return _strided(input, src, src.transpose(), "PermuteBackward0", key=())


def _mT(input):
    """``input.mT``: the last two dimensions swapped."""
    if input.ndim == 0:
        return input  # PyTorch: the identity (deprecated) on 0-d tensors
    if input.ndim < 2:
        raise RuntimeError(f"tensor.mT is only supported on matrices or batches of matrices. "
                           f"Got {input.ndim}-D tensor.")
    return _transpose(input, -2, -1, "mT", "TransposeBackward0")


@api
def movedim(input, source, destination):
    """Move dimension(s) ``source`` to position(s) ``destination``, keeping the others'
    order."""
    src_d, dst_d = _dims_arg(source), _dims_arg(destination)
    if len(src_d) != len(dst_d):
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({list(src_d)} dims) should "
            f"contain the same number of dims as destination ({list(dst_d)} dims)")
    nd = input.ndim
    ws = [_wrap_dim(d, nd, "movedim") for d in src_d]
    wd = [_wrap_dim(d, nd, "movedim") for d in dst_d]
    for what, dims, given in (("source", ws, src_d), ("destination", wd, dst_d)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{what}` ({list(given)})")
    order = [d for d in range(nd) if d not in ws]
    for d, s in sorted(zip(wd, ws)):
        order.insert(d, s)
    src = _arr(input)
    return _strided(input, src, src.transpose(order[:nd]), "PermuteBackward0", key=())


moveaxis = movedim
api(moveaxis, name="moveaxis")


@api
def narrow(input, dim, start, length):
    """``length`` elements of dimension ``dim`` from ``start`` on."""
    if input.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = _wrap_dim(dim, input.ndim, "narrow")
    start, length = operator.index(start), operator.index(length)
    size = input.shape[d]
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of "
                         f"[{-size}, {size}], but got {start})")
    start = start + size if start < 0 else start
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension "
                           f"size ({size}).")
    return _narrow(input, _arr(input), d, start, length, "SliceBackward0")


def _narrow(input, src, d, start, length, name):
    # (the offset read off the stride: _view_base's walk over the key cost ~2 us a piece,
    # an LSTM's chunk(4) at every step, issue 20; an empty piece's is NumPy's, as before)
    key = (slice(None),) * d + (slice(start, start + length),)
    base = start * src.strides[d] // src.itemsize if length else None
    return _strided(input, src, src[key], name, base=base)


@api
def select(input, dim, index):
    """The slice at ``index`` of dimension ``dim`` (that dimension removed)."""
    if input.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = _wrap_dim(dim, input.ndim, "select")
    index = operator.index(index)
    size = input.shape[d]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(input.shape)} at dimension {d}")
    src = _arr(input)
    key = (slice(None),) * d + (index, Ellipsis)
    return _strided(input, src, src[key], "SelectBackward0", key=key)


@api
def unbind(input, dim=0):
    """The slices along ``dim``, as a tuple."""
    if input.ndim == 0:
        raise IndexError("unbind(): Dimension specified as 0 but tensor has no dimensions")
    d = _wrap_dim(dim, input.ndim, "unbind")
    src = _arr(input)
    keys = ((slice(None),) * d + (i, Ellipsis) for i in range(input.shape[d]))
    return views.note_multi(
        tuple(_strided(input, src, src[k], "UnbindBackward0", key=k) for k in keys))


@api
def split(tensor, split_size_or_sections, dim=0):
    """Pieces of ``split_size`` along ``dim`` (the last one smaller), or pieces of the
    given sizes; a tuple of tensors.

    >>> import tapegrad as tg
    >>> [p.tolist() for p in tg.arange(5.0).split([2, 3])]
    [[0.0, 1.0], [2.0, 3.0, 4.0]]
    """
    if tensor.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    d = _wrap_dim(dim, tensor.ndim, "split")
    size = tensor.shape[d]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [operator.index(s) for s in split_size_or_sections]
        if any(s < 0 for s in sizes):
            raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative "
                               f"entries, but got split_sizes={sizes}")
        if sum(sizes) != size:
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {size} (input "
                f"tensor's size at dimension {d}), but got split_sizes={sizes}")
        name = "SplitWithSizesBackward0"
    else:
        s = operator.index(split_size_or_sections)
        if s < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got "
                               f"split_size={s}")
        if s == 0 and size != 0:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got "
                               f"dimension size of {size}")
        sizes = ([s] * (size // s) + ([size % s] if size % s else []) if s else []) or [0]
        name = "SplitBackward0"
    return _pieces(tensor, d, sizes, name)


def _pieces(tensor, d, sizes, name):
    src = _arr(tensor)
    starts = itertools.accumulate(sizes[:-1], initial=0)  # (np.cumsum of a list: ~5 us)
    return views.note_multi(
        tuple(_narrow(tensor, src, d, a, n, name) for a, n in zip(starts, sizes)))


@api
def chunk(input, chunks, dim=0):
    """``chunks`` pieces along ``dim`` of ``ceil(size / chunks)`` (fewer if they run out)."""
    if input.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    chunks = operator.index(chunks)
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    d = _wrap_dim(dim, input.ndim, "chunk")
    size = input.shape[d]
    if size == 0:
        return _pieces(input, d, [0] * chunks, "SplitBackward0")
    s = -(-size // chunks)
    return _pieces(input, d, [s] * (size // s) + ([size % s] if size % s else []),
                   "SplitBackward0")


@api
def flip(input, *dims, **kwargs):
    """Reverse the order of elements along ``dims``."""
    dims = _sizes(dims) if dims else _sizes((kwargs.pop("dims"),)) if "dims" in kwargs else None
    if dims is None or kwargs:
        raise TypeError('flip() missing 1 required positional arguments: "dims"')
    wrapped = [_wrap_dim(d, input.ndim, "flip") for d in dims]
    for d in wrapped:
        if wrapped.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    src = _arr(input)
    view = src[tuple(slice(None, None, -1) if d in wrapped else slice(None)
                     for d in range(input.ndim)) + (Ellipsis,)]  # a 0-d view, not a scalar
    return _strided(input, src, view, "FlipBackward0", alias=False)


@api(export=False)
def repeat(input, *sizes):
    """Tile ``input`` ``sizes[d]`` times along each dimension (leading sizes add new
    dimensions), as ``Tensor.repeat``."""
    if not sizes and input.ndim:
        raise missing("repeat", "repeats")
    sizes = _sizes(sizes)
    if len(sizes) < input.ndim:
        raise with_note(RuntimeError(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions "
            "of tensor"), f"repeat: repeat dims {list(sizes)}, tensor of shape "
            f"{tuple(input.shape)}")
    return _repeat(input, sizes)


@api
def tile(input, *dims):
    """``repeat``, with ``dims`` padded by leading 1s to the tensor's dimensions."""
    if not dims:
        raise missing("tile", "dims")
    dims = _sizes(dims)
    return _repeat(input, (1,) * (input.ndim - len(dims)) + dims)


def _repeat(input, sizes):
    shape = (1,) * (len(sizes) - input.ndim) + tuple(input.shape)
    out = [r * s for r, s in zip(sizes, shape)]
    for s in out:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {out}")
    # out[(r_0, s_0, r_1, s_1, ...)] = x[(s_0, s_1, ...)]: a broadcast of a 2k-d view
    src = _arr(input)
    pairs = tuple(v for s in shape for v in (1, s))
    view = np.broadcast_to(src.reshape(pairs), tuple(v for rs in zip(sizes, shape) for v in rs))
    return _strided(input, src, view, "RepeatBackward0", tuple(out), alias=False)


# ---- diagonals, triangles, sorting: strided views and gathers of one input ---------------
_SortResult = named("sort", ("values", "indices"))
_TopkResult = named("topk", ("values", "indices"))


@api
def diagonal(input, offset=0, dim1=0, dim2=1):
    """The diagonal ``offset`` of the matrices spanned by ``dim1`` and ``dim2`` (last dim).

    >>> import tapegrad as tg
    >>> tg.tensor([[1.0, 2.0], [3.0, 4.0]]).diagonal()
    tensor([1., 4.])
    """
    d1, d2 = _wrap_dim(dim1, input.ndim, "diagonal"), _wrap_dim(dim2, input.ndim, "diagonal")
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    src = _arr(input)
    return _strided(input, src, np.diagonal(src, offset, d1, d2), "DiagonalBackward0")


@api
def diag(input, diagonal=0):
    """A 1-D input's values on the ``diagonal`` of a square matrix, or a 2-D input's
    ``diagonal`` as 1-D (PyTorch's two meanings)."""
    if input.ndim == 2:  # (a new tensor, as PyTorch's: not a view of input)
        out = input.diagonal(diagonal).clone()
        return named_result(out, "DiagonalBackward0_copy", input)
    if input.ndim != 1:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.ndim}D")
    n = input.shape[0] + abs(diagonal)
    rows = np.arange(input.shape[0]) + max(0, -diagonal)
    cols = np.arange(input.shape[0]) + max(0, diagonal)
    index = np.full((n, n), input.shape[0], np.int64)  # one past the input: the zero below
    index[rows, cols] = np.arange(input.shape[0])
    padded = cat([input, input.new_zeros(1)])  # (complex too: cat defers to _complex.py)
    out = _gathered(padded, _arr(padded), index, "IndexBackward0")
    return out if out._tok is None else named_result(out, "DiagEmbedBackward0", input)


def _triangle(input, diagonal, lower, op):
    if input.ndim < 2:
        raise RuntimeError(f"{op}: input tensor must have at least 2 dimensions")
    r, c = input.shape[-2], input.shape[-1]
    keep = (np.tri(r, c, diagonal, dtype=bool) if lower else
            ~np.tri(r, c, diagonal - 1, dtype=bool))
    return masked_fill(input, Tensor(~np.broadcast_to(keep, tuple(input.shape))), 0.0)


@api
@node("TrilBackward0")
def tril(input, diagonal=0):
    """The lower triangle (on and below ``diagonal``) of the last two dims; zeros above."""
    return _triangle(input, diagonal, True, "tril")


@api
@node("TriuBackward0")
def triu(input, diagonal=0):
    """The upper triangle (on and above ``diagonal``) of the last two dims; zeros below."""
    return _triangle(input, diagonal, False, "triu")


def _order(input, dim, descending, op, stable=True):
    """An argsort along ``dim``; NaN counts as the largest value (last ascending, first
    descending), as in PyTorch.  Stable (ties keep their input order), or with ``stable``
    False the order of PyTorch's non-stable sort, std::sort's (ops/std_sort.py)."""
    d = _wrap_dim(dim, input.ndim, op) if input.ndim else 0
    a = _arr(input)
    if not a.ndim:
        return d, np.zeros((), np.int64)
    if a.dtype.kind in "bu":
        a = a.astype(np.int64)
    if not descending:
        order = np.argsort(a, axis=d, kind="stable")
    else:
        nan = np.isnan(a) if a.dtype.kind == "f" else np.zeros(a.shape, bool)
        order = np.lexsort((-a, ~nan), axis=d)
    if not stable and a.shape[d] > std_sort.THRESHOLD:
        order = _std_sort_ties(a, d, order, descending)
    return d, order


def _tied_rows(a, d, order):
    """The slices along ``d`` (numbered as in ``moveaxis(a, d, -1)``) that hold ties,
    from ``a`` taken in its stable ``order``; NaNs tie with each other."""
    n = a.shape[d]
    rows = np.moveaxis(np.take_along_axis(a, order, d), d, -1).reshape(-1, n)
    tie = rows[:, 1:] == rows[:, :-1]
    if rows.dtype.kind == "f":
        tie |= np.isnan(rows[:, 1:]) & np.isnan(rows[:, :-1])
    return tie.any(axis=1)


def _std_rows(a, d, order, rows, ordering):
    """``order`` (its slices along d) with each slice numbered in ``rows`` replaced by
    ``ordering(keys of the slice)``, or None past std_sort.MAX_WORK values."""
    rows = np.flatnonzero(rows)
    n = a.shape[d]
    if rows.size * n > std_sort.MAX_WORK:
        return None
    keys = np.moveaxis(a, d, -1).reshape(-1, n)
    shape = np.moveaxis(order, d, -1).shape
    out = np.moveaxis(order, d, -1).reshape(-1, shape[-1]).copy()
    for r in rows:
        out[r] = ordering(keys[r].tolist())
    return np.moveaxis(out.reshape(shape), -1, d)


def _std_sort_ties(a, d, order, descending):
    """``order`` with the slices along ``d`` that hold ties sorted as std::sort sorts them
    (unless that is more than std_sort.MAX_WORK values: they keep the stable order)."""
    out = _std_rows(a, d, order, _tied_rows(a, d, order),
                    lambda keys: std_sort.sort_order(keys, descending))
    return order if out is None else out


def _guard_order(input, d, order, descending, strict_above=None):
    """While tracing, the order found at the traced point decides which element lands where:
    record a guard that ``input`` taken in ``order`` along ``d`` is still sorted at every
    replayed point, so replay flags the points whose order differs instead of reusing this
    point's order.  Eagerly it does nothing (and gathers nothing).

    The stable order allows ties where the indices rise; std::sort's and topk's orders of
    ties (ops/std_sort.py: slices longer than ``strict_above``) depend on every comparison
    made, so there a replayed point must hold no tie, and a traced point that holds one
    guards its values."""
    tape = state.tracing
    if tape is None or not _traced(input, tape) or input.ndim == 0 or input.shape[d] < 2:
        return
    strict = strict_above is not None and input.shape[d] > strict_above
    keys = np.asarray(input._data)
    if input.dtype.kind == "f" and np.isnan(keys).any() or strict and _tied_rows(
            keys.astype(np.int64) if keys.dtype.kind in "bu" else keys, d, order).any():
        # a comparison with NaN is False in any order, so a guard on the order would
        # expect "unsorted" and pass every unsorted point: guard the values instead
        host_values(input, "sort order")
        return
    values = _along(input, d, order, "SortBackward0")
    n = values.shape[d]
    a, b = narrow(values, d, 0, n - 1), narrow(values, d, 1, n - 1)
    # a stable sort keeps ties in input order: a pair whose indices fall must be strictly
    # ordered, or a point with a tie there sorts (and sends gradients) another way
    rising = Tensor(np.diff(order, axis=d) > 0 if not strict else np.zeros(a.shape, bool))
    ok = where(rising, ge(a, b) if descending else le(a, b), gt(a, b) if descending else lt(a, b))
    guard((1.0 - to(ok, np.float64)).sum() == 0.0, "sort order")


def _along(input, d, order, name):
    """``input`` gathered along dim ``d`` by ``order`` (same shape but for dim d)."""
    shape = tuple(input.shape)
    flat = _flat_index(shape)
    index = np.take_along_axis(flat, order, axis=d) if shape else flat
    return _gathered(input, _arr(input), index, name)


@api
def sort(input, dim=-1, descending=False, stable=False):
    """``(values, indices)`` sorted along ``dim``, ties as PyTorch orders them (in their
    input order if ``stable``); values carry the gradient."""
    d, order = _order(input, dim, descending, "sort", stable)
    _guard_order(input, d, order, descending, None if stable else std_sort.THRESHOLD)
    return _SortResult(_along(input, d, order, "SortBackward0"), Tensor(order))


@api
def argsort(input, dim=-1, descending=False, stable=False):
    """The indices that sort ``input`` along ``dim``."""
    # (sort guards the order while tracing)
    return sort(input, dim, descending, stable=stable).indices


@api
def topk(input, k, dim=-1, largest=True, sorted=True):  # noqa: A002 (PyTorch's name)
    """``(values, indices)`` of the ``k`` largest (or smallest) along ``dim``."""
    d = _wrap_dim(dim, input.ndim, "topk") if input.ndim else 0
    size = input.shape[d] if input.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    _, order = _order(input, d, largest, "topk")
    _guard_order(input, d, order, largest, 0)
    first = np.take(order, np.arange(k), axis=d) if input.ndim else order
    if input.ndim and k:  # PyTorch's order of ties (and of its unsorted k)
        a = _arr(input)
        a = a.astype(np.int64) if a.dtype.kind in "bu" else a
        rows = _tied_rows(a, d, order) | (not sorted)
        out = _std_rows(a, d, first, rows,
                        lambda keys: std_sort.topk_order(keys, k, largest, sorted))
        first = first if out is None else out
    return _TopkResult(_along(input, d, first, "TopkBackward0"), Tensor(first))


# ---- view: reshape and friends, a flat copy --------------------------------------------
VIEW = 61


def view_vjp(r, g):
    return [(r.a, reshape(g, *r.shape(r.a)))]


def _view_layout(lay, R):
    o, a, k = R[:, 1], R[:, 2], R[:, 4]
    no, na = lay.sizes(o, "out"), lay.sizes(a, "in0")
    lay.check_each(no != na, lambda i: f"a view of {int(na[i])} elements has {int(no[i])}")
    view_names_layout(lay, k)


declare(VIEW, _view_name, frees=BY_NAME, aux="name", rev=pass_rev, vjp=view_vjp, check=_view_layout,
        tan=pass_tan, curv=ZERO)


@api
def clone(input, *, memory_format=None):
    """A copy of ``input`` with its own values (in-place changes of one leave the other);
    a copy row (CloneBackward0) when it records, so gradients flow through it.

    >>> import tapegrad as tg
    >>> x = tg.tensor([1.0, 2.0])
    >>> y = x.clone(); y[0] = 5.0; x
    tensor([1., 2.])
    """
    data = np.array(input._data, copy=True) if type(input._data) is not float else input._data
    if not _record_on(input):
        return _leaf(data)
    tape = tape_for_grad()
    return output(tape, data, VIEW, slot(input, tape), -1, VIEW_NAMES.index("CloneBackward0"))


# whether PyTorch's reshape of the view x to a shape copies (no strides fit: methods.py
# binds its computeStride here); the copy is then no view of x
RESHAPE_COPIES = [lambda x, shape: False]


def _view_as(x, shape, name):
    src = np.asarray(x._data)
    data = src.reshape(shape)  # (x's storage itself, unless x holds a float)
    if (getattr(x, "_vb", None) is not None or getattr(x, "_xf", None) is not None or
            getattr(x, "_da", None) is not None) and RESHAPE_COPIES[0](x, shape):
        # (a reshape that copies is PyTorch's clone viewed unsafely: UnsafeViewBackward0)
        name = "UnsafeViewBackward0" if name == "ViewBackward0" else name
        return _leaf(np.array(data)) if not (x._rg and state.grad_enabled) else \
            output(tape_for_grad(), np.array(data), VIEW, slot(x, tape_for_grad()), -1,
                   VIEW_NAMES.index(name))
    if not (x._rg and state.grad_enabled):
        out = _leaf(data if data.ndim or data.dtype != np.float64 else float(data))
        return views.note(out, x, src, data)  # (x may be a copy that is a view itself)
    tape = tape_for_grad()
    v = float(data) if data.ndim == 0 and data.dtype == np.float64 else data
    out = output(tape, v, VIEW, slot(x, tape), -1, VIEW_NAMES.index(name))
    return views.note(out, x, src, data)  # (an in-place op rebases it: see ops/views.py)


def _infer_shape(shape, numel):
    """``shape`` with its -1 resolved, or PyTorch's error."""
    free = None
    for i, s in enumerate(shape):
        if s == -1:
            if free is not None:
                raise with_note(RuntimeError("only one dimension can be inferred"),
                                f"view/reshape: shape {list(shape)}")
            free = i
        elif s < 0:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape "
                               f"{list(shape)}")
    known = _prod(s for s in shape if s != -1)
    if free is None:
        if known != numel:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        return shape
    if known == 0:
        raise RuntimeError(
            f"cannot reshape tensor of {numel} elements into shape {list(shape)} because the "
            "unspecified dimension size -1 can be any value and is ambiguous")
    if numel % known:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape[:free] + (numel // known,) + shape[free + 1:]


@api
def reshape(input, *shape):
    """The same values in a new shape (one dimension may be -1)."""
    if not shape and input.numel() != 1:  # (to 0-d: tapegrad's own x.reshape(*shape))
        raise missing("reshape", "shape")
    shape = _infer_shape(_sizes(shape), input.numel())
    return _view_as(input, shape, "ViewBackward0")




@api
def flatten(input, start_dim=0, end_dim=-1):
    """Merge dimensions ``start_dim..end_dim`` into one."""
    shape = tuple(input.shape)
    if not shape:
        return _view_as(input, (1,), "ViewBackward0")
    s = _wrap_dim(start_dim, len(shape), "flatten")
    e = _wrap_dim(end_dim, len(shape), "flatten")
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input  # PyTorch returns the tensor itself
    merged = _prod(shape[s:e + 1])
    return _view_as(input, shape[:s] + (merged,) + shape[e + 1:], "ViewBackward0")


@api
def squeeze(input, dim=None):
    """Drop dimensions of size 1 (all, or the given one or ones)."""
    shape = list(input.shape)
    if dim is None:
        new = [s for s in shape if s != 1]
        name = "SqueezeBackward0"
    else:
        dims = {_wrap_dim(d, len(shape), "squeeze") for d in _dims_arg(dim)}
        new = [s for i, s in enumerate(shape) if not (i in dims and s == 1)]
        name = "SqueezeBackward2" if isinstance(dim, (tuple, list)) else "SqueezeBackward1"
    return _view_as(input, tuple(new), name)


@api
def unsqueeze(input, dim):
    """Insert a dimension of size 1 at ``dim``."""
    shape = list(input.shape)
    d = _wrap_dim(dim, len(shape) + 1, "unsqueeze")
    return _view_as(input, tuple(shape[:d] + [1] + shape[d:]), "UnsqueezeBackward0")


# ---- gather: any re-indexing (meta: [name, flat source index per output element...]) ----
GATHER = 63


@rule
def gather_fwd(vals, meta, o, a, n, k, w):
    for i in range(n):
        j = a + _u(meta[k + 1 + _s(i)]) * w
        for p in range(w):
            vals[o + i * w + p] = vals[j + p]


@rule
def gather_rev(adj, meta, o, a, n, k, w):
    # y[i] = x[idx[i]]  =>  gx[idx[i]] += gy[i]  (repeated indices accumulate)
    for i in range(n):
        j = a + _u(meta[k + 1 + _s(i)]) * w
        for p in range(w):
            adj[j + p] += adj[o + i * w + p]


def gather_vjp(r, g):
    return [(r.a, r.emit(SCATTER, g, r.k, r.shape(r.a)))]


def _gather_layout(lay, R):
    # meta: [name, flat index into in0 per output element]
    n_out, n_in, k = lay.sizes(R[:, 1], "out"), lay.sizes(R[:, 2], "in0"), R[:, 4]
    view_names_layout(lay, lay.fields(k, 1)[:, 0])
    lay.indices(k + 1, n_out, n_in)


declare(GATHER, _view_name, frees=BY_NAME, aux="meta", fwd=gather_fwd, rev=gather_rev, vjp=gather_vjp,
        check=_gather_layout, tan=gather_fwd, curv=ZERO)


# ---- scatter-add: GATHER's transpose (a gather's adjoint, emitted by create_graph) ------
# Same meta as the GATHER row it transposes ([name, flat index per input element...]):
# y = zeros(out); y[idx[i]] += x[i].  Its reverse rule is a gather, so the pair is closed
# under differentiation (autograd/higher.py).
SCATTER = 68


@rule
def scatter_fwd(vals, meta, o, a, n_in, n_out, k, w):
    for j in range(n_out * w):
        vals[o + j] = 0.0
    gather_rev(vals, meta, a, o, n_in, k, w)


@rule
def scatter_rev(adj, meta, o, a, n_in, k, w):
    # y[idx[i]] += x[i]  =>  gx[i] += gy[idx[i]]
    for i in range(n_in):
        j = o + _u(meta[k + 1 + _s(i)]) * w
        for p in range(w):
            adj[a + i * w + p] += adj[j + p]


def scatter_vjp(r, g):
    return [(r.a, r.emit(GATHER, g, r.k, r.shape(r.a)))]


def _scatter_layout(lay, R):
    # meta: [name, flat index into out per input element]
    n_out, n_in, k = lay.sizes(R[:, 1], "out"), lay.sizes(R[:, 2], "in0"), R[:, 4]
    lay.indices(k + 1, n_in, n_out)


declare(SCATTER, "IndexAddBackward0", frees=True, aux="meta", fwd=scatter_fwd, rev=scatter_rev,
        vjp=scatter_vjp, check=_scatter_layout, tan=scatter_fwd, curv=ZERO)


# ---- put: ``x[key] = v`` as one row (meta: [m, m positions, m sources]) -----------------
# y = x; y[pos[j]] = v[src[j]] (src: v's flat element broadcast to each written position).
# The positions ascend (a position written twice keeps its writes in key order: the last
# one lands), so the reverse rule walks y once: a written position's adjoint goes to every
# v element written there (PyTorch's gradient of index_put: each occurrence gets it),
# every other one's to x.
PUT = 71


@rule
def put_fwd(vals, meta, o, a, b, n, k, w):
    if o != a:  # (o == a: a write in place, see put)
        for e in range(n * w):
            vals[o + e] = vals[a + e]
    m = meta[k]
    for j in range(m):
        d = o + _u(meta[k + 1 + j]) * w
        src = b + _u(meta[k + 1 + m + j]) * w
        for p in range(w):
            vals[d + p] = vals[src + p]


@rule
def put_rev(adj, meta, o, a, b, n, k, w):
    m = meta[k]
    if o == a:
        # in place (put): x's old and new values share one adjoint span.  The written
        # positions' adjoints go to v and are zeroed; the rows that read the old values
        # come earlier in the tape, later in the sweep, and add into the span after this
        # (zeroed in a second pass: a position written twice gives its adjoint to both)
        for j in range(m):
            d = o + _u(meta[k + 1 + j]) * w
            src = b + _u(meta[k + 1 + m + j]) * w
            for p in range(w):
                adj[src + p] += adj[d + p]
        for j in range(m):
            d = o + _u(meta[k + 1 + j]) * w
            for p in range(w):
                adj[d + p] = 0.0
        return
    q = 0
    for e in range(n):
        src = o + _u(e) * w
        if q < m and meta[k + 1 + q] == e:
            while q < m and meta[k + 1 + q] == e:
                dst = b + _u(meta[k + 1 + m + q]) * w
                for p in range(w):
                    adj[dst + p] += adj[src + p]
                q += 1
        else:
            for p in range(w):
                adj[a + _u(e) * w + p] += adj[src + p]


def put_vjp(r, g):
    m = r.m(r.k)
    pos = r.w.meta[r.k + 1:r.k + 1 + m].copy()
    keep = np.ones(r.numel(r.a))
    keep[pos] = 0.0
    ga = g * _leaf(norm(keep.reshape(r.shape(r.a)).astype(np.asarray(g._data).dtype)))
    picked = _gathered(g, np.asarray(g._data), pos, "IndexBackward0")
    # v's adjoint: the written positions' adjoints summed onto v's elements (src); the
    # meta from k + m reads as SCATTER's [name, index per input element]
    return [(r.a, ga), (r.b, r.emit(SCATTER, picked, r.k + m, r.shape(r.b)))]


def _put_layout(lay, R):
    k = R[:, 4]
    n, n_in, n_v = lay.sizes(R[:, 1], "out"), lay.sizes(R[:, 2], "in0"), lay.sizes(R[:, 3], "in1")
    lay.check_each(n_in != n, lambda i: "in0 and out must have one size")
    m = lay.fields(k, 1)[:, 0]
    lay.indices(k + 1, m, n, "position", ascending=True)
    lay.indices(k + 1 + m, m, n_v, "source")
    lay.work += float(np.sum(m, dtype=np.float64))  # (a position may repeat: m is unbounded)


declare(PUT, "torch::autograd::CopySlices", saves="", aux="meta", fwd=put_fwd, rev=put_rev,
        vjp=put_vjp, check=_put_layout, tan=put_fwd, curv=ZERO)


def put(x, v, target, in_place=False):
    """Record ``x`` with the flat positions ``target`` (an int array, the shape of the
    indexing result) set to ``v`` broadcast to that shape: one PUT row (``x[key] = v``).
    Returns the result tensor; the last write of a repeated position wins, as in NumPy, and
    each write of it gets that position's gradient, as in PyTorch.
    ``in_place``: x is rebased onto the result (ops/inplace.py), so the write may go into
    x's own slot (``_put_in_place``)."""
    pos = target.reshape(-1)
    if v.numel() == 1:
        src = np.zeros(pos.size, np.int64)
    else:
        src = np.broadcast_to(np.arange(v.numel(), dtype=np.int64).reshape(tuple(v.shape)),
                              target.shape).reshape(-1)
    if pos.size > 1:
        order = np.argsort(pos, kind="stable")  # repeats keep their key order (last lands)
        pos, src = pos[order], src[order]
    tape = tape_for_grad()
    lazy = tape.lazy
    if in_place and lazy and x._gen == tape.gen and x._slot in lazy and v is not x and \
            state.tracing is not tape and x._slot not in tape.hooks and \
            not (tape.ext and x._slot in tape.ext.values()):  # (no row reads them: needed)
        return _put_in_place(x, v, pos, src, tape)
    new = np.array(_arr(x), copy=True)
    new.reshape(-1)[pos] = np.asarray(v._data, dtype=new.dtype).reshape(-1)[src] \
        if v.numel() else new.reshape(-1)[pos]
    # (no value is read by the reverse rule: the output is kept aside while no later row
    # reads it, and the next write into it can then be made in place)
    sa, sb = slot(x, tape, False), slot(v, tape, False)
    k = tape.push_meta(np.concatenate(([pos.size], pos, src)))
    return output(tape, _store(new), PUT, sa, sb, k, keep=False)


def _put_in_place(x, v, pos, src, tape):
    """``put`` as a write into x's own slot, O(positions) in time and memory: the PUT row's
    output is its input (``out[t] = h`` in a loop was O(T^2) with a copy per write).

    Only while x's values are kept aside (``Tape.lazy``): no row recorded since they were
    made reads them, so no rule, replay or saved-value check can see the old values any
    more; x is the one tensor on that slot (a PUT's result that x was rebased onto).  The
    old and new values share one adjoint span (put_rev).  Not while tracing: replay's
    plans take every slot to be written once."""
    s = x._slot
    old, lo = tape.lazy[s]
    # x's array, its lazy entry, `old` and getrefcount's argument: no one else sees it
    new = old if sys.getrefcount(old) == 4 and old is x._data else np.array(old)
    new.reshape(-1)[pos] = np.asarray(v._data, dtype=new.dtype).reshape(-1)[src] \
        if v.numel() else new.reshape(-1)[pos]
    tape.lazy[s] = (new, lo)
    sb = slot(v, tape, False)
    k = tape.push_meta(np.concatenate(([pos.size], pos, src)))
    tape.rbuf.extend((PUT, s, s, sb, k))
    if tape.in_place is None:
        tape.in_place = {}
    tape.in_place[s] = tape.nrows - 1  # the row that made x's present values (engine.py)
    return _nonleaf(new, s, tape, x._tok)


def _gathered(x, src, index, name):
    """Record ``y = x.flat[index]`` (``index``: an int array in the shape of y) as a GATHER
    row; ``src = _arr(x)``."""
    value = _store(src.reshape(-1)[index])
    if not _record_on(x):
        return _leaf(value)
    tape = tape_for_grad()
    sx = slot(x, tape)
    k = tape.push_meta(np.concatenate(([VIEW_NAMES.index(name)], index.ravel())))
    return output(tape, value, GATHER, sx, -1, k)


def _flat_index(shape):
    return np.arange(_prod(shape), dtype=np.int64).reshape(shape)


LONG = (np.dtype(np.int64),)
INT_OR_LONG = (np.dtype(np.int64), np.dtype(np.int32))


def _index_array(index, op, message, allowed=INT_OR_LONG, exc=RuntimeError):
    """``index`` (a Tensor, ndarray or list) as an int64 ndarray, or ``message`` (``{}``
    there PyTorch's name of its dtype): a Tensor index of a dtype outside ``allowed`` is
    refused as PyTorch's kernel refuses it (tapegrad's own arrays need only be integers)."""
    a = host_values(index, op)
    if a.dtype.kind not in "iu" or isinstance(index, Tensor) and a.dtype not in allowed:
        raise with_note(exc(message.format(dtypes.torch_name(a.dtype))), f"{op}: got {a.dtype}")
    return a.astype(np.int64, copy=False)


def _out_of_bounds(index, size, d, exc, op, words=""):
    """Raise ``exc`` naming the first index outside [0, size); PyTorch's ``words`` (a
    format of the index ``v`` and ``size``) first, when its kernel has them (they name no
    position: ours follows), else PyTorch's message of its gather kernel."""
    bad = index[(index < 0) | (index >= size)]
    if bad.size:
        v = int(bad.flat[0])
        plain = f"index {v} is out of bounds for dimension {d} with size {size}"
        if not words:
            raise exc(plain)
        raise with_note(exc(words.format(v=v, size=size)), f"{op}(): {plain}")


@api
def gather(input, dim, index, *, sparse_grad=False):
    """``out[i][j] = input[index[i][j]][j]`` (dim 0): values picked along ``dim``.

    >>> import tapegrad as tg
    >>> tg.tensor([[1.0, 2.0], [3.0, 4.0]]).gather(1, tg.tensor([[1], [0]])).tolist()
    [[2.0], [3.0]]
    """
    idx = _index_array(index, "gather", "gather(): Expected dtype int32/int64 for index")
    nd = input.ndim
    d = _wrap_dim(dim, nd, "gather")
    if max(idx.ndim, 1) != max(nd, 1):
        raise with_note(RuntimeError(
            "Index tensor must have the same number of dimensions as input tensor"),
            f"gather(): index of shape {tuple(idx.shape)}, input of shape "
            f"{tuple(input.shape)}")
    shape = tuple(input.shape) or (1,)
    ix = idx.reshape(idx.shape or (1,))
    for j, (a, b) in enumerate(zip(ix.shape, shape)):
        if j != d and a > b:
            raise with_note(RuntimeError(
                f"Size does not match at dimension {j} expected index {list(idx.shape)} to be "
                f"no larger than self {list(input.shape)} apart from dimension {d}"), "gather()")
    _out_of_bounds(ix, shape[d], d, RuntimeError, "gather")
    grids = list(np.indices(ix.shape, sparse=True))
    grids[d] = ix
    src = _arr(input)
    return _gathered(input, src, _flat_index(shape)[tuple(grids)].reshape(idx.shape),
                     "GatherBackward0")


@api
def index_select(input, dim, index):
    """The entries ``index`` (a vector) of dimension ``dim``."""
    idx = _index_array(index, "index_select",
                       "index_select(): Expected dtype int32 or int64 for index")
    if idx.ndim > 1:
        raise with_note(IndexError("index_select(): Index is supposed to be a vector"),
                        f"index_select(): got shape {tuple(idx.shape)}")
    d = _wrap_dim(dim, input.ndim, "index_select")
    src = _arr(input)
    if input.ndim == 0:
        if idx.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                               f"{idx.size} value(s)")
        _out_of_bounds(idx, 1, 0, IndexError, "index_select", "index out of range in self")
        return _gathered(input, src, np.zeros((), np.int64), "IndexSelectBackward0")
    size = input.shape[d]
    if d == 1:  # (PyTorch's kernel for dim 1 words it so)
        _out_of_bounds(idx, size, d, RuntimeError, "index_select",
                       "INDICES element is out of DATA bounds, id={v} axis_dim={size}")
    else:
        _out_of_bounds(idx, size, d, IndexError, "index_select", "index out of range in self")
    flat = np.take(_flat_index(tuple(input.shape)), idx.reshape(-1), axis=d)
    return _gathered(input, src, flat, "IndexSelectBackward0")


@api
def roll(input, shifts, dims=None):
    """Shift elements along ``dims`` (of the flattened tensor if None), wrapping around."""
    sh = _dims_arg(shifts)
    if not sh:
        raise RuntimeError("roll(): `shifts` required")
    shape = tuple(input.shape)
    if dims is None:
        if len(sh) != 1:
            raise with_note(RuntimeError(f"shifts and dimensions must align. shifts: "
                                         f"{len(sh)}, dims:0"), "roll()")
        flat = np.roll(np.arange(input.numel(), dtype=np.int64), operator.index(sh[0]))
        return _gathered(input, _arr(input), flat.reshape(shape), "RollBackward0")
    dm = _dims_arg(dims)
    if len(sh) != len(dm):
        raise with_note(RuntimeError(f"shifts and dimensions must align. shifts: {len(sh)}, "
                                     f"dims:{len(dm)}"), "roll()")
    wrapped = tuple(_wrap_dim(d, input.ndim, "roll") for d in dm)
    shifts = tuple(operator.index(s) for s in sh)
    index = _flat_index(shape)
    if shape:
        index = np.roll(index, shifts, wrapped)
    return _gathered(input, _arr(input), index, "RollBackward0")


def _guard_values(k, how):
    """TRACE_HOOKS["guard_values"], reached from ``tensor.host_values`` (the one accessor
    of values read outside the tape) while tracing: an index computed from traced values
    (``x[x > 0]``, ``x[x.argmax()]``) decides which elements are taken, and the rows record
    only the elements it took; nonzero, unique, histc, integer arithmetic in NumPy...
    decide their results from values no row replays.  Record a guard that ``k``'s values
    are the recorded ones, so replay flags the points where they differ (retrace, or
    on_divergence's error)."""
    tape = state.tracing
    if tape is None or not isinstance(k, Tensor) or not _traced(k, tape):
        return
    if k.ndim == 0:
        guard(k, how)  # the exact value
    else:
        guard(to(_misses(k), np.float64).sum() == 0.0, how)


def _misses(k):
    """Where traced ``k`` differs from its recorded values, NaN matching NaN only (a
    difference with a recorded NaN is NaN everywhere, so a sum of differences would match
    every point)."""
    c = np.asarray(k._data, np.float64)
    kf = to(k, np.float64)
    nan = np.isnan(c)
    if not nan.any():
        return ne(kf, Tensor(c))
    return where(Tensor(nan), eq(kf, kf), ne(kf, Tensor(np.where(nan, 0.0, c))))


TRACE_HOOKS.update(guard_values=_guard_values)


def _truth(t):
    """A recorded op's bool or integer result while tracing (tapegrad/ops/_pointwise.py's
    binary ops call it through TRACE_HOOKS: this module imports that one).  Its row
    computes in float64, where True + True is 2 (NumPy's bool add is a logical or) and uint8
    200 + 100 is 300 (NumPy's wraps to 44): replay gave those where eager did not.  A bool
    result (of add, mul, maximum, minimum) is its float result != 0; an integer result is
    guarded to lie in its dtype's range (a point where eager would wrap diverges)."""
    d = t._data
    if type(d) is float or d.dtype.kind not in "biu":  # (a float: a 0-d float's value)
        return t
    if d.dtype.kind == "b":
        return ne(t, 0.0)
    info = np.iinfo(d.dtype)  # (int64: below 2**53, where float64 holds every integer)
    _guard_range(t, max(int(info.min), -_EXACT), min(int(info.max), _EXACT),
                 f"{d.dtype} range", f"{d.dtype} arithmetic")
    return t


_EXACT = 2 ** 53 - 1  # every integer of magnitude up to this is a float64


def _guard_range(t, lo, hi, how, what):
    """Record a guard that traced ``t``'s values lie in [lo, hi], where replay's float64
    arithmetic gives what eager's integer or narrow-float arithmetic does (a point outside
    diverges); refused if they do not at the traced point itself."""
    tape = state.tracing
    if getattr(tape, "guarding_range", False):
        return  # (its own comparisons of t)
    d = np.asarray(t._data)
    if d.size and (d.min() < lo or d.max() > hi):
        raise EagerOnlyError(
            f"tapegrad.trace: {what} gives values outside [{lo}, {hi}] at the traced point "
            f"(up to {d.max() if d.max() > hi else d.min()}): replay computes in float64, "
            "without integer wraparound or float32/float16 rounding, so it would not give what "
            "eager gives. Keep such values in range, or call f eagerly (tapegrad.compile(f) "
            "called with tensors runs such an f eagerly)")
    tape.guarding_range = True
    try:
        out = to(lt(t, float(lo)), np.float64) + to(gt(t, float(hi)), np.float64)
    finally:
        tape.guarding_range = False
    guard(out.sum() == 0.0, how)


TRACE_HOOKS.update(exact_int=lambda t: _guard_range(t, -_EXACT, _EXACT, "int64 range",
                                                    "an int64 value compared"))


TRACE_HOOKS.update(truth=_truth)


# ---- cat, stack: copies of whole blocks (meta: [n, outer, slot..., block length...]) ----
CAT, STACK = 64, 65


@rule
def cat_fwd(vals, offs, meta, o, k, w):
    # for each outer index q, the output holds block q of each input in turn
    n = meta[k]
    dst = o
    for q in range(meta[k + 1]):
        for i in range(n):
            m = _u(meta[k + 2 + n + i]) * w
            src = _u(offs[meta[k + 2 + i]]) * w + _u(q) * m
            for p in range(m):
                vals[dst + p] = vals[src + p]
            dst += m


@rule
def cat_rev(adj, reach, offs, meta, o, k, w):
    # y = [x_0 | x_1 | ...] block by block  =>  gx_i += its blocks of gy; every operand is
    # reached (the row's in0/in1 name only the first two)
    n = meta[k]
    for i in range(n):
        reach_input(adj, reach, offs, meta[k + 2 + i], w)
    dst = o
    for q in range(meta[k + 1]):
        for i in range(n):
            m = _u(meta[k + 2 + n + i]) * w
            src = _u(offs[meta[k + 2 + i]]) * w + _u(q) * m
            for p in range(m):
                adj[src + p] += adj[dst + p]
            dst += m


def cat_vjp(r, g):
    n, outer = r.m(r.k), r.m(r.k + 1)
    slots = [r.m(r.k + 2 + i) for i in range(n)]
    lengths = [r.m(r.k + 2 + n + i) for i in range(n)]
    blocks = reshape(g, outer, sum(lengths))
    out, lo = [], 0
    for s, m in zip(slots, lengths, strict=True):
        out.append((s, reshape(blocks[:, lo:lo + m], *r.shape(s))))
        lo += m
    return out


def _cat_layout(lay, R):
    # meta: [n, outer, slot..., block length...]
    o, k = R[:, 1], R[:, 4]
    n_out = lay.sizes(o, "out")
    head = lay.fields(k, 2)
    lay.at_least(head, ("n", "outer"))
    n, outer = head.T
    lay.window(k + 2, n, 2)
    filled = np.zeros(len(R), np.int64)  # the block lengths' sum (where outer > 0)
    for row, at in lay.ragged(k + 2, n, "operands"):
        s, m = lay.meta[at], lay.meta[at + n[row]]
        real = (s >= 0) & (s < lay.nslots)
        blocks, big = layout.product(outer[row], np.maximum(m, 0))
        lay._first_of(row, ~real | (m < 0) | big | (blocks > lay.size[np.where(real, s, 0)]) |
                      (s >= o[row]), lambda i: f"{int(outer[i])} blocks of the lengths in "
                      f"meta[{int(k[i]) + 2 + int(n[i])}:{int(k[i]) + 2 + 2 * int(n[i])}] do not "
                      "fit their operand slots (or one is not older than the output)")
        np.add.at(filled, row, np.where(outer[row] > 0, m, 0))  # (each below a slot's size)
        lay.holds_slots(at)
    fill, big = layout.product(outer, filled)
    lay.check_each(big | (fill != n_out), lambda i: f"the blocks fill {int(outer[i])} x "
                   f"{int(filled[i])} elements of {int(n_out[i])}")
    # (the block copies: of empty blocks, 2**62 took forever)
    lay.work += float(np.sum(outer.astype(np.float64) * n))


declare(CAT, "CatBackward0", aux="meta", meta_slots=meta_list(), inputs_in_meta=True, fwd=cat_fwd,
        rev=cat_rev, vjp=cat_vjp, check=_cat_layout, tan=cat_fwd, curv=ZERO)


declare(STACK, "StackBackward0", aux="meta", meta_slots=meta_list(), inputs_in_meta=True,
        fwd=cat_fwd, rev=cat_rev, vjp=cat_vjp, check=_cat_layout, tan=cat_fwd, curv=ZERO)


def _tensor_list(tensors, op):
    if isinstance(tensors, Tensor):
        raise TypeError(f"{op}(): argument 'tensors' (position 1) must be tuple of Tensors, "
                        f"not Tensor")
    ts = list(tensors)
    for i, t in enumerate(ts):
        if not isinstance(t, Tensor):
            raise TypeError(f"{op}(): expected Tensor as element {i} in argument 0, but got "
                            f"{type(t).__name__}")
    return ts


def _record_blocks(op, ts, value, outer, lengths):
    # (an integer block of a traced value, argmax's, records while tracing: as a constant it
    # replayed the traced point's indices at every point)
    if not ((value.dtype.kind == "f" or state.tracing is not None) and _record_on(*ts)):
        return _leaf(value)
    tape = tape_for_grad()
    slots = [slot(t, tape, False) for t in ts]  # (cat_rev reads no values: Tape.push_array)
    k = tape.push_meta((len(ts), outer, *slots, *lengths))
    return output(tape, value, op, slots[0], slots[1] if len(slots) > 1 else -1, k)


@api(method=False)
def cat(tensors, dim=0):
    """Join tensors along an existing dimension ``dim``.

    >>> import tapegrad as tg
    >>> tg.cat([tg.zeros(1, 2), tg.ones(2, 2)]).shape
    torch.Size([3, 2])
    """
    ts = _tensor_list(tensors, "cat")
    if not ts:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    plain = _cat_plain(ts, dim)
    if plain is not None:  # (the checks below were ~40% of an LSTM step's cat, issue 20)
        d, outer, lengths = plain
        return _record_blocks(CAT, ts, np.concatenate([t._data for t in ts], axis=d), outer,
                              lengths)
    for i, t in enumerate(ts):
        if t.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be "
                               f"concatenated")
    # (every operand is an array now: its dtype and shape read from it, one dtype needing no
    # promotion: result_type and Tensor.shape were a quarter of a small cat, an LSTM step's)
    d0 = ts[0]._data.dtype
    dtype = d0 if all(t._data.dtype is d0 for t in ts) else \
        dtypes.result_type(*[(t.dtype, t.ndim) for t in ts])
    # PyTorch's legacy rule: 1-d empty tensors are skipped whatever the other shapes
    parts = [(i, t) for i, t in enumerate(ts) if t._data.shape != (0,)] or [(0, ts[0])]
    first = parts[0][1]._data.shape
    d = _wrap_dim(dim, len(first), "cat")
    for i, t in parts[1:]:
        if t.ndim != len(first):
            raise RuntimeError(f"Tensors must have same number of dimensions: got {len(first)} "
                               f"and {t.ndim}")
        for j, (a, b) in enumerate(zip(first, t._data.shape)):
            if j != d and a != b:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size {a} "
                    f"but got size {b} for tensor number {i} in the list.")
    ts = [t for _, t in parts]
    value = _store(np.concatenate([np.asarray(t._data, dtype) for t in ts], axis=d))
    return _record_blocks(CAT, ts, value, _prod(first[:d]),
                          [_prod(t._data.shape[d:]) for t in ts])


def _cat_plain(ts, dim):
    """cat's common case, checked in one pass: arrays of one dtype and ndim (not 1-d
    empty ones, which PyTorch skips), their sizes matching but along ``dim`` (an int in
    range): (the dim, its outer size, each block's length) as the general path finds
    them, else None (the general path, which raises the errors)."""
    a = ts[0]._data
    if type(a) is not _ndarray or type(dim) is not int:
        return None
    shape, dt = a.shape, a.dtype
    nd = len(shape)
    if not -nd <= dim < nd or shape == (0,):
        return None
    d = dim + nd if dim < 0 else dim
    lead, tail = shape[:d], shape[d + 1:]
    lengths = []
    for t in ts:
        b = t._data
        if type(b) is not _ndarray or b.dtype is not dt:
            return None
        s = b.shape
        if len(s) != nd or s[:d] != lead or s[d + 1:] != tail or s == (0,):
            return None
        lengths.append(_prod(s[d:]))
    return d, _prod(lead), lengths


_ndarray = np.ndarray  # (a global load: np.ndarray's costs ~190 instructions, arena.py)


concat = concatenate = cat
api(concat, method=False, name="concat")
api(concatenate, method=False, name="concatenate")


@api(method=False)
def stack(tensors, dim=0):
    """Join tensors of one shape along a new dimension ``dim``.

    >>> import tapegrad as tg
    >>> tg.stack([tg.zeros(2), tg.ones(2)], dim=1).shape
    torch.Size([2, 2])
    """
    ts = _tensor_list(tensors, "stack")
    if not ts:
        raise RuntimeError("stack expects a non-empty TensorList")
    shape = tuple(ts[0].shape)
    for i, t in enumerate(ts):
        if tuple(t.shape) != shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"{list(shape)} at entry 0 and {list(t.shape)} at entry {i}")
    d = _wrap_dim(dim, len(shape) + 1, "stack")
    dtype = dtypes.result_type(*[(t.dtype, t.ndim) for t in ts])
    value = _store(np.stack([np.asarray(t._data, dtype) for t in ts], axis=d))
    return _record_blocks(STACK, ts, value, _prod(shape[:d]), [_prod(shape[d:])] * len(ts))


# ---- masked_fill: value where the mask is true (in1 is the mask, 1.0 or 0.0) -------------
MASKED_FILL, MASKED_FILL_T = 66, 67  # aux: const index of the value (a number, a 0-d tensor)


@rule
def masked_fill_fwd(vals, o, a, b, c, n):
    for i in range(n):
        vals[o + i] = c if vals[b + i] != 0.0 else vals[a + i]


@rule
def masked_fill_rev(adj, vals, o, a, b, n):
    # y = m ? c : x  =>  gx += gy where m is false (nothing flows to c or m)
    for i in range(n):
        if vals[b + i] == 0.0:
            adj[a + i] += adj[o + i]


def masked_fill_vjp(r, g):
    return [(r.a, g * (1.0 - r.y))]  # in1 holds the mask as 1.0 / 0.0


@rule
def masked_fill_tan(tan, vals, o, a, b, n):
    # t(m ? c : x) = m ? 0 : tx
    for i in range(n):
        tan[o + i] = 0.0 if vals[b + i] != 0.0 else tan[a + i]


declare(MASKED_FILL, "MaskedFillBackward0", frees=True, aux="const", fwd=masked_fill_fwd,
        rev=masked_fill_rev, vjp=masked_fill_vjp, tan=masked_fill_tan, curv=ZERO)


declare(MASKED_FILL_T, "MaskedFillBackward1", frees=True, aux="const", fwd=masked_fill_fwd,
        rev=masked_fill_rev, vjp=masked_fill_vjp, tan=masked_fill_tan, curv=ZERO)


@api
def masked_fill(input, mask, value):
    """``value`` where the bool ``mask`` (broadcast) is true, else ``input``.

    >>> import tapegrad as tg
    >>> x = tg.tensor([1.0, 2.0, 3.0])
    >>> x.masked_fill(x > 1.5, 0.0).tolist()
    [1.0, 0.0, 0.0]
    """
    m = np.asarray(mask._data if isinstance(mask, Tensor) else mask)
    if m.dtype != np.bool_:
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{dtypes.C_NAMES.get(m.dtype.name, m.dtype.name)}")
    if isinstance(value, Tensor) and value.ndim != 0:
        raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value.ndim} dimension(s).")
    shape = broadcast_shape("masked_fill", m.shape, input.shape)
    dtypes.check_fits(value, input.dtype)  # (a number; fill_ comes here too)
    if isinstance(value, Tensor) and _record_on(value) and input.dtype.kind == "f":
        # a value that requires grad: y = masked_fill(x, m, 0) + value * m, in x's dtype (a
        # traced mask's values follow the point: not this point's m, a constant of replay)
        v = value if value.dtype == input.dtype else to(value, input.dtype)
        mf = to(mask, input.dtype) if isinstance(mask, Tensor) else Tensor(m.astype(input.dtype))
        return add(masked_fill(input, mask, 0.0), mul(v, mf))
    c = float(host_values(value, "masked_fill"))  # (a value that records took the branch above)
    mask_rg = isinstance(mask, Tensor) and mask._rg  # traced: a comparison's output
    records = input.dtype.kind == "f" and state.grad_enabled and (input._rg or mask_rg)
    # without a row (integers), NumPy's result follows the values of input and mask
    x = np.asarray(input._data) if records else host_values(input, "masked_fill")
    if not records:
        m = host_values(mask, "masked_fill")
    with np.errstate(invalid="ignore"):
        v = _store(np.where(m, np.asarray(c).astype(x.dtype), x))
    if not records:
        return _leaf(v)
    tape = tape_for_grad()
    sx = expand_slot(tape, input, slot(input, tape), shape)
    sm = expand_slot(tape, mask, slot(mask, tape), shape) if mask_rg else \
        tape.push_array(np.broadcast_to(m, shape))
    op = MASKED_FILL_T if isinstance(value, Tensor) else MASKED_FILL
    return output(tape, v, op, sx, sm, tape.const(c))


# ---- casts: a flat copy between float dtypes -------------------------------------------
@api(export=False)
def to(input, *args, **kwargs):
    """Cast to a dtype: ``to(dtype)``, ``to(other)`` (other's dtype), ``to(device, dtype)``;
    the device must be the CPU (device.parse_to), the only one here."""
    dtype = parse_to(args, kwargs, "to")
    if dtype is None or np.dtype(dtype) == input.dtype:
        return clone(input) if kwargs.get("copy") else input  # copy=True: a new tensor
    dt = np.dtype(dtype)
    if dt.kind == "c":  # x.to(torch.cfloat): a complex tensor (tapegrad/_complex.py)
        return COMPLEX_HOOKS["to_complex"](input, dt)
    data = quiet_call(np.ndarray.astype, np.asarray(input._data), dt)  # (nan, inf: no warning)
    if dt.kind != "f" and input._rg and state.tracing is not None:
        # a traced value cast to bool or int stays traced (an index made from it is guarded)
        if dt == np.bool_:
            return ne(input, 0.0)
        if input.dtype.kind == "f":
            escape(input, f"a cast to {dt}")  # replay has no truncation rule: a clear error
    elif not (input._rg and state.grad_enabled and dt.kind == "f"):
        return _leaf(_store(data))
    elif state.tracing is not None and _rounds(input.dtype, dt):
        # replay copies the value in float64: exact for integers up to 2**24 in float32
        # (2**11 in float16), where eager's cast rounds beyond
        b = 2 ** (np.finfo(dt).nmant + 1)
        _guard_range(input, -b, b, f"{dt} range", f"a cast of {np.dtype(input.dtype)} to {dt}")
    tape = tape_for_grad()
    return output(tape, _store(data), VIEW, slot(input, tape), -1,
                  VIEW_NAMES.index("ToCopyBackward0"))


def _rounds(src, dt):
    """A cast from src to float dtype dt can round the integer values replay holds exactly
    (a float32 source: the cast of an integer or bool; a float64 one is replay._narrowed's
    to refuse, past any range)."""
    nmant = np.finfo(dt).nmant
    if src.kind in "iu":
        return np.iinfo(src).max > 2 ** (nmant + 1)
    return src.kind == "f" and src.itemsize < 8 and np.finfo(src).nmant > nmant


_TYPE_NAMES = {"float64": "DoubleTensor", "float32": "FloatTensor", "float16": "HalfTensor",
               "int64": "LongTensor", "int32": "IntTensor", "int16": "ShortTensor",
               "int8": "CharTensor", "uint8": "ByteTensor", "bool": "BoolTensor"}


def type_(input, dtype=None, non_blocking=False):
    """``Tensor.type``: PyTorch's type string (``'torch.FloatTensor'``) with no argument,
    else a cast to ``dtype`` (a dtype, or such a string), as ``to(dtype)``."""
    if dtype is None:
        word = np.dtype(input.dtype).name
        return "torch." + _TYPE_NAMES.get(word, word)
    if isinstance(dtype, str):
        names = {f"torch.{v}": k for k, v in _TYPE_NAMES.items()}
        if dtype not in names:
            raise ValueError(f"invalid type: '{dtype}'")
        dtype = np.dtype(names[dtype])
    return to(input, dtype)


# ---- spec rows ----------------------------------------------------------------------
def _need(ok):
    """A reference raises where the op does (random programs then skip that shape)."""
    if not ok:
        raise ValueError("the op does not apply at this shape")


def _mask(shape):
    return np.arange(_prod(shape)).reshape(shape) % 3 != 1


def _gather_index(shape):
    """An index for gather along the last dim: 4 picks per row (repeats), one row fewer."""
    lead = tuple(max(1, s - 1) if j == 0 else s for j, s in enumerate(shape[:-1]))
    return (np.arange(_prod(lead) * 4).reshape(lead + (4,)) * 7 + 3) % shape[-1]


def _gather_ref(np_, x):
    _need(len(x.shape) >= 1)
    idx = _gather_index(x.shape)
    return x[tuple(np.indices(idx.shape, sparse=True)[:-1]) + (idx,)]


def _select_index(shape):
    return np.array([shape[-1] - 1, 0, shape[-1] - 1])


def _split_rev_ref(np_, x):
    _need(len(x.shape) >= 1)
    return np_.concatenate([x[..., i:i + 2] for i in range(0, x.shape[-1], 2)][::-1], -1)


def _split_ref(np_, x):
    _need(len(x.shape) >= 1 and x.shape[-1] == 3)
    return x[..., 1:3]


def _chunk_ref(np_, x):
    _need(len(x.shape) >= 1 and x.shape[0] >= 2)
    return x[-(-x.shape[0] // 2):]


def _repeat_ref(np_, x):
    _need(len(x.shape) <= 2)
    return np_.tile(x, (2, 3))


def _tile_ref(np_, x):
    # full reps: HIPS autograd's tile gradient is wrong for reps shorter than x.ndim
    return np_.tile(x, (1,) * (len(x.shape) - 2) + (2, 1))


def _t_ref(np_, x):
    _need(len(x.shape) <= 2)
    return np_.transpose(x)


def _narrow_ref(np_, x):
    _need(len(x.shape) >= 1 and x.shape[-1] >= 3)
    return x[..., 1:3]


SPECS = [
    Spec("clone", lambda x: x.clone(), lambda np_, x: x + 0.0),
    # (HIPS autograd has no gradient of np.diagonal or np.sort: PyTorch is their oracle)
    Spec("diagonal", lambda x: x.diagonal(), lambda np_, x: np_.diagonal(x),
         shapes=((2, 3), (3, 3)), oracle=False),
    Spec("diagonal_offset", lambda x: x.diagonal(1, 0, 2), lambda np_, x: np_.diagonal(x, 1, 0, 2),
         shapes=((3, 2, 4),), oracle=False),
    Spec("diag", lambda x: _lib(x).diag(x, 1), lambda np_, x: _need(x.ndim == 1) or np_.diag(x, 1),
         shapes=((3,),)),
    Spec("tril", lambda x: x.tril(), lambda np_, x: _need(x.ndim >= 2) or np_.tril(x),
         shapes=((3, 3), (2, 3, 4))),
    Spec("triu", lambda x: x.triu(1), lambda np_, x: _need(x.ndim >= 2) or np_.triu(x, 1),
         shapes=((3, 3), (2, 4))),
    Spec("sort", lambda x: x.sort()[0], lambda np_, x: np_.sort(x, axis=-1),
         shapes=((4,), (2, 3)), oracle=False,
         replay=False, notes="the order is this point's: traces guard it (_guard_order)"),
    Spec("sort_descending_dim0", lambda x: x.sort(0, descending=True).values,
         lambda np_, x: -np_.sort(-x, axis=0), shapes=((3, 2),), oracle=False,
         replay=False, notes="the order is this point's: traces guard it (_guard_order)"),
    Spec("topk", lambda x: x.topk(2).values,
         lambda np_, x: _need(x.ndim >= 1 and x.shape[-1] >= 2) or -np_.sort(-x, axis=-1)[..., :2],
         shapes=((3,), (2, 4)), oracle=False,
         replay=False, notes="the order is this point's: traces guard it (_guard_order)"),
    Spec("reshape", lambda x: x.reshape(-1), lambda np_, x: np_.reshape(x, (-1,)),
         shapes=((3,), (2, 3))),
    Spec("flatten", lambda x: x.flatten(), lambda np_, x: np_.reshape(x, (-1,)),
         shapes=((), (2, 3), (2, 3, 4))),
    Spec("squeeze", lambda x: x.unsqueeze(-1).squeeze(-1),
         lambda np_, x: x, shapes=((), (3,), (2, 3))),
    Spec("transpose", lambda x: x.transpose(0, 1), lambda np_, x: np_.swapaxes(x, 0, 1),
         shapes=((2, 3), (2, 3, 4))),
    Spec("permute", lambda x: x.permute(-1, 0, 1), lambda np_, x: np_.transpose(x, (2, 0, 1)),
         shapes=((2, 3, 4),)),
    Spec("T", lambda x: x.T, lambda np_, x: np_.transpose(x), shapes=((2, 3),)),
    Spec("mT", lambda x: x.mT, lambda np_, x: np_.swapaxes(x, -1, -2),
         shapes=((2, 3), (2, 3, 4))),
    Spec("t", lambda x: x.t(), _t_ref, shapes=((3,), (2, 3))),
    Spec("movedim", lambda x: x.movedim(0, -1), lambda np_, x: np_.moveaxis(x, 0, -1),
         shapes=((3,), (2, 3), (2, 3, 4))),
    Spec("expand", lambda x: x.expand(4, *x.shape), lambda np_, x: x + np_.zeros((4,) + x.shape),
         shapes=((), (3,), (2, 3))),
    Spec("broadcast_to", lambda x: x.broadcast_to((2, 2) + tuple(x.shape[1:])),
         lambda np_, x: x + np_.zeros((2, 2) + x.shape[1:]), shapes=((), (1,), (1, 3))),
    Spec("unsqueeze", lambda x: x.unsqueeze(0), lambda np_, x: np_.expand_dims(x, 0)),
    Spec("broadcast_add", lambda a, b: a + b[..., :1], lambda np_, a, b: a + b[..., :1],
         arity=2, shapes=((3,), (2, 3))),
    Spec("narrow", lambda x: x.narrow(-1, 1, 2), _narrow_ref, shapes=((3,), (2, 4))),
    Spec("select", lambda x: x.select(-1, -1), lambda np_, x: x[..., -1],
         shapes=((3,), (2, 3))),
    Spec("unbind", lambda x: x.unbind(-1)[1], lambda np_, x: x[..., 1], shapes=((3,), (2, 3))),
    Spec("split", lambda x: _lib(x).cat(x.split(2, -1)[::-1], -1), _split_rev_ref,
         shapes=((3,), (2, 5))),
    Spec("split_sizes", lambda x: x.split([1, 2], -1)[1], _split_ref, shapes=((3,), (2, 3))),
    Spec("chunk", lambda x: x.chunk(2)[1], _chunk_ref, shapes=((3,), (4, 2))),
    Spec("flip", lambda x: x.flip(0), lambda np_, x: x[::-1], shapes=((3,), (2, 3))),
    Spec("flip_dims", lambda x: x.flip(0, -1), lambda np_, x: x[::-1, ..., ::-1],
         shapes=((2, 3), (2, 3, 4))),
    Spec("repeat", lambda x: x.repeat(2, 3), _repeat_ref),
    Spec("tile", lambda x: x.tile(2, 1), _tile_ref, shapes=((), (3,), (2, 3), (2, 1, 2))),
    Spec("roll", lambda x: x.roll(1, -1), lambda np_, x: np_.roll(x, 1, -1),
         shapes=((3,), (2, 3))),
    Spec("roll_flat", lambda x: x.roll(-2), lambda np_, x: np_.roll(x, -2),
         shapes=((3,), (2, 3))),
    Spec("gather", lambda x: x.gather(-1, _lib(x).tensor(_gather_index(tuple(x.shape)))),
         _gather_ref, shapes=((3,), (2, 3), (3, 2, 4))),
    Spec("index_select", lambda x: x.index_select(-1, _lib(x).tensor(_select_index(x.shape))),
         lambda np_, x: x[..., _select_index(x.shape)], shapes=((3,), (2, 3))),
    Spec("masked_fill", lambda x: x.masked_fill(_lib(x).tensor(_mask(tuple(x.shape))), 1.5),
         lambda np_, x: np_.where(_mask(x.shape), 1.5, x)),
    Spec("masked_fill_bcast",
         lambda x: x.masked_fill(_lib(x).tensor(_mask(tuple(x.shape[-1:]))), -0.5),
         lambda np_, x: np_.where(_mask(x.shape[-1:]), -0.5, x)),
    Spec("cat", lambda a, b: _lib(a).cat([a, b]), lambda np_, a, b: np_.concatenate([a, b]),
         arity=2, shapes=(((2, 3), (1, 3)), (3,), (2, 3))),
    Spec("cat_last", lambda a, b: _lib(a).cat([a, b, a], -1),
         lambda np_, a, b: np_.concatenate([a, b, a], -1), arity=2,
         shapes=(((2, 1), (2, 3)), (3,), (2, 3, 2))),
    Spec("stack", lambda a, b: _lib(a).stack([a, b]), lambda np_, a, b: np_.stack([a, b]),
         arity=2),
    Spec("stack_last", lambda a, b: _lib(a).stack([b, a], -1),
         lambda np_, a, b: np_.stack([b, a], -1), arity=2, shapes=((3,), (2, 3))),
]
