"""In-place ops (``add_``, ``x += y``, ``x[i] = v``...), version counters, and the check that
a value saved for backward was not modified in place afterwards.

An in-place op has no rule of its own.  When it must be recorded (grad mode on, and the
tensor or an operand requires grad) it runs the out-of-place op, which appends its rows,
and the tensor is *rebased* onto the result's slot, as PyTorch rebases history:
``x.mul_(2)`` on a non-leaf gives ``x.grad_fn`` MulBackward0 and later ops read the new
slot.  The tensor's array is then replaced, not written into: another live tensor may share
it (a ``reshape`` of it) and that tensor's slot still holds the old values, so writing
through would make its values and its slot disagree.  When nothing is recorded (no_grad,
or no tensor requires grad) the op writes into the array, through every alias
(``detach()``, ``.data``, ``numpy()``), as PyTorch does; that is how optimizers step.

Versions: each in-place op bumps the tensor's ``_version``.  tapegrad copies every value
into the tape, so a later modification can never corrupt a gradient; yet PyTorch refuses
such a backward, and code that runs here should run there.  So each modification of a
value that sits in a slot of the current tape is logged there (``Tape.mutated``), and a
backward that sweeps a row which saved that slot for its rule raises PyTorch's "modified
by an inplace operation" error (``check_saved``).  Nothing is added to the recording hot
path: ``_ver`` is an unset slot until the first in-place op.
"""
import threading
import weakref
from array import array

import numpy as np

from .. import dtypes, grad_mode
from .._fp import call as _quiet_call
from .._state import state
from ..arena import _F32, _F64, WRITES, _ndarray, note_write
from ..tape import OP_MASK, shared_next
from ..tensor import TRACE_HOOKS, EagerOnlyError, Live, Tensor, host_values, norm
from . import arithmetic
from . import elementwise as ew
from . import indexing
from . import shape as sh
from . import views
from ._record import copy_slices, named_result, output
from .registry import OPS, saved_flags
from .strided import VIEW_NAMES, broadcast_shape

_LEAF = "a leaf Variable that requires grad is being used in an in-place operation."
_LEAF_VIEW = "a view of a leaf Variable that requires grad is being used in an in-place operation."
_INFERENCE_INPLACE = (  # (PyTorch's words, its missing spaces included)
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details.")


# ---- what a row saves for its reverse rule (PyTorch's SavedVariables) --------------------
# from each op's declaration (registry.py: 'a', 'b', 'A', 'B', 'o'). Ops that save nothing
# PyTorch would check (add, views, sums...), and unknown ones, are never checked: a missed
# check costs nothing here (the tape holds copies), a false one would refuse valid code.
_NCODES = max(OPS) + 1
_FLAGS = {c: np.array(saved_flags(c, _NCODES), bool) for c in "aAbBo"}


class Log:
    """A tape's record of in-place changes (``Tape.mutated``): per change the slot whose
    values changed, how many rows were recorded before (they read the old values) and the
    version they saw, as ints; and the tensor's Counter.  No Python object per change."""

    __slots__ = ("ints", "counters")

    def __init__(self):
        self.ints = array("q")
        self.counters = []

    def __len__(self):
        return len(self.counters)

    def add(self, slot, limit, counter):
        self.ints.extend((slot, limit, counter.version))
        self.counters.append(counter)


class _Mutation(threading.local):
    allowed = False  # inside autograd.graph.allow_mutation_on_saved_tensors


MUTATION = _Mutation()


def _log_mutation(t, tape, slots, limit=None):
    """Note on ``tape`` that the values ``slots`` hold (t's, before this op) have changed;
    the rows before ``limit`` (default: all so far) read the old values.  Not inside
    ``allow_mutation_on_saved_tensors``: the tape's copies of the old values serve then.
    The older segments of the thread's tape that still live (tape.py ``Tape._split``) are
    noted too: their rows read the old values as well (a non-leaf there: its own
    segment; a leaf: those its slots are on).  While tracing, the slots of t's detach()
    and .data copies (ops/control.py stop_gradient) too: eagerly they share t's memory and
    version, so a row that saved one is refused as one that saved t, also once the alias
    is gone (it was not followed then: replay ran that backward with the old values)."""
    alias_of = tape.alias_of if slots else None
    if alias_of:
        slots, todo = list(slots), list(slots)
        while todo:
            more = alias_of.get(todo.pop(), ())
            slots += more
            todo += more
    _log_on(t, tape, slots, limit)
    _log_segments(t, tape)


def _log_segments(t, tape):
    """_log_mutation on the older segments of ``tape`` that hold t's values."""
    own = t._tok.tape if t._tok is not None else None
    if own is not None and own is not tape and own.split and t._gen == own.gen:
        _log_on(t, own, [t._slot])
    elif own is None and tape is not None:
        seg = tape.prev() if tape.prev is not None else None
        while seg is not None and seg.split:
            _log_on(t, seg, _old_slots(t, seg))
            seg = seg.prev() if seg.prev is not None else None


def _log_on(t, tape, slots, limit=None):
    """_log_mutation on one tape (a retired one only if it is a segment of the thread's)."""
    if slots and (not tape.retired or tape.split):
        for s in slots if tape.lazy else ():  # values kept aside (Tape.push_array): copy
            if s in tape.lazy:  # them in before they change
                tape.fill(s)
        if MUTATION.allowed:
            return
        limit = tape.nrows if limit is None else limit
        counter = _counter(t)
        log = tape.mutated
        if log is None:
            log = tape.mutated = Log()
        for s in slots:
            log.add(s, limit, counter)


def _old_slots(t, tape):
    """The slots of ``tape`` that hold t's current values."""
    if t._gen == tape.gen and t._slot >= 0:
        out = [t._slot]
    elif t._tok is None and t._rg:  # an array leaf takes a slot per use (Tape.adopt)
        out = [s for s, u in tape.leaves if u is t]
    else:
        out = []
    cu = tape.const_uses  # (and constants' uses: its own, its views' and detach()es')
    if cu and (e := cu.get(id(t))) is not None and e[0]() is t:
        out += e[1:]
    return out


class Counter:
    """A tensor's version counter, kept apart so that a saved value's check outlives the
    tensor (``y`` may be gone when backward runs), as PyTorch's SavedVariable keeps it."""

    __slots__ = ("version", "slot", "gen", "shape", "dtype")

    def __init__(self, t):
        self.version = 0
        self.slot, self.gen, self.shape, self.dtype = -1, 0, list(t.shape), t.dtype
        if views.of(t) is None:
            t._vb = None  # (set once: _bump reads it on every change, see ops/views.py)
        else:  # a view counts its base's changes (Tensor._version)
            self.version = t._version
        if getattr(t, "_vs", None) is None:
            t._vs = None  # (likewise: no live views yet; not a detach())
        if getattr(t, "_da", None) is None:
            t._da = None


def _counter(t):
    c = getattr(t, "_ver", None)
    if c is None:
        c = t._ver = Counter(t)
    return c


def _bump(t):
    note_write()  # (a leaf's slot is reused only while no tensor was written: Tape.adopt)
    if state.tracing is not None:  # replay repeats no write: trace() refuses one into
        # a tensor that outlives f
        written = state.tracing.__dict__.setdefault("written", [])
        u = t
        while u is not None:  # (a view's bases are written too)
            written.append(weakref.ref(u))
            vb = getattr(u, "_vb", None)
            u = vb[0] if vb is not None else None
    c = getattr(t, "_ver", None)
    if c is None:
        c = t._ver = Counter(t)
    c.version += 1
    if t._tok is not None:
        c.slot = t._slot
        c.gen = t._gen
    if t._vb is not None:  # a view: its new values go into its base
        _write_back(t, t._vb)
    if getattr(t, "_xf", None) is not None:  # an expand: into the tensor it expands
        _write_through_expand(t, t._xf)
    if t._vs is not None:  # its live views show the new values
        _refresh_views(t)
    if t._da is not None:  # a detach() or a .data: the tensor it shares memory with too
        if type(t._da) is tuple:
            _data_changed(t, t._da[0])
        else:
            _detached_changed(t, t._da)
    if views.MULTI and t._tok is not None and views.piece(t):
        t._gen = -1  # (a no_grad write into a piece: its next recorded use is refused)


class _Sources(threading.local):
    chain = ()  # the views whose in-place op is being written into their bases
    placed = None  # (expand, flat positions) while _place writes into an expand
    limit = None  # while a recorded in-place op on a detach() is written: its first row

    def run(self, source, fn, *args):
        """``fn(*args)`` with ``source`` on the chain: its views' refresh leaves it out."""
        chain = self.chain
        self.chain = (*chain, source)
        try:
            return fn(*args)
        finally:
            self.chain = chain


SOURCES = _Sources()


def _refresh_views(t):
    """After an in-place change of ``t``: each live view of it (and their views) takes t's
    new values at its positions, with t's history, as PyTorch's views share t's memory; the
    view being written through (``SOURCES``) has them already."""
    live = []
    for r in t._vs:
        v = r()
        if v is None:
            continue
        vb = getattr(v, "_vb", None)
        da = getattr(v, "_da", None)
        if type(da) is tuple and da[0] is t:  # a .data: t's values, not its version
            live.append(r)
            if not any(v is u for u in SOURCES.chain) and _same_layout(v, t):
                _overwrite(v, t._data if type(t._data) is float else np.asarray(t._data))
                if getattr(v, "_vs", None) is not None:
                    _spread(v, t)
            continue
        if da is t or views.expanded_from(v) is t:
            live.append(r)
            if not any(v is u for u in SOURCES.chain):
                _follow_detached(v, t)
            continue
        if vb is None or vb[0] is not t:  # (rebased, detached, or a view of another now)
            continue
        live.append(r)
        if not any(v is u for u in SOURCES.chain):
            _follow(v, vb)
    t._vs = Live.of(live)


_INTS = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}


def _write_through_expand(d, t):
    """After an in-place change of ``d = t.expand(...)`` (a write PyTorch allows: one value to
    elements sharing memory, any write to an expand naming each element once, or through a
    view of it that does, ``d[1].neg_()``): what it wrote goes into t, PyTorch's shared
    memory, and d shows t's values again (its other copies of them).  Written: the positions
    ``_place`` wrote (``d[0] = v``) or the view's; else all of d where it holds one copy of
    each element of t; else (a one-value write, fill_, masked_fill_) those it changed.  PyTorch's backward then refuses
    (CopySlices of memory shared); this one runs, with the one value's gradient.)"""
    if d.dtype != t.dtype or d.ndim < t.ndim or d.dtype.itemsize not in _INTS or \
            any(d is u for u in SOURCES.chain):
        return
    src = SOURCES.chain[-1] if SOURCES.chain else None
    vb = getattr(src, "_vb", None)
    records = _records(t, d)
    new = np.ascontiguousarray(d._data).reshape(-1)
    at = np.broadcast_to(np.arange(t.numel()).reshape(t.shape), d.shape).reshape(-1)
    placed = SOURCES.placed
    if placed is not None and placed[0] is d:  # (e[0] = v: its positions)
        idx = np.asarray(placed[1]).reshape(-1)
    elif vb is not None and vb[0] is d:
        idx = views.positions(vb).reshape(-1)
    elif new.size == t.numel():  # (one copy of each element: all of them written)
        idx = np.arange(new.size)
    else:  # a one-value write (the others are refused): where it changed a copy
        old = np.ascontiguousarray(np.broadcast_to(np.asarray(t._data), d.shape)).reshape(-1)
        as_int = _INTS[d.dtype.itemsize]
        idx = np.flatnonzero(new.view(as_int) != old.view(as_int))
    idx = idx[np.unique(at[idx], return_index=True)[1]]  # (one write an element of t)
    if not idx.size:
        return
    if state.tracing is not None:
        raise EagerOnlyError(
            "tapegrad.trace: an in-place write into an expand() of a tensor (or through a view "
            "of one) writes that tensor's memory, which replay cannot follow; write into a "
            "clone() of the expand")
    values = d.reshape(-1)[Tensor(idx)] if records else new[idx]
    SOURCES.run(d, _place, t, at[idx], values)
    _follow_detached(d, t)


def _follow_detached(d, t):
    """Bring ``d = t.detach()`` up to date after t changed in place: t's values (its
    storage itself, unless d has a history of its own now), t's version; no history.
    Or ``d = t.expand(...)``: t's values broadcast, with t's history while it records."""
    if views.expanded_from(d) is t:
        if d.dtype != t.dtype or d.ndim < t.ndim:
            d._xf = None
            return
        c = _counter(d)
        c.version = t._version - 1
        if state.tape is not None:
            _log_mutation(d, state.tape, _old_slots(d, state.tape))
        c.version += 1
        if views.MULTI and views.frozen(d, t):
            _piece_follows(d, np.broadcast_to(np.asarray(t._data), d.shape), t)
        elif sh._record_on(t):
            r = sh.expand(t, *d.shape)
            d._data, d._slot, d._gen, d._tok, d._rg = r._data, r._slot, r._gen, r._tok, r._rg
        else:
            _set_values(d, np.broadcast_to(np.asarray(t._data), d.shape))
        if d._vs is not None:
            _refresh_views(d)
        return
    if d.shape != t.shape or d.dtype != t.dtype:
        d._da = None  # (t was resized or cast: no longer d's memory)
        return
    c = _counter(d)
    c.version = t._version - 1
    tape = state.tape
    if tape is not None:
        _log_mutation(d, tape, _old_slots(d, tape))
    c.version += 1
    if d._data is not t._data:
        if tape is not None and tape is state.tracing and d._tok is not None and \
                (r := TRACE_HOOKS["detach"](t)) is not None:
            # a traced detach(): the stop-gradient copy of t's new slot, so replay reads
            # the values written (not those d was taken from)
            d._data, d._slot, d._gen, d._tok = r._data, r._slot, r._gen, r._tok
        elif d._tok is not None:
            _set_values(d, np.asarray(t._data))
        else:
            d._data = t._data
            d._gen = 0
    if d._vs is not None:
        _refresh_views(d)


def _detached_changed(d, t):
    """After an in-place change of ``d = t.detach()``: t shows it, keeping its history (a
    no_grad write, as PyTorch's shared memory), and so do t's bases and other views."""
    if d.shape != t.shape or d.dtype != t.dtype:
        d._da = None
        return
    _refuse_traced_into(d, t)
    tape = state.tape
    if tape is not None:  # (the op's own rows read d's old values as self: PyTorch keeps
        _log_mutation(t, tape, _old_slots(t, tape), SOURCES.limit)  # them, see _before)
    if d._data is not t._data or t._tok is not None:
        # t takes the new values; a non-leaf keeps its history over a new slot (an
        # AliasBackward0 pass row, as a no_grad write: _write), so each change is a slot's
        # one change for the saved-value check
        _set_values(t, np.asarray(d._data))
        if d._tok is None:
            d._data, d._gen = t._data, 0  # (sharing its memory again)
    else:
        t._gen = 0  # (written in its storage: a cached slot holds the old values)
    SOURCES.run(d, _bump, t)


def _same_layout(d, t):
    """Whether ``d`` (t's .data or detach()) still shares t's memory: not after t was
    resized or cast in place."""
    if d.shape != t.shape or d.dtype != t.dtype:
        d._da = None
        return False
    return True


def _data_changed(d, t):
    """After an in-place change of ``d = t.data``: t shows its values, and so do t's bases,
    views, detach()es, as PyTorch's shared memory; but ``.data`` has a version counter of
    its own, so none of them counts the change or takes a history: a backward reading a
    value saved before reads the new values (PyTorch's does)."""
    if _same_layout(d, t):
        _refuse_traced_into(d, t)
        _overwrite(t, np.asarray(d._data))
        _spread(t, d)


def _refuse_traced_into(d, t):
    """While tracing: ``d``, the detach() or .data of ``t``, holds traced values after an
    in-place op, which t shows (PyTorch's shared memory); where t has no history (a tensor
    made in f, a leaf that requires grad), replay holds t constant, at the traced point's
    values (``w.data.copy_(x)`` then ``w * x``: silently wrong at any other point)."""
    tape = state.tracing
    if tape is not None and state.tape is tape and d._tok is not None and \
            d._gen == tape.gen and t._tok is None:
        raise EagerOnlyError(_TRACED_INTO)


def _overwrite(u, values):
    """u takes ``values`` where it stands: its values and the tape slots that hold them
    (the ones a backward reads), its history and version as they were."""
    tape = state.tape
    old = u._data
    if values is not old:
        values = np.broadcast_to(values, np.shape(old))  # (an expand's: its base's values)
    if tape is not None:
        slots = _old_slots(u, tape)
        if slots and tape is state.tracing:  # (replay would compute the old values)
            raise EagerOnlyError(_TRACED_DATA)
        for s in slots:
            tape.write_slot(s, values)
    if values is not old:  # (else u shares the memory written: a leaf's .data)
        if type(old) is float:
            u._data = float(values)
        elif old.flags.writeable:  # (in its memory, as PyTorch's: the NumPy views of it,
            np.copyto(old, values, casting="unsafe")  # its views' storage, see them)
        else:
            u._data = sh._store(np.array(np.broadcast_to(values, old.shape), old.dtype))
    if u._tok is None:
        u._gen = 0  # (a leaf's cached constant slot holds the old values)


def _spread(u, came):
    """After ``_overwrite(u)`` (from ``came``, whose values u's follow): u's base, its live
    views, .data and detach()es take u's values the same way, with no version."""
    vb = getattr(u, "_vb", None)
    if vb is not None and vb[0] is not came:
        base = vb[0]
        flat = np.array(sh._arr(base)).reshape(-1)
        flat[views.positions(vb)] = np.asarray(u._data)
        _overwrite(base, flat.reshape(base.shape))
        _spread(base, u)
    da = getattr(u, "_da", None)
    da = da[0] if type(da) is tuple else da
    if da is not None and da is not came and _same_layout(u, da):
        _overwrite(da, np.asarray(u._data))
        _spread(da, u)
    for r in getattr(u, "_vs", None) or ():
        v = r()
        if v is None or v is came:
            continue
        vvb, vda = getattr(v, "_vb", None), getattr(v, "_da", None)
        if vvb is not None and vvb[0] is u:
            _overwrite(v, sh._arr(u).reshape(-1)[views.positions(vvb)])
        elif ((vda is u or type(vda) is tuple and vda[0] is u) and _same_layout(v, u)
              or views.expanded_from(v) is u):  # (its .data or detach(), or an expand of u)
            _overwrite(v, sh._arr(u))
        else:
            continue
        _spread(v, u)


def _piece_follows(v, values, base):
    """A piece of unbind, split, chunk (or a view of one), or a view made in no_grad mode,
    after ``base`` changed (views.frozen): it takes the new ``values`` but no new node, as
    PyTorch's; its next recorded use goes through slot(), which refuses it
    (views.refusal)."""
    _set_values(v, values)
    v._rg = v._rg or base._rg
    v._gen = -1 if v._tok is not None else 0


def _follow(v, vb):
    """Bring view ``v`` (of ``vb[0]``, just changed in place) up to date: its values, its
    history (PyTorch's AsStridedBackward0 of the base's present node, while it records),
    its version, and the log that a backward reading its old values must refuse."""
    base = vb[0]
    shared = v._data is vb[3] and base._data is vb[1] is vb[2]  # (a NumPy view of its storage)
    if not shared:
        pos = views.positions(vb)
        src = sh._arr(base)
        if pos.size and (src.size <= pos.max() or base.dtype != v.dtype):
            v._vb = None  # the base was resized or cast in place: no longer v's storage
            return
    c = _counter(v)
    c.version = base._version - 1  # (what the rows so far saw: the base's change is one)
    tape = state.tape
    if tape is not None:
        _log_mutation(v, tape, _old_slots(v, tape))
    c.version += 1
    if not shared:
        if views.MULTI and views.frozen(v, base):
            _piece_follows(v, src.reshape(-1)[pos], base)
        elif (r := _regathered(v, base, src, pos)) is not None:
            v._data, v._slot, v._gen, v._tok, v._rg = r._data, r._slot, r._gen, r._tok, r._rg
        elif (w := _storage_view(v, vb, base)) is not None:
            v._data, v._gen = w, 0  # (a plain view shares the base's storage from now on)
            v._vb = (base, base._data, base._data, w, WRITES.n)
            if getattr(v, "_vs", None) is not None:
                _refresh_views(v)
            return
        else:
            _set_values(v, src.reshape(-1)[pos])
    # (its NumPy view of the base's old values still gives its layout: methods._layout)
    v._vb = (base, vb[1] if shared else base._data, vb[2], vb[3], WRITES.n)
    if v._tok is not None:  # (the error names the view's node now)
        c.slot, c.gen = v._slot, v._gen
    if getattr(v, "_vs", None) is not None:
        _refresh_views(v)


def _regathered(v, base, src, pos):
    """View ``v`` of ``base`` (just changed in place) recorded anew as PyTorch regenerates a
    view's grad_fn once its base's version moved: AsStridedBackward0 of the base's present
    node, while grad mode is on, or under no_grad when v has a history on this thread's live
    tape (PyTorch's view keeps one then too); else None."""
    if not base._rg:
        return None
    if state.grad_enabled:
        return sh._gathered(base, src, pos, "AsStridedBackward0")
    tape = state.tape
    if tape is None or tape is state.tracing or v._tok is None or v._tok.tape is not tape \
            or v._gen != tape.gen:
        return None
    state.grad_enabled = True  # (no_grad: a history kept, as _write's pass row keeps one)
    try:
        return sh._gathered(base, src, pos, "AsStridedBackward0")
    finally:
        state.grad_enabled = False


def _storage_view(v, vb, base):
    """For a plain view ``v`` (no history): a C-ordered NumPy view of the base's present
    storage at v's positions, laid out as v's view of the old storage was, or None."""
    old, view, d = vb[2], vb[3], base._data
    if v._tok is not None or v._rg or old is None or type(d) is not np.ndarray or \
            type(v._data) is not np.ndarray or d.shape != old.shape or \
            d.strides != old.strides or d.dtype != old.dtype or not view.flags.c_contiguous \
            or not d.flags.c_contiguous or not d.flags.writeable or not view.size:
        return None
    offset = view.__array_interface__["data"][0] - old.__array_interface__["data"][0]
    return np.ndarray(view.shape, d.dtype, d, offset, view.strides)


def _set_values(v, new):
    """View ``v`` takes ``new`` (its base's values, read without recording).  With history
    on this thread's live tape, it keeps that history over a new slot (as ``_write`` under
    no_grad); else its values are replaced."""
    tape = state.tape
    d = v._data
    new = float(new) if type(d) is float else sh._store(np.array(new, d.dtype))
    if tape is not None and v._tok is not None and v._tok.tape is tape and v._gen == tape.gen:
        if tape is state.tracing:  # (its row would replay the old values)
            raise EagerOnlyError(_TRACED_VIEW)
        r = output(tape, new, sh.VIEW, v._slot, -1, VIEW_NAMES.index("AliasBackward0"))
        v._data, v._slot, v._gen = r._data, r._slot, r._gen
        return
    v._data = new
    v._gen = 0  # a cached slot (leaves, constants) holds the old values


def count_change(t):
    """``autograd.graph.increment_version``: t's counter moves as an in-place op's does
    (its values changed where no op saw it: a cached slot of them is stale too), and no
    value is written anywhere."""
    note_write()
    tape = state.tape
    if tape is not None:  # (the rows recorded so far read the old values)
        _log_mutation(t, tape, _old_slots(t, tape))
    c = _counter(t)
    c.version += 1
    if t._tok is not None:
        c.slot, c.gen = t._slot, t._gen
    else:
        t._gen = 0  # (a leaf's cached slot holds the old values)


def _write_back(t, vb):
    """After an in-place op on view ``t``: write its values into its base (ops/views.py)."""
    base = vb[0]
    if base._rg and base._tok is None and state.grad_enabled:  # (a 0-d view's op checks
        raise RuntimeError(_LEAF_VIEW)  # nothing before: _scalar_inplace)
    if t._data is vb[3] and base._data is vb[1] is vb[2]:
        # t's values are a NumPy view of the base's storage itself (a plain tensor's row,
        # indexing._select_first; a reshape): the op wrote into the base's storage, which
        # only learns that it changed
        tape = state.tape
        if tape is not None:
            _log_mutation(base, tape, _old_slots(base, tape))
        if base._tok is not None:
            # (a non-leaf, viewed under no_grad: it keeps its history over a new slot, as
            # _write's no_grad write; t's values are a copy from now on, its writes go
            # through its positions)
            _set_values(base, np.asarray(base._data))
            t._data = sh._store(np.array(t._data))
            t._vb = _relinked(vb, base)
        else:
            base._gen = 0
        SOURCES.run(t, _bump, base)
        return
    pos = views.positions(vb)
    if pos.size and np.asarray(base._data).size <= pos.max():
        t._vb = None  # the base was resized in place (out=): t is no longer its view
        return
    base_old, before = base._slot, state.tape.nrows if state.tape is not None else 0
    if views.MULTI and views.refusal(t, False) is not None:
        # a piece of unbind, split, chunk whose recorded use is refused, written through
        # its detach() or .data: a no_grad write into the base, as PyTorch's shared memory
        with grad_mode.no_grad():
            SOURCES.run(t, _place, base, pos, t)
    else:
        SOURCES.run(t, _place, base, pos, t)
    if base._tok is not None and base._tok.tape is state.tape and \
            _wrote(state.tape, before, base._slot):
        copy_slices(base, t, base_old)  # (graph views: CopySlices, AsStridedBackward0)
    t._vb = _relinked(vb, base)  # (the base may have new storage now)


def _wrote(tape, first, s):
    """Whether ``tape`` recorded a PUT row into slot ``s`` among its rows from ``first`` on
    (a write into a view's base; a write into the base's own base may follow it)."""
    n = len(tape.rows) // 5
    for r in range(first, tape.nrows):
        buf, i = (tape.rows, 5 * r) if r < n else (tape.rbuf, 5 * (r - n))
        if int(buf[i]) & OP_MASK == sh.PUT and int(buf[i + 1]) == s:
            return True
    return False


# ---- the machinery every in-place op shares ---------------------------------------------
def _records(t, *others):
    return state.grad_enabled and (t._rg or any(isinstance(o, Tensor) and o._rg
                                                for o in others))


def _check_leaf(t, message=_LEAF, others=(), via=None):
    """Before an in-place op on ``t`` (``others``: its tensor operands): refuse a piece of
    unbind, split or chunk (ops/views.py ``refusal``), a leaf that requires grad (or a view
    of one) while grad mode is on, and bring a view up to date with its base."""
    if views.MULTI and (msg := views.refusal(t, True, _records(t, *others), via)) is not None:
        raise views.refused(msg)
    if t._rg and t._tok is None and state.grad_enabled:
        if state.tracing is not None:  # (an input of f is a leaf that requires grad while
            # traced, whatever the caller's is: compile(f) called with one that does not
            # runs f eagerly, which writes it as f says)
            raise EagerOnlyError(message if state.tracing.grad_mode else _TRACED_LEAF)
        raise RuntimeError(message)
    if getattr(t, "_inf", False) and not state.inference and getattr(t, "_da", None) is None:
        raise RuntimeError(_INFERENCE_INPLACE)  # (PyTorch lets a detach()/.data be written)
    base = views.root(t, True)  # (an expand is a view to PyTorch)
    if base is not None and base._rg and base._tok is None and state.grad_enabled:
        raise RuntimeError(_LEAF_VIEW)
    vb = views.of(t)
    if vb is not None:
        _refresh(t, vb)


def _refresh(t, vb):
    """Before an in-place op on view ``t``: if its base's storage was replaced since the view
    was taken (the base changed by an in-place op that recorded), t takes the base's present
    values at its positions (a gather of the base, with its history), so the op starts from
    them as PyTorch's would."""
    base = vb[0]
    bvb = views.of(base)
    if bvb is not None:
        _refresh(base, bvb)
    same = base._data is vb[1]
    if same and WRITES.n == vb[4]:
        return  # nothing was written anywhere since the view was taken
    pos = views.positions(vb)
    src = sh._arr(base)
    if pos.size and (src.size <= pos.max() or base.dtype != t.dtype):
        t._vb = None  # the base was resized or cast in place: no longer t's storage
        return
    now = src.reshape(-1)[pos]
    if not (same and np.array_equal(now, np.asarray(t._data), equal_nan=now.dtype.kind in "fc")):
        r = sh._gathered(base, src, pos, "AliasBackward0")
        t._data, t._slot, t._gen, t._tok, t._rg = r._data, r._slot, r._gen, r._tok, r._rg
    t._vb = _relinked(vb, base)


def _relinked(vb, base):
    """The view record ``vb`` brought up to date with its base's present storage; its NumPy
    view of the base's values then (or its positions) still gives its positions and layout
    (methods._layout): the base's shape is unchanged."""
    return (base, base._data, vb[2], vb[3], WRITES.n)


# While tapegrad.trace records, ops under no_grad record too (their results carry no
# gradient: ops/control.py's _NoGradRows).  An in-place op there on a tensor that carries
# gradient would have to keep its history with the new values, as PyTorch does; replay has
# no row for that, so it is refused rather than silently cut from the gradient.
_TRACED_LEAF = (
    "tapegrad.trace: an in-place op under no_grad on a leaf that requires grad (an input of "
    "f, or a parameter from outside f) changes values that replay cannot follow. Modify a "
    "copy made under no_grad (y = x.clone()) instead.")
_TRACED_HISTORY = (
    "tapegrad.trace: an in-place op under no_grad on a traced tensor that carries gradient "
    "would keep its gradient history with the new values (PyTorch's semantics), which replay "
    "cannot record. Write it out of place (y = y + 1 under no_grad detaches y), or modify a "
    "copy made under no_grad (y.clone()).")


_TRACED_NUMPY = (
    "tapegrad.trace: an in-place op on a traced {} tensor computes its new values in NumPy "
    "(integer and bool in-place ops other than arithmetic record no row), so replay would "
    "keep the old ones. Write it out of place (a = a * 2, tapegrad.where(mask, 5, a)).")


_TRACED_DATA = (
    "tapegrad.trace: a write through .data changes a traced value without recording it, "
    "which replay cannot follow. Write the value out of place (x = x.detach() ...), or "
    "change x itself under no_grad.")
_TRACED_VIEW = (
    "tapegrad.trace: an in-place op under no_grad on a traced tensor changes the values of a "
    "view of it that carries gradient, which replay cannot follow. Write it out of place, "
    "or take the view after the change.")


_TRACED_INTO = (
    "tapegrad.trace: an in-place op on the detach() or .data of a tensor without history (made "
    "in f, or a leaf that requires grad) writes traced values into that tensor (they share "
    "memory), which replay would hold constant. Compute it out of place (w = x.detach() "
    "...), or modify a copy (w.detach().clone()).")
_TRACED_ALIAS = (
    "tapegrad.trace: an in-place op on the detach() or .data of a traced tensor writes "
    "through to that tensor (they share memory), which replay cannot follow. Modify a copy "
    "(t.detach().clone()) instead.")


def _traced_in_place(t, tape):
    """An in-place op on ``t`` while ``tape`` traces: refused on an alias of a traced value
    (a detach: eagerly it writes through), and under no_grad on a tensor that carries
    gradient (its slot is not a stop-gradient copy's).  EagerOnlyError: compile(f) called
    with tensors runs such an f eagerly, as docs/replay.md says (it raised instead)."""
    if t._tok is None or t._gen != tape.gen:
        return
    if t._slot in tape.aliases:
        raise EagerOnlyError(_TRACED_ALIAS)
    if not tape.grad_mode and t._slot not in tape.stopped:
        raise EagerOnlyError(_TRACED_HISTORY)


_NOTHING = (-1, 0, ())


def _before(t, args):
    """Taken before an in-place op on ``t`` records anything: ``(limit, gen, slots)``, the
    slots of the current tape (generation ``gen``) holding t's old values and the rows that
    may have saved them (rows ``< limit``; None: every row, the op's own included).

    The op's own rows saved t's old value as ``self``, which PyTorch keeps a copy of
    (``x.mul_(y)`` is fine); as another operand (``x.mul_(x)``) PyTorch saves x itself,
    which the op then modifies: an error later."""
    tape = state.tape
    if tape is None:
        return _NOTHING
    if tape is state.tracing:
        _traced_in_place(t, tape)
    slots = _old_slots(t, tape)
    da = getattr(t, "_da", None)
    if da is not None:  # a detach(): its limit serves its tensor's change too (_rebase),
        for a in args:  # unless an operand shares their memory (t, that tensor, another
            if a is t or a is da or getattr(a, "_da", None) is da:  # of its detach()es)
                return None, tape.gen, slots
    if not slots:
        _log_segments(t, tape)  # (t's values may be on an older segment: tape.py _split)
        return _NOTHING if da is None else (tape.nrows, tape.gen, ())
    for a in args:
        if a is t:
            return None, tape.gen, slots
    if t._gen == tape.gen and t._slot == tape.nslots - 1:
        # t is the newest slot, so no row has read it since the row that made it (``s += x``
        # in a loop): nothing to check unless that row saved its output (sigmoid, exp...)
        rb = tape.rbuf
        if len(rb) >= 5 and rb[-4] == t._slot:
            op = rb[-5] & OP_MASK
            if op >= _NCODES or not _FLAGS["o"][op]:
                _unalias(t, tape)
                return _NOTHING if da is None else (tape.nrows, tape.gen, ())
    return tape.nrows, tape.gen, slots


def _unalias(t, tape):
    """A fresh view ``t`` changed in place before any row read it: its slot leaves its base's
    aliases (Tape.note_alias), so the write into the base does not log the op's own rows,
    which read t's old values as ``self`` (PyTorch keeps them)."""
    vb = views.of(t) if tape.alias_of else None
    if vb is not None and vb[0]._tok is not None:
        lst = tape.alias_of.get(vb[0]._slot)
        if lst and t._slot in lst:
            lst.remove(t._slot)


def _log_before(t, tape, before):
    """Log the change ``_before`` saw coming, unless the tape was reset meanwhile (the op
    was the first of a new generation: no row of the old one can run any more)."""
    limit, gen, slots = before
    if slots and tape.gen == gen:
        _log_mutation(t, tape, slots, limit)


def _rebase(t, r, before):
    """Make ``t`` the recorded result ``r``: t takes r's slot, values and history."""
    if r._tok is None:  # (an integer result NumPy computed while tracing: no row)
        return _write(t, r._data)
    tape = r._tok.tape
    if r._slot not in before[2]:  # (else written in place: no row read the old values,
        _log_before(t, tape, before)  # shape._put_in_place)
    data = r._data
    if r.dtype != t.dtype:
        # x32.add_(y64): the sum is rounded to x's dtype, the slot's value included
        data = norm(np.asarray(data).astype(t.dtype))
        tape.write_slot(r._slot, data)
    # (one line, no calls: an interrupt leaves t as it was or rebased, never half of each)
    t._data, t._slot, t._gen, t._tok, t._rg = data, r._slot, r._gen, r._tok, True
    if getattr(t, "_da", None) is None:
        _bump(t)
        return t
    # a detach(): its tensor's change (_detached_changed) leaves out the op's own rows (all
    # the rows of a tape, or a generation, the op began)
    SOURCES.limit = before[0] if before[1] == tape.gen else 0
    try:
        _bump(t)
    finally:
        SOURCES.limit = None
    return t


def _write(t, value):
    """Write ``value`` (computed without recording) into t's storage, through its aliases."""
    tape = state.tape
    if tape is not None:
        _log_mutation(t, tape, _old_slots(t, tape))
        if t._tok is not None and t._tok.tape is tape and t._gen == tape.gen:
            if tape is state.tracing:  # (its row would replay the old values)
                raise EagerOnlyError(_TRACED_NUMPY.format(dtypes.name(t.dtype)))
            # no_grad on a non-leaf: it keeps its history, with the new values in a new slot
            # whose adjoint passes through to the old one
            d = t._data
            new = value if type(d) is float else np.asarray(value).astype(d.dtype)
            r = output(tape, new if type(d) is float else sh._store(new), sh.VIEW, t._slot,
                       -1, VIEW_NAMES.index("AliasBackward0"))
            t._data, t._slot, t._gen = r._data, r._slot, r._gen
            _bump(t)
            return t
    d = t._data
    if type(d) is float:
        t._data = float(value)
    else:
        try:
            np.copyto(d, value, casting="unsafe")
        except ValueError:  # read-only storage (a broadcast view): take a copy
            t._data = sh._store(np.array(np.broadcast_to(value, d.shape), d.dtype))
    t._gen = 0  # a cached slot (scalar leaves, constants) holds the old value
    _bump(t)
    return t


def _operand(other):
    if isinstance(other, Tensor):
        return other
    if isinstance(other, (int, float, bool, np.ndarray, np.generic, list, tuple)):
        return other if isinstance(other, (int, float, bool)) else Tensor(other)
    raise TypeError(f"expected a Tensor or a number, got {type(other).__name__}")


def _check_result(t, other, op):
    """PyTorch's checks of an in-place binary op: shape and dtype of the result."""
    if isinstance(other, Tensor):
        shape = broadcast_shape(op, t.shape, other.shape)
        if shape != tuple(t.shape):
            raise RuntimeError(f"output with shape {list(t.shape)} doesn't match the broadcast "
                               f"shape {list(shape)}")
        rt = dtypes.result_type((t.dtype, t.ndim), (other.dtype, other.ndim))
    else:
        rt = dtypes.result_type((t.dtype, t.ndim), (np.asarray(other).dtype, None))
    if op == "div" and rt.kind != "f":
        rt = dtypes.float64
    if not np.can_cast(rt, t.dtype, "same_kind"):
        raise RuntimeError(f"result type {dtypes.torch_name(rt)} can't be cast to the desired "
                           f"output type {dtypes.torch_name(t.dtype)}")


_OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to "
            "a single memory location. Please clone() the tensor before performing the "
            "operation.")
# writes of one value to each chosen element, which PyTorch allows where elements share
# memory (masked_fill_, index_fill_ and index_put_ with its deprecation warning)
_ONE_VALUE_WRITES = ("fill_", "zero_", "masked_fill_", "index_fill_", "index_put_")


def _check_overlap(t, key=None):
    """Refuse an in-place op on a tensor whose elements share memory in PyTorch's layout (an
    expand, or a view, detach() or .data of one, with a stride of 0 on a dim of more than
    one element): PyTorch's kernels refuse to write such a tensor.  Only tensors made by
    expand can.  ``key`` (basic): the op writes ``t[key]`` (``t[key] = tensor``)."""
    s = t
    while views.expanded_from(s) is None:
        s = shared_next(s, True)
        if s is None:
            return
    shape, strides = tuple(t.shape), t.stride()
    if key is not None:  # t[key]'s layout: NumPy's indexing of t's layout (no value is read)
        a = np.lib.stride_tricks.as_strided(np.zeros(1), shape, [8 * st for st in strides])
        a = a[key]
        shape, strides = a.shape, [st // 8 for st in a.strides]
    if any(st == 0 and n > 1 for st, n in zip(strides, shape)):
        raise RuntimeError(_OVERLAP)


_PARTIAL = ("unsupported operation: some elements of the input tensor and the written-to "
            "tensor refer to a single memory location. Please clone() the tensor before "
            "performing the operation.")


def _storage(t):
    """The tensor whose memory ``t``'s elements are in PyTorch (its storage's owner): along
    t's views and its detach() or .data."""
    while (u := shared_next(t, True)) is not None:
        t = u
    return t


def _dense_range(shape, strides, offset):
    """``(first, end)`` in storage elements of a layout whose elements fill that range once
    each (PyTorch's non-overlapping and dense), else None."""
    expected = 1
    for st, n in sorted((st, n) for n, st in zip(shape, strides) if n != 1):
        if st != expected:
            return None
        expected *= n
    return offset, offset + expected


def _check_partial_overlap(t, others):
    """PyTorch's refusal (its assert_no_partial_overlap) of an in-place write into ``t``
    that reads a tensor sharing some of t's memory but not all of it at t's strides
    (``x[1:] -= x[:-1]``, ``m.copy_(m.t())``): its kernels would read elements already
    written.  Where either layout has gaps or repeats (``x[::2]``, an expand), PyTorch
    cannot tell cheaply and lets it pass, as here."""
    root = mine = None
    if getattr(t, "_vb", None) is None and not getattr(t, "_vs", None):
        # not a view, and no view of it alive, nor of the tensor it is a detach() of: so
        # nothing alive can share a part of its memory
        root = t if getattr(t, "_da", None) is None else _storage(t)
        if root is t or not getattr(root, "_vs", None):
            return
    for o in others:
        if not isinstance(o, Tensor) or o is t:  # (a Parameter too)
            continue
        if root is None:
            root = _storage(t)
        if _storage(o) is not root:
            continue
        if mine is None:
            mine_strides = t.stride()
            mine = _dense_range(t.shape, mine_strides, t.storage_offset())
            if mine is None or mine[0] == mine[1]:
                return
        strides = o.stride()
        theirs = _dense_range(o.shape, strides, o.storage_offset())
        if theirs is None or theirs[1] <= mine[0] or mine[1] <= theirs[0] or \
                theirs[0] == theirs[1]:
            continue
        if theirs != mine or tuple(strides) != tuple(mine_strides):
            raise RuntimeError(_PARTIAL)


def _inplace(t, fn, args, op, message=_LEAF, ufunc=None):
    """Run out-of-place ``fn(*args)`` and make ``t`` hold the result.  When nothing records
    (grad mode off, or nothing requires grad) ``fn`` records nothing either; ``ufunc``: the
    NumPy ufunc ``fn`` calls for two operands of one float dtype and shape (_write_ufunc)."""
    _check_leaf(t, message, args[1:])
    if op not in _ONE_VALUE_WRITES or op == "fill_" and isinstance(args[-1], Tensor):
        _check_overlap(t)  # (PyTorch's fill_ of a tensor value copies: refused on an expand)
    if op not in _ONE_VALUE_WRITES:  # (PyTorch's read their value first)
        _check_partial_overlap(t, args[1:])
    if _records(t, *args[1:]):
        before = _before(t, args[1:])
        return _rebase(t, fn(*args), before)
    if ufunc is not None and _same_float(t, args[1]) and _write_ufunc(t, ufunc, args[1]):
        return t
    return _write(t, fn(*args)._data)


def _same_float(t, other):
    """Whether ``t`` and tensor ``other`` hold arrays of one shape and one float dtype
    (float32 or float64): ``t (op)= other`` then passes PyTorch's checks (_check_result) and
    ``fn(t, other)`` is the NumPy ufunc of their arrays (ops/_pointwise.py make_binary)."""
    if type(other) is not Tensor:
        return False
    d, od = t._data, other._data
    return (type(d) is _ndarray and type(od) is _ndarray and (dt := d.dtype) is od.dtype
            and (dt is _F64 or dt is _F32) and d.shape == od.shape)


def _write_ufunc(t, ufunc, other):
    """``_write(t, ufunc(t, other))`` with the result computed straight into t's storage
    (``ufunc``'s out=: NumPy gives the values of a new array bit for bit, the operands'
    overlap included), for _same_float operands: an optimizer step written by hand
    (``w.data -= lr * w.grad``; ``p -= lr * p.grad`` under no_grad) makes no new array and
    no copy.  False, with nothing done, where _write makes a new slot or new storage."""
    return _write_in_place(t, lambda d: _ufunc_into(ufunc, d, other._data))


def _ufunc_into(ufunc, d, od):
    """``ufunc(d, od, out=d)`` with NumPy's floating-point errors ignored (as make_binary's
    computation of the same values)."""
    try:
        state.quiet.run(ufunc, d, od, d)
    except RuntimeError:  # its context entered already: a finalizer's op inside a ufunc
        _quiet_call(ufunc, d, od, d)


def _write_in_place(t, fill):
    """``_write`` of values that ``fill(d)`` writes into t's ndarray storage ``d`` itself:
    _write's bookkeeping (its log of the change, versions, aliases) without a new array
    and its copy.  False, with nothing done, where _write makes a new slot (a non-leaf of
    this thread's live graph) or new storage (read-only storage)."""
    d = t._data
    tape = state.tape
    if not d.flags.writeable or (tape is not None and t._tok is not None and
                                 t._tok.tape is tape and t._gen == tape.gen):
        return False
    if tape is not None:  # (first: the log copies values kept aside before they change)
        _log_mutation(t, tape, _old_slots(t, tape))
    fill(d)
    t._gen = 0  # (as _write)
    _bump(t)
    return True


def _scalar(self, other):
    """True for a 0-d float64 tensor (op) a Python number or another 0-d float64 tensor:
    the result is 0-d float64, so there is no shape or dtype to check."""
    to = type(other)
    return type(self._data) is float and (to is float or to is int or (
        to is Tensor and type(other._data) is float))


def _scalar_inplace(self, fn, other):
    """The in-place op of two scalars, written out (``s += x`` in a loop is common): the
    steps of _rebase for a 0-d float64 result."""
    if state.grad_enabled and (self._rg or (type(other) is Tensor and other._rg)):
        if (self._rg and self._tok is None) or views.MULTI:
            # (a leaf raises, while traced with another message; a piece of unbind, split or
            # chunk may)
            _check_leaf(self, _LEAF, (other,))
        before = _before(self, (other,))  # before fn records its row
        r = fn(self, other)
        _log_before(self, r._tok.tape, before)
        self._data = r._data
        self._slot = r._slot
        self._gen = r._gen
        self._tok = r._tok
        self._rg = True
        _bump(self)
        return self
    return _write(self, fn(self, other)._data)


def _binary(fn, name, ufunc, alpha_arg=True):
    def method(self, other, *, alpha=1):
        if type(alpha) is not int:
            arithmetic.check_alpha(self, other, alpha)
        if alpha == 1 and _scalar(self, other):
            return _scalar_inplace(self, fn, other)
        other = _operand(other)
        _check_leaf(self)
        if not _same_float(self, other):  # (which passes them: ~10 us of NumPy dtype logic)
            _check_overlap(self)  # (PyTorch's order: the leaf, the overlaps, the dtype)
            _check_partial_overlap(self, (other,))
            _check_result(self, other, name)
        if alpha != 1:  # (one multiply-add, as PyTorch's kernel: arithmetic.add_scaled)
            sign = 1.0 if fn is ew.add else -1.0
            return _inplace(self, lambda s, o: arithmetic.add_scaled(s, o, alpha, sign),
                            (self, other), name)
        return _inplace(self, fn, (self, other), name, ufunc=ufunc)

    def method_no_alpha(self, other):
        return method(self, other)

    return method if alpha_arg else method_no_alpha


add_ = _binary(ew.add, "add", np.add)
add_.__doc__ = "``self += alpha * other``, in place."
sub_ = _binary(ew.sub, "sub", np.subtract)
sub_.__doc__ = "``self -= alpha * other``, in place."
mul_ = _binary(ew.mul, "mul", np.multiply, alpha_arg=False)
mul_.__doc__ = "``self *= other``, in place."
_div = _binary(ew.div, "div", np.true_divide, alpha_arg=False)


def div_(self, other, *, rounding_mode=None):
    """``self /= other``, in place (true division)."""
    if rounding_mode is not None:
        raise NotImplementedError("div_(rounding_mode=...) is not supported yet; use "
                                  "(x / y).floor() or .trunc() out of place")
    return _div(self, other)


def _iop(fn, name, ufunc):
    method = _binary(fn, name, ufunc, alpha_arg=False)

    def dunder(self, other):
        to = type(other)
        if type(self._data) is float and (to is float or to is int or (
                to is Tensor and type(other._data) is float)):  # _scalar, inline
            return _scalar_inplace(self, fn, other)
        if not isinstance(other, (Tensor, int, float, bool, np.ndarray, np.generic, list,
                                  tuple)):
            return NotImplemented
        return method(self, other)

    return dunder


__iadd__ = _iop(ew.add, "add", np.add)
__isub__ = _iop(ew.sub, "sub", np.subtract)
__imul__ = _iop(ew.mul, "mul", np.multiply)
__itruediv__ = _iop(ew.div, "div", np.true_divide)


def _full_mask(t):
    return Tensor(np.ones(t.shape, np.bool_))


def fill_(self, value):
    """Set every element to ``value`` (a number or a 0-d tensor), in place."""
    if isinstance(value, Tensor) and value.ndim != 0:
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                           f"{value.ndim} dimensions.")
    return _inplace(self, _filled, (self, _full_mask(self), value), "fill_")


def _filled(self, mask, value):
    """``self`` filled with ``value`` (a masked_fill of every element), as PyTorch's node:
    FillBackward3 of ``(self, value)`` for a tensor value, else FillBackward2 of self."""
    y = sh.masked_fill(self, mask, value)
    if isinstance(value, Tensor):
        return named_result(y, "FillBackward3", self, value)
    return named_result(y, "FillBackward2", self)


def _zeroed(self, mask):
    return named_result(sh.masked_fill(self, mask, 0), "ZeroBackward0", self)


def _zeros(d):
    d.fill(0)


def zero_(self):
    """Set every element to zero, in place."""
    d = self._data
    if not _records(self) and type(self) is Tensor and (type(d) is float or
                                                         type(d) is np.ndarray):
        # nothing records (``p.grad.zero_()``, ``w.data.zero_()``): the zeros written as
        # they are, not a masked_fill of a mask of ones (~40 us a call on 64 values), into
        # the storage itself where it can be (no array of zeros made and copied)
        _check_leaf(self)
        if type(self._data) is np.ndarray and _write_in_place(self, _zeros):
            return self
        return _write(self, 0.0 if type(d) is float else np.zeros_like(d))
    return _inplace(self, _zeroed, (self, _full_mask(self)), "zero_")


def clamp_(self, min=None, max=None):  # noqa: A002 (PyTorch's names)
    """Clamp to ``[min, max]``, in place."""
    if self.dtype.kind in "biu":  # PyTorch's words: a Python float's (the default dtype,
        for b in (min, max):  # C's name for self's) or a float Tensor's (both as dtypes)
            if isinstance(b, float):
                raise RuntimeError(
                    f"result type {dtypes.torch_name(dtypes.default_float())} can't be cast to "
                    "the desired output type "
                    f"{dtypes.C_NAMES.get(self.dtype.name, self.dtype.name)}")
            if isinstance(b, Tensor) and b.dtype.kind == "f":
                raise RuntimeError(f"result type {dtypes.torch_name(b.dtype)} can't be cast "
                                   f"to the desired output type {dtypes.torch_name(self.dtype)}")
    return _inplace(self, ew.clamp, (self, min, max), "clamp_")


def clamp_min_(self, min):  # noqa: A002
    y = clamp_(self, min=min)  # (PyTorch's node for a number bound: ClampMinBackward0)
    return y if isinstance(min, Tensor) else named_result(y, "ClampMinBackward0")


def clamp_max_(self, max):  # noqa: A002
    y = clamp_(self, max=max)
    return y if isinstance(max, Tensor) else named_result(y, "ClampMaxBackward0")


def copy_(self, src, non_blocking=False):
    """Copy ``src`` (broadcast, cast to self's dtype) into self; gradient flows to src."""
    if not isinstance(src, Tensor):
        raise TypeError(f"copy_(): argument 'src' (position 1) must be Tensor, not "
                        f"{type(src).__name__}")
    broadcast_shape("copy_", self.shape, src.shape)
    if tuple(np.broadcast_shapes(tuple(self.shape), tuple(src.shape))) != tuple(self.shape):
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast "
                           f"shape {list(np.broadcast_shapes(self.shape, src.shape))}")
    _check_leaf(self, _LEAF, (src,))
    _check_overlap(self)
    _check_partial_overlap(self, (src,))
    if _records(self, src) and self.dtype.kind == "f":
        before = _before(self, (src,))
        r = ew.where(_full_mask(self), src, self)
        if getattr(self, "_vb", None) is None:  # (a view's copy: its base's CopySlices)
            r = named_result(r, "torch::autograd::CopyBackwards", self, src)
        return _rebase(self, r, before)
    # (integers: NumPy's copy, no row)
    return _write(self, np.broadcast_to(host_values(src, "copy_"), self.shape))


def replace_storage(t, value):
    """Give t new storage holding ``value`` (another shape: ``out=``'s resize); t must not
    be on a tape's graph (out= is refused where it would record)."""
    t._vb = None  # (no longer a view of anything)
    t._data = sh._store(np.array(value, t.dtype))
    t._gen = 0
    _bump(t)
    return t


# ---- x[key] = value ----------------------------------------------------------------------
def _key(t, key):
    """The key normalised and checked as getitem does; returns (key, advanced)."""
    if isinstance(key, list) and len(key) < 32 and any(
            isinstance(k, (list, tuple, slice, Tensor, np.ndarray)) or k is None or
            k is Ellipsis for k in key):
        key = tuple(key)
    key = tuple(indexing._index(k) for k in (key if isinstance(key, tuple) else (key,)))
    return key, indexing._check_key(t, key) == "IndexBackward0"


def _setitem_statement(self, key, value):
    """``self[key] = value``: returns None, as PyTorch's ``__setitem__``."""
    setitem(self, key, value)


def setitem(self, key, value):
    """``self[key] = value`` in place: value broadcasts to ``self[key]``'s shape."""
    if not isinstance(value, Tensor):
        dtypes.check_fits(value, self.dtype)
    key, advanced = _key(self, key)
    # a basic key into a plain tensor's own storage (x[i, j] = v in a loop): NumPy writes it
    direct = not advanced and views.of(self) is None and _in_storage(self, value)
    if direct:
        target = self._data[key]
    elif advanced:
        target = indexing.positions(self.shape, key)  # flat positions written, in key order
    else:
        target = views.key_positions(tuple(self.shape), key)
    v = value if isinstance(value, Tensor) or direct else Tensor(np.asarray(value))
    try:
        placed = np.asarray(v._data if isinstance(v, Tensor) else v)
        if placed.ndim:  # (a number needs no broadcast view)
            placed = np.broadcast_to(placed, np.shape(target))
    except ValueError:
        if advanced:
            raise RuntimeError(f"shape mismatch: value tensor of shape {list(placed.shape)} "
                               f"cannot be broadcast to indexing result of shape "
                               f"{list(target.shape)}") from None
        raise RuntimeError(_expand_message(np.shape(target), placed.shape)) from None
    # (a key's tensors were read by host_values: _key)
    _check_leaf(self, _LEAF_VIEW, (v,), None if advanced else _view_op(key))
    if not advanced:  # (PyTorch's is a copy_ into self[key], a number's too)
        _check_overlap(self, key)  # (not PyTorch's partial-overlap refusal: docs/limits.md)
    if not np.size(target):  # nothing is written (PyTorch records an op all the same)
        return self
    if direct:
        _stored(self)
        self._data[key] = placed
        return _bump_changed(self)
    # PyTorch's index_put_ on the tensor itself (IndexPutBackward0) when the key's other
    # parts make no view first (full slices, ...); else a copy into a view (CopySlices)
    own = advanced and views.of(self) is None and all(
        isinstance(k, np.ndarray) or k is Ellipsis or
        (type(k) is slice and k.start in (None, 0) and k.stop is None and k.step in (None, 1))
        for k in key)
    return _place(self, target, v, placed, "IndexPutBackward0" if own else None)


def _view_op(key):
    """The name of the last view op PyTorch's ``t[key] = v`` takes before it writes (a full
    slice and ``...`` take none), or None."""
    name = None
    for k in key:
        if k is None:
            name = "Unsqueeze"
        elif type(k) is slice:
            if k != slice(None) and k != slice(0, None) and k != slice(None, None, 1):
                name = "Slice"
        elif k is not Ellipsis:
            name = "Select"
    return name


def _in_storage(t, v):
    """Whether writing ``v`` into ``t`` goes into t's array itself: nothing records, and t is a
    plain tensor owning a writable C-ordered array (not a value a trace reads)."""
    d = t._data
    tape = state.tape
    return not (_records(t, v) and t.dtype.kind == "f") and t._tok is None and \
        type(d) is np.ndarray and d.flags.c_contiguous and d.flags.writeable and \
        (tape is None or tape is not state.tracing)


def _stored(t):
    """Before t's array is written into: the tape's slots holding its values are noted."""
    tape = state.tape
    if tape is not None:
        _log_mutation(t, tape, _old_slots(t, tape))


def _bump_changed(t):
    t._gen = 0  # a cached slot holds the old values
    _bump(t)
    return t


def _place(self, target, v, placed=None, name=None):
    """Write ``v`` (``placed``: its values broadcast to ``target``'s shape) at the flat
    positions ``target`` of ``self``: one PUT row when it records (its node shown as
    ``name``, if given), else into the storage."""
    if getattr(self, "_xf", None) is None:
        return _place_into(self, target, v, placed, name)
    SOURCES.placed = (self, target)  # (an expand: the positions its source takes)
    try:
        return _place_into(self, target, v, placed, name)
    finally:
        SOURCES.placed = None


def _place_into(self, target, v, placed, name):
    if not (_records(self, v) and self.dtype.kind == "f"):
        if isinstance(v, Tensor) or placed is None:  # (integers: NumPy's write, no row)
            placed = np.broadcast_to(host_values(v, "index_put"), target.shape)
        values = placed.reshape(-1) if placed.ndim else placed
        if _in_storage(self, v):  # a plain tensor (J[i] = row in a loop): only the positions
            _stored(self)
            self._data.reshape(-1)[target.reshape(-1)] = values
            return _bump_changed(self)
        new = np.array(self._data)
        new.reshape(-1)[target.reshape(-1)] = values
        return _write(self, new)
    before = _before(self, (v,))
    r = sh.put(self, v, target, True)  # one PUT row (shape.py)
    return _rebase(self, r if name is None else named_result(r, name), before)


def _expand_message(target, vshape):
    pt, pv = list(target), list(vshape)
    for i in range(1, min(len(pt), len(pv)) + 1):
        if pv[-i] != 1 and pv[-i] != pt[-i]:
            return (f"The expanded size of the tensor ({pt[-i]}) must match the existing size "
                    f"({pv[-i]}) at non-singleton dimension {len(pt) - i}.  Target sizes: "
                    f"{pt}.  Tensor sizes: {pv}")
    return (f"expand: the number of sizes provided ({len(pt)}) must be greater or equal to "
            f"the number of dimensions in the tensor ({len(pv)})")


METHODS = {
    "add_": add_, "sub_": sub_, "mul_": mul_, "div_": div_, "zero_": zero_, "fill_": fill_,
    "clamp_": clamp_, "clip_": clamp_, "clamp_min_": clamp_min_, "clamp_max_": clamp_max_,
    "copy_": copy_, "__iadd__": __iadd__, "__isub__": __isub__, "__imul__": __imul__,
    "__itruediv__": __itruediv__, "__setitem__": _setitem_statement,
}
