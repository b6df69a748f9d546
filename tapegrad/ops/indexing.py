"""Indexing: ``x[key]`` parsed into one STRIDED row for basic keys (ints, slices with steps,
None, ...) and one GATHER row otherwise (integer lists and tensors, bool masks), with
PyTorch's errors for keys that do not apply.  The rows and their rules are shape.py's and
strided.py's; this module only reads keys.
"""
import operator
import warnings

import numpy as np

from .._errors import with_note
from ..tensor import Tensor, _leaf, host_values
from . import shape as S
from . import views
from ._record import output, slot, tape_for_grad
from .shape import _arr, _flat_index, _gathered, _mask, _record_on, _store, _strided
from .spec import Spec
from .spec import lib as _lib
from .strided import STRIDED, VIEW_NAMES


# ---- indexing: x[key], a STRIDED row for basic keys and a GATHER row otherwise ----------
def getitem(input, key):
    """``input[key]`` with PyTorch's indexing rules; the result is a copy here."""
    d = input._data
    if type(key) is int and type(d) is not float and d.ndim and -d.shape[0] <= key < d.shape[0]:
        return _select_first(input, d, key)
    if (type(key) is tuple or type(key) is slice) and type(d) is np.ndarray:
        out = _plain_slices(input, d, key)
        if out is not None:
            return out
    single_slice = isinstance(key, slice)
    if isinstance(key, list) and len(key) < 32 and any(
            isinstance(k, (list, tuple, slice, Tensor, np.ndarray)) or k is None or
            k is Ellipsis for k in key):
        key = tuple(key)  # PyTorch (and old NumPy): x[[[0, 1], [2, 2]]] is x[[0, 1], [2, 2]]
    raw = key if isinstance(key, tuple) else (key,)
    key = tuple(_index(k) for k in raw)
    name = _check_key(input, key)
    if single_slice:
        name = "SliceBackward0"
    src = _arr(input)
    if name != "IndexBackward0":
        if Ellipsis not in key:
            key = key + (Ellipsis,)  # a 0-d result is then a view too, not a NumPy scalar
        return _strided(input, src, src[key], name, key=key)
    return _gathered(input, src, positions(src.shape, key), name)


def positions(shape, key):
    """The flat positions ``x[key]`` reads, for a checked key with index arrays.  PyTorch
    applies the ints, slices and Nones first and only then the arrays (and bools): x[0, :, i]
    is x[0][:, i], of shape (3, len(i)) for x of (2, 3, 4), where NumPy's rule, with the int
    an advanced index apart from i, would put i's dims first."""
    flat = _flat_index(tuple(shape))
    if any(type(k) is int for k in key):
        flat = flat[_basic(key)]
        key = tuple(k if isinstance(k, (np.ndarray, bool)) or k is Ellipsis else slice(None)
                    for k in key if type(k) is not int)
    try:
        return flat[key]
    except IndexError as e:
        if "could not be broadcast" not in str(e):
            raise
        shapes = ", ".join(str(list(k.shape) if k.dtype != np.bool_ else [int(k.sum())])
                           for k in key if isinstance(k, np.ndarray))
        raise IndexError(f"shape mismatch: indexing tensors could not be broadcast together "
                         f"with shapes {shapes}") from None


def _basic(key):
    """The part of ``key`` PyTorch applies first: its ints, slices and Nones, the dims of
    its arrays kept whole (a mask's dims each; a bool adds no dim here)."""
    out = []
    for k in key:
        if isinstance(k, np.ndarray):
            out.extend([slice(None)] * (k.ndim if k.dtype == np.bool_ else 1))
        elif not isinstance(k, bool):
            out.append(k)
    return tuple(out)


def _select_first(input, d, i):
    """``x[i]`` for an int ``i`` in range: the common case, without the general checks."""
    i = i + d.shape[0] if i < 0 else i
    if d.ndim > 1 and not input._rg and input._tok is None and d.flags.c_contiguous:
        # a plain tensor's row is a view, as in PyTorch, so x[i][j] = v and x[i].zero_()
        # write through to x (the tape copies an array at each use: Tape.adopt); noted as
        # a view too, for x's own base (x = y.t(): ops/views.py)
        view = d[i]
        return views.note(_leaf(view), input, d, view)
    view = d[i, ...]  # (a 0-d view of a vector's element, not a NumPy scalar)
    value = _store(np.array(view))
    if not _record_on(input):
        return views.note(_leaf(value), input, d, view)
    inner = d.shape[1:]
    strides, acc = [], 1
    for n in reversed(inner):
        strides.append(acc)
        acc *= n
    tape = tape_for_grad()
    sx = slot(input, tape, False)  # (STRIDED reads no values: x may stay kept aside)
    k = tape.push_meta((VIEW_NAMES.index("SelectBackward0"), len(inner), i * acc, *inner,
                        *reversed(strides)))
    return views.note(output(tape, value, STRIDED, sx, -1, k), input, d, view)


def _plain_slices(input, d, key):
    """``x[a:b, c:d]`` (slices without steps, of ints or None, at most one a dim, nothing
    empty): the LSTM's ``gates[:, H:2 * H]``, without the general parse and checks
    (~10 us of a ~16 us slice of a small tensor); None for any other key.  The view keeps
    every dim, its strides x's, its offset the starts'; the node name is _check_key's."""
    keys = (key,) if type(key) is slice else key
    if len(keys) > d.ndim or not d.flags.c_contiguous:
        return None
    name = "SliceBackward0" if type(key) is slice else "AliasBackward0"
    item, base = d.itemsize, 0
    for k, n, st in zip(keys, d.shape, d.strides):
        if type(k) is not slice or k.step is not None:
            return None
        if k.start is None and k.stop is None and n:  # (x[:, a:b]'s ":": all of a dim)
            continue
        if type(k.start) not in _PLAIN or type(k.stop) not in _PLAIN:
            return None
        start, stop, _ = k.indices(n)
        if stop <= start:
            return None
        if k.start not in (None, 0) or (k.stop is not None and k.stop < n):
            name = "SliceBackward0"  # PyTorch skips x[0:n] and x[:], not x[-n:]
        base += start * (st // item)
    view = d[key]
    value = np.array(view)  # (C order, a new array: _store has nothing to do)
    if not _record_on(input):
        return views.note(_leaf(value), input, d, view)
    return views.note(S._record_strided(input, value, name, view.shape,
                                        [st // item for st in d.strides], base), input, d, view)


_PLAIN = (int, type(None))  # a slice of these and no step needs no conversion


def _byte_key(a):
    """A uint8 tensor key is a mask, as PyTorch's (deprecated: it warns); a tensor of
    another integer dtype than int32/int64 is refused (as a float: the caller's check)."""
    if a.dtype != np.uint8:
        return a.astype(np.float32)
    warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype "
                  "torch.bool instead.", UserWarning, stacklevel=5)
    return a.astype(bool)


def _index(k):
    if type(k) is slice and k.step is None and type(k.start) in _PLAIN and \
            type(k.stop) in _PLAIN:  # (x[:, a:b], the common key: as it is)
        return k
    if type(k) is int:
        return k
    if isinstance(k, range):  # x[range(n), t]: PyTorch indexes with it as with a list
        k = np.arange(k.start, k.stop, k.step, dtype=np.int64)
    if isinstance(k, (Tensor, list, np.ndarray)):
        tensor = isinstance(k, Tensor)
        a = host_values(k, "index")  # (a traced key's positions: guarded while tracing)
        if not tensor and a.size == 0 and a.dtype.kind not in "iub":
            a = a.astype(np.int64)  # x[[]] selects nothing
        if tensor and a.dtype.kind in "iu" and a.dtype not in S.INT_OR_LONG:
            a = _byte_key(a)
        if a.dtype.kind not in "iub":
            got = a.dtype if tensor else f"a {type(k).__name__} of {a.dtype}"
            raise with_note(IndexError("tensors used as indices must be long, int, byte or "
                                       "bool tensors"), f"indexing: got {got}")
        return int(a) if a.ndim == 0 and a.dtype.kind in "iu" else a
    if isinstance(k, (bool, np.bool_)):
        return bool(k)
    if isinstance(k, (int, np.integer)):
        return int(k)
    if isinstance(k, slice):
        parts = [None if v is None else operator.index(v) for v in (k.start, k.stop, k.step)]
        if parts[2] == 0:
            raise ValueError("slice step cannot be zero")
        if parts[2] is not None and parts[2] < 0:
            raise ValueError("step must be greater than zero (negative steps are not "
                             "supported; use flip)")
        return slice(*parts)
    if k is None or k is Ellipsis:
        return k
    raise IndexError(f"only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                     f"Variables are valid indices (got {type(k).__name__})")


def _check_key(input, key):
    """Check ``key`` against the shape with PyTorch's messages; returns the node name."""
    shape = tuple(input.shape)
    nd = len(shape)
    if 0 < len(key) <= nd and all(type(k) is int for k in key):  # x[i, j]: bounds only
        for d, k in enumerate(key):
            if not -shape[d] <= k < shape[d]:
                raise IndexError(f"index {k} is out of bounds for dimension {d} with size "
                                 f"{shape[d]}")
        return "SelectBackward0"
    if sum(k is Ellipsis for k in key) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(1 if isinstance(k, (int, slice)) and not isinstance(k, bool) else
               k.ndim if isinstance(k, np.ndarray) and k.dtype == np.bool_ else
               1 if isinstance(k, np.ndarray) else 0 for k in key)
    if nd == 0 and any(isinstance(k, int) and not isinstance(k, bool) for k in key):
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    if used > nd:
        raise IndexError(f"too many indices for tensor of dimension {nd}")
    name, advanced, d, shift, bad_mask = "AliasBackward0", False, 0, 0, None
    # PyTorch names an int by its place in the key, a tensor index by its place among the
    # tensor indices (a k-dim mask being k of them)
    tensors = 0
    for i, k in enumerate(key):
        if k is Ellipsis:
            d += nd - used
        elif k is None:
            name, shift = "UnsqueezeBackward0", shift + 1
        elif isinstance(k, bool):
            advanced = True
        elif isinstance(k, int):
            if not -shape[d] <= k < shape[d]:
                raise IndexError(f"index {k} is out of bounds for dimension {i} with size "
                                 f"{shape[d]}")
            name, d, shift = "SelectBackward0", d + 1, shift - 1
        elif isinstance(k, slice):
            if k.start not in (None, 0) or k.step not in (None, 1) or (
                    k.stop is not None and k.stop < shape[d]):
                name = "SliceBackward0"  # PyTorch skips x[0:n] and x[:], not x[-n:]
            d += 1
        elif k.dtype == np.bool_:
            bad = [j for j, m in enumerate(k.shape) if m != shape[d + j]]
            if bad and bad_mask is None:
                bad_mask = (k.shape, bad[0], d + bad[0] + shift)
            advanced, d, tensors = True, d + k.ndim, tensors + k.ndim
        else:
            bad = k[(k < -shape[d]) | (k >= shape[d])]
            if bad.size:
                raise IndexError(f"index {int(bad.flat[0])} is out of bounds for dimension "
                                 f"{tensors} with size {shape[d]}")
            advanced, d, tensors = True, d + 1, tensors + 1
    if bad_mask is not None:  # (said of x[basic part]: PyTorch applies that first)
        mask, j, at = bad_mask
        left = list(np.broadcast_to(np.empty((), np.bool_), shape)[_basic(key)].shape)
        raise IndexError(f"The shape of the mask {list(mask)} at index {j} does not match the "
                         f"shape of the indexed tensor {left} at index {at}")
    return "IndexBackward0" if advanced else name


# ---- spec rows ----------------------------------------------------------------------
SPECS = [
    Spec("getitem_int", lambda x: x[1], lambda np_, x: x[1], shapes=((3,), (2, 3))),
    Spec("getitem_slice", lambda x: x[::2], lambda np_, x: x[::2], shapes=((3,), (4, 2))),
    Spec("getitem_basic", lambda x: x[None, ..., 1:, -1], lambda np_, x: x[None, ..., 1:, -1],
         shapes=((2, 3), (3, 2, 4))),
    Spec("getitem_fancy", lambda x: x[[0, 0, 1]], lambda np_, x: x[np_.array([0, 0, 1])],
         shapes=((3,), (2, 3))),
    Spec("getitem_fancy_2d", lambda x: x[..., [[2, 0], [2, 2]]],
         lambda np_, x: x[..., np.array([[2, 0], [2, 2]])], shapes=((3,), (2, 3))),
    Spec("getitem_mask", lambda x: x[_lib(x).tensor(_mask(tuple(x.shape)))],
         lambda np_, x: x[_mask(x.shape)], shapes=((3,), (2, 3))),
]
