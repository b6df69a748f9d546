"""The tape: fixed-width rows, slots into a value arena, int meta and float const pools,
and the tape's lifetime.  How values reach the arena (batched copies, values kept aside,
float32 promotion, recycled buffers) is ``arena.py``'s, the base of ``Tape``.

A row is ``[opcode, out, in0, in1, aux]``: slot indices, never Python objects.
Slot ``s`` owns ``vals[offs[s] : offs[s + 1]]``; ``offs`` ends with a sentinel, ``nvals``
once flushed (so the sweep views it without a copy).
Scalar ops append to small Python lists (``list.extend`` is the cheapest append
CPython has) which are flushed into ``array.array`` buffers every ``FLUSH`` slots.
``array.array`` grows by ``realloc``, which for large blocks remaps pages rather than
copying, so recording a deep chain has no doubling transients.  The sweep reads
the buffers through zero-copy ``np.frombuffer`` views.

The arena is float64, or float32 for a float32 graph: when a generation's first value is
float32 the arena is ``array("f")``, and the sweep (compiled once more for float32) then
computes adjoints in float32 as PyTorch does, with float32 BLAS and half the bytes.  The
first float64 value recorded on it (a float64 array, or a Python-float scalar) promotes
the arena to float64 for the rest of the generation: exact, since every float32 value is
a float64 value.  Traced tapes stay float64 (replay is float64).

Lifetime: every non-leaf tensor holds the tape's current ``Token``.  When the last
one dies the tape resets (at once, or at the start of the next op when the cycle
collector or another thread dropped it: see ``Token``).  A backward without retain_graph
*retires* the tape: the thread records on a fresh one, and the old one lives only as long
as tensors from it do.  So ``loss = f(w); loss.backward()`` in a loop runs in constant
memory although the previous ``loss`` (or a stray tensor from before the loop) is still
alive while the next one is recorded.  An op that reads a non-leaf of a retired tape
records a LINK row standing for it (``ops/_record.py``), and the new tape holds the old
one's token: a backward reaching that row goes on in the old tape.  Leaves never hold the
token; they carry ``(slot, gen)`` and are re-adopted when the generation changed.

Interrupts (issue 18): a KeyboardInterrupt can land at any line of the recording and
backward paths, so no update of the bookkeeping may be left half-done, and none costs the
per-op path a lock or a try/finally: the order of the updates does it.  A push appends its
pending offset first and commits ``nslots`` last, and an op appends its row only once its
output slot is whole; an op cut off between the two is the one state that cannot be
undone in place, and ``flush`` (which every sweep and every read of the values goes
through) detects it, pending offsets and ``nslots`` apart, and refuses the tape with a clear
error (``BROKEN``), the thread going on on a fresh tape.  ``flush`` and ``reset`` are all
or nothing (see there); a leaf is listed before its slot is set; a Token resets its tape
only if it is the one the tape registered.  Pinned by ``tests/test_interrupt_recording.py``
(an interrupt injected at every line, a tape invariant checker, and a fresh gradient).
"""
import gc
import itertools
import os
import struct
import sys
import threading
import weakref
from array import array

import numpy as np

from ._state import anomaly, state
from .arena import _DTYPE, _F64, _I64, FLUSH, WRITES, ValueArena, _give_arena, _next_arena, escaped

_GEN = itertools.count(1)
FREED = 1 << 40  # set in a row's opcode once a sweep without retain_graph went through it
OP_MASK = FREED - 1
CONST = 2  # a sweep's reach of a constant's slot (Tape.consts_at): no rule needs its adjoint
SECOND_TIME = (  # PyTorch's message when a sweep reaches freed rows
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward.")
BROKEN = (
    "this thread's tape was left inconsistent by an exception raised in the middle of "
    "recording an op (a KeyboardInterrupt, say; {what}), so the graph recorded on it cannot "
    "be differentiated. The tape is reset: recording goes on on a fresh tape. Recompute "
    "the tensors recorded before this error to differentiate them.")
_FEW_SCALARS = 256  # pending scalars up to which flush writes their offsets from a list
# A tape whose rows reach SPLIT_MIN slots while a graph on it is still alive starts a new
# segment at the next graph start (Tape.begin, _split): a graph kept alive then pins the
# rows recorded before the split, not every graph recorded after it
SPLIT_MIN = 4096
# The segments after a split split again from SEGMENT slots, while no graph spans them (a
# link into an older segment doubles a segment's size, _link; a backward that swept a graph
# across more than two segments makes the thread's later segments as long as they were,
# engine._sweep_all): graphs kept at random among many dropped ones each pin a small
# segment (a fixed 1% of 20,000 graphs pinned all rows of four doubling segments, 13 MiB;
# of 256-slot segments ~1/4 of them)
SEGMENT = 256
LINK = 31  # [LINK, out, in, -1, k]: a non-leaf of an older tape of this thread, tape.links[k]
#           (no compiled rule: the engine goes on in the old tape from there, engine.py)


# The thread in which Python's cycle collector runs, else 0 (see Token.__del__).  A thread,
# not a flag: a collection's finalizers run Python code, so other threads run while it lasts
# (Numba's loader thread collects for hundreds of a training loop's steps, in which a flag
# stopped every reset: each step's tape kept its rows and arena until it died)
_collecting = 0


def _gc_phase(phase, info):
    global _collecting
    _collecting = threading.get_ident() if phase == "start" else 0


gc.callbacks.append(_gc_phase)


class Token:
    """Held by every non-leaf tensor of one tape generation: while one lives, the tape's
    rows are needed.

    When the last one dies by reference counting in the tape's own thread (user code
    dropping a tensor: an op boundary), the tape resets at once.  When the cycle collector
    or another thread drops it, which can happen in the middle of recording an op, the
    reset waits for the start of the next op (Tape.begin), where it is safe.

    Only the token the tape registered (``Tape._token``) resets it: one that an exception
    (a KeyboardInterrupt) cut off before ``begin`` registered it, or in its ``__init__``,
    dies without touching the tape, whose registered token may be alive.
    """

    __slots__ = ("tape", "gen", "__weakref__")

    def __init__(self, tape):
        self.gen, self.tape = tape.gen, tape  # (one line: set together, or neither)

    def __del__(self):
        try:
            tape, gen = self.tape, self.gen
        except AttributeError:  # __init__ was interrupted: never registered
            return
        ref = tape._token
        if (tape.gen == gen and ref is not None and ref() is self
                and threading.get_ident() == tape.owner != _collecting):
            if tape.retired and sys.getrefcount(tape) == 3:  # `tape`, self.tape, the argument
                tape.drop_arena()  # (it dies with this token: a reset would be thrown away)
            else:
                tape.reset()


# A reset tape's state (Tape.reset): the values here, and fresh containers where noted.
_FRESH = {
    "vals": None,  # the value arena (arena.py), kept from the last generation when free
    "vdt": _F64,  # its dtype (a new generation's arena is float64; _recycle_arena sets both)
    "rows": None, "offs": None, "meta": None,  # array("q") each
    "consts": None,  # array("d")
    "_last_const": None, "_last_k": None,  # the last const pushed, and its index
    "rbuf": None,  # [] (a _SiteRows in anomaly mode): pending rows, 5 ints each
    "obuf": None,  # []: pending slot offsets, but those of the pending scalars: implied
    "vbuf": None,  # []: pending scalar values: the last slots, arena positions up to nvals
    "abuf": None,  # []: pending small op results, from arena element alo (push_array)
    "unread": None,  # slot -> (abuf index, arena element) of pending values no row
    #                  reads yet (ValueArena._unread)
    "alo": 0,
    "nslots": 0,
    "nvals": 0,
    # pushes flush once a slot index reaches it (flush); not at slot 0: a flush of
    # a new tape's first value cost ~9 us a training step, issue 20
    "flush_at": FLUSH + 1,
    "leaves": None,  # []: (slot, tensor) for leaves that require grad
    "consts_at": None,  # []: slots of constants (no grad) adopted as operands: see CONST
    "const_uses": None,  # {}: id(constant) -> [weakref, its slots a row may have saved]
    "alias_uses": None,  # set: those slots that hold a view's or a detach()'s values
    "alias_of": None,  # {}: slot -> slots holding its values (views, traced detach()es)
    "leaf_slots": None,  # array("q"): their slots, for a vectorised lookup (engine._targets)
    "uses": None,  # {}: id(array leaf) -> (array, WRITES.n, slot): adopt() reuses the slot
    "const_slot": None,  # {}: id(array constant) -> (weakref, array, WRITES.n, slot): too
    "guards": None,  # []: where each guard row was recorded (tracing only)
    "outside": None,  # []: (tracing only) non-leaves of other graphs f read as constants
    "retained": None,  # []: (slot, weakref) for non-leaves that retain_grad()
    "hooks": None,  # {}: slot -> {handle id: fn}: register_hook on non-leaves (hooks.py)
    "node_hooks": None,  # {}: row -> {handle id: fn}: register_hook on a grad_fn (hooks.py)
    "shapes": None,  # {}: slot -> shape of array slots (scalar slots are 0-d): listings
    "sites": None,  # {}: row -> user frames that recorded it, in anomaly mode (_SiteRows)
    "mutated": None,  # values changed in place after recording (ops/inplace.py's Log)
    "custom": None,  # {}: row -> record of an autograd.Function's Python backward
    "packed": None,  # (row, "self"/"other"/"result") -> saved_tensors_hooks' packed value
    "gen": None,  # next(_GEN)
    "retired": False,  # every row freed and the thread moved on to a new tape
    "broken": None,  # why the tape is refused (an op was cut off half-way: _refuse)
    "_token": None,
    "_views": None,  # lazily built graph views (autograd/graph.py)
    "lazy": None,  # slot -> ndarray not copied in yet: push_array(keep=False)
    "ext": None,  # row -> the lazy slot its rule reads where it is kept (arena.needed)
    "span_low": None, "span_prod": None,  # per slot: its graph's rows (autograd/span.py)
    "span_done": 0,  # rows whose output's span is known
    "nfreed": 0,  # rows freed by sweeps without retain_graph
    "split_at": SPLIT_MIN,  # slots from which begin() starts a new segment (_split)
    "prev": None,  # weakref to the segment this tape's first generation split from
    "split": False,  # retired by _split (its rows live on), not by a backward
    "links": None,  # []: (token, slot) of the older tapes' non-leaves LINK rows stand for
    "link_of": None,  # {}: (id(token), slot, version) -> this tape's slot for it
    "in_place": None,  # slot -> its last PUT row written in place (shape.put)
    "named": None,  # slot -> (PyTorch's node name, input slots, rows so far) of the
    #                 results of composite ops (ops/_record.py named_result)
}


class Tape(ValueArena):
    """One thread's Wengert list.  See the module docstring for the layout."""

    def __init__(self):
        self.reset()

    owner = None  # the thread that records on this tape (set by current_tape)

    def reset(self):
        """Forget every row and slot; fresh buffers grow again on use, except the value
        arena, whose capacity is kept when nothing else can read it (``_next_arena``).

        All or nothing: the new state is built aside and put in place by one
        ``dict.update`` (a reset runs from ``Token.__del__``, where Python swallows an
        interrupt: a half-reset tape would go on recording unnoticed)."""
        vals, spare = _next_arena(self)
        fresh = _FRESH.copy()  # (a 45-key dict literal cost ~5 us a new tape, issue 20)
        fresh["vals"] = vals
        fresh["rows"], fresh["offs"], fresh["meta"] = array("q"), array("q"), array("q")
        fresh["consts"], fresh["leaf_slots"] = array("d"), array("q")
        fresh["rbuf"] = _SiteRows.new(self) if anomaly.enabled else []
        fresh["obuf"], fresh["vbuf"], fresh["abuf"] = [], [], []
        fresh["leaves"], fresh["consts_at"], fresh["guards"] = [], [], []
        fresh["outside"], fresh["retained"], fresh["links"] = [], [], []
        fresh["uses"], fresh["hooks"], fresh["node_hooks"], fresh["shapes"] = {}, {}, {}, {}
        fresh["sites"], fresh["custom"], fresh["link_of"] = {}, {}, {}
        fresh["gen"] = next(_GEN)
        fresh["prev"] = self.__dict__.get("prev")  # (kept: saved_tensors_hooks walk it)
        self.__dict__.update(fresh)  # the commit
        if spare is not None:  # (after it: the tape no longer refers to the old arena)
            _give_arena(spare)

    def drop_arena(self):
        """The last token of this retired tape, which nothing else refers to, dies: the tape
        goes with it, and only its value arena is kept, as the thread's spare (what a reset
        would do, without building the fresh state no one would see: ~1/3 of a new tape's
        cost, every step of a training loop, issue 20)."""
        vals, spare = _next_arena(self)  # (retired: an empty arena, the old one if free)
        if spare is not None:
            self.__dict__.update(vals=vals, vdt=_F64)  # (one update: never apart)
            _give_arena(spare)

    # -- the hot path -------------------------------------------------------------------
    def token(self):
        """This generation's token (a new one if none lives); never resets the tape."""
        tok = self._token() if self._token is not None else None
        if tok is None:
            tok = Token(self)
            self._token = weakref.ref(tok)
        return tok

    def begin(self, make=True, split=True):
        """Called before an op pushes anything; returns the token its output will hold.
        If no non-leaf of this generation lives any more but the tape was not reset (the
        collector or another thread dropped the last one, see Token), it is reset here.
        ``make=False``: the caller does not hold the token (its output takes one from
        ``token()``), so none is made now: one made and dropped would reset the tape.
        ``split=False``: the op may extend a live graph (ops/_record.py tape_for_grad),
        where a split (_split) would cut a long chain into segments: a sweep and a link
        each (a 5,000-step chain of views swept 3 segments, 1.3x the time of one)."""
        tok = self._token() if self._token is not None else None
        if tok is None:
            if self.nslots and not self.retired:
                self.reset()
            if make:
                tok = Token(self)
                self._token = weakref.ref(tok)
        elif split and self.nslots >= self.split_at:
            return self._split(make, tok)
        return tok

    def _split(self, make, tok):
        """``begin`` on a long tape that a live graph still holds: an op whose operands are
        leaves and constants only (a new graph starts) begins a new segment, a fresh tape
        for this thread, and this one is retired with its rows (as a backward retires a
        tape, ``retire``).  It lives as long as its tensors and the LINK rows of newer
        segments that read them (ops/_record.py ``_link``), so a graph dropped after the
        split gives its rows back when it dies, as PyTorch frees per graph; one kept from
        before pins this segment only.  A backward through the boundary goes on in this
        tape from the link (engine ``_sweep_all``), exactly.  The caller records on
        ``tok.tape`` (``state.tape``).  Not while tracing (replay needs one tape), nor on
        another thread's tape.  The next segment splits from SEGMENT slots, or, once a
        graph spans the two (a link into this one), only after twice this one's slots, so a
        big graph, alive throughout, costs a few links (one per doubling), no more."""
        if (state.tape is not self or state.tracing is not None or self.broken
                or threading.get_ident() != self.owner):
            self.split_at = 2 * self.nslots
            return tok
        self.split = True
        retire(self)
        tape = current_tape()
        tape.split_at = max(SEGMENT, state.segment)
        tape.prev = weakref.ref(self)
        return tape.begin(make)

    def const(self, c):
        """Index of float ``c`` in the const pool; the same float object as the last one
        (``y = y * a`` in a loop) reuses its entry: 8 bytes a row fewer."""
        if c is self._last_const:
            return self._last_k
        try:
            self.consts.append(c)
        except BufferError:
            self.unpin("consts").append(c)
        self._last_const, self._last_k = c, len(self.consts) - 1
        return self._last_k

    def const_run(self, *cs):
        """Index of the first of floats ``cs`` written one after another, for a rule that
        reads ``consts[k + i]`` (clamp's bounds): never const()'s reuse of the last one,
        which left clamp(1.0, 1.0)'s max (the same object as its min) unwritten."""
        k = len(self.consts)
        for c in cs:
            try:
                self.consts.append(c)
            except BufferError:
                self.unpin("consts").append(c)
        self._last_const, self._last_k = cs[-1], k + len(cs) - 1
        return k

    def push_meta(self, ints):
        """Store ints (a tuple, a list, or an int64 ndarray for long index lists) in the meta
        pool; returns its offset.  (``array.extend`` converts int by int: 8 us for 257 ints,
        ``fromlist`` 3.7 us, an ndarray's bytes 0.3 us.)"""
        k = len(self.meta)
        if type(ints) is np.ndarray:
            put, data = "frombytes", np.ascontiguousarray(ints, np.int64).tobytes()
        else:
            put, data = "fromlist", list(ints)
        try:
            getattr(self.meta, put)(data)
        except BufferError:
            getattr(self.unpin("meta"), put)(data)
        return k

    def slots_of(self, t):
        """The slots that hold tensor ``t`` on this tape: a non-leaf's one slot (if it is of
        this generation); for an array leaf, one per adoption (Tape.adopt)."""
        if t._tok is not None:
            return [t._slot] if t._gen == self.gen else []
        return [s for s, u in self.leaves if u is t]

    def out_slot(self, t):
        """The slot of an output to differentiate (a leaf output gets one now)."""
        return t._slot if t._gen == self.gen else self.adopt(t)

    def adopt(self, t, need=True):
        """Give tensor ``t`` (a leaf, or a constant) a slot holding its values now.

        A scalar's value (an immutable float) can change only through ops that reset
        ``_gen``, so its slot is reused for the whole generation.  An array's values can
        be changed in place behind the tape's back (NumPy views, ``.data``), so a use
        copies them anew, as PyTorch reads a leaf's current values at each op, unless
        nothing can have changed them since its last use on this tape: an array leaf
        requiring grad reuses its slot (``uses``) while it holds the same array and no
        write into any tensor's storage was made since (``WRITES``, which every in-place
        op's version bump counts, and optimizers, AccumulateGrad, a NumPy view handed out).
        Traced inputs are private to the trace and keep one slot (replay writes into it).
        """
        d = t._data
        if type(d) is float:
            s = self.push_float(d)
            if not t._rg and need and state.tracing is not self:
                self._const_use(t, s)  # (as an array's, below)
        else:
            if t._rg and state.tracing is not self:
                u = self.uses.get(id(t))  # (t is in self.leaves while its entry lives)
                if u is not None and u[0] is d and (u[1] == WRITES.n or self._kept(t, u)):
                    if need and (self.lazy or self.unread):
                        self.needed(u[2])
                    return u[2]
                return self._use(t, d, need)
            if state.tracing is not self:
                if not need:
                    s = self.push_array(d, False)
                    self.consts_at.append(s)
                    return s
                # a use a row may save: the slot of the last such use serves while t holds
                # the same array and nothing was written since, as a leaf's (``uses``);
                # memory the caller holds (``escaped``: writes there are never counted) is
                # copied at each use.  Checked on a hit only: a miss costs a tuple
                cs = self.const_slot
                if cs is not None and (e := cs.get(id(t))) is not None and e[1] is d and \
                        e[2] == WRITES.n and e[0]() is t and not escaped(d):
                    return e[3]
                n = WRITES.n
                s = self.push_array(d)
                self.consts_at.append(s)
                # (ops/inplace.py _old_slots finds the slots a constant's uses saved when
                # it changes in place, and backward refuses as PyTorch's)
                ref = self._const_use(t, s)
                if cs is None:
                    cs = self.const_slot = {}
                cs[id(t)] = (ref, d, n, s)
                return s
            s = self.push_array(d, need)
        if state.tracing is self:  # replay holds t's values now: compile checks they hold
            self.__dict__.setdefault("watched", []).append((s, weakref.ref(t)))
        # listed first, then t's slot (one line): an interrupt in between leaves a listed
        # slot no row reads, never a used slot unlisted (whose gradient would be lost);
        # leaf_slots, one behind leaves then, is rebuilt by flush
        if t._rg:
            self.leaves.append((s, t))
            self.leaf_slots.append(s)
        t._slot, t._gen = s, self.gen
        return s

    def _const_use(self, t, s):
        """Note that constant ``t``'s values went into slot ``s``, under t and under each
        tensor whose memory and version t shares (``shared_next``: the base of a view, the
        source of a detach(), theirs in turn): a write into any of them changes t's values,
        also once t itself is gone (``(h.detach() * w).sum()`` then ``h.mul_(2)``).
        Returns t's weak reference there."""
        cu = self.const_uses
        if cu is None:
            cu = self.const_uses = {}
        e = cu.get(id(t))
        if e is not None and (ref := e[0])() is t:
            e.append(s)
        else:
            ref = weakref.ref(t)
            cu[id(t)] = [ref, s]
        u = shared_next(t)
        while u is not None:
            if self.alias_uses is None:
                self.alias_uses = set()
            self.alias_uses.add(s)
            e = cu.get(id(u))
            if e is not None and e[0]() is u:
                e.append(s)
            else:
                cu[id(u)] = [weakref.ref(u), s]
            u = shared_next(u)
        return ref

    def note_alias(self, s, a):
        """Slot ``a`` holds (some of) slot ``s``'s values, as a view or a detach() of it: an
        in-place change of s changes a too, also once a's tensor is gone
        (ops/inplace.py _log_mutation)."""
        if self.alias_of is None:
            self.alias_of = {}
        self.alias_of.setdefault(s, []).append(a)

    def _kept(self, t, u):
        """After a write somewhere (``WRITES`` moved): whether leaf ``t``'s slot still holds
        its values bit for bit, and may serve this use too.  A write elsewhere (another
        tensor's, another thread's) must not split the leaf's slot: its adjoints would be
        summed in another order, so a thread's gradients would hang on other threads."""
        d, n, s = u
        n_now = WRITES.n
        if self.lazy and s in self.lazy:  # (kept aside, not copied: nothing to compare)
            return False
        old = self.slot_values(s)  # (float64, exact for a float32 arena)
        new = np.asarray(d, np.float64).reshape(-1)
        if not np.array_equal(old.view(np.int64), new.view(np.int64)):  # (-0.0 is not 0.0)
            return False
        self.uses[id(t)] = (d, n_now, s)
        return True

    def _use(self, t, d, need):
        """A new slot for array leaf ``t`` (holding ``d``) that requires grad, which its
        next uses reuse while nothing can have changed its values (see adopt)."""
        n = WRITES.n
        s = self.push_array(d, need)
        self.leaves.append((s, t))
        self.leaf_slots.append(s)
        if not escaped(d):  # memory the caller holds: writes there are never counted
            self.uses[id(t)] = (d, n, s)
        return s

    def flush(self, skip=False):
        """Move pending list entries into the array buffers.

        All or nothing, whatever line an exception (a KeyboardInterrupt) interrupts: each
        pending list is cleared only after its entries are in their buffer (the clear is
        that list's commit), values are written at fixed arena positions (written again,
        they are the same), and rows and offsets appended without their list cleared are
        taken back.  First the pending slot offsets are checked against ``nslots``: an op
        cut off between its first push and its commit leaves them apart (the order of
        ``push_scalar``), and the tape is then refused (``_refuse``).  ``skip``: the pending
        values no row reads are kept aside (``ValueArena._unread``)."""
        if self.broken:
            raise RuntimeError(self.broken)
        offs, obuf, vbuf = self.offs, self.obuf, self.vbuf
        k = len(vbuf)  # (the last k slots: pending scalars, offsets nvals - k .. nvals - 1)
        if len(offs) - (1 if offs else 0) + len(obuf) + k != self.nslots:
            self._refuse(f"{self.nslots} slots counted, {len(obuf)} pending offsets and "
                         f"{k} pending scalars")
        if len(self.leaf_slots) != len(self.leaves):  # (adopt cut off between the two)
            self.leaf_slots = array("q", [s for s, _ in self.leaves])
        nrows, noffs = len(self.rows), len(offs)
        try:
            if self.abuf:
                self._flush_arrays(self.nvals - k, skip)
            if vbuf:
                if self.vals.typecode == "f":  # Python-float scalars are float64 tensors
                    self._promote()
                vals, lo, src = self.vals, self.nvals - k, array("d", packed(vbuf, "d"))
                if self.nvals <= len(vals):  # kept capacity: a slice of equal length (no
                    vals[lo:self.nvals] = src  # resize: a NumPy view may pin the buffer)
                else:
                    self._put_vals(lo, src)
                del vals
            if self.rbuf:
                rows = packed(self.rbuf, "q")
                try:
                    self.rows.frombytes(rows)
                except BufferError:
                    self.unpin("rows").frombytes(rows)
                self.rbuf.clear()
            if obuf or vbuf:  # offs ends with a sentinel, the arena's end: arrays() views it
                if k <= _FEW_SCALARS:  # (NumPy's five calls cost ~4 us, issue 20)
                    tail = [*obuf, *range(self.nvals - k, self.nvals + 1)]
                else:
                    tail = np.arange(self.nvals - k, self.nvals + 1, dtype=_I64)  # (whole)
                    if obuf:
                        tail = np.concatenate((np.array(obuf, _I64), tail))
                if offs:  # (the sentinel becomes the first pending offset: written again,
                    offs[-1] = int(tail[0])  # the same)
                    tail = tail[1:]
                tail = packed(tail, "q") if type(tail) is list else tail.tobytes()
                try:
                    offs.frombytes(tail)
                except BufferError:
                    self.unpin("offs").frombytes(tail)
                self.obuf, self.vbuf = [], []  # (the commit of the values and offsets)
            # the next multiple of FLUSH + 1 above the slots: the ops' fast paths compare
            # their slot index with it (an int compare; ``s & FLUSH`` cost ~120 instructions)
            self.flush_at = (self.nslots | FLUSH) + 1
        except BaseException:  # (a NumPy view may pin a buffer left as it was: no resize)
            if self.rbuf and len(self.rows) > nrows:
                del self.rows[nrows:]
            if (self.obuf or self.vbuf) and len(self.offs) > noffs:
                del self.offs[noffs:]
            raise

    def _refuse(self, what):
        """This tape's pending lists disagree with its counts: an op was cut off half-way
        (by a KeyboardInterrupt, say).  Its rows can no longer be trusted, so it is refused
        from now on, with a clear error, and the thread records on a fresh tape."""
        retire(self)
        self.broken = BROKEN.format(what=what)
        raise RuntimeError(self.broken)

    def unpin(self, name):
        """Replace buffer ``name`` by a copy.  An array.array whose memory a NumPy view
        still exports (a view kept alive by a traceback, say) cannot grow; the copy can."""
        buf = array(getattr(self, name).typecode, getattr(self, name))
        setattr(self, name, buf)
        return buf

    # -- views for the sweep and the graph ----------------------------------------------
    @property
    def nrows(self):
        return (len(self.rows) + len(self.rbuf)) // 5

    def arrays(self, fill=True, skip=False):
        """Zero-copy NumPy views: rows (n, 5), offs (nslots + 1), vals, consts, meta.

        The views pin the buffers; drop them before recording again.  ``fill=False`` (the
        eager sweep) leaves the values kept aside by push_array out: no rule reads them;
        ``skip`` (its flush without retain_graph) keeps those of the pending values aside
        too (``ValueArena._unread``).
        """
        self.flush(skip and not fill)  # (first: it refuses a tape an interrupt left broken)
        while fill and self.lazy:
            self.fill(next(iter(self.lazy)))
        i64, n = _I64, self.nvals  # (positional dtypes: NumPy's keyword parsing costs more)
        rows = np.frombuffer(self.rows, i64).reshape(-1, 5) if self.rows else np.zeros((0, 5), i64)
        if self.offs:
            self.offs[-1] = n  # the sentinel (values may have been pushed since the flush)
            offs = np.frombuffer(self.offs, i64)
        else:
            offs = np.zeros(1, i64)
        dt = _DTYPE[self.vals.typecode]
        vals = np.frombuffer(self.vals, dt, n) if n else np.zeros(0, dt)
        consts = np.frombuffer(self.consts, _F64) if self.consts else np.zeros(0)
        meta = np.frombuffer(self.meta, i64) if self.meta else np.zeros(0, i64)
        return rows, offs, vals, consts, meta

    def nbytes(self):
        """Bytes held by the tape's buffers (pending list entries counted as 8 bytes; of a
        recycled value arena only the part in use: the rest is a cache, see
        ``_recycled_arena``)."""
        arrays = (self.rows, self.offs, self.meta, self.consts, self.leaf_slots)
        pending = len(self.rbuf) + len(self.obuf) + len(self.vbuf)
        spans = 0 if self.span_low is None else self.span_low.nbytes + self.span_prod.nbytes
        return (sum(a.buffer_info()[1] * a.itemsize for a in arrays) + 8 * pending
                + self.vals.itemsize * self.nvals + spans)

    # stats() and __str__ (a Wengert list) are bound from viz.py, the floor above

    def __repr__(self):
        return f"<tapegrad.Tape: {self.nrows} rows, {self.nslots} slots, {self.nbytes()} bytes>"


_PKG = os.path.dirname(os.path.abspath(__file__)) + os.sep


class _SiteRows(list):
    """A tape's pending-rows list in anomaly mode.  Every op appends its row with one
    ``tape.rbuf.extend(...)``, so this list notes there which user code (the frames outside
    tapegrad) recorded the row, for anomaly errors, and the hot path pays nothing while
    anomaly mode is off (autograd/anomaly.py swaps the lists)."""

    __slots__ = ("tape",)

    @classmethod
    def new(cls, tape, rows=()):
        lst = cls(rows)
        lst.tape = weakref.ref(tape)
        return lst

    def extend(self, row):
        tape = self.tape()
        if tape is not None:
            tape.sites[(len(tape.rows) + len(self)) // 5] = user_frames(sys._getframe(1))
        list.extend(self, row)


def user_frames(f, limit=16):
    """``(code, last instruction)`` of the frames outside tapegrad, innermost first; lines
    are looked up only when an error shows them (``frame_lines``: ``f_lineno`` costs ~1 us
    a frame, which anomaly mode would pay for every frame of every op)."""
    out = []
    while f is not None and len(out) < limit:
        code = f.f_code
        if not code.co_filename.startswith(_PKG):
            out.append((code, f.f_lasti))
        f = f.f_back
    return tuple(out)


def frame_lines(frames):
    """``(filename, lineno, function)`` of frames noted by ``user_frames``."""
    out = []
    for code, lasti in frames:
        line = code.co_firstlineno
        for start, end, ln in code.co_lines():
            if start <= lasti < end:
                line = ln if ln is not None else line
                break
        out.append((code.co_filename, line, code.co_name))
    return out


def set_site_rows(tape, on):
    """Switch ``tape``'s pending-rows list to (or from) the one that notes record sites."""
    if on and not isinstance(tape.rbuf, _SiteRows):
        tape.rbuf = _SiteRows.new(tape, tape.rbuf)
    elif not on and isinstance(tape.rbuf, _SiteRows):
        tape.rbuf = list(tape.rbuf)


def packed(items, code):
    """The bytes of list ``items`` as C ``code`` ("q": int64, "d": double), for an
    ``array.frombytes`` (~100 instructions an item against ~230 for ``array.fromlist``,
    whose every item goes through ``PyArg_Parse``: ~15% of a scalar op, issue 20)."""
    return struct.pack(f"{len(items)}{code}", *items)


def shared_next(t, memory=False):
    """The tensor whose memory and version counter ``t`` shares: a view's base, else a
    detach()'s source; None at a ``.data`` (a version counter of its own), or none.
    ``memory``: whose memory alone, so past a ``.data`` to its source too.  The walk of
    every shared-memory chain (constants' uses, resize_, in-place ops' storage).  Unset
    slots are set to None: the next walk reads them fast."""
    try:
        vb = t._vb
    except AttributeError:
        vb = t._vb = None
    if vb is not None:
        return vb[0]
    try:
        u = t._da
    except AttributeError:
        t._da = u = None
    if type(u) is tuple:
        return u[0] if memory else None
    return u


def retire(tape):
    """The thread stops recording on ``tape`` (all its rows are freed): a fresh tape next."""
    if state.tape is tape:
        tape.retired, state.tape = True, None  # (one line: no interrupt between the two)
    else:
        tape.retired = True


def current_tape():
    """This thread's tape, created on first use."""
    tape = state.tape
    if tape is None:
        tape = Tape()
        tape.owner = threading.get_ident()
        state.tape = tape  # (once whole: an owner-less current tape never resets)
    return tape
