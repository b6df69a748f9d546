"""Views that in-place ops write through: ``x[:, 0].zero_()``, ``x.t()[0].fill_(5)``,
``y.view(-1).add_(1)``, ``x.diagonal().fill_(1)`` change ``x``, as in PyTorch.

A view's values are a copy here (docs/limits.md), so each view op notes on its result where
they came from: ``t._vb = (base, storage, src, view, writes)``, the base tensor, the base's
storage object then (its ``_data``), the array the view was taken of (``src``, its values as
an ndarray), the NumPy view of it (or, with ``src`` None, the flat positions themselves) and
``arena.WRITES.n`` then (no write into any tensor since: the copy is up to date).
After an in-place op changes the view (``inplace._bump``), its new values are written into
the base at the view's positions, as ``base[key] = view`` (one PUT row when it records),
which in turn writes into the base's own base.  The other way, the base lists its live
views (``_vs``, weak references: ``tensor.add_view``), and an in-place change of the base
brings each of them up to date at once (``inplace._refresh_views``): values, history
(AsStridedBackward0 while it records), the shared version; so a view read after its base
changed shows the new values, as PyTorch's shares the base's memory (docs/limits.md).

``_vb`` is an unset slot on every tensor that is not a view (a recorded op pays nothing);
``inplace.Counter`` sets it to None when a tensor is first changed in place, since reading an
unset slot costs ~1 us.
"""
import re
import weakref

import numpy as np

from .._state import state
from ..arena import WRITES
from ..grad_mode import seen_mode
from ..tensor import EagerOnlyError, _leaf, add_view

def note_expanded(out, x):
    """Mark ``out`` as ``x.expand(...)``: a view in PyTorch, though not one that in-place ops
    write through (PyTorch refuses to write to one); only its strides are read
    (Tensor.stride).  An unset slot on every other tensor."""
    out._xf = x
    if MULTI or (x._rg and not seen_mode()):
        _kind(out, x)


def expanded_from(t):
    """The tensor ``t`` was expanded from, or None."""
    return getattr(t, "_xf", None)


def note(out, x, src, view):
    """Mark ``out`` (a copy of ``view``, a NumPy view of ``src = np.asarray(x._data)``) as a
    view of ``x``, and list it among x's live views; returns ``out``."""
    out._vb = (x, x._data, src, view, WRITES.n)
    add_view(x, out)
    if out._tok is not None and x._tok is not None and out._gen == x._gen:
        # (a row may save the view, then the view die before x changes: PyTorch refuses
        # that backward as one through "output 0 of AsStrided")
        out._tok.tape.note_alias(x._slot, out._slot)
    if MULTI or (x._rg and not seen_mode()):
        _kind(out, x)
    return out


def _kind(out, x):
    """Note view ``out`` of ``x`` among the refused kinds (``refusal``): a view made in
    no_grad mode of a tensor that requires grad (it requires grad too, as PyTorch's, with
    no grad_fn), or a view of a piece or of such a view (it keeps that kind; made in
    no_grad mode, it is one of those).  Not a no_grad view of any other tensor: marking
    every view made under no_grad cost 2.4 us a view, 1.65x the time of a loop of views
    (docs/limits.md)."""
    if not seen_mode() and (x._rg or (MULTI and _multi(x) is not None)):  # (f's mode)
        _mark(out, 0, None if state.inference else False, False)  # (None: inference mode)
        if x._rg and not out._rg:
            out._rg = True
    elif MULTI and (hit := _multi(x)) is not None:
        _mark(out, 0, hit[2])


# id(t) -> (weakref to t, output index, made with grad mode on (None: in inference mode;
#          CUSTOM: by a custom Function), version then, had a history)
MULTI = {}
CUSTOM = "custom"
_MULTI_TAIL = (" This view is the output of a function that returns multiple views. Such functions "
               "do not allow the output views to be modified inplace. You should replace the "
               "inplace operation by an out-of-place one.")
_NO_GRAD_TAIL = (" Given that this use case is ambiguous and error-prone, it is forbidden. You can "
                 "clarify your code by moving both the view and the inplace either both inside "
                 "the {} block (if you don't want the inplace to be tracked) or both outside "
                 "(if you want the inplace to be tracked).")


def note_multi(outs):
    """Mark the views ``outs`` of one multi-output view op (unbind, split, chunk), of a plain
    tensor too (a history its base gains later reaches them): PyTorch refuses an in-place op
    on them, and on views of them, and their use once their base changed (``refusal``)."""
    grad = seen_mode()  # (while tracing: the mode f sees)
    for i, t in enumerate(outs):
        _mark(t, i, grad, grad)
        if not grad and not t._rg and t._vb[0]._rg:
            t._rg = True  # (made in no_grad mode, PyTorch's piece requires grad all the same)
    return outs


_CUSTOM_TAIL = (" This view was created inside a custom Function (or because an input was "
                "returned as-is) and the autograd logic to handle view+inplace would override "
                "the custom backward associated with the custom Function, leading to incorrect "
                "gradients. This behavior is forbidden. You can fix this by cloning the output "
                "of the custom Function.")


def custom_view(x, i):
    """Output ``i`` of a custom Function that returned its input ``x`` as is (as
    BackwardHookFunction does, around a module with full backward hooks): PyTorch's view of
    ``x`` made inside a custom Function, a new tensor (its history is set by the caller).
    An in-place op on it (or on a view of it) with grad mode on is refused, and its use
    once it changed in place (``refusal``)."""
    src = np.asarray(x._data)
    view = src.reshape(src.shape)
    out = note(_leaf(float(view) if type(x._data) is float else view), x, src, view)
    _mark(out, i, CUSTOM)
    return out


def _mark(t, i, grad, history=True):
    MULTI[id(t)] = (weakref.ref(t, lambda _, k=id(t): MULTI.pop(k, None)), i, grad,
                    t._version, history and t._tok is not None)


def _multi(t):
    hit = MULTI.get(id(t))
    return hit if hit is not None and hit[0]() is t else None


def piece(t):
    """Whether t is a piece of unbind, split, chunk or a view of one (``note_multi``), or a
    view made in no_grad mode."""
    return _multi(t) is not None


def frozen(v, base):
    """Whether view ``v``, brought up to date after ``base`` changed in place, takes no new
    node (its next recorded use is refused: ``refusal``): a piece, or a view made in no_grad
    mode of a base that requires grad (made of a plain one, it follows it as any view)."""
    hit = _multi(v)
    return hit is not None and (hit[2] or hit[4] or base._rg)


def unmark(outs):
    """``outs`` are not refused (unsafe_split, unsafe_chunk: PyTorch lets them be written)."""
    for t in outs:
        MULTI.pop(id(t), None)
    return outs


def refusal(t, changing, records=True, via=None):
    """PyTorch's refusal, or None: for an in-place op on ``t`` (``changing``; ``records``:
    grad mode is on and the op's tensors require grad), or for a recorded use of ``t``
    (its grad_fn read), when t is a piece of a multi-output view op or a view of one (made
    in grad mode), or a view made in no_grad mode (or a view of one) and, for a use, its
    base or a view of its base changed in place since t was made.  ``via``: the name of
    the view op that ``t[key] = v`` writes through (PyTorch's error names it)."""
    hit = _multi(t)
    if hit is None or not records or not seen_mode():  # (while tracing, f's mode)
        return None
    if via is not None and changing and (msg := refusal(t, False)) is not None:
        return msg  # (PyTorch's view t[key] reads t's grad_fn first)
    if not changing and (t._version == hit[3] or (not hit[4] and not _root_rg(t))):
        return None  # (PyTorch's grad_fn of such a view is None then: nothing to refuse)
    what = "is being" if changing else "its base or another view of its base has been"
    if hit[2] is CUSTOM:
        name = via or re.sub(r"Backward[0-9]*$", "", t._node_name())
        return f"Output {0 if via else hit[1]} of {name} is a view and {what} modified " \
            "inplace." + _CUSTOM_TAIL
    # (PyTorch's words follow whether the view written has a grad_fn: t[key] has one when t
    # requires grad)
    mode, now, block = ("inference mode", "in normal mode", "inference_mode") \
        if hit[2] is None else ("no_grad mode", "with grad mode enabled", "no_grad")
    if not (t._rg if via is not None else hit[4]):
        msg = f"A view was created in {mode} and {what} modified inplace {now}."
    else:
        name = via or re.sub(r"Backward[0-9]*$", "", t._node_name())
        of_view = f" of a view which was created in {mode}" if not hit[2] else ""
        msg = f"Output {0 if via else hit[1]} of {name} is a view{of_view} and {what} " \
            "modified inplace" + (f" {now}." if not hit[2] else ".")
    return msg + (_MULTI_TAIL if hit[2] else _NO_GRAD_TAIL.format(block))


def refused(msg):
    """The exception for ``refusal``'s message: while tracing, an EagerOnlyError, since it
    rests on requires_grad, which every value f computes has while traced (a piece of a
    split of a ``.data`` carries no gradient eagerly, and its in-place change is fine there):
    compile(f) called with tensors then runs f eagerly, which refuses or not as eager does."""
    return (EagerOnlyError if state.tracing is not None else RuntimeError)(msg)


def _root_rg(t):
    """Whether the tensor at the end of t's chain of views and expands requires grad."""
    r = root(t, True)
    return (t if r is None else r)._rg


def of(t):
    """t's view record, or None."""
    try:
        return t._vb
    except AttributeError:
        return None


def positions(vb):
    """The flat positions in the base's values (C order) of the view's elements, an int64
    array of the view's shape."""
    src, view = vb[2], vb[3]
    if src is None:
        return view
    if not view.size:
        return np.zeros(view.shape, np.int64)
    item = src.itemsize
    offset = (view.__array_interface__["data"][0] - src.__array_interface__["data"][0]) // item
    # (the view's size, not the base's: x[i][j])
    return strided_positions(offset, view.shape, [st // item for st in view.strides])


def strided_positions(offset, shape, strides):
    """The flat positions ``offset + sum(i_k * strides_k)`` (strides in elements) of the
    elements of an array of ``shape``: an int64 array of that shape."""
    pos = np.int64(offset)
    for n, st in zip(shape, strides):
        pos = np.add.outer(pos, np.arange(n, dtype=np.int64) * st)
    return np.asarray(pos)


def key_positions(shape, key):
    """The flat positions (C order) that the checked basic key ``key`` (ints, slices with a
    positive step, None, one Ellipsis) selects from an array of ``shape``: an int64 array of
    the selection's shape, built from the key in O(selection), where an arange of the whole
    shape is O(shape) (``x[i, j] = v`` on a large x)."""
    strides = [1] * len(shape)
    for i in range(len(shape) - 1, 0, -1):
        strides[i - 1] = strides[i] * shape[i]
    rest = len(shape) - sum(k is not None and k is not Ellipsis for k in key)
    pos, axes, d = 0, [], 0
    for k in key + (Ellipsis,) * (Ellipsis not in key):
        if k is None:
            axes.append(np.zeros(1, np.int64))
            continue
        for _ in range(rest if k is Ellipsis else 1):
            n = shape[d]
            if type(k) is slice:
                axes.append(np.arange(*k.indices(n), dtype=np.int64) * strides[d])
            elif k is Ellipsis:
                axes.append(np.arange(n, dtype=np.int64) * strides[d])
            else:
                pos += (k + n if k < 0 else k) * strides[d]
            d += 1
        rest = 0 if k is Ellipsis else rest
    out = np.int64(pos)
    for ax in axes:
        out = np.add.outer(out, ax)
    return np.asarray(out)


def root(t, expands=False):
    """The tensor at the end of t's chain of views (PyTorch's ``_base``), or None;
    ``expands``: of views and expands."""
    base = None
    while (b := vb[0] if (vb := of(t)) is not None else
           expanded_from(t) if expands else None) is not None:
        base = t = b
    return base
