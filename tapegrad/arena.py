"""The value arena: where every slot's values live, and how they get there.

A tape (``tape.py``) holds rows, pools, slots and their lifetime; the arena's side of it is
here, as the ``ValueArena`` base of ``Tape``: a slot owns ``vals[offs[s] : offs[s + 1]]``.
Scalar values wait in a Python list (``vbuf``), small arrays in ``abuf``, and both go
into the arena in one copy at the next flush; large values that no rule reads are kept
aside (``lazy``) until something does.  A float32 graph's arena is ``array("f")`` until
its first float64 value promotes it.  Each thread keeps its last arena and adjoint buffer
for its next graph (recycled buffers, below).
"""
import sys
import threading
import weakref
from array import array

import numpy as np

from ._state import state

FLUSH = 8191  # flush when the new slot index has these low bits clear (Tape.flush_at)
LAZY_MIN = 4096  # elements from which push_array(keep=False) keeps a value aside
PENDING_MAX = 1 << 16  # elements of small values waiting in Tape.abuf before a flush
UNREAD_MIN = 1024  # elements from which a waiting value no rule reads is noted (_unread)
JOIN_BELOW = 128  # mean elements a pending array below which a flush joins their bytes


class _Writes:
    """How many writes into tensors' storage were made without recording: no_grad in-place
    ops (``ops/inplace._write``), optimizers' state (``optim._set``), AccumulateGrad's
    in-place add, a NumPy view of a tensor handed out.  A leaf's slot is reused by later
    uses on its tape only while this count is unchanged (``Tape.adopt``): one count for
    every tensor, as a write through an alias (``.data``, ``detach()``, a view) does not
    show on the leaf itself."""

    __slots__ = ("n",)

    def __init__(self):
        self.n = 0


WRITES = _Writes()


def note_write():
    """Count a write into some tensor's storage (see _Writes)."""
    WRITES.n += 1


# arrays whose memory the caller holds (from_numpy/as_tensor's input, a NumPy view handed
# out): writes through them are never counted, so a leaf holding one is copied at each use
# (Tape.adopt), as before the reuse.  id(root array) -> a weak reference to it: an entry is
# the array's only while the reference still leads to it (an id is reused once its array
# dies).  A plain dict of plain references: a WeakValueDictionary's KeyedRef and its miss,
# a KeyError caught, cost ~3 us an escape and ~2 us a lookup (an MLP step makes four of
# each: issue 20); dead entries are dropped when the dict has doubled since the last sweep.
_ESCAPED = {}
_ESCAPED_SWEEP = [64]  # the size at which dead entries are dropped next
_ref = weakref.ref


def _root(a):
    """The array owning ``a``'s memory (``a`` itself, or the last ndarray base of a view)."""
    while (b := a.base) is not None and isinstance(b, _ndarray):
        a = b
    return a


def escape(a):
    """``a`` (an ndarray sharing a tensor's memory) is in the caller's hands; returns it."""
    WRITES.n += 1  # (note_write)
    r = _root(a)
    e = _ESCAPED.get(id(r))
    if e is None or e() is not r:
        _ESCAPED[id(r)] = _ref(r)
        if len(_ESCAPED) >= _ESCAPED_SWEEP[0]:
            _drop_dead()
    return a


def _drop_dead():
    """Drop the entries whose array died (their ids may be anyone's now)."""
    for k, e in list(_ESCAPED.items()):  # (a copy: other threads may escape meanwhile)
        if e() is None and _ESCAPED.get(k) is e:
            del _ESCAPED[k]
    _ESCAPED_SWEEP[0] = max(64, 2 * len(_ESCAPED))


def escaped(a):
    """Whether the memory of ndarray ``a`` was handed out (``escape``)."""
    r = _root(a)
    e = _ESCAPED.get(id(r))
    return e is not None and e() is r


class ValueArena:
    """The value-arena half of ``Tape`` (it uses the tape's ``flush`` and slot lists)."""

    def push_scalar(self, v):
        """A new size-1 slot holding float ``v``; returns its index.

        The order of the updates is what keeps an exception at any line (a
        KeyboardInterrupt) from corrupting the tape: the pending offset first, the counters
        last (``nslots`` is the commit).  Cut off in between, the pending offsets are one
        ahead of ``nslots`` for good, which ``Tape.flush`` detects and refuses; cut off
        after, the slot is complete and merely unused."""
        s, n = self.nslots, self.nvals
        self.vbuf.append(v)  # (its offset is implied: n, see Tape.flush)
        self.nvals = n + 1
        self.nslots = s + 1
        if s >= self.flush_at:
            self.flush()
        return s

    def push_float(self, v):
        """push_scalar for an adopted 0-d value (a leaf's or a constant's, Tape.adopt), where
        arrays often come next (a scalar-by-vector op's other operand, its result): pending
        before them, the scalar would be moved to the pending arrays first (``_arrive``: a
        new array and both lists rebuilt, ~5% of a polynomial-fit step, issue 20), so on a
        float64 arena it goes where it ends up now: straight into the arena when nothing
        waits, else after the pending arrays as a 1-element array.  Behind pending scalars
        (a scalar graph) it joins their run, and a float32 arena, which a Python float
        promotes, takes push_scalar's path too.  The commit order is push_scalar's."""
        if self.vbuf or self.vals.typecode != "d":
            return self.push_scalar(v)
        s, lo = self.nslots, self.nvals
        if self.abuf:
            self.obuf.append(lo)
            self.abuf.append(np.array((v,)))
        elif lo < len(self.vals):  # nothing waits: into the kept capacity
            self.obuf.append(lo)
            self.vals[lo] = v
        else:
            return self.push_scalar(v)
        self.nvals = lo + 1
        self.nslots = s + 1
        if s >= self.flush_at:
            self.flush()
        return s

    def push_array(self, a, keep=True, owned=False):
        """A new slot holding the values of ndarray ``a`` (cast to the arena's dtype, C order).

        ``keep=False`` when no row recorded so far reads these values (an output whose own
        rule does not, such as linear's; a leaf's use by a rule that does not): the span
        is reserved and ``a`` is kept aside, not copied.  A later row that reads the slot
        copies it in (``fill``, from ops/_record.py ``slot``), and so do an in-place change
        of it and ``arrays()``, for every reader but the eager sweep.  Traced tapes keep
        every value (replay reads them all).

        Values below LAZY_MIN elements wait in ``abuf`` and go into the arena together at
        the next flush(), in one NumPy call (a memcpy each cost ~0.4 us of a ~3 us op on
        a small vector): ``owned`` ones (an op's new result, not a view of another array)
        as they are, others as a copy made now (or copied in at once when nothing waits).
        An owned result is never changed in place by tapegrad (in-place ops rebase a
        tensor onto a new result), and every way to share it with code that could
        (detach, detach_, np.asarray: tensor._settled) flushes first, so the tape holds
        the values the op computed."""
        if type(a) is not _ndarray or self.vbuf or a.dtype is not self.vdt:
            a = self._arrive(a)  # (else it has nothing to do: the common case)
        # (the pending offset first, nslots last: the commit, as in push_scalar; whatever
        # is cut off in between is refused by Tape.flush, as nslots is behind the offsets)
        vals = self.vals
        s, lo = self.nslots, self.nvals
        self.obuf.append(lo)
        self.shapes[s] = a.shape
        n = a.size
        vt = _DTYPE[vals.typecode]
        if n < LAZY_MIN:
            mine = owned and a.base is None and a.dtype is vt  # an op's result: kept as is
            if not mine and not self.abuf and n <= len(vals) - lo:
                _copy_in(vals, lo, a)  # nothing waits: straight into the kept capacity
            else:  # waits in abuf, the pending spans back to back from alo
                if not mine:
                    a = a.astype(vt)  # a copy: the values as they are now
                if not self.abuf:
                    self.alo = lo
                self.abuf.append(a)
                if not keep and n >= UNREAD_MIN:
                    self._unread(s, lo)
                if lo - self.alo >= PENDING_MAX:  # dead results' arrays wait too: bound them
                    self._flush_arrays(lo + n)
        else:
            if self.abuf:  # (the pending spans stay back to back: they go in first)
                self._flush_arrays(lo)
            if keep or state.tracing is self:
                vals = self.vals
                if n <= len(vals) - lo:  # kept capacity
                    _copy_in(vals, lo, a)
                else:
                    self._put_vals(lo, np.ascontiguousarray(a, vt).reshape(-1))
            else:
                if self.lazy is None:
                    self.lazy = {}
                self.lazy[s] = (a, lo)
                if lo + n > len(self.vals):  # reserve the span
                    self._put_vals(lo, np.empty(n, vt))
        self.nvals = lo + n
        self.nslots = s + 1
        if s >= self.flush_at:
            self.flush()
        return s

    def _unread(self, s, lo):
        """Note that no row recorded so far reads the values of slot ``s`` (arena element
        ``lo`` on), the last that wait in abuf.  A row that reads them takes the note away
        (``needed``, from ops/_record.py ``slot``); the eager sweep's flush keeps the
        values still unread aside instead of copying them in (``_flush_arrays(skip=True)``:
        a 2,000-value script copied ~16k values no rule read, issue 20); every other flush
        copies them in and drops the notes.  Traced tapes keep every value (replay)."""
        if state.tracing is self:
            return
        if self.unread is None:
            self.unread = {}
        self.unread[s] = (len(self.abuf) - 1, lo)

    def needed(self, s, alone=False):
        """A row being recorded reads the values of slot ``s``: kept-aside ones are copied in
        (``fill``), a waiting one's note (``_unread``) goes.

        ``alone``: the row, recorded next, is an op's unary row whose rule reads only
        these values (its in0: ``OPS[op].reads == "a"``), and ``s`` holds an op's result.
        Its array, kept aside, then stays where it is (``ext``): the eager sweep runs the
        row over that array (autograd/engine.py ``_ext_row``), and every other reader
        copies it in first as before (k-means' (n, K, d) differences squared: a 12.8 MB
        copy a step, issue 20).  An op's result is never written in place by tapegrad, and
        every way to hand its memory out copies these in first (``fill_ext``)."""
        if self.lazy and s in self.lazy:
            a = self.lazy[s][0]
            if alone and a.base is None and a.dtype is self.vdt and \
                    a.flags.c_contiguous:
                if self.ext is None:
                    self.ext = {}
                self.ext[self.nrows] = s
            else:
                self.fill(s)
        if self.unread:
            self.unread.pop(s, None)

    def fill_ext(self):
        """Copy in the kept-aside values that recorded rows read (``needed``'s ``alone``):
        their memory is about to be handed out (tensor._settled), or a reader other than
        the eager sweep's compiled rows needs them in the arena."""
        for s in set(self.ext.values()):
            if self.lazy and s in self.lazy:
                self.fill(s)

    def _arrive(self, a):
        """push_array's preliminaries, ``a`` as an ndarray: pending scalars go first, and the
        arena takes ``a``'s dtype (float32 while empty, float64 when one joins)."""
        if self.vbuf:  # pending scalars take the arena positions before this slot's:
            if self.vals.typecode == "d":  # they join the pending arrays as one (a flush
                lo, k = self.nvals - len(self.vbuf), len(self.vbuf)
                if not self.abuf:  # here cost ~3 us of a scalar-times-vector op)
                    self.alo = lo
                # (the commit: their offsets, implied while pending, written out)
                self.abuf, self.vbuf, self.obuf = ([*self.abuf, np.array(self.vbuf)], [],
                                                   [*self.obuf, *range(lo, lo + k)])
            else:
                self.flush()  # (which promotes a float32 arena: scalars are float64)
        if type(a) is not _ndarray:
            a = np.asarray(a)
        # (no local reference to the arena before these: its refcount decides whether the
        # old one is kept as the thread's spare)
        dt = a.dtype
        if self.vals.typecode == "f":
            if dt.kind == "f" and dt.itemsize > 4:  # float64, in any byte order
                self._promote()
        elif not self.nvals and dt == _F32 and state.tracing is not self:
            self.abuf.clear()  # (empty float64 results at most: nvals is 0)
            self._recycle_arena("f")
        elif dt is not _F64 and state.tracing is self and dt.kind in "biuf" and dt != _F64:
            # the dtype of a slot not float64: replay computes in float64 and cannot round
            # to float32 (replay._narrowed: a float32 value must come exactly from others).
            # (A float64 dtype need not be _F64 itself: one unpickled on a dask worker is not)
            self.__dict__.setdefault("dtypes", {})[self.nslots] = dt
        return a

    @property
    def dtype(self):
        """The arena's dtype: float64, or float32 for a float32 graph (module docstring)."""
        return self.vdt

    def _recycle_arena(self, typecode, values=None):
        """Swap the arena for this thread's kept one of ``typecode``, holding ``values``
        (1-D, of that dtype) from element 0.  The new arena is ready before the swap, one
        assignment, and the old one becomes the spare only after it (an exception at any
        line leaves the tape with one arena or the other, never none or a half-filled one)."""
        new = _take_arena(typecode)
        if values is not None and len(values):
            _put(new, 0, values)
        old = self.vals
        self.__dict__.update(vals=new, vdt=_DTYPE[typecode])  # (one update: never apart)
        if sys.getrefcount(old) == 2:  # no NumPy view of it lives (only `old`)
            _give_arena(old)

    def _promote(self):
        """A float64 value joins a float32 arena: the arena becomes float64, values kept."""
        n = self.nvals - len(self.vbuf)  # (pending scalars are float64 already)
        if self.abuf:
            self._flush_arrays(n)
        self._recycle_arena("d", np.frombuffer(self.vals, np.float32, n).astype(np.float64))

    def write_slot(self, s, data):
        """Overwrite slot ``s``'s values with ``data``'s (an in-place op)."""
        if self.lazy:
            self.lazy.pop(s, None)
        self.flush()  # (slot offsets may still be pending)
        dt, data = self.dtype, np.ravel(data)
        np.frombuffer(self.vals, dt, data.size, dt.itemsize * self.offs[s])[:] = data

    def _put_vals(self, lo, data):
        """Write ``data`` (1-D, C order, the arena's dtype) at arena element ``lo``: into the
        kept capacity first (no page faults, no realloc), then by growing the buffer.
        Done twice, it writes the same (an interrupted flush is redone: Tape.flush)."""
        try:
            _put(self.vals, lo, data)
        except BufferError:
            _put(self.unpin("vals"), lo, data)

    def fill(self, s):
        """Copy the kept-aside values of slot ``s`` in (see push_array)."""
        a, lo = self.lazy.pop(s)
        _copy_in(self.vals, lo, a)

    def _flush_arrays(self, end, skip=False):
        """Copy the pending values (push_array) into their spans, arena elements alo to
        ``end`` (vbuf's pending scalars, if any, come after them).  The copy first, the
        pending list's end last: cut off in between, the next flush copies them again.
        ``skip`` (the eager sweep's flush): the values no row reads (``_unread``) are kept
        aside (``lazy``), not copied."""
        pend, unread = self.abuf, self.unread
        lo, vt = self.alo, self.vdt
        if skip and unread:
            if end > len(self.vals):  # the span reserved (the kept-aside parts unwritten)
                self._put_vals(lo, np.empty(end - lo, vt))
            # one slice assignment per value copied (a run's concatenate into its own
            # frombuffer view cost ~1.5 us, ~9 us of a poly-fit step's backward, issue 20)
            span = np.frombuffer(self.vals, vt, end - lo, vt.itemsize * lo)
            out = {i for i, _ in unread.values()}
            at = 0
            for i, a in enumerate(pend):
                n = a.size
                if i not in out:
                    span[at:at + n] = a if a.ndim < 2 else a.reshape(-1)
                at += n
            del span
            if self.lazy is None:
                self.lazy = {}
            for s, (i, at) in unread.items():
                self.lazy[s] = (pend[i], at)
        elif (end - lo < JOIN_BELOW * len(pend) and
              (joined := _joined(pend, vt, end - lo)) is not None):
            self._put_vals(lo, joined)
        elif end <= len(self.vals):  # straight into the kept capacity
            span = np.frombuffer(self.vals, vt, end - lo, vt.itemsize * lo)
            np.concatenate(pend, axis=None, out=span)
            del span
        else:
            self._put_vals(lo, np.concatenate(pend, axis=None))
        self.abuf, self.unread = [], None

    def slot_values(self, s):
        """The float64 values a slot holds (a copy)."""
        if self.lazy and s in self.lazy:
            self.fill(s)
        self.flush()
        lo = self.offs[s]
        hi = self.offs[s + 1] if s + 1 < self.nslots else self.nvals
        return np.array(self.vals[lo:hi], dtype=np.float64)


# -- recycled buffers ---------------------------------------------------------------------
# A training loop records the same graph every step.  Without reuse, every step grows a new
# value arena from empty and sweeps into a new adjoint arena: megabytes of fresh pages, and
# their page faults cost more than the step's arithmetic (a 2-layer MLP step: 8 ms -> 3 ms).
# So each thread keeps its last arena and adjoint buffer (up to SPARE_MAX values each), and
# hands them out only when nothing else refers to them: no NumPy view and no tape.  The cap
# was 2^24: ADBench's GMM gradient at d = 32, K = 100 (a 2.7e7-value arena) then faulted in
# 213 MB a call, and its forward took 188 ms instead of 51 (benchmarks/bench_gmm.py).
SPARE_MAX = 1 << 25  # values (256 MB): larger buffers are returned to the system
_KEEP_BELOW = 1 << 15  # smaller adjoint buffers come from np.empty (malloc's own free lists)


class _Spare(threading.local):
    vals = None  # an array('d') whose contents are dead: capacity for the next generation
    vals32 = None  # the same for float32 graphs: array('f')
    adj = None  # an ndarray of float64 adjoints (handed out as it is: adjoint_arena)
    adj32 = None  # float32 adjoints


_F64, _F32, _I64 = np.dtype(np.float64), np.dtype(np.float32), np.dtype(np.int64)
# NumPy's module has a __getattr__, so CPython 3.11 cannot specialise an ``np.ndarray``
# load (~190 instructions a load, issue 20): the recording paths use this global instead
_ndarray = np.ndarray
_DTYPE = {"d": _F64, "f": _F32}
_SPARE_NAME = {"d": "vals", "f": "vals32"}


_spare = _Spare()


def _put(vals, lo, data):
    """``ValueArena._put_vals`` into arena ``vals`` (BufferError if a view pins it)."""
    src = memoryview(data)
    room = len(vals) - lo
    if room > 0:
        memoryview(vals)[lo:lo + min(room, len(src))] = src[:room]
        src = src[room:]
    if len(src):
        vals.frombytes(src.cast("B"))


def _joined(pend, vt, n):
    """The values of ``pend`` (arrays of dtype ``vt``, as push_array leaves them) back to
    back in C order, ``n`` elements: one ``bytes.join`` of their buffers, ~25 ns an array
    where np.concatenate takes ~100 (501 arrays of 4 values: 14 us against 51, a copy into
    the arena included; issue 20).  The copy is made twice, so from a mean of JOIN_BELOW
    elements an array np.concatenate into the arena is kept (at 256, cold from a long
    record: within noise of it, 0.99-1.01 in bench_eager_vector's backward).  None where
    one is not C-contiguous (its buffer is refused) or the sizes disagree: the caller's
    np.concatenate then."""
    try:
        data = b"".join(pend)
    except TypeError:  # (NumPy exports a plain buffer of C-contiguous arrays only)
        return None
    return np.frombuffer(data, vt) if len(data) == n * vt.itemsize else None


def _copy_in(vals, lo, a):
    """Write ndarray ``a``'s values into arena ``vals`` (capacity for them reserved) from
    element ``lo``, cast to its dtype, in C order."""
    vt = _DTYPE[vals.typecode]
    if a.dtype is vt and a.flags.c_contiguous:  # a memcpy (0.4 us)
        memoryview(vals)[lo:lo + a.size] = a.reshape(-1).data
    else:  # cast and copy in one pass (a broadcast, transposed or int value is never
        dst = np.frombuffer(vals, vt, a.size, vt.itemsize * lo).reshape(a.shape)  # made)
        np.copyto(dst, a, casting="unsafe")


def _next_arena(tape):
    """``(arena, spare)``: the value arena for ``tape``'s next generation, and the old one to
    keep as this thread's spare once the tape no longer refers to it (or None).  The old
    arena is reused or kept when only the tape refers to it (a live NumPy view would see it
    rewritten); a retired tape records nothing again, so its arena goes to the thread's
    next tape.  Nothing the tape holds is changed here: Tape.reset swaps it all at once."""
    old = tape.__dict__.get("vals")
    free = old is not None and sys.getrefcount(old) == 3  # the tape's, `old`, the argument
    if tape.__dict__.get("retired"):
        return array("d"), (old if free else None)
    if free and old.typecode == "d" and len(old) <= SPARE_MAX:
        spare, _spare.vals = _spare.vals, None
        # the larger of the two (as giving the old one, then taking the spare, would)
        return (old if spare is None or len(spare) < len(old) else spare), None
    return _take_arena("d"), (old if free else None)


def _give_arena(old):
    """Keep ``old``, which nothing else refers to, as this thread's spare of its typecode."""
    name = _SPARE_NAME[old.typecode]
    if len(old) <= SPARE_MAX:
        spare = getattr(_spare, name)
        if spare is None or len(spare) < len(old):
            setattr(_spare, name, old)


def _take_arena(typecode):
    """This thread's spare arena of ``typecode`` (its contents dead), or a new empty one."""
    name = _SPARE_NAME[typecode]
    buf = getattr(_spare, name)
    setattr(_spare, name, None)
    return buf if buf is not None else array(typecode)


def adjoint_arena(n, dtype=np.float64):
    """``n`` adjoints of ``dtype`` (the arena's) for a sweep, NOT zeroed: the sweep zeroes
    each slot's span when it first reaches it (``_rules.reach_input``), in cache,
    and no one reads an unreached span.  A view of this thread's kept buffer when nothing
    still refers to it (the gradients handed out are copies: engine._grad_at)."""
    if n < _KEEP_BELOW or n > SPARE_MAX:
        return np.empty(n, dtype)
    name = "adj32" if dtype == np.float32 else "adj"
    buf = getattr(_spare, name)
    if buf is None or len(buf) < n or sys.getrefcount(buf) > 3:  # a view of it still lives
        buf = np.empty(n, dtype)
        setattr(_spare, name, buf)
    return buf[:n]
