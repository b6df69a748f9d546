"""Shape ops: broadcasting (EXPAND), flat copies (VIEW), strided views (STRIDED) and
indexing (GATHER).  All move values without arithmetic, so each reverse rule is an
accumulating copy; repeated targets (broadcast, repeated indices) accumulate.

Rules that move elements take ``w``, the number of points side by side in each element
(1 for one point; the block width in batch replay, where element ``i`` of a slot holds
values ``[o + i*w, o + (i+1)*w)``).  Elementwise rules need no ``w``: they see ``n*w``.
Offsets, sizes and ``w`` arrive unsigned (see _sweep.py); meta positions are signed, so
``_u``/``_s`` convert at the few places where the two meet.
"""
import numpy as np

from .._jit import rule
from .._state import state
from ..tensor import Tensor, _leaf, _wrap_dim
from ._record import output, slot, tape_for_grad
from .spec import Spec

NAMES = {}
VIEW_NAMES = ("ViewBackward0", "ReshapeAliasBackward0", "UnsqueezeBackward0",
              "SqueezeBackward0", "ExpandBackward0", "PermuteBackward0", "TransposeBackward0",
              "SelectBackward0", "SliceBackward0", "IndexBackward0", "UnsafeViewBackward0",
              "ToCopyBackward0")


def _c_strides(shape):
    strides, acc = [], 1
    for s in reversed(shape):
        strides.append(acc if s != 1 else 0)
        acc *= s
    return strides[::-1]


@rule
def _u(x):
    return np.uint64(x)


@rule
def _s(x):
    return np.int64(x)


@rule
def strided_index(i, meta, k):
    """Flat source index of element ``i`` of a strided map stored at ``meta[k]``:
    ``[ndim, base, shape..., strides...]``; stride 0 repeats (broadcast, reduced dims)."""
    nd = meta[k]
    j = meta[k + 1]
    for d in range(nd - 1, -1, -1):
        sz = meta[k + 2 + d]
        j += (i % sz) * meta[k + 2 + nd + d]
        i //= sz
    return j


def _strided_meta(shape, strides, base=0):
    return (len(shape), base, *shape, *strides)


# ---- expand: implicit broadcasting of a binary op's operand -----------------------------
EXPAND = 60
NAMES[EXPAND] = "ExpandBackward0"  # hidden in graph views: PyTorch broadcasts inside the op


@rule
def strided_fwd(vals, meta, o, a, n, k, w):
    for i in range(n):
        j = a + _u(strided_index(_s(i), meta, k)) * w
        for p in range(w):
            vals[o + i * w + p] = vals[j + p]


@rule
def strided_rev(adj, meta, o, a, n, k, w):
    # y[i] = x[map(i)]  =>  gx[map(i)] += gy[i]  (broadcast sources accumulate)
    for i in range(n):
        j = a + _u(strided_index(_s(i), meta, k)) * w
        for p in range(w):
            adj[j + p] += adj[o + i * w + p]


def record_expand(tape, t, s, shape):
    """EXPAND row taking slot ``s`` of ``t`` to ``shape``; returns the new slot."""
    src = (1,) * (len(shape) - t.ndim) + tuple(t.shape)
    k = tape.push_meta(_strided_meta(shape, _c_strides(src)))
    v = np.broadcast_to(np.asarray(t._data, np.float64), shape)
    out = tape.push_array(v)
    tape.rbuf.extend((EXPAND, out, s, -1, k))
    return out


# ---- strided views: expand, permute, transpose (meta: [name, ndim, base, ...]) ---------
STRIDED = 62


def _strided(x, data, name):
    """Record ``data`` (a NumPy view of x's C-contiguous values) as a STRIDED row."""
    if not (x._rg and state.grad_enabled):
        return _leaf(np.ascontiguousarray(data))
    src = np.asarray(x._data)
    item = src.itemsize
    base = (data.__array_interface__["data"][0] - src.__array_interface__["data"][0]) // item
    strides = [st // item for st in data.strides]
    tape = tape_for_grad()
    sx = slot(x, tape)
    k = tape.push_meta((VIEW_NAMES.index(name), *_strided_meta(data.shape, strides, base)))
    return output(tape, np.ascontiguousarray(data), STRIDED, sx, -1, k)


def expand(input, *sizes):
    """Broadcast to ``sizes`` (-1 keeps a dimension) without copying in PyTorch."""
    sizes = _sizes(sizes)
    lead = len(sizes) - input.ndim
    if lead < 0:
        raise RuntimeError(
            f"expand: the number of sizes provided ({len(sizes)}) must be greater or equal "
            f"to the number of dimensions in the tensor ({input.ndim})")
    shape = tuple(input.shape[i - lead] if s == -1 and i >= lead else s
                  for i, s in enumerate(sizes))
    for i, (s, old) in enumerate(zip(shape[lead:], input.shape)):
        if old != 1 and s != old:
            raise RuntimeError(
                f"expand: The expanded size of the tensor ({s}) must match the existing size "
                f"({old}) at non-singleton dimension {i + lead}.  Target sizes: {list(sizes)}."
                f"  Tensor sizes: {list(input.shape)}")
    return _strided(input, np.broadcast_to(np.asarray(input._data), shape), "ExpandBackward0")


def permute(input, *dims):
    """Reorder dimensions."""
    dims = _sizes(dims)
    if sorted(_wrap_dim(d, input.ndim, "permute") for d in dims) != list(range(input.ndim)):
        raise RuntimeError(
            f"permute(sparse_coo): number of dimensions in the tensor input does not match "
            f"the length of the desired ordering of dimensions i.e. input.dim() = "
            f"{input.ndim} is not equal to len(dims) = {len(dims)}")
    return _strided(input, np.asarray(input._data).transpose(dims), "PermuteBackward0")


def transpose(input, dim0, dim1):
    """Swap two dimensions."""
    perm = list(range(input.ndim))
    d0 = _wrap_dim(dim0, input.ndim, "transpose")
    d1 = _wrap_dim(dim1, input.ndim, "transpose")
    if input.ndim < 2:
        return _strided(input, np.asarray(input._data), "TransposeBackward0")
    perm[d0], perm[d1] = perm[d1], perm[d0]
    return _strided(input, np.asarray(input._data).transpose(perm), "TransposeBackward0")


# ---- view: reshape and friends, a flat copy --------------------------------------------
VIEW = 61


def _view_as(x, shape, name):
    data = np.asarray(x._data).reshape(shape)
    if not (x._rg and state.grad_enabled):
        return _leaf(data if data.ndim or data.dtype != np.float64 else float(data))
    tape = tape_for_grad()
    v = float(data) if data.ndim == 0 and data.dtype == np.float64 else data
    return output(tape, v, VIEW, slot(x, tape), -1, VIEW_NAMES.index(name))


def reshape(input, *shape):
    """The same values in a new shape (one dimension may be -1)."""
    shape = _sizes(shape)
    try:
        np.empty(input.shape, dtype=np.bool_).reshape(shape)
    except ValueError:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size "
                           f"{input.numel()}") from None
    return _view_as(input, shape, "ViewBackward0")


view = reshape


def flatten(input, start_dim=0, end_dim=-1):
    """Merge dimensions ``start_dim..end_dim`` into one."""
    shape = tuple(input.shape)
    if not shape:
        return _view_as(input, (1,), "ViewBackward0")
    s = _wrap_dim(start_dim, len(shape), "flatten")
    e = _wrap_dim(end_dim, len(shape), "flatten")
    merged = int(np.prod(shape[s:e + 1]))
    return _view_as(input, shape[:s] + (merged,) + shape[e + 1:], "ViewBackward0")


def squeeze(input, dim=None):
    """Drop dimensions of size 1 (all, or the given one)."""
    shape = list(input.shape)
    if dim is None:
        new = [s for s in shape if s != 1]
    else:
        dims = {_wrap_dim(d, len(shape), "squeeze") for d in (dim if isinstance(
            dim, (tuple, list)) else (dim,))}
        new = [s for i, s in enumerate(shape) if not (i in dims and s == 1)]
    return _view_as(input, tuple(new), "SqueezeBackward0")


def unsqueeze(input, dim):
    """Insert a dimension of size 1 at ``dim``."""
    shape = list(input.shape)
    d = _wrap_dim(dim, len(shape) + 1, "unsqueeze")
    return _view_as(input, tuple(shape[:d] + [1] + shape[d:]), "UnsqueezeBackward0")


# ---- gather: indexing by ints, slices, None, Ellipsis, index arrays and masks ------------
GATHER = 63  # meta: [name, flat source index per output element...]


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


def getitem(input, key):
    """``input[key]`` with PyTorch's indexing rules; the result is a copy here."""
    if not isinstance(key, tuple):
        key = (key,)
    key = tuple(_index(k) for k in key)
    for k in key:
        if isinstance(k, slice) and k.step is not None and k.step <= 0:
            raise ValueError("step must be greater than zero")
    data = np.asarray(input._data)
    try:
        out = data[key]
    except IndexError as e:
        raise IndexError(f"index: {e} (tensor of shape {tuple(input.shape)})") from None
    if not (input._rg and state.grad_enabled):
        return _leaf(_store(np.array(out)))
    src = np.arange(data.size, dtype=np.int64).reshape(data.shape)[key]
    advanced = any(isinstance(k, np.ndarray) for k in key)
    name = "IndexBackward0" if advanced else (
        "SelectBackward0" if any(isinstance(k, int) for k in key) else "SliceBackward0")
    tape = tape_for_grad()
    sx = slot(input, tape)
    k = tape.push_meta((VIEW_NAMES.index(name), *np.ravel(src).tolist()))
    return output(tape, _store(np.array(out)), GATHER, sx, -1, k)


def _index(k):
    if isinstance(k, Tensor):
        k = np.asarray(k._data)
        return int(k) if k.ndim == 0 and k.dtype.kind in "iu" else k
    if isinstance(k, (list, np.ndarray)):
        return np.asarray(k)
    if isinstance(k, (bool, np.bool_)):
        return k
    if isinstance(k, (int, np.integer)):
        return int(k)
    if k is None or k is Ellipsis or isinstance(k, slice):
        return k
    raise IndexError(f"only integers, slices (`:`), ellipsis (`...`), None and long or "
                     f"byte Variables are valid indices (got {type(k).__name__})")


def _store(a):
    return float(a) if a.ndim == 0 and a.dtype == np.float64 else np.ascontiguousarray(a)


def _sizes(sizes):
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = sizes[0]
    return tuple(int(s) for s in sizes)


# ---- spec rows ----------------------------------------------------------------------
SPECS = [
    Spec("reshape", lambda x: x.reshape(-1), lambda np_, x: np_.reshape(x, (-1,)),
         shapes=((3,), (2, 3))),
    Spec("getitem_int", lambda x: x[1], lambda np_, x: x[1], shapes=((3,), (2, 3))),
    Spec("getitem_slice", lambda x: x[::2], lambda np_, x: x[::2], shapes=((3,), (4, 2))),
    Spec("getitem_fancy", lambda x: x[[0, 0, 1]], lambda np_, x: x[np_.array([0, 0, 1])],
         shapes=((3,), (2, 3))),
    Spec("transpose", lambda x: x.transpose(0, 1), lambda np_, x: np_.swapaxes(x, 0, 1),
         shapes=((2, 3), (2, 3, 4))),
    Spec("expand", lambda x: x.expand(4, *x.shape), lambda np_, x: x + np_.zeros((4,) + x.shape),
         shapes=((), (3,), (2, 3))),
    Spec("unsqueeze", lambda x: x.unsqueeze(0), lambda np_, x: np_.expand_dims(x, 0)),
    Spec("broadcast_add", lambda a, b: a + b[..., :1], lambda np_, a, b: a + b[..., :1],
         arity=2, shapes=((3,), (2, 3))),
]


# ---- casts: a flat copy between float dtypes -------------------------------------------
def to(input, dtype=None, *args, **kwargs):
    """Cast to ``dtype`` (device arguments are accepted and ignored: CPU only)."""
    if dtype is None or isinstance(dtype, str):
        return input
    dt = np.dtype(dtype)
    if dt == input.dtype:
        return input
    data = np.asarray(input._data).astype(dt)
    if not (input._rg and state.grad_enabled and dt.kind == "f"):
        return _leaf(_store(data))
    tape = tape_for_grad()
    return output(tape, _store(data), VIEW, slot(input, tape), -1,
                  VIEW_NAMES.index("ToCopyBackward0"))

