"""Record once, replay many: trace a function onto its own tape, then evaluate its value
and gradient at new points (one, or a batch spread over all cores) in compiled code.

``trace(f, *args)`` runs ``f`` once on a private tape and returns the ``Traced`` tape:
plain arrays (rows, slot offsets, recorded values, consts, meta) plus which slots hold
the inputs and the output.  Replay overwrites the input slots, runs the compiled forward
interpreter (which also checks every guard row, see ops/control.py) and the same reverse
interpreter as ``backward``: no Python runs per op, and no new function is compiled.

``compile(f)`` keeps a cache of traces per input signature and, for points whose guards
diverge from a trace, follows ``on_divergence``: "retrace" (trace again at such a point
and keep the trace, so a function with k branches costs k traces), "raise", or "mask".
Past ``recompile_limit`` traces of one function (8, as torch.compile's) it warns once,
naming the guard's line, and keeps only the most recently used traces of a signature.
"""
import functools
import gc
import io
import itertools
import math
import os
import random
import sys
import threading
import time
import types
import warnings
import weakref

import numpy as np

from .. import _eager, _kernels, _point, _sweep, creation, dtypes
from .._state import state
from ..arena import WRITES, escaped, note_write
from ..autograd import engine as _engine, graph as _graph
from ..autograd.engine import grad
from ..autograd.function import Function
from ..ops._record import INFERENCE_SAVED
from ..ops.control import GUARD_EQ, STOP_GRAD, eager_notes, no_derivative_error
from ..ops.registry import NAMES, OPS
from ..ops.shape import CAT, GATHER, STACK, VIEW
from ..ops import elementwise as E
from ..ops import reductions as R
from ..ops.strided import BC_ADD, BC_MUL, BC_SUB, BCAST, EXPAND, SQSUM, STRIDED
from ..ops.strided import strided_runs as _strided_runs
from ..tape import CONST, OP_MASK, Tape
from ..tensor import EagerOnlyError, Tensor
from ..viz import listing_lines, tape_stats
from . import fused, gather, lower, second_order, validate
from .captures import captures as _captures, moved as _moved, require_grad as _require_grad
from .captures import with_default_dtype as _with_default_dtype

_MODES = ("retrace", "raise", "mask")
_LIVE = weakref.WeakSet()  # the traces of functions and the compiled fs (_default_changes)


def _default_changes():
    """Before ``set_default_dtype`` changes the default dtype: every trace of a function and
    every compiled f compares it from now on, as f's other state (``captures``)."""
    for obj in list(_LIVE):
        if isinstance(obj, Compiled):
            obj._captured = _with_default_dtype(obj._captured)
            obj._watching = True
        else:
            obj.captured = _with_default_dtype(obj.captured)


dtypes.ON_CHANGE.append(_default_changes)
_SIGNATURES = 64  # input signatures a Compiled keeps traces for (the oldest go first)
RECOMPILE_LIMIT = 8  # traces of one function before a warning (torch.compile's recompile_limit)
_TRACED = weakref.WeakKeyDictionary()  # f -> fresh traces made by retracing, in this process
_TRACED_LOCK = threading.Lock()
# arena values above which one point runs through the batch path (``_make_fast``): the
# point path loads the unwritten arena elements at every call, the batch path keeps its
# buffers' constants.  ADBench GMM, one process, interleaved, medians: d = 2 (78,149
# values) point path 0.89x the batch path's time; d = 10 (846,889) 1.53x, and 1.24x
# since the point path's reverse zeroes its adjoints lazily (_Plan._point_reach; CPU time,
# 48 calls each, bit for bit the same gradient)
POINT_VALUES_MAX = 1 << 17
_CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
_TICK = 1024  # single-point calls counted at once toward fused.FUSE_AFTER (``_point_path``)


class DivergenceError(RuntimeError):
    """A point took another branch than the traced one (on_divergence="raise")."""


class _Draws(RuntimeError):
    """f drew random numbers while tracing (``trace``): replay would repeat the draws."""


def _rng_states():
    """The random generators f may draw from: tapegrad's, NumPy's global one, Python's, and
    the count of draws from any tapegrad Generator (``generator=``: the caller's own)."""
    return (creation._rng.bit_generator.state, np.random.get_state(legacy=False),
            random.getstate(), creation.DRAWS[0])


def _same_states(a, b):
    return a[0] == b[0] and a[2] == b[2] and a[3] == b[3] and \
        a[1]["has_gauss"] == b[1]["has_gauss"] and \
        np.array_equal(a[1]["state"]["key"], b[1]["state"]["key"]) and \
        a[1]["state"]["pos"] == b[1]["state"]["pos"]


_SENTINEL = []  # the states _sentinel_states sets


def _sentinel_states():
    """Set the global generators to fresh states from entropy, for the time f is traced,
    and return them: compared with these, any draw shows, even one of an f that reseeds
    first (``tg.manual_seed(5)`` then dropout leaves the generator, at every call but the
    first, where it stood before: compared with that, no draw showed and replay froze one
    call's draws, silently).  ``_put_back_draws`` puts the caller's states back after.
    Drawn from entropy once a process (~0.8 ms), which no f can seed to."""
    if not _SENTINEL:
        _SENTINEL.append((np.random.PCG64().state, np.random.RandomState().get_state(
            legacy=False), random.Random().getstate()))
    s = (*_SENTINEL[0], creation.DRAWS[0])
    creation._rng.bit_generator.state = s[0]
    np.random.set_state(s[1])
    random.setstate(s[2])
    return s


def saved_inference(tape, rows, grad_slots):
    """After f was traced: raise PyTorch's error where eagerly an op would save a value f
    made under inference_mode (an inference tensor) for backward (``rows``: opcodes masked,
    OP_MASK).  While traced that value records as any other (a stop-gradient copy), so the
    op saw no inference tensor (ops/control.py notes where f made one).  Eagerly
    an op records when grad mode is on and an operand requires grad: that is followed along
    the rows from the slots that require grad (``grad_slots``: f's inputs, tensors from
    outside that require grad), through every row but the stop-gradient ones, over operands
    a and b (an op of more operands is looked at no further: never a false error).  An
    EagerOnlyError: called with tensors, f runs eagerly (and raises, or not, as itself)."""
    inf, hidden = tape.__dict__.get("inference"), tape.__dict__.get("unrecorded", ())
    if not inf:
        return
    rg = set(grad_slots)
    for op, o, a, b, _ in rows.tolist():
        if o < 0 or op == STOP_GRAD or o in hidden:
            continue
        ra, rb = a in rg, b in rg
        if not (ra or rb):
            continue
        rg.add(o)
        d = OPS.get(op)
        saves = d.saves if d is not None else ""
        if a in inf and ("a" in saves or "A" in saves and rb) or \
                b in inf and ("b" in saves or "B" in saves and ra):
            raise EagerOnlyError(INFERENCE_SAVED)


def _put_back_draws(states, tape):
    """Put every generator f drew from while it was traced back where it stood before
    (``_rng_states`` then, the Generators and SobolEngines ``tape`` noted at their first
    draw): a trace that fails leaves them as they were, and f, when it runs eagerly instead
    (compile(f) called with tensors), draws what a plain call of f draws."""
    creation._rng.bit_generator.state = states[0]
    np.random.set_state(states[1])
    random.setstate(states[2])
    for g, st in tape.__dict__.get("drawn", {}).values():  # (Generators, SobolEngines)
        g._restore(st)


def _fresh(t):
    """True while every tensor f read besides its inputs (a closure's, a Module's
    parameters) holds the values its trace replays (``Traced.watch``): after a write into
    any tensor (``WRITES``: in-place ops, optimizer steps) they are compared bit for bit."""
    if t.captured and _moved(t.captured):
        return False
    n = WRITES.n
    if n == t._writes and not t._escaped:  # (memory NumPy holds: its writes are never counted)
        return True
    for s, ref in t.watch:
        u = ref()
        if u is None:  # gone (a closure's name rebound, a Module's parameter replaced): f
            return False  # reads another tensor now, whose values this trace does not hold
        now = np.asarray(u._data, np.float64).reshape(-1)
        have = t.vals0[t.offs[s]:t.offs[s + 1]]
        if now.shape != have.shape or not np.array_equal(now.view(np.int64),
                                                         have.view(np.int64)):
            return False
    if not t._escaped:  # (memory NumPy holds too: its writes are never counted)
        t._writes = n
    return True


def _off_branch(V, G, bad):
    """``Traced.run``'s result, NaN at the points off the traced branch (``bad``): the
    interpreter gave the traced branch's value and gradient there, a fused kernel, which
    stops at the failed guard, V as np.empty made it (a loaded trace's 4.9e-323: the tiers
    differed, tests/fuzz_fused_loaded.py)."""
    if bad.any():
        off = bad != 0
        V[off] = np.nan
        if len(G) == len(bad):  # (not _NO_GRAD)
            G[off] = np.nan
    return V, G, bad


def _watched_died(_ref):
    """A tensor a trace holds as a constant is gone: count a write, so that the next call
    of every watching trace looks (``_fresh``) and finds it stale."""
    note_write()


def _as_array(x):
    """Inputs as float64 arrays (NaN and inf replay as IEEE says, like any other value)."""
    a = np.asarray(x._data if isinstance(x, Tensor) else x)
    if a.dtype.kind not in "biuf":
        raise TypeError(f"replay inputs must be real numbers, got an array of dtype {a.dtype}")
    return a.astype(np.float64, copy=False)


class _PerThread(threading.local):
    """A Traced's or Compiled's state per thread: ``mask``, this thread's last
    on_divergence="mask" result (None when none diverged).  ``kept`` turns True once any
    thread keeps a mask (of any object): until then a single point, which clears this
    thread's, has nothing to clear (the write cost ~0.07 us of a ~1.8 us point)."""

    kept = False
    _mask = None

    @property
    def mask(self):
        return self._mask

    @mask.setter
    def mask(self, m):
        if m is not None:
            _PerThread.kept = True
        self._mask = m


class _VectorOutputs:
    """Jacobians, vector-Jacobian and Jacobian-vector products of a (vector-valued) f by
    replay, at one point or at B points: shared by ``Traced`` and ``Compiled``, which give
    ``_seeded_run(args, batch, seeds, on_divergence) -> (trace, V, G)`` (``seeds(trace, B)``
    makes the (B or 1, k, m) reverse seeds; G is (B, k, n), ``Traced.run_seeded``).

    All four run one forward per point and one reverse sweep over k seeds side by side
    (``_sweep._seeded_blocks``).  The Jacobian takes k = m (the output's elements); a
    vector-Jacobian product k = 1; a Jacobian-vector product is the Jacobian's columns
    contracted with the tangent, so it costs m reverse sweeps per point (the tape has no
    forward-mode rules), as the Jacobian does.
    """

    def jacobian(self, *args, on_divergence=None):
        """The Jacobian at one point: (*out_shape, *input_shape), one per argnum (a tuple
        when several), as ``torch.func.jacrev``.

        >>> import numpy as np, tapegrad as tg
        >>> tg.compile(lambda x: x * x).jacobian(np.array([1.0, 2.0]))
        array([[2., 0.],
               [0., 4.]])
        """
        t, _, G = self._seeded_run(args, False, _unit_seeds, on_divergence)
        if G.shape[1] < t.out_size:  # (an output too large for one identity: the rest)
            G = _seed_rows(t, G, lambda lo: self._seeded_run(
                args, False, functools.partial(_unit_seeds, lo=lo), on_divergence)[2])
        return t._split_seeded(G, batched=False)

    def jacobian_batch(self, *Xs, on_divergence=None, index=None, out=None):
        """Jacobians at B points: (B, *out_shape, *input_shape) per argnum (a tuple when
        several), as ``torch.func.vmap(torch.func.jacrev(f))``; each X is (B, *input_shape).

        ``index`` (one entry per input: None, or an integer array (B,)): point b reads row
        ``index[j][b]`` of input j, then (N_j, *input_shape): shared parameter rows are not
        gathered into stacked inputs first.  ``out = (data, start, mask)`` writes the
        blocks' entries where ``mask`` (m, n_wrt) is True into ``data`` (1-d float64, a CSR
        matrix's ``.data``), row i of point b's block from ``data[start[b, i]]`` on, its
        kept entries in column order; returns ``data``.  Both: bit for bit the blocks of
        the plain call (tapegrad/replay/gather.py; docs/replay.md).

        >>> import numpy as np, tapegrad as tg
        >>> tg.compile(lambda x: x * x).jacobian_batch(np.array([[1.0, 2.0]])).shape
        (1, 2, 2)
        >>> rows = np.array([[1.0, 2.0], [3.0, 4.0]])
        >>> tg.compile(lambda x: x * x).jacobian_batch(rows, index=(np.array([1, 1, 0]),))[:, 0]
        array([[6., 0.],
               [6., 0.],
               [2., 0.]])
        """
        t, _, G = self._gathered(Xs, index, out, on_divergence)
        return t._split_seeded(G, batched=True) if out is None else G

    def _gathered(self, Xs, index, out, on_divergence, seeds=None):
        """``jacobian_batch``, ``jvp_batch`` (``seeds`` the unit seeds) and ``vjp_batch``
        (one seed row per point): (trace, V (B, m), G (B, k, n)), or with ``out`` (trace,
        None, data).  With ``index`` or ``out`` (tapegrad/replay/gather.py) by the fused
        kernel in chunks once it and the helpers are ready, or by the direct kernel for
        out='s mask; without, by the "dense" or "vjp" direct kernel once ready
        (``gather.run_dense``: no stacked copy of the inputs, only the argnums' columns
        computed); else by NumPy and the usual replay (the seeded kernel or the
        interpreter), bit for bit the same; diverging points resolved by
        ``on_divergence`` as ever."""
        tapes, mode, limit = self._gather_tapes(Xs, index, on_divergence)
        t = tapes[0]
        spec = gather.Spec(t, [_as_array(x) for x in Xs], index, out)
        U = (seeds or _unit_seeds)(t, spec.B)
        plain = index is None and out is None  # (the direct kernel of all rows may run)
        if U.shape[1] == t.out_size or seeds is not None:
            kind = ("vjp" if seeds else "dense") if plain else "gather"
            V, G = self._gathered_rows(tapes, spec, U, mode, limit, kind)
            return t, V, (G if spec.out is None else spec.out[0])
        # an output too large for one identity: the unit seeds some rows at a time, each
        # chunk's blocks into G (B, m, n) or, with out=, to data by NumPy
        dest, spec.out, spec.offsets = spec.out, None, None
        VG = [None, U]

        def run(lo):  # (V the same at every chunk: the last one's kept)
            VG[:] = self._gathered_rows(tapes, spec, _unit_seeds(t, spec.B, lo), mode, limit,
                                        None if plain else "gather")
            return VG[1]
        G = _seed_rows(t, None, run, spec.B, dest)
        return t, VG[0], (G if dest is None else dest[0])

    def _gathered_rows(self, tapes, spec, U, mode, limit, kind):
        """``_gathered``'s run at the seeds U (B or 1, k, m): (V (B, m), G (B, k, n)), or
        with ``spec.out`` (None, None), the blocks in its data; ``kind`` ("dense", "vjp"):
        by that direct kernel where it is ready (``gather.run_dense``, all m rows: the
        unit seeds' when they are), "gather": by the fused kernel (``gather.run``: V not
        written), None: by ``run_seeded`` (the seeded fused kernel or the interpreter)."""
        t = tapes[0]
        m, n, B = t.out_size, int(t._cols[-1]), spec.B
        G = _recycled((B, U.shape[1], n), "jacobian_batch", 0) if spec.out is None else None
        V = _recycled((B, m), "jacobian_batch", 1) if spec.out is None else None
        bad = np.zeros(B, np.int64)
        if not B or kind is None:
            ran = False
        elif kind != "gather":
            ran = gather.run_dense(t, spec, kind, U, V, G, bad)
        else:
            ran = gather.run(t, spec, m, n, U, G, bad)
        if ran:
            mask = None
            if bad.any():
                if mode == "raise":
                    _resolve(tapes, t.fn, None, None, None, bad, True, mode)
                pts = np.nonzero(bad)[0]
                Vb, Gb, mb = _seeded(tapes, self.fn, spec.stacked(pts),
                                     U[pts] if len(U) > 1 else U, mode, limit)
                if G is not None:
                    V[pts], G[pts] = Vb, Gb
                else:
                    data, start, runs = spec.out
                    gather.scatter_numpy((data, start[pts], runs), Gb)
                if mb is not None:
                    mask = np.ones(B, bool)
                    mask[pts] = mb
        else:
            Vs, Gs, mask = _seeded(tapes, self.fn, spec.stacked(), U, mode, limit)
            if G is None:
                gather.scatter_numpy(spec.out, Gs)
            else:
                V, G = Vs, Gs
        self._local.mask = mask
        return V, G

    def vjp_batch(self, *Xs, v, on_divergence=None):
        """(f at each point (B, *out_shape), v[b] times the Jacobian at point b, shaped as
        each argnum's input (B, *input_shape), a tuple when several), as
        ``torch.autograd.functional.vjp`` per point; v is (B, *out_shape)."""
        def seeds(t, B):
            U = _as_array(v)
            if U.shape != (B, *t.out_shape):
                raise ValueError(f"vjp_batch: v has shape {U.shape}; f's output has shape "
                                 f"{t.out_shape} at each of the {B} points, so give v of shape "
                                 f"{(B, *t.out_shape)}")
            return np.ascontiguousarray(U.reshape(B, 1, t.out_size))
        t, V, G = self._gathered(Xs, None, None, on_divergence, seeds)
        return V.reshape(len(V), *t.out_shape), t._split(G[:, 0], batched=True)

    def jvp_batch(self, *Xs, v, on_divergence=None):
        """(f at each point (B, *out_shape), the Jacobian at point b times v[b], shape
        (B, *out_shape)), as ``torch.autograd.functional.jvp`` per point; v holds one
        tangent (B, *input_shape) per argnum (a tuple when several).  By the Jacobian's
        rows: m reverse sweeps per point, then an (m, n) product."""
        t, V, G = self._gathered(Xs, None, None, on_divergence)
        vs = v if isinstance(v, (tuple, list)) else (v,)
        if len(vs) != len(t.argnums):
            raise ValueError(f"jvp_batch: v holds {len(vs)} tangents, but f is "
                             f"differentiated with respect to {len(t.argnums)} inputs "
                             f"(argnums={t.argnums})")
        out = np.zeros(G.shape[:2])
        for j, vj in zip(t.argnums, vs):
            vj = _as_array(vj)
            want = (len(V), *t.in_shapes[j])
            if vj.shape != want:
                raise ValueError(f"jvp_batch: the tangent of input {j} has shape {vj.shape}; "
                                 f"give {want} (one per point, shaped as the input)")
            cols = slice(t._cols[j], t._cols[j + 1])
            out += np.einsum("bmn,bn->bm", G[:, :, cols], vj.reshape(len(V), -1))
        shape = (len(V), *t.out_shape)
        return V.reshape(shape), out.reshape(shape)


def _checked_mode(mode):
    if mode not in _MODES:
        raise ValueError(f"on_divergence must be one of {_MODES}, got {mode!r}")
    return mode


UNIT_SEED_BYTES = 1 << 26  # the Jacobian's unit seeds one sweep takes at most (64 MB)


def _unit_seeds(t, B, lo=0):
    """The Jacobian's seeds from row ``lo``: unit vectors, the same at every point (1, k,
    m), k = m where the identity fits in UNIT_SEED_BYTES (an output of 10^5 elements would
    ask for 80 GB), else the rows that fit (``_seed_rows`` runs the rest).  The Jacobian
    itself (B, m, n) must fit in memory: refused before any point runs."""
    m = t.out_size
    if lo == 0:
        _fits((B, m, int(t._cols[-1])), "jacobian")
    k = min(m - lo, max(1, UNIT_SEED_BYTES // (8 * max(m, 1))))
    U = np.zeros((1, k, m))
    U[0, np.arange(k), lo + np.arange(k)] = 1.0
    return U


def _seed_rows(t, G0, run, B=None, dest=None):
    """The Jacobian (B, m, n) of an output whose unit seeds are taken some rows at a time
    (``_unit_seeds``): G0 holds its first rows (None: none yet), ``run(lo)`` gives the rows
    from lo; with ``dest`` (``Spec.out``: data, start, runs) each chunk is written there
    instead, and None returned.  Each seed row is swept on its own, so the chunks give the
    bits one identity gives."""
    m, n = t.out_size, int(t._cols[-1])
    B = len(G0) if G0 is not None else B
    G = _empty((B, m, n), "jacobian") if dest is None else None
    lo = 0
    if G0 is not None:
        lo = G0.shape[1]
        G[:, :lo] = G0
    while lo < m:
        Gc = run(lo)
        hi = lo + Gc.shape[1]
        if dest is None:
            G[:, lo:hi] = Gc
        else:
            data, start, runs = dest
            mine = runs[(runs[:, 0] >= lo) & (runs[:, 0] < hi)] - [lo, 0, 0, 0]
            gather.scatter_numpy((data, start[:, lo:hi], mine), Gc)
        lo = hi
    return G


def _empty(shape, what):
    """np.empty(shape) float64, once it ``_fits``."""
    _fits(shape, what)
    return np.empty(shape)


RECYCLE_BYTES = (1 << 20, 64 << 20)  # fresh batch outputs of these sizes are recycled
_HELD = threading.local()  # this thread's recycled outputs: {slot: array} (``_recycled``)


def _recycled(shape, what, slot):
    """np.empty(shape) float64 for a batch call's fresh output (``_fits`` first), or the
    array of that shape this thread returned from an earlier call, once nothing else holds
    it (no array, view or buffer of it is alive: its reference count is our own).  A fresh
    array of megabytes comes from the OS page by page (first-touch faults and zeroing), and
    the allocator gives it back once the call's temporaries free enough: ADBench's ba1,
    the plain ``jacobian_batch`` (a (31843, 3, 17) result, 13 MB) took ~2,000 page faults a
    call beside the caller's gathering and CSR copy (benchmarks/bench_ba.py).  Kept: one
    array per ``slot`` and thread, of RECYCLE_BYTES, so the memory held stays bounded."""
    _fits(shape, what)
    held = _HELD.__dict__.setdefault("arrays", {})
    a = held.get(slot)
    # (references: the dict's, a's and getrefcount's own; any view holds one more)
    if a is not None and a.shape == shape and sys.getrefcount(a) == 3:
        return a
    a = np.empty(shape)
    if RECYCLE_BYTES[0] <= a.nbytes <= RECYCLE_BYTES[1]:
        held[slot] = a
    return a


def _fits(shape, what):
    """A float64 array of ``shape`` fits in this machine's memory, or is refused with
    PyTorch's words first (the Jacobian of a loaded trace's 10^5 outputs by 10^5 inputs
    asks for 80 GB: refused, not a MemoryError or the swap)."""
    nbytes = 8 * math.prod(int(d) for d in shape)  # (Python ints: no overflow)
    if nbytes > PHYS_BYTES:
        raise RuntimeError(f"{what}: not enough memory: you tried to allocate {nbytes} bytes "
                           f"(a float64 result of shape {tuple(shape)}), more than this "
                           f"machine's {PHYS_BYTES} bytes; ask for fewer points or outputs "
                           "(vjp_batch gives v times the Jacobian without it)")


class Traced(_VectorOutputs):
    """A recorded function: value, gradient and their batch versions by replay."""

    # fused.py's state of this tape (set on the instance: "queued", a Kernel, or why not),
    # read here by the single-point path as a plain attribute: a kernel the background
    # compile installs is taken at the next call (``_point_path``)
    _fused = None
    grad_mode = True  # the grad mode f saw while traced (trace's grad_mode)
    reads_mode = False  # f read it (torch.is_grad_enabled()) while traced

    def __init__(self, rows, offs, vals0, consts, meta, in_slots, in_shapes, out_slot,
                 argnums, guards, fn=None, out_shape=(), no_derivative=()):
        self.rows = rows
        self.offs = offs
        self.vals0 = vals0
        self.consts = consts
        self.meta = meta
        self.in_slots = np.asarray(in_slots, np.int64)
        self.in_shapes = [tuple(s) for s in in_shapes]
        self.out_slot = int(out_slot)
        self.out_shape = tuple(out_shape)
        self.out_size = int(np.prod(self.out_shape, dtype=np.int64))
        self.argnums = tuple(argnums)
        self.guards = list(guards)
        self.fn = fn
        sizes = [int(np.prod(s)) for s in self.in_shapes]
        self.in_elems = np.concatenate(
            [np.arange(offs[s], offs[s] + n) for s, n in zip(self.in_slots, sizes)]
            or [np.zeros(0, np.int64)]).astype(np.int64)
        self._cols = np.cumsum([0, *sizes])
        computed = np.zeros(len(offs) - 1, bool)
        computed[rows[:, 1][rows[:, 1] >= 0]] = True
        computed[self.in_slots] = True
        self.const_slots = np.nonzero(~computed)[0].astype(np.int64)
        self._local = _PerThread()
        self._fast = _first_point  # the single-point fast path (``_point_path``)
        self._single = len(self.in_shapes) == 1  # (one input: _fast takes it as it is)
        self.reads_grad = False  # f read tensors requiring grad besides its inputs (trace)
        # (slot, weakref) of the tensors f read besides its inputs, whose values replay
        # holds as constants (``_fresh``), WRITES.n when last seen so, and whether one
        # shares memory with NumPy (then compared at every call)
        self.watch, self._writes, self._escaped = [], WRITES.n, False
        self.captured = ()  # the numbers and arrays f read from outside (``_captures``)
        # (slot, "Type: message") of values an op without a derivative made from values
        # eager would have requiring grad: a gradient whose sweep reaches one raises that
        # error, as eager backward does (ops/control.py ``eager_notes``; read by ``_Plan``)
        self.no_derivative = list(no_derivative)

    def _loses_grad(self):
        """Whether replay would lose a gradient that f sends eagerly: f read tensors that
        require grad besides its inputs while traced (``reads_grad``), or one it read as a
        constant, or one f's code names (``_captures``), requires grad now
        (``W.requires_grad_()`` after the trace)."""
        return self.reads_grad or any((u := r()) is not None and u._rg for _, r in self.watch) \
            or _require_grad(self.captured)

    def _check_fresh(self):
        if (self.watch or self.captured) and not _fresh(self):
            raise RuntimeError(
                "this trace holds the values that tensors, numbers and arrays f read besides "
                "its inputs (a closure's, a global, a Module's parameters) had when it was "
                "traced, and one has changed since (rebound, an in-place write, an optimizer "
                "step): trace f again "
                "(tapegrad.compile(f) retraces by itself), or pass that value as an input")

    @property
    def mask(self):
        """This thread's last ``on_divergence="mask"`` result: True where a point followed
        the traced branches (None when none diverged).  Per thread: calls from several
        threads each see their own."""
        return getattr(self._local, "mask", None)

    # -- single points --------------------------------------------------------------
    def value(self, *args):
        """f at one point."""
        if self.watch or self.captured:
            self._check_fresh()
        r = self._point(args, False)
        if r is not None:
            if _PerThread.kept:
                self._local.mask = None
            return r[0]
        return self._batch(self._stack(args, batch=False), grad=False)[0][0]

    def grad(self, *args):
        """Gradient at one point (a tuple when several argnums)."""
        return self.value_and_grad(*args)[1]

    def value_and_grad(self, *args):
        """(f, gradient) at one point."""
        if self.watch or self.captured:
            self._check_fresh()
        r = self._fast(self, args[0], True) if len(args) == 1 and self._single else \
            self._point(args, True)
        if r is not None:
            if _PerThread.kept:
                self._local.mask = None
            return r
        V, G = self._batch(self._stack(args, batch=False), grad=True)
        return V[0], self._split(G, batched=False)

    def _point(self, args, grad):
        """The single-point fast path: (value, gradient or None) from one compiled call
        with the plan packed once per trace (``_Plan.packed``), or None where it does not
        apply (inputs other than C-contiguous aligned writable float64 arrays of the traced
        shapes, a vector output, a diverging guard, a row without a compiled rule): the
        general path then answers, with its checks, messages and on_divergence.  ~0.5 us of
        Python beside the compiled call (issue 21; benchmarks/bench_single_point.py).
        ``_fast`` takes f's one input as given (it checks it), or several inputs flat."""
        if len(args) == 1 and self._single:
            return self._fast(self, args[0], grad)
        if len(args) != len(self.in_shapes) or not all(
                _plain_f8(a, shape) for a, shape in zip(args, self.in_shapes)):
            return None
        return self._fast(self, np.concatenate([a.reshape(-1) for a in args]), grad)

    def _make_fast(self):
        """The single-point fast path (``_point_path``), or False where it does not apply.

        False too above POINT_VALUES_MAX arena values: ``_replay_point`` copies the arena
        and allocates the adjoints at every call, fresh pages at that size (ADBench's GMM
        at d = 32, K = 100, 2.7e7 values: 430 ms a gradient, against 121 ms through the
        batch path, whose buffers are kept between calls; bit for bit the same result)."""
        plan = self._plan if "_plan" in self.__dict__ else self._make_plan()
        if self.out_size != 1 or plan.rev_error is not None or \
                len(plan.vals0) > POINT_VALUES_MAX:
            return False
        n = len(self.in_elems)
        shape = self.in_shapes[0] if self._single else (n,)
        return _point_path(plan.packed(), n, shape, self._single and len(shape) == 1,
                           plan.point_need())

    def _split_point(self, g):
        """The flat gradient g as ``value_and_grad``'s gradient (per argnum)."""
        parts = []
        for j in self.argnums:
            shape = self.in_shapes[j]
            gj = g[self._cols[j]:self._cols[j + 1]]
            parts.append(float(gj[0]) if shape == () else gj.reshape(shape))
        return parts[0] if len(parts) == 1 else tuple(parts)

    # -- batches --------------------------------------------------------------------
    def value_batch(self, *Xs, on_divergence="raise"):
        """f at each of B points: each X has shape (B, *input_shape)."""
        if _is_dask(Xs):
            return _on_dask(self, Xs, False, on_divergence=on_divergence)[0]
        return self._batch(self._stack(Xs, batch=True), grad=False,
                           on_divergence=on_divergence)[0]

    def grad_batch(self, *Xs, on_divergence="raise", out=None):
        """Gradients at each of B points, shape (B, *input_shape) per argnum."""
        return self.value_and_grad_batch(*Xs, on_divergence=on_divergence, out=out)[1]

    def value_and_grad_batch(self, *Xs, on_divergence="raise", out=None, progress=False):
        """(values (B,), gradients (B, *input_shape)) at each of B points, on all cores.

        ``out`` may give preallocated ``(V, G)`` with G of shape (B, total input size);
        ``progress=True`` prints a progress bar (for long batches).
        """
        if _is_dask(Xs):  # lazy dask arrays, chunked like X (tapegrad/replay/dask.py)
            return _on_dask(self, Xs, True, on_divergence=on_divergence, out=out,
                            progress=progress)
        V, G = self._batch(self._stack(Xs, batch=True), grad=True, on_divergence=on_divergence,
                           out=out, progress=progress)
        return V, self._split(G, batched=True)

    # -- the engine -----------------------------------------------------------------
    def _stack(self, args, batch):
        if len(args) != len(self.in_shapes):
            raise TypeError(f"traced function takes {len(self.in_shapes)} positional inputs, "
                            f"got {len(args)}")
        cols = []
        B = None
        for i, (a, shape) in enumerate(zip(args, self.in_shapes)):
            a = _as_array(a)
            lead = a.shape[:1] if batch else ()
            if batch and a.ndim == 0:
                raise ValueError(f"batch input {i} must have a leading batch dimension "
                                 f"(shape (B, *{shape})), got a scalar")
            if a.shape[len(lead):] != shape:
                want = f"(B, {', '.join(map(str, shape))})" if batch else str(shape)
                raise ValueError(f"input {i} has shape {a.shape}; this trace was recorded for "
                                 f"shape {shape}, so give {want}, or compile() to retrace")
            n = a.shape[0] if batch else 1
            if B is not None and n != B:
                raise ValueError(f"batch inputs disagree on the number of points: {B} and {n}")
            B = n
            cols.append(a.reshape(n, self._cols[i + 1] - self._cols[i]))  # (np.prod: ~1.5 us)
        if not cols:
            return np.zeros((1, 0))
        X = np.concatenate(cols, axis=1) if len(cols) > 1 else cols[0]
        # a read-only array (np.broadcast_to, a memory map) is another Numba signature: a copy
        # costs far less than compiling the kernel again
        return X if X.flags.c_contiguous and X.flags.writeable else np.array(X, order="C")

    def _split(self, G, batched):
        parts = []
        for j in self.argnums:
            g = G[:, self._cols[j]:self._cols[j + 1]]
            shape = self.in_shapes[j]
            parts.append(g.reshape((len(G), *shape)) if batched else g[0].reshape(shape))
        if not batched:
            parts = [float(p) if p.ndim == 0 else p for p in parts]
        return parts[0] if len(parts) == 1 else tuple(parts)

    def _unstack(self, row):
        """One point's flat values back into per-argument arrays."""
        return [row[self._cols[j]:self._cols[j + 1]].reshape(shape)
                for j, shape in enumerate(self.in_shapes)]

    def run(self, X, grad, out=None, progress=False, serial=False, bad=None):
        """Replay at the rows of X (B, m): returns V (B,), G (B, m) and bad (B,) (nonzero
        at the points off the traced branch, whose V and G are NaN).

        With ``progress``, the blocks run in 100 steps and a bar is printed to stderr;
        ``serial`` keeps the work in this thread (dask's workers bring their own).
        """
        if self.watch or self.captured:
            self._check_fresh()
        B = len(X)
        V = np.empty(B) if out is None else out[0]
        G = (np.empty((B, X.shape[1])) if out is None else out[1]) if grad else _NO_GRAD
        bad = np.zeros(B, np.int64) if bad is None else bad
        plan = self._plan if "_plan" in self.__dict__ else self._make_plan()
        if grad and plan.rev_error is not None:
            self._no_reverse(plan.rev_error)
        k = None if progress else fused.kernel(self, B)  # once compiled (replay/fused.py)
        if k is not None and k.run(X, V, G, bad, serial):
            return _off_branch(V, G, bad)
        # (a batch smaller than a block gets buffers of its own size: one point's call
        # reserved 8 points' arenas of values and adjoints, kept by the thread after)
        block = min(_block(len(plan.vals0), len(plan.fwd) + len(plan.rev), B), max(B, 1))
        nblocks = (B + block - 1) // block
        args = (plan.fwd, plan.rev, plan.offs, plan.vals0, self.consts, plan.meta, plan.fill,
                plan.in_elems, plan.out_slot, X, V, G, bad, block)
        if not progress:
            _run_blocks(args, 0, nblocks, serial)
            return _off_branch(V, G, bad)
        bar = _Progress(B)
        steps = np.linspace(0, nblocks, 101).astype(int)
        for lo, hi in zip(steps[:-1], steps[1:]):
            _run_blocks(args, lo, hi, serial)
            bar.show(min(B, hi * block))
        return _off_branch(V, G, bad)

    def _make_plan(self):
        plan = _Plan(self)
        if plan.short_runs and len(plan.vals0) < FOLD_SHORT_VALUES:  # (see FOLD_SHORT_RUN)
            plan = _Plan(self, min_run=FOLD_SHORT_RUN)
        self._plan = plan
        return plan

    def _fused_plan(self):
        """The plan fused kernels are generated from: broadcasts not folded (their
        templates know EXPAND rows, not the interpreters' BCAST rows)."""
        if "_plan_unfolded" not in self.__dict__:
            plan = self._plan if "_plan" in self.__dict__ else self._make_plan()
            self._plan_unfolded = _Plan(self, fold=False) if np.isin(plan.fwd[:, 0],
                                                                     (BCAST, SQSUM)).any() \
                else plan
        return self._plan_unfolded

    def compile_fused(self, wait=True, mask=None):
        """Compile this tape's fused kernel now (``wait``: until it is ready); returns its
        status, ``fused_status()`` (tapegrad/replay/fused.py); a vector output's also
        readies ``jacobian_batch``'s index/out kernels (tapegrad/replay/gather.py), and
        ``mask`` (of ``out=(data, start, mask)``) that call's direct kernel."""
        return _fused_request(self, wait, mask)

    def fused_status(self):
        """'fused', 'queued', 'interpreted', 'disabled', or 'ineligible: why'."""
        return fused.status(self)

    def _batch(self, X, grad, on_divergence="raise", out=None, progress=False):
        if on_divergence not in _MODES:
            raise ValueError(f"on_divergence must be one of {_MODES}, got {on_divergence!r}")
        V, G, self._local.mask = _evaluate([self], self.fn, X, grad, on_divergence, out=out,
                                           progress=progress)
        return V, G

    def run_seeded(self, X, U, serial=False):
        """Replay at the rows of X (B, n) with the output's m elements seeded by U (B or 1,
        k, m): V (B, m), G (B, k, n) (row j of U[b] times the Jacobian at point b) and bad
        (B,).  k = 0 replays the values only."""
        if self.watch or self.captured:
            self._check_fresh()
        plan = self._plan if "_plan" in self.__dict__ else self._make_plan()
        k = U.shape[1]
        if k and plan.rev_error is not None:
            self._no_reverse(plan.rev_error)
        B = len(X)
        V = np.empty((B, self.out_size))
        G = _empty((B, k, X.shape[1]), "jacobian")
        bad = np.zeros(B, np.int64)
        f = fused.kernel(self, B)  # once compiled (replay/fused.py)
        if f is not None and f.run_seeded(X, U, V, G, bad, serial):
            return V, G, bad
        # the seeds a few at a time: a block's buffers hold block x k arenas of values and
        # adjoints, kept by each thread (a trace of 3,000 outputs of one input, 12,000
        # values, took 530 MB for its Jacobian: a loaded file's 10^4 outputs, 6 GB)
        step = max(1, SEED_VALUES // (8 * max(len(plan.vals0), 1)))
        for lo in range(0, k, step) if k > step else (0,):
            Uc = np.ascontiguousarray(U[:, lo:lo + step]) if k > step else U
            Gc = np.empty((B, Uc.shape[1], X.shape[1])) if k > step else G
            # (at most B: the buffers hold block x k arenas, gigabytes for a sparse
            # Hessian's one point of 10^5 variables and its colours at the minimum block)
            block = min(_block(len(plan.vals0) * max(Uc.shape[1], 1),
                               len(plan.fwd) + len(plan.rev), B), max(B, 1))
            args = (plan.fwd, plan.rev, plan.offs, plan.vals0, self.consts, plan.meta,
                    plan.fill, plan.in_elems, plan.out_elems, X, Uc, V, Gc, bad, block)
            _run_blocks(args, 0, (B + block - 1) // block, serial, lanes=Uc.shape[1])
            if Gc is not G:
                G[:, lo:lo + step] = Gc
        return V, G, bad

    def _gather_tapes(self, Xs, index, on_divergence):
        return [self], _checked_mode("raise" if on_divergence is None else on_divergence), None

    def _seeded_run(self, args, batch, seeds, on_divergence):
        mode = _checked_mode("raise" if on_divergence is None else on_divergence)
        X = self._stack(args, batch=batch)
        V, G, self._local.mask = _seeded([self], self.fn, X, seeds(self, len(X)), mode)
        return self, V, G

    def _split_seeded(self, G, batched):
        """G (B, m, n) as (B, *out_shape, *input_shape) per argnum (without B if not
        batched)."""
        parts = []
        for j in self.argnums:
            g = G[:, :, self._cols[j]:self._cols[j + 1]]
            g = g.reshape((len(G), *self.out_shape, *self.in_shapes[j]))
            parts.append(g if batched else g[0])
        return parts[0] if len(parts) == 1 else tuple(parts)

    @staticmethod
    def _no_reverse(op):
        if isinstance(op, str):  # ("Type: message", ops/control.eager_notes): eager's error
            raise no_derivative_error(op)
        raise NotImplementedError(f"replay: {NAMES.get(op, op)} (opcode {op}) has no "
                                  "compiled reverse rule, so its gradient cannot be "
                                  "replayed; use value_batch, or eager backward()")

    # -- inspection, saving ---------------------------------------------------------
    def stats(self):
        """Sizes of the tape (for pytest-benchmark's extra_info): one implementation with
        ``Tape.stats`` (viz.tape_stats)."""
        nbytes = sum(a.nbytes for a in (self.rows, self.offs, self.vals0, self.consts,
                                        self.meta))
        return tape_stats(self.rows, len(self.offs) - 1, len(self.vals0), nbytes,
                          len(self.guards), self.meta)

    def listing(self):
        """The rows as a Wengert list, ``v7 = mul(v3, v5)  [3]  MulBackward0`` (as
        ``print(tape)``; sizes where the trace keeps no shape)."""
        shapes = {int(s): sh for s, sh in zip(self.in_slots, self.in_shapes)}
        inputs = set(shapes)
        body = listing_lines(self.rows, self.offs, self.consts, self.meta, shapes.get,
                             lambda s: "input" if s in inputs else "const")
        head = ", ".join(f"v{s}{list(sh)}" for s, sh in zip(self.in_slots, self.in_shapes))
        return "\n".join([f"# inputs: {head}", *body, f"# output: v{self.out_slot}"])

    def __repr__(self):
        st = self.stats()
        return (f"<tapegrad.Traced: {st['rows']} rows, {st['slots']} slots, inputs "
                f"{self.in_shapes}, {st['guards']} guards, {st['bytes']} bytes>")

    _ARRAYS = ("rows", "offs", "vals0", "consts", "meta", "in_slots")

    def save(self, path):
        """Save as plain arrays (.npz: no pickle, no code), with the gradient at the traced
        point, which ``load`` checks.  The safe format for traces from others."""
        if any(len(s) > validate.MAX_DIMS for s in self.in_shapes):
            raise ValueError(f"save: inputs of more than {validate.MAX_DIMS} dims cannot be "
                             "saved")
        extra = {"out_shape": np.array(self.out_shape, np.int64)}
        if self.no_derivative:
            extra["no_derivative"] = np.array(validate.saved_notes(self.no_derivative), str)
        if self._make_plan().rev_error is None and self.out_size == 1:
            X = np.ascontiguousarray(self.vals0[self.in_elems][None, :])
            extra["grad0"] = self.run(X, grad=True)[1][0]
        arrays = dict({k: getattr(self, k) for k in self._ARRAYS},
                      in_shapes=np.array([list(s) + [-1] * (validate.MAX_DIMS - len(s))
                                          for s in self.in_shapes]
                                         or np.zeros((0, validate.MAX_DIMS)), np.int64),
                      out_slot=np.int64(self.out_slot), argnums=np.array(self.argnums, np.int64),
                      guards=np.array([validate.short_name(g) for g in self.guards], dtype=str),
                      format=np.int64(validate.FORMAT),
                      **extra)
        np.savez(path, digest=validate.digest(arrays), **arrays)

    _STATE = ("rows", "offs", "vals0", "consts", "meta", "in_slots", "in_shapes", "out_slot",
              "argnums", "guards", "out_shape")

    def __getstate__(self):
        # arrays only: functions are code, the plan and thread state are rebuilt
        d = {k: getattr(self, k) for k in self._STATE}
        d["guards"] = [validate.short_name(g) for g in self.guards]  # (as save keeps them)
        d["no_derivative"] = validate.saved_notes(self.no_derivative)
        return d

    def __setstate__(self, d):
        """Unpickling: the fields are checked as ``load`` checks them.  Pickle itself runs
        whatever code its file names, so unpickle traces from trusted sources only; the
        .npz files of ``save``/``load`` are the safe format."""
        if not isinstance(d, dict):
            raise ValueError(f"trace: a pickled Traced holds a dict, got {type(d).__name__}")
        fields, work = validate.check_work(d, validate.UNPICKLE_MAX_BYTES.get())
        self.__init__(**fields)
        validate.check_traced_point(self, None, work)


def load(path, *, max_bytes=validate.MAX_BYTES):
    """A Traced tape saved with ``Traced.save``.

    Safe for files from anyone: no pickle, nothing executed, and every field is checked
    before compiled code sees it (``replay/validate.py``): a damaged or crafted file raises
    ``ValueError`` naming the field, never reads or writes out of bounds.  ``max_bytes``
    bounds what compressed members may expand to, and the element operations of the
    replay at the traced point that checks the file (one a byte).  A loaded trace has no
    function, so it cannot retrace (``on_divergence="raise"`` or ``"mask"``).
    """
    try:
        z = validate.read_npz(path, max_bytes)
    except ValueError as e:
        if "max_bytes" in str(e) or isinstance(e, io.UnsupportedOperation):
            raise
        raise ValueError(f"load: {path!s} is not a trace file: {e}. The trace loader reads "
                         "only the .npz files written by Traced.save (tapegrad.trace(f, x)"
                         ".save(path)); a file of tapegrad.save or torch.save is not one") from None
    validate.check_digest(z)
    fields, work = validate.check_work(validate.fields_from_npz(z), max_bytes)
    traced = Traced(**fields)
    validate.check_traced_point(traced, z.get("grad0"), work)
    return traced


class _Plan:
    """How batch replay runs a Traced tape (built once per tape, never saved).

    - Copies that only select a contiguous run of another slot (``x[1:]``, ``x[i]``,
      reshapes, contiguous gathers) become aliases of that run: no row, no values, no
      adjoints of their own (they were ~30% of Rosenbrock's rows and values).  Aliases need
      a slot's start and end independent of the next slot's start, so slot ``s`` becomes
      ``2 s`` here: ``offs[2 s]`` is its start, ``offs[2 s + 1]`` its end.
    - ``rev`` holds only the rows the output reaches (found once, by the reverse sweep
      itself at the traced point): reach does not depend on the point.
    - The arena holds the remaining slots back to back.
    - Slot numbers kept in the meta pool (CAT/STACK operands, F.linear's bias) are
      renumbered like the rows' own.
    - An EXPAND (a broadcast) read by one add, sub or mul only is folded into it: one
      BCAST row reading the expand's source through its map (``_fold_broadcasts``); the
      expand's slot keeps no values.
    - A product x * x read by one sum over dims only is folded into it: one SQSUM row
      (``_fold_squares``); the product's slot keeps no values.
    - An add or sub BCAST row whose output a product BCAST row reads first has its
      reverse run in that row's (``_chain_broadcasts``): it is left out of ``rev``.
    - An SQSUM row summing (u + v)^2, u made by a BCAST row, stores v's adjoint only: the
      BCAST row reads it as u's (``_share_square_adjoints``); where that row is a product,
      u's values are not stored either: the SQSUM row makes them (``_unstored_squares``),
      the BCAST row is left out of ``fwd``.
    """

    def __init__(self, t, fold=True, min_run=None):
        rows, offs, meta = t.rows, t.offs, t.meta.copy()
        nslots = len(offs) - 1
        reach = np.zeros(nslots, np.uint8)
        reach[t.out_slot] = 1
        stop = _kernels._reverse_sweep(rows, offs, t.vals0.copy(), t.consts, meta,
                                       np.zeros(len(t.vals0)), reach, 0, len(rows), 1)
        self.rev_error = None if stop < 0 else int(rows[stop, 0])
        if stop < 0:  # eager backward's refusal (an op with no derivative: floor_divide),
            # at the last such value made (the first node of them eager's backward runs)
            self.rev_error = next((text for s, text in reversed(t.no_derivative) if reach[s]),
                                  None)
        size = np.diff(offs)
        rows, meta, folded, gone = _fold_broadcasts(t, rows, meta, size, fold,
                                                     FOLD_MIN_RUN if min_run is None else min_run)
        # (broadcasts of runs shorter than FOLD_SHORT_RUN folded: Traced._make_plan)
        self.short_runs = bool(_short_runs(rows[~folded], meta))
        if fold and FOLD_SQUARES:
            rows, meta = _fold_squares(t, rows, meta, size, folded, gone)
        meta, chained = _chain_broadcasts(t, rows, meta, size, folded, reach)
        meta = _share_square_adjoints(t, rows, meta, size, folded)
        rows, meta, unmade = _unstored_squares(t, rows, meta, size, folded, gone)
        outs = rows[:, 1][rows[:, 1] >= 0]
        ssa = _written_once(outs) and not np.isin(outs, t.in_slots).any()
        alias = np.full(nslots, -1, np.int64)  # slot -> the slot it aliases, or -1
        start = np.empty(nslots, np.int64)
        keep = np.ones(len(rows), bool)
        moves = np.isin(rows[:, 0], (VIEW, GATHER, STRIDED, EXPAND)) & (rows[:, 1] >= 0) & folded
        if ssa:
            cand = np.nonzero(moves)[0]
            hit, j = _contiguous_rows(rows[cand], meta, size)
            aliased = cand[hit]
            alias[rows[aliased, 1]] = rows[aliased, 2]
            start[rows[aliased, 1]] = j[hit]  # relative to a's start, resolved below
            keep[aliased] = False
        own = alias < 0  # slots with values of their own, packed in their original order
        live = np.where(gone, 0, size)  # (a folded expand's slot: empty, nothing reads it)
        start[own] = np.cumsum(live[own]) - live[own]
        nv = int(live[own].sum())
        _resolve_aliases(rows[~keep, 1], alias, start)
        self.offs = np.empty(2 * nslots + 1, np.int64)
        self.offs[0:-1:2] = start
        self.offs[1::2] = start + live
        self.offs[-1] = nv
        self.vals0 = t.vals0[np.repeat(own & ~gone, size)]  # the arena is in slot order
        rows = rows[keep & folded].copy()
        for c in (1, 2, 3):
            rows[:, c] = np.where(rows[:, c] >= 0, 2 * rows[:, c], rows[:, c])
        for code in _codes(rows[:, 0]):  # slots kept in aux and the meta pool: as declared
            d = OPS.get(int(code))
            if d is not None and d.aux == "slot":  # (where's condition)
                rows[rows[:, 0] == code, 4] *= 2
            if d is not None and d.meta_slots is not None:  # (cat's operands, linear's bias)
                _double_meta_slots(d.meta_slots, meta, rows[rows[:, 0] == code, 4])
        for k in meta[rows[rows[:, 0] == BCAST, 4] + 3].tolist():  # (chained rows' slots)
            if k >= 0:
                meta[k:k + 2] *= 2
        g = rows[rows[:, 0] == BCAST, 4] + 4  # (slots whose adjoint stands for out's)
        meta[g[meta[g] >= 0]] *= 2
        for k in rows[rows[:, 0] == SQSUM, 4].tolist():  # (the slots u is made from)
            if meta[k] & 2:
                meta[k - 3:k - 1] *= 2
        self.meta = meta
        self.fwd = rows[~unmade[keep & folded]]  # (rows whose output an SQSUM row makes)
        reached = rows[:, 1] >= 0
        reached[reached] = reach[rows[reached, 1] // 2] != 0
        reached &= ~chained[keep & folded]  # (their reverse run by the row they chain into)
        self.rev = np.ascontiguousarray(rows[reached])
        self.fill = 2 * t.const_slots[alias[t.const_slots] < 0]
        self.in_elems = np.concatenate(
            [np.arange(start[s], start[s] + size[s]) for s in t.in_slots]
            or [np.zeros(0, np.int64)]).astype(np.int64)
        self.out_slot = 2 * t.out_slot
        self.consts = t.consts
        self.out_elems = np.arange(start[t.out_slot], start[t.out_slot] + size[t.out_slot],
                                   dtype=np.int64)
        _periodic_constants(self)

    def packed(self, lowered=True):
        """The plan as ``_point._replay_point`` takes it: one int64 array, its values
        (vals0, consts) at the end bit for bit.  ``lowered``: its rows lowered to the
        one-point code (``lower.point_program``); else one RUN each way, every row run by
        the general interpreters."""
        ncf, ncr, nx, code = lower.point_program(self.fwd, self.rev, self.offs, self.meta,
                                                 self.consts, self.out_slot, lowered)
        head = [len(self.fwd), len(self.rev), len(self.offs), len(self.meta),
                len(self.in_elems), self.out_slot, ncf, ncr, nx]
        rc = code.view(np.int32)[4 * ncf:4 * (ncf + ncr)].reshape(ncr, 4)
        floats = np.concatenate([self.vals0, self.consts]).astype(np.float64)
        return np.concatenate([np.array(head, np.int64), self.fwd.ravel(), self.rev.ravel(),
                               self.offs, self.meta, self.in_elems, self._point_reach(rc),
                               code, floats.view(np.int64)]).astype(np.int64)

    def _point_reach(self, rc):
        """Each slot's state as ``_replay_point``'s reverse starts, as batch replay's
        (``_sweep._replay_blocks``): its reach (bits 0-1: a constant's CONST, so that rules
        skip its adjoints) and bit 2 where its adjoints are zeroed first.  Below
        LAZY_VALUES every slot is zeroed; above, as ``_sweep._lazy_reach``, only the shared
        slots, the output's and those a row of the lowered reverse code ``rc`` touches
        (that code does not reach its inputs: they are zeroed beforehand), the others by
        the general interpreter's rows that first reach them (in cache), or written by
        them (no pass over the arena: ADBench GMM d = 2, 78,149 values)."""
        n = len(self.offs) - 1
        state = np.zeros(n, np.int64)
        if len(self.vals0) < _sweep.LAZY_VALUES:
            state[0::2] = 4 | 1
        else:
            lowered = np.ones(len(self.rev), bool)
            for op, r0, r1, _ in rc.tolist():
                if op == _point.RUN:
                    lowered[r0:r1] = False
            rows = self.rev[lowered]
            eager = [rows[:, 1:4].ravel(), [self.out_slot],
                     _shared_slots(self.offs)]
            for code in _codes(rows[:, 0]):  # (slots kept in aux and the meta pool)
                d = OPS.get(int(code))
                ks = rows[rows[:, 0] == code, 4]
                if d is not None and d.aux == "slot":
                    eager.append(ks)
                if d is not None and d.meta_slots is not None:
                    eager.append(self.meta[_meta_positions(d.meta_slots, self.meta, ks)])
            eager = np.concatenate([np.asarray(e, np.int64) for e in eager])
            state[eager[eager >= 0]] = 4 | 1
        state[self.fill] = (state[self.fill] & 4) | CONST
        return state

    def point_need(self):
        """The values of ``_point._replay_point``'s work buffer for this plan: the value,
        the guard flag, the arena, its adjoints, the reach bytes of its slots and the
        values its forward keeps for its reverse (one an arena element)."""
        return 2 + 3 * len(self.vals0) + (len(self.offs) + 6) // 8


_BC_KINDS = {E.ADD: BC_ADD, E.SUB: BC_SUB, E.MUL: BC_MUL}
FOLD_BROADCASTS = True  # (False: plans keep every EXPAND row; the tests compare the two)
# the shortest last-dim run a folded broadcast may have (ADBench GMM one-point gradient,
# CPU time, folded against FOLD_MIN_RUN = 1000 in one process, medians: d = 2 +3%; d = 10
# -12%, d = 20 -13%, d = 64 -14%)
FOLD_MIN_RUN = 2
# runs shorter than FOLD_SHORT_RUN fold only in plans whose arena holds FOLD_SHORT_VALUES
# values or more (else the plan is made again with FOLD_SHORT_RUN as the shortest): the
# one-point rules' fast paths at short runs (ops/strided.py _bc_fwd_tiled, _bc_mul_chain2,
# _sqsum_made_rev2) write first-reached adjoints, which the one-point reverse does only
# past _sweep.LAZY_VALUES.  ADBench GMM d = 2, one point, folded against runs of 8 in one
# process, medians: K = 5 (45,714 values folded) 1.36x, K = 100 (905,714) 0.96x before
# those paths
FOLD_SHORT_RUN = 8
FOLD_SHORT_VALUES = _sweep.LAZY_VALUES
# x * x read by one sum over dims: one SQSUM row (False: two rows; the tests compare).
# ADBench GMM one-point gradient, CPU time against two rows in one process, medians:
# d = 2 -5%, d = 10 -9%, d = 20 -7%, d = 64 -5%
FOLD_SQUARES = True
# and the add u + v whose square it sums, into the same row (False: the add stays a row;
# the tests compare).  ADBench GMM's qdiag * xc + xc @ L^T, one-point gradient, CPU time
# against the add as a row in one process, medians: d = 2 +1%, d = 10 -7%, d = 20 -10%
FOLD_SQUARED_SUMS = True
# an add or sub broadcast whose output a product broadcast reads first: its reverse run in
# the product's (_chain_broadcasts; False: its own row; the tests compare)
CHAIN_BROADCASTS = True
# u's adjoint under a sum of (u + v)^2 not stored, the BCAST row making u reading v's
# (_share_square_adjoints; False: both stored; the tests compare)
SHARE_SQUARE_ADJOINTS = True
# and u's values not stored either, the SQSUM row making them as the product BCAST row
# would (_unstored_squares; False: that row stores them; the tests compare)
UNSTORED_SQUARES = True
# a constant full operand of a BCAST row repeating along the map's first dim read from its
# first block at one point (_periodic_constants; False: every copy read; the tests compare)
PERIODIC_CONSTANTS = True


def _short_runs(removed, meta):
    """Whether any of the EXPAND rows folded away (``removed``: the rows _fold_broadcasts
    dropped) has last-dim runs shorter than FOLD_SHORT_RUN."""
    ks = removed[removed[:, 0] == EXPAND, 4]
    return any(meta[k + 1 + meta[k]] < FOLD_SHORT_RUN for k in ks.tolist())


def _fold_broadcasts(t, rows, meta, size, fold, min_run):
    """Fold each EXPAND row (a broadcast, not a plain copy, of runs of FOLD_MIN_RUN elements
    or more) whose output only one later add, sub or mul reads into that row:
    ``[BCAST, out, full operand, the expand's source, k]``,
    meta[k:k+3] = [kind, side (1: the source was in1), the expand's map]
    (ops/strided.py; meta[k+3] = -1, set by _chain_broadcasts; meta[k+4] = -1, set by
    _share_square_adjoints).  Returns (rows, meta, the
    rows that stay (a mask), the slots of the folded expands (a mask))."""
    keep = np.ones(len(rows), bool)
    gone = np.zeros(len(size), bool)
    cand = np.nonzero((rows[:, 0] == EXPAND) & (rows[:, 1] >= 0))[0]
    outs = rows[:, 1][rows[:, 1] >= 0]
    # (a slot written twice: the source or the full operand may change between the expand
    # and its reader)
    if not (fold and FOLD_BROADCASTS) or not len(cand) or not _written_once(outs):
        return rows, meta, keep, gone
    reads = _reads(t, rows, meta, size)
    reader = {}  # slot -> the row reading it, for the slots read once
    for r, (o, a, b) in enumerate(rows[:, 1:4].tolist()):
        for s in (a, b):
            if s >= 0 and reads[s] == 1:
                reader[s] = r
    rows = rows.copy()
    extra = []
    for r in cand.tolist():
        _, e, src, _, k = rows[r].tolist()
        c = reader.get(e)
        nd = int(meta[k])
        if c is None or c < r or size[e] <= size[src] or nd == 0 or \
                meta[k + 1 + nd] < min_run or \
                _contiguous_from(EXPAND, meta, k, int(size[e])) is not None:
            continue
        op, o, a, b, _ = rows[c].tolist()
        kind = _BC_KINDS.get(op)
        side = int(b == e)
        f = a if side else b
        if kind is None or o < 0 or f < 0 or size[f] != size[e] or size[o] != size[e]:
            continue
        rows[c] = (BCAST, o, f, src, len(meta) + len(extra))
        extra += [kind, side, k, -1, -1, 0]  # (-1: no chained row, _chain_broadcasts; no
        # other slot's adjoint read as out's, _share_square_adjoints; 0: f's values not
        # known to repeat, _periodic_constants)
        keep[r] = False
        gone[e] = True
    if extra:
        meta = np.concatenate([meta, np.array(extra, meta.dtype)])
    return rows, meta, keep, gone


def _chain_broadcasts(t, rows, meta, size, keep, reach):
    """Chain each add or sub BCAST row p (f = pf op ps[map]) into the product BCAST row c
    that reads f (c = f * s[map], the same map) when c is the first row to read f, every
    other reader later (c's reverse adds f's last adjoint terms), no aux or meta read of f,
    and no row between p and c reads pf or ps: p's reverse may then run right after c's,
    in c's pass over f's adjoints (ops/strided.py bcast_chain_rev; ADBench GMM:
    exp(q) * (x - mu)).  Sets c's meta[k+3] to where [pf, ps, p's meta k] stand.  Returns
    (meta, the chained rows p (a mask): the plan's reverse leaves them out)."""
    chained = np.zeros(len(rows), bool)
    outs = rows[:, 1][rows[:, 1] >= 0]
    cand = np.nonzero((rows[:, 0] == BCAST) & keep)[0].tolist()
    if not CHAIN_BROADCASTS or not cand or not _written_once(outs):
        return meta, chained
    reads = _reads(t, rows, meta, size)
    where = {o: r for r, o in enumerate(rows[:, 1].tolist()) if o >= 0}
    meta, extra = meta.copy(), []
    # each slot's reads through columns 2 and 3, and the first row making one (once: per
    # candidate, a scan of every row made a plan of 10**4 rows take 30 s)
    r_of, c_of = np.nonzero(rows[:, 2:4] >= 0)
    col_reads = np.bincount(rows[r_of, 2 + c_of], minlength=len(size))
    first = np.full(len(size), len(rows), np.int64)
    np.minimum.at(first, rows[r_of, 2 + c_of], r_of)
    root = _view_roots(rows, len(size))
    budget = _scan_budget(rows)
    for c in cand:
        _, o, f, _, kc = rows[c].tolist()
        p = where.get(f)
        if p is None or p >= c or not keep[p] or rows[p, 0] != BCAST or chained[p] or \
                meta[kc] != BC_MUL or meta[rows[p, 4]] not in (BC_ADD, BC_SUB) or \
                not reach[o] or not reach[f]:
            continue
        _, _, pf, ps, kp = rows[p].tolist()
        if not _same_map(meta, int(meta[kc + 2]), int(meta[kp + 2])):
            continue
        # f's readers: c first, and no read but a column's
        if int(col_reads[f]) != reads[f] or first[f] != c:
            continue
        if not _unread_between(rows, keep, p, c, (pf, ps), root, budget):
            continue
        meta[kc + 3] = len(meta) + len(extra)
        extra += [pf, ps, kp]
        chained[p] = True
    if extra:
        meta = np.concatenate([meta, np.array(extra, meta.dtype)])
    return meta, chained


def _same_map(meta, k1, k2):
    """Whether the strided maps at meta k1 and k2 ([ndim, base, shape..., strides...]) are
    the same."""
    n = 2 + 2 * int(meta[k1])
    return meta[k1] == meta[k2] and (meta[k1:k1 + n] == meta[k2:k2 + n]).all()


def _view_roots(rows, nslots):
    """Each slot's root through the view rows (VIEW, GATHER, STRIDED, EXPAND: out -> in0)
    of ``rows``, whose outputs are distinct: the slot whose storage it may share."""
    parent = np.arange(nslots + 1, dtype=np.int64)  # (the last entry: slot -1, its own)
    v = np.isin(rows[:, 0], (VIEW, GATHER, STRIDED, EXPAND)) & (rows[:, 1] >= 0) & \
        (rows[:, 2] >= 0)
    parent[rows[v, 1]] = rows[v, 2]
    for _ in range(64):  # pointer jumping: depth 2**64 is never reached
        up = parent[parent]
        if np.array_equal(up, parent):
            break
        parent = up
    return parent


def _opaque(codes):
    """Which rows of these opcodes read slots through aux or the meta pool (not looked
    into by ``_unread_between``; the plan's own rows read columns 2 and 3 only)."""
    out = np.zeros(len(codes), bool)
    for code in np.unique(codes).tolist():
        spec = OPS.get(code & OP_MASK)
        if spec is None and code not in (BCAST, SQSUM) or spec is not None and (
                spec.aux == "slot" or spec.meta_slots is not None):
            out[codes == code] = True
    return out


def _scan_budget(rows):
    """The rows ``_unread_between`` may look at while one plan folds rows (a one-element
    list, spent in place): each fold looks at the rows between the two it joins, so a trace
    of N adds made first and their N squares summed last took N**2 (48,000 rows, a 1.2 MB
    file or an ordinary loop: 60 s to load).  Past it, the rest are not folded (the same
    values, unfolded)."""
    return [SCAN_PER_ROW * len(rows) + SCAN_MIN]


SCAN_PER_ROW, SCAN_MIN = 64, 1 << 20


def _unread_between(rows, keep, d, r, slots, root, budget):
    """Whether no kept row between rows d and r reads ``slots`` (through its columns; a
    row reading slots through aux or the meta pool counts as reading them), nor a slot
    that may share their storage (a view's: the plan may alias it to its source, and its
    reverse then adds onto the same adjoints).  ``root``: ``_view_roots(rows)``.  (In
    NumPy: a loop in Python over the rows between, and over every row for the views, made
    plans of 10**4 rows take 30 s.)  ``budget``: ``_scan_budget``'s, spent by the rows
    looked at (none left: False, not folded)."""
    budget[0] -= max(r - d - 1, 0)
    if budget[0] < 0:
        return False
    seg = rows[d + 1:r]
    roots = root[np.asarray(slots, np.int64)]
    hit = np.isin(root[seg[:, 2:4]], roots).any(1) | _opaque(seg[:, 0])
    return not (hit & keep[d + 1:r]).any()


def _reads(t, rows, meta, size):
    """How many times rows read each slot (through aux or the meta pool: twice, never
    folded; the output: twice too)."""
    reads = np.zeros(len(size), np.int64)
    for c in (2, 3):
        np.add.at(reads, rows[:, c][rows[:, c] >= 0], 1)
    for code in _codes(rows[:, 0]).tolist():  # slots read through aux or the meta pool
        d = OPS.get(code & OP_MASK)
        if d is not None and d.aux == "slot":
            aux = rows[rows[:, 0] == code, 4]
            np.add.at(reads, aux[aux >= 0], 2)
        if d is not None and d.meta_slots is not None:
            ms = meta[_meta_positions(d.meta_slots, meta, rows[rows[:, 0] == code, 4])]
            np.add.at(reads, ms[ms >= 0], 2)
    reads[t.out_slot] += 2
    return reads


def _fold_squares(t, rows, meta, size, keep, gone):
    """Fold each product x * x whose output only one later sum over dims (SUM_DIM) reads
    into that sum: ``[SQSUM, out, x, -1, k]``, meta[k:] = [0, the sum's map]
    (ops/strided.py).  Updates keep (the MUL rows folded) and gone (their outputs' slots)
    in place; returns (rows, meta)."""
    outs = rows[:, 1][rows[:, 1] >= 0]
    if not _written_once(outs):  # (a slot written twice: x may change between)
        return rows, meta
    reads = _reads(t, rows, meta, size)
    rows = rows.copy()
    where = {o: r for r, o in enumerate(rows[:, 1].tolist()) if o >= 0}
    extra = []
    root = _view_roots(rows, len(size))  # (the loop makes no view rows)
    budget = _scan_budget(rows)
    for r in np.nonzero(rows[:, 0] == R.SUM_DIM)[0].tolist():
        _, o, sq, _, k = rows[r].tolist()
        c = where.get(sq)
        if c is None or c > r or reads[sq] != 1 or not keep[c]:
            continue
        op, _, a, b, _ = rows[c].tolist()
        if op != E.MUL or a != b or a < 0 or size[a] != size[sq]:
            continue
        ks = len(meta) + len(extra)
        extra += [0, *meta[k:k + 2 + 2 * int(meta[k])].tolist()]
        rows[r] = (SQSUM, o, a, -1, ks)
        keep[c] = False
        gone[sq] = True
        d = where.get(a)
        if FOLD_SQUARED_SUMS and d is not None and reads[a] == 2 and keep[d] and \
                _foldable_add(rows, size, keep, d, r, root, budget):
            rows[r] = (SQSUM, o, int(rows[d, 2]), int(rows[d, 3]), ks)
            keep[d] = False
            gone[a] = True
    if extra:
        meta = np.concatenate([meta, np.array(extra, meta.dtype)])
    return rows, meta


def _share_square_adjoints(t, rows, meta, size, keep):
    """For an SQSUM row summing (u + v)^2 with u made by a BCAST row c: SQSUM's reverse
    writes the same values (g + g, never -0.0, onto a zero or fresh span: bit for bit
    either way) as u's and v's adjoints, so it stores v's only (its meta[k] = 1) and c
    reads v's as u's (c's meta[k+4] = v): one (K, n, d) store and its traffic less (ADBench
    GMM: exp(q) * xc and xc @ L^T).  Only where the SQSUM row alone reads u and v (nothing
    else adds onto their adjoints), neither is an input, the output or a view's slot
    (which the plan may alias).  Returns meta."""
    outs = rows[:, 1][rows[:, 1] >= 0]
    cand = np.nonzero((rows[:, 0] == SQSUM) & keep & (rows[:, 3] >= 0))[0].tolist()
    if not SHARE_SQUARE_ADJOINTS or not cand or not _written_once(outs):
        return meta
    reads = _reads(t, rows[keep], meta, size)
    where = {o: r for r, o in enumerate(rows[:, 1].tolist()) if o >= 0}
    meta = meta.copy()
    for r in cand:
        _, _, u, v, ks = rows[r].tolist()
        c, pv = where.get(u), where.get(v)
        if c is None or pv is None or u == v or not keep[c] or not keep[pv] or \
                rows[c, 0] != BCAST or rows[pv, 0] in (VIEW, GATHER, STRIDED, EXPAND) or \
                reads[u] != 1 or reads[v] != 1 or u in t.in_slots or v in t.in_slots:
            continue
        meta[ks] = 1
        meta[rows[c, 4] + 4] = v
    return meta


def _periodic_constants(plan):
    """A BCAST row whose full operand f is a constant whose values repeat along the map's
    first dim (c copies of one block, bit for bit: ADBench GMM's x broadcast to (K, n, d),
    x - mu): its meta[k+5] = the runs of one block, so the forward at one point reads the
    first block only (ops/strided.py _bc_fwd_runs; the copies stay in the arena, for
    batches).  The same values read: the same results; (K - 1) n d fewer loads from memory a
    call (GMM d = 20: 7.6 MB).  Only where a block is whole runs (its run length from
    strided_runs' merge, no runs asked)."""
    if not PERIODIC_CONSTANTS:
        return
    fill = set(plan.fill.tolist())
    meta, offs = plan.meta, plan.offs
    for _, o, f, _, k in plan.fwd[plan.fwd[:, 0] == BCAST].tolist():
        km = int(meta[k + 2])
        nd, n = int(meta[km]), int(offs[f + 1] - offs[f])
        c = int(meta[km + 2]) if nd > 1 else 0
        if f not in fill or c < 2 or n % c:
            continue
        length = int(getattr(_strided_runs, "py_func", _strided_runs)(meta, km, 0)[1])
        block = n // c
        if length <= 0 or block % length:
            continue
        v = plan.vals0[offs[f]:offs[f + 1]].view(np.int64).reshape(c, block)
        if (v == v[0]).all():
            meta[k + 5] = block // length


def _unstored_squares(t, rows, meta, size, keep, gone):
    """For an SQSUM row summing (u + v)^2 whose u's adjoint is shared with v's
    (``_share_square_adjoints``) and made by a product BCAST row c (u = f * s[map]): the
    SQSUM row makes u's values itself, as c's forward would, in both sweeps (its meta[k]
    bit 1; meta[k-3:k] = [f, s, c's meta k]); c stays in the reverse (it reads f's and s's
    values, never u's) and leaves the forward: one (K, n, d) store and one load less
    (ADBench GMM: exp(q) * xc).  Only where c's map runs as long as the sum's (the two
    maps walked run by run together) and u's slot is no input, output or view.  Returns
    (rows, meta, the rows left out of the forward (a mask)); updates gone (u's slot keeps
    no values) in place."""
    unmade = np.zeros(len(rows), bool)
    cand = np.nonzero((rows[:, 0] == SQSUM) & keep & (rows[:, 3] >= 0))[0].tolist()
    if not UNSTORED_SQUARES or not cand:
        return rows, meta, unmade
    where = {o: r for r, o in enumerate(rows[:, 1].tolist()) if o >= 0}
    rows, extra = rows.copy(), []

    def run(k, n):  # a strided map's run length (ops/strided.py strided_runs, merge=False)
        nd = int(meta[k])
        return n if nd == 0 else int(meta[k + 1 + nd])

    for r in cand:
        _, o, u, v, ks = rows[r].tolist()
        c = where.get(u)
        if meta[ks] != 1 or c is None or not keep[c] or rows[c, 0] != BCAST or \
                u in t.in_slots or u == t.out_slot:
            continue
        _, _, f, src, kc = rows[c].tolist()
        n = int(size[u])
        if meta[kc] != BC_MUL or run(int(meta[kc + 2]), n) != run(ks + 1, n) or \
                gone[f] or gone[src]:
            continue
        rows[r, 4] = len(meta) + len(extra) + 3  # (its flags after [f, s, c's meta k])
        extra += [f, src, kc, 3, *meta[ks + 1:ks + 3 + 2 * int(meta[ks + 1])].tolist()]
        unmade[c] = True
        gone[u] = True
    if extra:
        meta = np.concatenate([meta, np.array(extra, meta.dtype)])
    return rows, meta, unmade


def _foldable_add(rows, size, keep, d, r, root, budget):
    """Whether row d, x = u + v (x read by the product x * x only, folded into row r), may
    be folded into r too: u and v distinct, of x's size, and no row between d and r reads
    them (the reverse sweep then adds their adjoints' terms in the order it did)."""
    op, x, u, v, _ = rows[d].tolist()
    if op != E.ADD or u < 0 or v < 0 or u == v or size[u] != size[x] or size[v] != size[x]:
        return False
    return _unread_between(rows, keep, d, r, (u, v), root, budget)


def _contiguous_from(op, meta, k, n):
    """If a row of opcode ``op`` (aux ``k``) copies elements j..j+n-1 of its input in
    order, j; else None."""
    if n == 0:
        return None
    if op == VIEW:
        return 0
    if op == GATHER:
        idx = meta[k + 1:k + 1 + n]
        return int(idx[0]) if (np.diff(idx) == 1).all() else None
    if op == STRIDED or op == EXPAND:  # meta: [ndim, base, shape..., strides...]
        k += op == STRIDED  # after the view's name
        nd = int(meta[k])
        if np.prod(meta[k + 2:k + 2 + nd]) != n:  # a map of other size (nd = 0: one element
            return None  # repeated, a full reduction's map): not a plain copy
        step = 1  # C order: each dim of size > 1 steps by the product of the later ones
        for d in range(nd - 1, -1, -1):
            m, st = int(meta[k + 2 + d]), int(meta[k + 2 + nd + d])
            if m == 1:
                continue
            if st != step:
                return None
            step *= m
        return int(meta[k + 1])
    return None


# fewer rows than this (view rows, cat rows, or a strided map's dim count shared by
# fewer) are checked one row at a time: a NumPy pass costs more than they do (a plan of
# 63 view rows: ~8% slower in NumPy; of 183, even); many distinct dim counts, each a
# pass, would cost more than the rows themselves
_FEW = 128


def _shared_slots(offs):
    """``_sweep._shared_slots`` in NumPy (at packing, no compile): the plan's slots whose
    non-empty span overlaps another's, a slice aliasing a run of its source and that
    source; each overlap found against the slot reaching furthest among those starting
    before it, as there."""
    s = 2 * np.flatnonzero(offs[1::2] > offs[0:-1:2])
    s = s[np.argsort(offs[s], kind="stable")]
    start, end = offs[s], offs[s + 1]
    if len(s) < 2:
        return s[:0]
    reach = np.maximum.accumulate(end)[:-1]  # (the furthest end before each)
    grew = np.concatenate([[True], end[1:] > reach])
    last = np.maximum.accumulate(np.where(grew, np.arange(len(s)), 0))[:-1]
    hit = np.flatnonzero(start[1:] < reach)
    return np.unique(np.concatenate([s[hit + 1], s[last[hit]]]))


def _written_once(outs):
    """Whether no slot number repeats in outs (slot numbers, >= 0)."""
    if len(outs) and outs.max() < 4 * len(outs) + 4096:  # (a count per slot: ~20x unique's)
        return np.bincount(outs).max() <= 1
    return len(np.unique(outs)) == len(outs)


def _codes(ops):
    """The distinct opcodes of ops, ascending (np.unique's result)."""
    if len(ops) and ops.min() >= 0 and ops.max() < 1 << 16:
        return np.flatnonzero(np.bincount(ops))
    return np.unique(ops)


def _meta_positions(meta_slots, meta, ks):
    """The meta pool positions ``meta_slots(meta, k)`` names for each k of ks, one array
    (row after row), from the spec it declares (ops/registry.py meta_list, meta_at)."""
    spec = getattr(meta_slots, "spec", None)
    ks = np.asarray(ks, np.int64)
    if spec is not None and spec[0] == "list" and len(ks) >= _FEW:
        count = np.maximum(meta[ks + spec[1]], 0)  # (range() of a negative count: none)
        first = np.cumsum(count) - count
        return np.repeat(ks + spec[2] - first, count) + np.arange(int(count.sum()))
    if spec is not None and spec[0] == "at":
        return (ks[:, None] + np.array(spec[1:], np.int64)).ravel()
    return np.array([p for k in ks.tolist() for p in meta_slots(meta, k)], np.int64)


def _double_meta_slots(meta_slots, meta, ks):
    """``meta[meta_slots(meta, k)] *= 2`` for each k of ks in turn, at once where no
    row's count is among the entries doubled (a count doubled by an earlier row would
    change the later row's window: refused by load, kept exact here)."""
    spec = getattr(meta_slots, "spec", None)
    pos = _meta_positions(meta_slots, meta, ks) if len(ks) >= _FEW else None
    counts = np.asarray(ks, np.int64) + spec[1] if spec is not None and spec[0] == "list" \
        else np.empty(0, np.int64)
    if pos is None or (pos < 0).any() or (counts < 0).any() or \
            np.isin(counts, pos).any():  # (< 0: Python's wrap, which isin would not see)
        for k in np.asarray(ks).tolist():
            meta[meta_slots(meta, k)] *= 2
        return
    np.multiply.at(meta, pos, 2)  # (an entry named by two rows: doubled twice, as the loop)


def _contiguous_rows(rows, meta, size):
    """``_contiguous_from`` for each of rows (VIEW, GATHER, STRIDED or EXPAND rows) at once:
    (which copy a run of their input, a mask; its start j).  NumPy over all rows
    (``_contiguous_numpy``) but a few (NumPy's fixed costs, ~50 us, would exceed theirs) and
    those it leaves to _contiguous_from itself."""
    n = size[rows[:, 1]]
    hit, j = np.zeros(len(rows), bool), np.zeros(len(rows), np.int64)
    slow = _contiguous_numpy(rows, meta, n, hit, j) if len(rows) >= _FEW else \
        [np.arange(len(rows))]
    for i in np.concatenate(slow).tolist():
        op, _, _, _, k = rows[i].tolist()
        jj = _contiguous_from(op, meta, k, int(n[i]))
        hit[i] = jj is not None
        j[i] = 0 if jj is None else jj
    return hit, j


def _contiguous_numpy(rows, meta, n, hit, j):
    """_contiguous_rows' NumPy part: sets hit and j (n: the rows' output sizes); returns
    the rows it leaves to _contiguous_from (arrays of their indices): a meta window outside
    the pool, a map's sizes multiplying past 2**62 (int64 would wrap where Python's ints do
    not), a dim count shared by fewer than _FEW rows."""
    op, k = rows[:, 0], rows[:, 4]
    hit[:] = (op == VIEW) & (n > 0)  # (a view: j = 0)
    slow = []
    # a gather copies a run when idx[i] - i is idx[0] for every i (int64: wraps as np.diff)
    g = np.nonzero((op == GATHER) & (n > 0))[0]
    ok = (k[g] >= -1) & (n[g] <= len(meta) - 1 - k[g])  # (no sum that may wrap)
    slow.append(g[~ok])
    g = g[ok]
    if len(g):
        ng = n[g]
        first = np.cumsum(ng) - ng
        within = np.arange(int(ng.sum())) - np.repeat(first, ng)
        v = meta[np.repeat(k[g] + 1, ng) + within] - within
        hit[g] = ~np.logical_or.reduceat(v != np.repeat(v[first], ng), first)
        j[g] = v[first]
    # a strided map [ndim, base, shape..., strides...] copies a run when its shape has n
    # elements and each dim of size > 1 steps by the product of the later ones (C order)
    s = np.nonzero(((op == STRIDED) | (op == EXPAND)) & (n > 0))[0]
    ks = k[s] + (op[s] == STRIDED)  # (a STRIDED row's map: after the view's name)
    ok = (ks >= 0) & (ks < len(meta))
    slow.append(s[~ok])
    s, ks = s[ok], ks[ok]
    nd = meta[ks]
    ok = (nd >= 0) & (nd <= (len(meta) - 2 - ks) // 2)
    slow.append(s[~ok])
    s, ks, nd = s[ok], ks[ok], nd[ok]
    for d in np.unique(nd).tolist():
        sel = nd == d
        if sel.sum() < _FEW:
            slow.append(s[sel])
            continue
        r, base = s[sel], ks[sel]
        m = meta[base[:, None] + 2 + np.arange(d)]
        st = meta[base[:, None] + 2 + d + np.arange(d)]
        wide = np.abs(m.astype(np.float64)).prod(axis=1) >= 2.0 ** 62
        slow.append(r[wide])
        step = np.ones_like(m)  # each dim's C-order stride: the product of the later dims
        if d > 1:
            step[:, :-1] = np.cumprod(m[:, :0:-1], axis=1)[:, ::-1]
        run = (m.prod(axis=1) == n[r]) & ((m == 1) | (st == step)).all(axis=1) & ~wide
        hit[r] = run
        j[r] = meta[base + 1]
    return slow


def _resolve_aliases(outs, alias, start):
    """Make the starts of the aliased slots outs (their rows' outputs, in row order)
    absolute: ``start[o] += start[alias[o]]`` for each o in turn, as a loop would, at once.
    An alias of a slot aliased by an earlier row adds that slot's resolved start (a slice
    of a slice), else the start it has now; the chains are summed by pointer doubling."""
    if not len(outs):
        return
    a = alias[outs]
    if (a < 0).any() or len(outs) < _FEW:  # (a < 0: no recorded or loaded row's; few
        # rows: NumPy's fixed costs would exceed them) one at a time, as the loop reads
        for o in outs.tolist():
            start[o] += start[alias[o]]
        return
    at = np.full(len(alias), -1, np.int64)
    at[outs] = np.arange(len(outs))
    nxt = at[a]  # the earlier alias row whose resolved start o adds, or -1
    nxt[nxt >= np.arange(len(outs))] = -1
    val = start[outs] + np.where(nxt < 0, start[a], 0)
    while (nxt >= 0).any():
        has = nxt >= 0
        val = val + np.where(has, val[nxt], 0)
        nxt = np.where(has, nxt[nxt], -1)
    start[outs] = val


_NO_GRAD = np.empty((0, 0))
_NO_G = np.empty(0)  # (the interpreter's gradient without one: it writes nothing there)
_F8 = np.dtype(np.float64)


def _point_path(ints, n, shape, one, need):
    """A trace's single-point fast path, bound once (``Traced._make_fast``):
    ``point(t, x, grad)`` -> (value, gradient or None) at x, or None for the general path
    to answer (x not an ndarray of ``shape`` that the kernels' one signature takes, a
    diverging guard).  x is f's one input (``one``: of one dimension, so the gradient is
    returned as it is) or its inputs flat, of n elements.  The closure holds the plan
    packed for ``_point._replay_point`` (``ints``; ``need``: the values of its work
    buffer) and the tape's fused kernel, bound at its first use
    (``bound``).  Python's part of a point: the input's checks, a fresh gradient array,
    FUSE_AFTER's count, one call of a compiled entry (``_entry``).
    """
    bound = (None, None, None, None)  # (the fused state bound, its entry, its C, K)
    ticks = 0  # points left before they are counted toward fused.FUSE_AFTER
    gshape = (1, n)
    on = fused._ENABLED  # (fused.enabled(), without a call)
    # the names a point reads, as the closure's own (~0.1 us of its ~1 us of Python)
    ndarray, empty, f8, local, no_g = np.ndarray, np.empty, _F8, _LOCAL, _NO_G

    def point(t, x, grad):
        nonlocal bound, ticks
        # CARRAY: C-contiguous, aligned and writable (a read-only or unaligned array is
        # another Numba type: the general path copies it)
        if type(x) is not ndarray or x.shape != shape or x.dtype is not f8 or \
                not x.flags.carray:
            return None
        # the tape's fused kernel once compiled (replay/fused.py): its state read as an
        # attribute, bound when it changes (one tuple: threads see all of it or none)
        k = t._fused
        if k is None:  # the calls counted toward FUSE_AFTER _TICK at a time
            ticks -= 1
            if ticks < 0:
                ticks = _TICK - 1
                fused.kernel(t, _TICK)  # (a kernel it finds ready is bound at the next call)
        else:
            b = bound
            if b[0] is not k:
                b = bound = _bind_fused(k, n)
            if b[1] is not None and on[0]:
                G = empty(gshape) if grad else _NO_GRAD
                try:
                    V, bad = t._local.point
                except AttributeError:  # (this thread's first point: its own buffers)
                    V, bad = t._local.point = (np.empty(1), np.empty(1, np.int64))
                b[1](x[None] if one else x.reshape(gshape), V, G, bad, b[2], b[3], 0, 1)
                if bad[0]:
                    return None
                if not grad:
                    return V[0], None
                return V[0], G[0] if one else t._split_point(G[0])
        g = empty(n) if grad else no_g
        try:  # this thread's buffer for the value, the arena and its adjoints: shared by
            # every trace, kept between calls (a fresh arena page-faults at every call)
            w = local.point
            if len(w) < need:
                raise AttributeError
        except AttributeError:
            w = local.point = empty(need)
        if (_POINT[0] or _point_kernel())(ints, x if one else x.reshape(-1), g, w):
            return None
        if one or not grad:
            return w[0], g if grad else None
        return w[0], t._split_point(g)
    return point


def _first_point(t, x, grad):
    """A trace's first single point: binds its fast path (``Traced._fast``), then runs it."""
    fast = t._fast = t._make_fast() or _no_point
    return fast(t, x, grad)


def _no_point(t, x, grad):
    """The fast path of a trace it does not apply to: the general path answers."""
    return None


class _NoTrace:
    """``Compiled._hot`` before a single point found a trace: its fast path answers None."""

    _fast = staticmethod(_no_point)


def _bind_fused(k, n):
    """(k, entry, C, K): the tape's fused state k (a ``fused.Kernel``, or None or a string
    saying why not yet or never) bound for points of n elements: its batch kernel's
    compiled entry for the types a point passes and the constants it reads, or entry None
    (the interpreter answers)."""
    if k.__class__ is not fused.Kernel or k.batch is None:
        return k, None, None, None
    G = np.empty((1, n))
    return k, _entry(k.batch, (G, np.empty(1), G, np.empty(1, np.int64), k.C, k.K, 0, 1)), \
        k.C, k.K


def _entry(d, args):
    """Numba dispatcher d's compiled function for the types of ``args``: its C wrapper,
    whose call skips typing the arguments and looking up the overload (~0.3-0.5 us of a
    single point's ~2 us, more than the rest of its Python); the callers pass exactly
    these types (checked).  None where d has no such overload compiled, and d itself
    where it is a Python function (under NUMBA_DISABLE_JIT=1)."""
    if d.__class__ is types.FunctionType:
        return d
    overloads = getattr(d, "overloads", None)  # (none on _kernels' loading wrapper)
    if overloads is None:
        return None
    sig = tuple(d.typeof_pyval(a) for a in args)
    return overloads[sig].entry_point if sig in overloads else None


_POINT = [None]  # _point._replay_point's compiled entry, once _kernels has bound it


def _point_kernel():
    """``_replay_point`` as the fast path calls it: its compiled entry once there is one
    (kept in _POINT), else ``_kernels``' name (interpreted meanwhile, or compiling)."""
    d = _kernels._replay_point
    f = np.empty(1)
    e = _entry(d, (np.empty(1, np.int64), f, f, f))
    if e is None:
        return d
    _POINT[0] = e
    return e


def _plain_f8(a, shape):
    """Whether ``a`` is what ``_point._replay_point`` takes without another signature: a
    C-contiguous writable float64 ndarray, here of ``shape``.  (The dtype by identity: an
    equal dtype object of another identity just takes the general path.)"""
    if type(a) is not np.ndarray or a.shape != shape or a.dtype is not _F8:
        return False
    fl = a.flags
    return fl.c_contiguous and fl.writeable
_POOL = [None, [], None]  # (pid, [_Helper, ...], ident of the thread whose call uses them)
_POOL_LOCK = threading.Lock()
_LOCAL = threading.local()  # each thread's arena buffers, kept between calls
SERIAL_VALUES = 1 << 19  # below ~0.2 ms of work (values x points), one thread is faster
CHUNK_VALUES = 1 << 21  # a kernel call takes 2-40 ms: Ctrl-C is seen between calls
SEED_VALUES = 1 << 22  # values x seeds of a block of 8 points that run_seeded sweeps at once
try:  # the memory a result may ask for at most (``_empty``)
    PHYS_BYTES = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
except (AttributeError, ValueError, OSError):  # (no sysconf: a bound no array reaches)
    PHYS_BYTES = 1 << 62
_POLL = 0.05  # seconds: how often a waiting caller checks that its ticket was taken


class _Ticket:
    """One job handed to one helper by one call: its own event, so nothing an earlier
    (interrupted) call left behind can wake a later call."""

    __slots__ = ("job", "done", "error", "taken")

    def __init__(self, job):
        self.job = job
        self.done = threading.Event()
        self.error = None
        self.taken = False


class _Helper:
    """A replay thread, made once per process: it sleeps on a semaphore until a ticket is
    in its box, takes it (under the box's lock) and sets the ticket's event when the job
    ends (concurrent.futures' queue and condition took ~50 us a hand-off here, a sixth of a
    10^4-point batch at n = 10).

    Ctrl-C reaches only the calling thread, at any bytecode of ``start`` and ``wait``; the
    hand-off is safe at each (tests/test_replay_interrupt.py injects one at every line):
    under the lock a ticket is always either in the box or taken, never both nor neither,
    so ``wait`` can tell a ticket the helper will finish from one it never got (a Ctrl-C
    between making a ticket and handing it over, or before the wake-up), and drops the
    latter instead of waiting for it forever.  A dropped ticket held no chunk of work:
    the calling thread's own ``work()`` had taken every chunk no helper took."""

    def __init__(self):
        self.lock = threading.Lock()
        self.wake = threading.Semaphore(0)
        self.box = []  # tickets handed over, not yet taken
        _eager.start_thread(self._loop, name="tapegrad-replay")

    def _loop(self):
        while True:
            self.wake.acquire()
            with self.lock:
                if not self.box:  # a wake-up for a ticket its caller dropped
                    continue
                ticket = self.box.pop(0)
                ticket.taken = True
            try:
                ticket.job()
            except BaseException as e:  # noqa: BLE001 (handed to the caller by wait)
                ticket.error = e
            finally:
                ticket.done.set()

    def start(self, ticket):
        with self.lock:
            self.box.append(ticket)
        self.wake.release()

    def wait(self, ticket, stop):
        """Until the ticket's job has ended, or at once if the helper never took it; a
        Ctrl-C meanwhile asks the job to stop (``stop``) and is returned, so the caller
        raises it once no helper runs."""
        interrupted = None
        while True:
            try:
                if ticket.done.wait(_POLL):
                    return interrupted
                with self.lock:
                    if not ticket.taken:  # in the box (the wake-up was lost) or never in it
                        if ticket in self.box:
                            self.box.remove(ticket)
                        return interrupted
            except KeyboardInterrupt as e:
                stop.append(True)
                interrupted = e


def _claim(n):
    """The ``n`` helper threads for this call, or [] if another thread's call has them
    (that call runs on every core already); created once per process (again after a
    fork, whose child has the helpers but not their threads).  The pool is owned by a
    thread, not held by a lock: a call that a Ctrl-C ended before it let go leaves the
    pool to its own thread's next call, which is the only call that thread can be in."""
    me = threading.get_ident()
    with _POOL_LOCK:
        if _POOL[0] != os.getpid():
            _POOL[:] = [os.getpid(), [], None]
        helpers, owner = _POOL[1], _POOL[2]
        if owner is not None and owner != me:
            return []
        _POOL[2] = me
        while len(helpers) < n:
            helpers.append(_Helper())
        return helpers[:n]


def _release():
    with _POOL_LOCK:
        if _POOL[2] == threading.get_ident():
            _POOL[2] = None


def _buffers(*sizes):
    """This thread's arena buffers (vals, adj; or vals, wide, adj) of at least ``sizes``
    values, kept between calls (a fresh one would page-fault on every call)."""
    have = getattr(_LOCAL, "bufs", [])
    if len(have) < len(sizes) or any(len(b) < n for b, n in zip(have, sizes)):
        _LOCAL.filled = None  # (the constants _run_blocks left in the old ones)
        have = _LOCAL.bufs = [
            have[i] if i < len(have) and len(have[i]) >= n else np.empty(n)
            for i, n in enumerate(sizes)] + have[len(sizes):]
    return have[:len(sizes)]


def _run_blocks(args, lo, hi, serial=False, lanes=None):
    """Blocks lo..hi-1 on every core: threads take chunks of blocks from a shared counter
    as they finish (a core busy with other work just takes fewer), and the calling thread
    works too.  Small batches stay in the calling thread (a hand-off costs ~11 us).
    ``lanes`` (k, seeds per point) runs ``_seeded_blocks`` instead of ``_replay_blocks``."""
    if hi <= lo:
        return
    nv, block = len(args[3]), args[-1]
    if lanes is None:
        sizes = (nv * block, nv * block if args[11].shape[0] > 0 else 0)
    else:
        sizes = (nv * block, nv * block * lanes, nv * block * lanes)
    nthreads = 1 if serial else min(_CORES, hi - lo)
    per_block = nv * block * max(1, lanes or 1)  # values a block sweeps (its work)
    if (hi - lo) * per_block < SERIAL_VALUES:
        nthreads = 1
    chunk = hi - lo if nthreads == 1 else max(1, (hi - lo) // (4 * nthreads))
    chunk = max(1, min(chunk, CHUNK_VALUES // (per_block or 1)))
    starts = itertools.count(lo, chunk)  # next() is atomic: each chunk goes to one thread
    stop = []

    def work():
        bufs = _buffers(*sizes)
        kernel = _kernels._replay_blocks if lanes is None else _kernels._seeded_blocks
        for b in starts:
            if b >= hi or stop:
                return
            end = min(b + chunk, hi)
            # one block of w points (a single point's batch call): the constants this
            # thread's buffer holds from its last such call of this plan are not copied
            # again (ADBench GMM d = 20: x broadcast over the K components, 8 MB a call)
            w = min(block, len(args[9]) - b * block)
            tag = (args[2], args[3], args[6], w) if end == b + 1 else None
            last = getattr(_LOCAL, "filled", None)  # (None since _buffers made new ones)
            same = tag is not None and last is not None and last[0] is tag[0] and \
                last[1] is tag[1] and last[2] is tag[2] and last[3] == w
            _LOCAL.filled = None
            r = kernel(*args, b, end, *bufs, w if same else 0)
            if r != -1:  # trace() and load() checked every row: cannot happen
                what = f"reverse row {r}" if r >= 0 else f"forward row {-2 - r}"
                raise RuntimeError(f"replay: {what} of the plan did not run; please report "
                                   "this as a tapegrad bug")
            _LOCAL.filled = tag

    if nthreads == 1:
        work()
        return
    handed = []  # (helper, ticket): every ticket that may have been handed over
    try:
        for h in _claim(nthreads - 1):
            t = _Ticket(work)
            handed.append((h, t))
            h.start(t)
        work()
    except BaseException:
        stop.append(True)  # KeyboardInterrupt: the helpers end with their current chunk
        raise
    finally:
        try:
            interrupted = [h.wait(t, stop) for h, t in handed]
        finally:
            _release()
    for e in [*interrupted, *(t.error for _, t in handed)]:
        if e is not None:
            raise e


class _Progress:
    """A one-line progress bar on stderr: points done, rate, time left."""

    def __init__(self, total):
        self.total = total
        self.t0 = self.last = time.perf_counter()

    def show(self, done):
        now = time.perf_counter()
        if now - self.last < 0.2 and done < self.total:
            return  # redraw at most five times a second
        self.last = now
        dt = now - self.t0
        frac = done / max(self.total, 1)
        rate = done / dt if dt > 0 else 0.0
        left = (self.total - done) / rate if rate else 0.0
        bar = "#" * int(30 * frac)
        sys.stderr.write(f"\r[{bar:<30}] {done}/{self.total} points  {rate:,.0f}/s  "
                         f"{left:4.1f} s left")
        if done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _is_dask(Xs):
    """True if any input is a dask array (never imports dask: if it is not imported yet,
    no input can be one)."""
    da = sys.modules.get("dask.array")
    return da is not None and any(isinstance(x, da.Array) for x in Xs)


def _on_dask(obj, Xs, grad, **kw):
    """Batch replay of a dask array, block by block on Dask's workers: lazy (V, G)."""
    # tapegrad.replay.dask imports the dask library, an optional extra (pip install
    # tapegrad[dask]): imported here, when an input already is a dask array
    from . import dask as tapegrad_dask
    return tapegrad_dask.batch(obj, Xs, grad, **kw)


@functools.lru_cache(maxsize=256)  # a Python loop: ~1 us of every call otherwise
def _block(nvals, nrows, B):
    """Points per block (a power of 2, 8..1024).  Each row costs ~0.1 us per block to
    dispatch and ~0.2 ns per value it moves: large enough that a row moves ~1,000 values
    per block (Rosenbrock at n = 100: 32 points for the vector form's rows of 99 elements,
    256 for the scalar loop's), but a block's values and adjoints within ~4 MiB (beyond
    that, measured at 10^4 points, the L3 traffic costs more than the dispatch saved).
    Then halved while the block's values and adjoints exceed 256 KiB and a row would
    still move >= 500 values per block on average: long rows are limited by L2 bandwidth,
    not dispatch (CPU time per point, one thread, 10^4 points, 40 alternating rounds:
    Rosenbrock's vector form n = 10 at 128 points 42-43 ns against 43-45 at 256; n = 100
    at 16 points 582-624 ns against 647-685 at 32; the loop form's short rows keep their
    blocks).  At least 2 blocks per core, for the threads to share."""
    want = 1000 * nrows / max(nvals, 1)  # nrows: forward and reverse
    w = 8
    while w < 1024 and w < want and (2 * w) * nvals * 16 <= 1 << 22:
        w *= 2
    while w > 8 and w * nvals * 16 > 1 << 18 and (w // 2) * nvals >= 500 * max(nrows, 1):
        w //= 2
    while w > 8 and (B + w - 1) // w < 2 * _CORES:
        w //= 2
    return w


def _check_out(out, B, m, grad):
    V, G = out
    if V.shape != (B,) or V.dtype != np.float64 or not V.flags.c_contiguous:
        raise ValueError(f"out[0] must be a C-contiguous float64 array of shape ({B},)")
    if grad and (G.shape != (B, m) or G.dtype != np.float64 or not G.flags.c_contiguous):
        raise ValueError(f"out[1] must be a C-contiguous float64 array of shape ({B}, {m})")


MODE_LEFT = (
    "tapegrad.trace: f left grad mode {1} (it was {0} when f was called): "
    "set_grad_enabled called as a function, not restored, and replay cannot change the "
    "caller's grad mode as f does. Use `with torch.no_grad():` (or set_grad_enabled as a "
    "context manager) inside f, or call the compiled f with tensors (it then runs eagerly)")


def trace(f, *args, argnums=0, grad_mode=True):
    """Run ``f(*args)`` once on a private tape and return the replayable ``Traced`` tape.
    f returns one tensor: a scalar for value and gradient, any shape for the Jacobian
    methods (``jacobian_batch``, ``vjp_batch``, ``jvp_batch``).

    >>> import tapegrad as tg
    >>> t = tg.trace(lambda x: (x * x).sum(), [1.0, 2.0])
    >>> t.grad([3.0, 4.0])
    array([6., 8.])

    ``grad_mode``: the mode f sees (``torch.is_grad_enabled()``); False traces f as a call
    under ``no_grad`` sees it, for values only (its gradient is cut, as eagerly).
    """
    argnums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    arrays = [_as_array(a) for a in args]
    for j in argnums:
        if not 0 <= j < len(arrays):
            raise ValueError(f"argnums {argnums} out of range for {len(arrays)} inputs")
    tape = Tape()
    keep = tape.token()  # guard rows must survive the death of the tensors they looked at
    drawn = _rng_states()
    sentinel = _sentinel_states()
    saved = (state.tape, state.grad_enabled, state.tracing)
    state.tape, state.grad_enabled, state.tracing = tape, True, tape
    done = False
    try:
        xs = [Tensor(a.copy()).requires_grad_(True) for a in arrays]
        in_slots = [tape.adopt(x) for x in xs]  # traced from the start (escape checks)
        tape.inputs = xs  # (a backward inside f accumulating into them: engine.py)
        if not grad_mode:  # (ops still record: ops/control.py's _NoGradRows)
            tape.set_grad_mode(False)
        y = f(*xs)
        if not isinstance(y, Tensor):
            raise TypeError(f"trace: f must return a tapegrad Tensor, got {type(y).__name__}")
        if tape.grad_mode != grad_mode:  # (replay cannot leave the caller's mode changed)
            raise EagerOnlyError(MODE_LEFT.format(
                "disabled" if grad_mode else "enabled", "enabled" if grad_mode else "disabled"))
        if grad_mode and not y._rg or (y._gen != tape.gen):
            y = y * 1.0 if y._rg else None  # a constant output: record nothing to replay
            if y is None:
                raise ValueError("trace: f's output does not depend on its inputs")
        if grad_mode and (msg := _saved_changed(tape, y)) is not None:
            raise EagerOnlyError(msg)
        rows, offs, vals, consts, meta = (np.array(a) for a in tape.arrays())
        rows[:, 0] &= OP_MASK
        saved_inference(tape, rows, [*in_slots, *(s for s, _ in tape.leaves), *(
            s for s, r in tape.__dict__.get("watched", ()) if (u := r()) is not None and u._rg)])
        traced = Traced(rows, offs, vals, consts, meta, in_slots, [a.shape for a in arrays],
                        y._slot, argnums, tape.guards, fn=f, out_shape=tuple(y.shape),
                        no_derivative=eager_notes(tape, rows, meta, len(offs) - 1,
                                                  [in_slots[j] for j in argnums]))
        traced.grad_mode = grad_mode
        traced.reads_mode = tape.__dict__.get("read_mode", False)  # (is_grad_enabled())
        # f read tensors that require grad besides its inputs (a Module's parameters, a
        # value of the caller's graph): replay holds them as constants; or a backward inside
        # f added into its input's .grad (autograd/engine.py _into_input), a side effect
        # replay does not repeat.  Called with tensors, such an f runs eagerly
        inputs = set(in_slots)
        traced.reads_grad = (bool(tape.outside) or tape.__dict__.get("into_input", False)
                             or any(s not in inputs for s, _ in tape.leaves))
        # (alive once f returned: a closure's, a Module's; those f made and dropped cannot
        # change, nor cost a look at each call).  The tape holds its leaves: those f made
        # and dropped (tg.ones(3, requires_grad=True) inside f) die here, else they died
        # with the tape and every call of the trace called it stale
        held = [(s, weakref.ref(u)) for s, u in tape.leaves]
        tape.leaves.clear()
        tape.leaves.extend((s, u) for s, r in held if (u := r()) is not None)
        _refuse_outside_writes(tape, xs, y)
        traced.watch = [(s, weakref.ref(r(), _watched_died))
                        for s, r in tape.__dict__.get("watched", ())
                        if s not in inputs and r() is not None]
        traced._escaped = any(r() is not None and type(r()._data) is np.ndarray and
                              escaped(r()._data) for _, r in traced.watch)
        # (as f left them: a counter f bumps is not taken for a change at every call)
        traced.captured = _captures(f)
        _LIVE.add(traced)
        if not _same_states(sentinel, _rng_states()):
            raise _Draws(
                "tapegrad.trace: f drew random numbers while it was traced (tapegrad's, "
                "NumPy's or Python's generator moved, or a tapegrad.Generator was drawn "
                "from), and replay would repeat those draws at every point and call, unlike "
                "f. Pass the random values as an input of f (argnums picks what is "
                "differentiated), or call the compiled f with tensors (it then runs f eagerly)")
        done = True
    finally:
        state.tape, state.grad_enabled, state.tracing = saved
        # a tensor f kept (appended to an outside list) reads its values through a link
        # from now on (_record.py slot), as a tensor of a tape a backward retired
        tape.retired = True
        del keep
        if not done:
            _unbind_written(tape, ())  # (a failed trace: the writes stay, as eagerly)
        _put_back_draws(drawn, tape)  # (the caller's states: a trace draws nothing)
    # the replayed values (within ulps of eager's) are what a saved trace is checked against
    _narrowed(traced, tape.__dict__.get("dtypes"))
    traced.vals0 = _self_check(traced, arrays, np.asarray(y._data, np.float64).reshape(-1))
    return traced


def _saved_changed(tape, y):
    """Eager backward's refusal of a value saved for a row that f changed in place after
    (PyTorch's "modified by an inplace operation", autograd/saved.py), or None: replay would
    run that backward with the copies the tape saved.  A reverse sweep of the trace from y
    (retained: nothing is freed) finds it, where f changed a value the tape holds and no
    hook would run.  Another error of that sweep is left to the backward that meets it.
    (Leaves' hooks, LEAF_HOOKS and POST_HOOKS, are no reason to skip it: with no
    finish_leaf, the sweep delivers to no leaf; only this tape's own hooks would run.)"""
    if not tape.mutated or tape.hooks or tape.node_hooks or _graph.hooked(tape):
        return None
    try:
        _engine._sweep(tape, [y._slot], [np.ones(max(y.numel(), 1))], True)
    except RuntimeError as e:
        if str(e).startswith("one of the variables needed for gradient computation"):
            return str(e)
    return None


def _refuse_outside_writes(tape, xs, y):
    """Refuse an f that wrote in place into a tensor that outlives the call (a closure's or
    global buffer, a tensor f keeps): eagerly every call writes it, replay writes nothing,
    so each call's values would drift apart from f's (a counter in a tensor, a running
    statistic, a buffer reused as a workspace).  f's own temporaries are gone by now, but
    for those a reference cycle holds (collected first)."""
    written = tape.__dict__.get("written")
    if not written:
        return
    mine = {id(u) for u in xs}
    u = y  # (y, and the tensors y is a view of)
    while u is not None:
        mine.add(id(u))
        vb = getattr(u, "_vb", None)
        u = vb[0] if vb is not None else None
    left = [u for r in written if (u := r()) is not None and id(u) not in mine]
    if left:
        del left
        gc.collect()
        left = [u for r in written if (u := r()) is not None and id(u) not in mine]
    if left:
        shape = tuple(left[0].shape)
        del left
        _unbind_written(tape, mine)
        raise EagerOnlyError(
            f"tapegrad.trace: f wrote in place into a tensor that outlives the call (shape "
            f"{shape}: a closure's or global buffer, a Module's running "
            "statistics, a tensor f keeps), and replay repeats no write, so every later call "
            "would differ from f's. Keep that state out of f (pass it as an input, return the "
            "new value), or call the compiled f with tensors (it then runs f eagerly)")


def _unbind_written(tape, mine):
    """The tensors f wrote into in place, but those in ``mine`` (ids), cut from the private
    trace tape: the write stays, as eagerly; their values are no longer recorded there."""
    for r in tape.__dict__.get("written", ()):
        u = r()
        if u is not None and id(u) not in mine and u._tok is not None and u._tok.tape is tape:
            u._tok, u._gen, u._rg = None, 0, False


_EXACT_MOVES = (VIEW, STRIDED, EXPAND, GATHER, CAT, STACK, STOP_GRAD)


def _narrowed(traced, dtypes):
    """Refuse an f that computes in float32 (or float16): replay runs every row in float64
    and has no rounding rule, so only float32 values copied exactly from others replay as
    f computed them: a cast of a bool (``(x > 0).float()``), a view, an index, a cat of
    float32 or bool values.  A cast of a float64 value, float32 arithmetic or an in-place
    write into a float32 tensor rounds; its trace would agree with f where the rounding
    happened to be exact (at the traced point, say) and not elsewhere."""
    if not dtypes:
        return
    rows, meta = traced.rows, traced.meta
    exact = {s for s, dt in dtypes.items() if dt.kind in "biu" or dt.itemsize < 8}
    for r in np.nonzero(np.isin(rows[:, 1], list(dtypes)))[0].tolist():
        op, o, a, b, k = (int(v) for v in rows[r])
        dt = dtypes[o]
        if dt.kind != "f" or dt.itemsize >= 8:  # (float64 in any byte order: replay's own)
            continue
        reads = [a, b] + ([int(meta[j]) for j in OPS[op].meta_slots(meta, k)]
                          if OPS[op].meta_slots is not None else [])
        if op in _EXACT_MOVES and all(s < 0 or s in exact for s in reads):
            continue
        name = NAMES.get(op) or OPS[op].node(rows, meta, r)
        raise EagerOnlyError(
            f"trace: f computes in {dt} ({name} makes a {dt} value from float64 or by {dt} "
            f"arithmetic: a .float() or .to({dt}) of a float64 value, an op on {dt} "
            f"tensors, or an in-place write into one), and replay runs in float64, without "
            f"{dt}'s rounding: it would agree with f only where that rounding is exact. "
            "Compute f in float64 (replay's dtype), or call it eagerly (tapegrad.compile(f) "
            "called with tensors runs such an f eagerly)")


def _self_check(traced, arrays, expected):
    """Replay at the traced point must reproduce the traced value: every op has a compiled
    forward rule, and no value escaped the tape unnoticed.

    An exact-value guard (``item()``, ``float()``) then expects the value replay computes
    at the traced point: NumPy's libm and Numba's may differ in the last bit (tanh, exp),
    and replay must not flag the traced point itself (nor every point whose replayed value
    is the traced point's); the value f went on with is NumPy's, within that last bit."""
    for attempt in (0, 1):
        vals = traced.vals0.copy()
        bad = np.zeros(1, np.int64)
        r = _kernels._forward_replay(traced.rows, traced.offs, vals, traced.consts, traced.meta,
                                     0, len(traced.rows), 1, bad)
        if r >= 0:
            op = int(traced.rows[r, 0])
            raise NotImplementedError(f"trace: {NAMES.get(op, op)} (opcode {op}) has no "
                                      "compiled forward rule, so this function cannot be "
                                      "replayed")
        if not bad[0] or attempt:
            break
        _calibrate_guards(traced, vals)
    o = traced.out_slot
    got = vals[traced.offs[o]:traced.offs[o + 1]]
    # NumPy's vectorised libm and Numba's may differ in the last bit (exp, pow, sin): a
    # missing rule or an escaped value shows up far above this tolerance
    if not np.allclose(got, expected, rtol=1e-9, atol=1e-9, equal_nan=True) or bad[0]:
        raise RuntimeError(f"trace: replay at the traced point gives {got!r}, eager gave "
                           f"{expected!r}; please report this as a tapegrad bug")
    return vals


def _calibrate_guards(traced, vals):
    """Set each exact-value guard's expected value to the one replay computed at the traced
    point (``vals``), where they differ in the last bits only (each guard has its own const)."""
    for r in np.nonzero(traced.rows[:, 0] == GUARD_EQ)[0]:
        a, k = int(traced.rows[r, 2]), int(traced.rows[r, 4])
        c = int(traced.meta[k])
        got = vals[traced.offs[a]]
        if np.isclose(got, traced.consts[c], rtol=1e-9, atol=1e-12):
            traced.consts[c] = got


def _evaluate(tapes, fn, X, grad, mode, limit=None, out=None, progress=False):
    """Value (and gradient) of the scalar f at the rows of X by the trace ``tapes[0]``,
    divergence resolved: (V, G, mask or None).  A vector-valued f gives its values
    (B, *out_shape); its gradient is a Jacobian (``jacobian_batch``)."""
    t = tapes[0]
    if t.out_size != 1:
        if grad:
            raise RuntimeError(f"grad can be implicitly created only for scalar outputs: f's "
                               f"output has shape {t.out_shape}; use .jacobian(x), "
                               ".jacobian_batch(X) or .vjp_batch(X, v=...)")
        V, _, mask = _seeded(tapes, fn, X, np.zeros((1, 0, t.out_size)), mode, limit)
        return V.reshape(len(X), *t.out_shape), None, mask
    if out is not None:
        _check_out(out, len(X), X.shape[1], grad)
    V, G, bad = t.run(X, grad, out, progress)
    return _resolve(tapes, fn, X, V, G, bad, grad, mode, limit)


def _seeded(tapes, fn, X, U, mode, limit=None):
    """``Traced.run_seeded`` by the trace ``tapes[0]``, divergence resolved: (V, G, mask)."""
    V, G, bad = tapes[0].run_seeded(X, U)

    def run(t, idx):  # the diverging points idx by another trace
        return t.run_seeded(np.ascontiguousarray(X[idx]), U[idx] if len(U) > 1 else U)
    return _resolve(tapes, fn, X, V, G, bad, True, mode, limit, run)


def _resolve(tapes, fn, X, V, G, bad, grad, mode, limit=None, run=None):
    """Apply ``on_divergence`` to the points whose guards diverged: (V, G, mask or None).
    ``run(trace, idx)`` replays the points ``idx`` by another trace (default: its value
    and gradient at ``X[idx]``)."""
    if not bad.any():
        return V, G, None
    if mode == "retrace":
        if fn is None:
            raise DivergenceError("this trace was loaded without its function, so it cannot "
                                  "retrace; use on_divergence='raise' or 'mask'")
        if run is None:
            def run(t, idx):
                return t.run(np.ascontiguousarray(X[idx]), grad)
        return (*_retrace(fn, tapes, X, V, G, bad, run, tapes[0].argnums, limit), None)
    if mode == "mask":
        V[bad > 0] = np.nan
        if grad:
            G[bad > 0] = np.nan
        return V, G, bad == 0
    p = int(np.argmax(bad > 0))
    raise DivergenceError(
        f"point {p} takes another branch than the traced one: guard #{bad[p] - 1} "
        f"({validate.shown_name(tapes[0].guards[bad[p] - 1])}) decides differently there. Use "
        "tapegrad.compile(f) (it retraces), on_divergence='mask', or branch-free ops "
        "(tapegrad.where, clamp) in f")


def _retrace(fn, tapes, X, V, G, bad, run, argnums, limit=None):
    """Fill the points flagged in ``bad`` from other traces (``run(trace, idx)`` replays
    points ``idx``: (V, G, bad)), tracing anew where none fits.

    ``tapes`` is kept in order of last use after ``tapes[0]`` (the signature's first trace)
    and at most ``limit`` long (default ``RECOMPILE_LIMIT``): a fresh trace beyond that
    evicts the least recently used one."""
    limit = RECOMPILE_LIMIT if limit is None else limit
    todo = np.nonzero(bad)[0]
    tried = set(id(t) for t in tapes[:1])
    why = None if not todo.size else validate.shown_name(tapes[0].guards[bad[todo[0]] - 1])
    while todo.size:
        tape = next((t for t in tapes if id(t) not in tried), None)
        fresh = tape is None
        if fresh:
            tape = trace(fn, *tapes[0]._unstack(X[todo[0]]), argnums=argnums,
                         grad_mode=tapes[0].grad_mode)
            _count_retrace(fn, limit, why)
            tapes.insert(1, tape)
            del tapes[max(limit, 2):]  # the least recently used (never tapes[0])
        tried.add(id(tape))
        Vt, Gt, bt = run(tape, todo)
        ok = bt == 0
        V[todo[ok]] = Vt[ok]
        if len(G):
            G[todo[ok]] = Gt[ok]
        if fresh and bt[0]:  # (an older trace that fits none of the points is no error)
            raise RuntimeError(
                f"retrace: a fresh trace of f at point {int(todo[0])} diverges at that same "
                f"point (guard {validate.shown_name(tape.guards[bt[0] - 1])}): f's branches "
                "there depend on something other than its inputs (random numbers, a global or "
                "a counter that changes between calls); make them a function of the inputs, or "
                "use on_divergence='mask'")
        if ok.any() and not fresh and tape is not tapes[0]:
            try:  # most recently used: first after tapes[0]
                tapes.remove(tape)
                tapes.insert(1, tape)
            except ValueError:  # evicted meanwhile by another thread's retrace
                pass
        if not ok[0]:
            why = validate.shown_name(tape.guards[bt[0] - 1])
        todo = todo[~ok]
    return V, G


def _count_retrace(fn, limit, why):
    """Count f's fresh traces; past ``limit``, warn once (per function and process)."""
    try:
        with _TRACED_LOCK:
            n = _TRACED[fn] = _TRACED.get(fn, 0) + 1
    except TypeError:  # not weak-referenceable (a callable object of some kinds): no count
        return
    if n != limit + 1:
        return
    exact = why is not None and why.startswith(("item()", "int()", "float()"))
    hint = ("it branches on an exact value (x[0].item() > 0, int(x[0]), float(x[0])), which "
            "guards that value itself, so every new point needs a trace of its own. Branch "
            "on the tensor instead, `if x[0] > 0:`, which guards only the comparison: one "
            "trace then serves every point taking that branch" if exact else
            "its branches take more patterns than that (a data-dependent loop?). Use "
            "tapegrad.where or clamp for branch-free code, where you can")
    name = getattr(fn, "__qualname__", repr(fn))
    code = getattr(fn, "__code__", None)
    at = f" ({code.co_filename}:{code.co_firstlineno})" if code is not None else ""
    warnings.warn(
        f"tapegrad.compile: {name}{at} has been retraced {n} times, past the recompile limit "
        f"({limit}); the guard that keeps diverging is {why}: {hint}. Only the {limit} most "
        "recently used traces per input signature are kept; set the limit with "
        "tapegrad.compile(f, recompile_limit=N)", RuntimeWarning, stacklevel=_user_level())


def _user_level():
    """warnings' stacklevel of the first frame outside tapegrad (the user's call)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith("tapegrad"):
        frame, level = frame.f_back, level + 1
    return level


def _fused_request(t, wait, mask=None):
    """``fused.request``; for a vector output, ``jacobian_batch(index=, out=)``'s gather
    and scatter kernels too, and with ``mask`` its direct kernel for that mask (``wait``:
    they are ready on return, where fused kernels are enabled).  (The plain
    ``jacobian_batch``'s and ``vjp_batch``'s direct kernels are queued at their first call
    once t is hot: ``gather.request_dense`` asks ahead; a kernel each for every trace here
    would double the compile of a tape used one way.)"""
    status = fused.request(t, wait=wait)
    if t.out_size != 1 and status != "disabled":
        gather.helpers_ready(wait=wait)
    if mask is not None and status != "disabled":
        gather.request_direct(t, mask, wait)
    return status


class Compiled(_VectorOutputs):
    """``tapegrad.compile(f)``: f's value and gradient by replay, traced per input signature."""

    def __init__(self, fn, argnums=0, on_divergence="retrace", recompile_limit=None,
                 fused=None):
        if on_divergence not in _MODES:
            raise ValueError(f"on_divergence must be one of {_MODES}, got {on_divergence!r}")
        limit = RECOMPILE_LIMIT if recompile_limit is None else recompile_limit
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(f"compile: recompile_limit must be a positive int, got {limit!r}")
        self.fn = fn
        self.argnums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
        self.on_divergence = on_divergence
        self.recompile_limit = limit
        # input shapes -> [Traced, ...] (one per branch pattern, most recently used first
        # after the signature's first trace; at most recompile_limit), at most _SIGNATURES
        self.traces = {}
        self._local = _PerThread()
        # f draws random numbers, or reads a computed value's graph metadata (requires_grad,
        # is_leaf, grad_fn): called with tensors, it runs eagerly (torch.compile's graph break)
        self._eagerly = False
        self._hot = _NoTrace  # the first trace of the last one-array signature a point took
        self._watching = False  # a trace holds tensors f read besides its inputs (_refresh)
        _LIVE.add(self)
        self._seen = -1  # WRITES.n when they were last seen unchanged
        self._captured = ()  # the numbers and arrays f's code reads (``_captures``)
        self.fused = fused  # fused kernels: None after FUSE_AFTER points, True at once, False never
        # the grad mode f sees while traced: a value call under no_grad goes to a twin whose
        # traces saw it off (f may branch on torch.is_grad_enabled(), as torch.compile guards)
        self._grad_mode, self._off = True, None
        self._reads_mode = False  # a trace of f read the grad mode

    mask = Traced.mask

    def _no_grad_twin(self):
        off = self._off
        if off is None:
            off = self._off = Compiled(self.fn, self.argnums, self.on_divergence,
                                       self.recompile_limit, self.fused)
            off._grad_mode = False
        return off

    def _tapes(self, args, batch):
        shapes = tuple(np.shape(_as_array(a))[1 if batch else 0:] for a in args)
        tapes = self.traces.get(shapes)
        if tapes is None:
            first = [np.asarray(_as_array(a))[0] if batch else a for a in args]
            if batch and not len(np.asarray(args[0])):
                first = [np.zeros(s) for s in shapes]
            tapes = [trace(self.fn, *first, argnums=self.argnums, grad_mode=self._grad_mode)]
            tapes[0]._fused_auto = self.fused
            self._reads_mode = self._reads_mode or tapes[0].reads_mode
            self._watching = self._watching or bool(tapes[0].watch or tapes[0].captured)
            self._captured = self._captured or tapes[0].captured  # (f's: every trace's)
            while len(self.traces) >= _SIGNATURES:  # the oldest signature goes
                self.traces.pop(next(iter(self.traces)), None)
                self._hot = _NoTrace
            self.traces[shapes] = tapes
        return tapes

    def _refresh(self):
        """Drop every trace where a tensor f read besides its inputs has changed since it
        was traced (an optimizer step on a Module's parameters, an in-place write to a
        closure's tensor), or a number or array f's code reads (``_captures``): f is traced
        anew at the next point, as torch.compile's guards do.  No tensor to look at while
        none was written since the last look (``WRITES``)."""
        n = WRITES.n
        if n == self._seen and not (self._captured and _moved(self._captured)):
            return
        tapes = [t for ts in list(self.traces.values()) for t in ts if t.watch or t.captured]
        if not all(_fresh(t) for t in tapes):
            self.traces.clear()
            self._hot = _NoTrace
            self._watching = False
            self._captured = ()
        elif not any(t._escaped for t in tapes):  # (NumPy's writes are never counted)
            self._seen = n

    def _run(self, args, batch, grad, out=None, progress=False):
        if self._watching:
            self._refresh()
        if not args:
            raise TypeError("compile: no inputs given; pass f's inputs (for the batch methods "
                            "one array per input, each of shape (B, *input_shape))")
        if batch and _is_dask(args):  # lazy dask arrays, chunked like X (tapegrad/replay/dask.py)
            return _on_dask(self, args, grad, out=out, progress=progress)
        tapes = self._tapes(args, batch)
        X = tapes[0]._stack(args, batch=batch)
        V, G, self._local.mask = _evaluate(tapes, self.fn, X, grad, self.on_divergence,
                                           self.recompile_limit, out, progress)
        return V, (tapes[0]._split(G, batched=batch) if grad else None)

    def _mode(self, args, on_divergence):
        """on_divergence of a vector-output call (the function's own if None), checked."""
        if not args:
            raise TypeError("compile: no inputs given; pass f's inputs (for the batch methods "
                            "one array per input, each of shape (B, *input_shape))")
        return _checked_mode(self.on_divergence if on_divergence is None else on_divergence)

    def _seeded_run(self, args, batch, seeds, on_divergence):
        if self._watching:
            self._refresh()
        mode = self._mode(args, on_divergence)
        tapes = self._tapes(args, batch)
        X = tapes[0]._stack(args, batch=batch)
        V, G, self._local.mask = _seeded(tapes, self.fn, X, seeds(tapes[0], len(X)), mode,
                                         self.recompile_limit)
        return tapes[0], V, G

    def _gather_tapes(self, Xs, index, on_divergence):
        """(traces, mode, recompile limit) for ``_gathered``: the signature's traces, f
        traced at the first point if it has none."""
        if self._watching:
            self._refresh()
        mode = self._mode(Xs, on_divergence)
        firsts = []
        for j, x in enumerate(Xs):  # (what is wrong here, gather.Spec then names)
            a = _as_array(x)
            try:
                ix = index[j] if index is not None else None
                firsts.append(a[int(np.asarray(ix)[0]) if ix is not None else 0])
            except (IndexError, TypeError, ValueError):
                firsts.append(np.zeros(a.shape[1:]))
        return self._tapes(firsts, batch=False), mode, self.recompile_limit

    def __call__(self, *args, **kwargs):
        """f at one point, by replay.  Called with tensors, as ``torch.compile(f)(x)``, it
        returns a Tensor on the caller's graph: one row (``CompiledFunctionBackward``)
        whose forward is the replay and whose backward the replay's vector-Jacobian
        product, guards checked at the point as ever.  f runs eagerly instead where replay
        would lose a gradient: f reads tensors that require grad besides its arguments
        (a Module's parameters), or an argument is not float64 (replay's dtype); and where
        the trace cannot stand for f: keyword arguments, an output that is not one tensor
        (a tuple, a dict, a number), an argument f cannot take as a float64 tensor (an
        int for ``range``) -- torch.compile's graph break."""
        if kwargs:
            if any(isinstance(a, Tensor) for a in (*args, *kwargs.values())):
                return self.fn(*args, **kwargs)
            raise TypeError(
                f"compile: keyword arguments ({', '.join(kwargs)}) are not replayed; pass "
                "them positionally (each an input of the trace), or bind them with "
                "functools.partial, or call with tensors (f then runs eagerly)")
        if (self._reads_mode or not self.traces) and self._grad_mode and \
                not state.grad_enabled:  # (under no_grad f sees it off: only if f reads it)
            return self._no_grad_twin()(*args)
        if self._watching:
            self._refresh()
        r = self._point(args, False)
        if r is not None:
            return r[0]
        if any(isinstance(a, Tensor) for a in args):
            return self._call_tensors(args)
        return self._run(args, batch=False, grad=False)[0][0]

    def _call_tensors(self, args):
        if (state.tracing is not None  # inside another trace: f is recorded into it
                or not state.grad_enabled
                or not any(isinstance(a, Tensor) and a._rg for a in args)
                or any(isinstance(a, Tensor) and a.dtype != np.float64 for a in args)
                # a Module: its parameters and buffers (running stats) belong to each call
                or callable(getattr(self.fn, "parameters", None)) or self._eagerly):
            return self.fn(*args)  # eagerly: f's own result, on the caller's graph
        try:  # (a trace that fails puts back the generators f drew from: trace)
            tapes = self._tapes(args, batch=False)
        except (_Draws, EagerOnlyError, TypeError):  # a trace would freeze the draws, or
            # the branch; or f returns no single tensor, or takes an argument as no float64
            # tensor can be taken (range(n)): eagerly f answers or raises as itself
            self._eagerly = True
            return self.fn(*args)
        X = tapes[0]._stack(args, batch=False)
        V, _, self._local.mask = _seeded(tapes, self.fn, X, np.zeros((1, 0, tapes[0].out_size)),
                                         self.on_divergence, self.recompile_limit)
        if any(t._loses_grad() for t in tapes):  # on any branch: replay would lose a gradient
            return self.fn(*args)
        return _CompiledCall.apply(self, tapes, V[0], *args)

    def grad(self, *args):
        return self.value_and_grad(*args)[1]

    def value_and_grad(self, *args):
        if self._watching:
            self._refresh()
        hot = _NoTrace
        if len(args) == 1:  # the trace of the last signature first, without a look-up
            hot = self._hot
            r = hot._fast(hot, args[0], True)
            if r is not None:
                if _PerThread.kept:
                    self._local.mask = None
                return r
        r = self._point(args, True, hot)
        if r is not None:
            return r
        V, g = self._run(args, batch=False, grad=True)
        return V[0], g

    def _point(self, args, grad, tried=_NoTrace):
        """``Traced._point`` by the signature's first trace (the others answer through the
        general path, when that trace's guards fail), or None; None at once where that
        trace is ``tried`` (it answered None already)."""
        if len(args) == 1 and type(args[0]) is np.ndarray:
            tapes = self.traces.get((args[0].shape,))
            if tapes is None:
                return None
            t = self._hot = tapes[0]  # (one input, of this shape)
            if t is tried:
                return None
            r = t._fast(t, args[0], grad)
        else:
            try:
                tapes = self.traces.get(tuple([a.shape for a in args]))
            except AttributeError:  # (numbers, lists: the general path)
                return None
            r = None if tapes is None else tapes[0]._point(args, grad)
        if r is not None and _PerThread.kept:
            self._local.mask = None
        return r

    def value_batch(self, *Xs):
        if (self._reads_mode or not self.traces) and self._grad_mode and \
                not state.grad_enabled:  # (as __call__)
            return self._no_grad_twin().value_batch(*Xs)
        return self._run(Xs, batch=True, grad=False)[0]

    def grad_batch(self, *Xs, out=None):
        return self._run(Xs, batch=True, grad=True, out=out)[1]

    def value_and_grad_batch(self, *Xs, out=None, progress=False):
        """(values (B,), gradients (B, *input_shape)) at B points, compiled, on all cores.

        ``progress=True`` prints a progress bar to stderr (for long batches)."""
        return self._run(Xs, batch=True, grad=True, out=out, progress=progress)

    def compile_fused(self, *args, wait=True, mask=None):
        """Compile the fused kernels of f's traces ahead of time (tracing f at ``args``
        first, if given: one point); ``wait`` blocks until they are ready.  Returns their
        statuses ('fused', or 'ineligible: why' where the interpreter stays).  ``mask``:
        also the direct kernels of ``jacobian_batch(..., out=(data, start, mask))``."""
        if args:
            self._tapes(args, batch=False)
        return [_fused_request(t, wait, mask) for ts in list(self.traces.values()) for t in ts]

    # second order, by replaying a traced gradient (tapegrad/replay/second_order.py)
    def hvp(self, x, v):
        """The Hessian-vector product ``H(x) v``, by replay."""
        return second_order.hvp(self, x, v)

    def hvp_batch(self, X, V):
        """``H(X[b]) V[b]`` at every row b of X and V, compiled, on all cores."""
        return second_order.hvp_batch(self, X, V)

    def hessian(self, x):
        _fits((3, *np.shape(x), *np.shape(x)), "hessian")
        return second_order.hessian(self, x)

    def hessian_batch(self, X):
        """Hessians at B points: (B, n, n) for X of shape (B, n)."""
        # (B n products: their points, unit tangents and results, each (B, n, n))
        _fits((3, *np.shape(X), *np.shape(X)[1:]), "hessian_batch")
        return second_order.hessian_batch(self, X)


class _CompiledCall(Function):
    """``tapegrad.compile(f)(tensors)`` as one row of the caller's graph.  Forward: f's
    value by replay; backward: the replay's vector-Jacobian product (both resolve a point
    on another branch by ``on_divergence``: retrace, raise or mask).  Under create_graph
    the backward is f's own eager VJP instead, recorded, so higher derivatives hold."""
    node_name = "CompiledFunctionBackward"  # (torch.compile's node)

    @staticmethod
    def forward(ctx, c, tapes, value, *args):
        ctx.c, ctx.tapes = c, tapes
        ctx.X = tapes[0]._stack(args, batch=False)
        ctx.save_for_backward(*[a for a in args if isinstance(a, Tensor)])
        ctx.args = [None if isinstance(a, Tensor) else a for a in args]
        return Tensor(value.reshape(tapes[0].out_shape))  # (replayed by _call_tensors)

    @staticmethod
    def backward(ctx, gy):
        saved = iter(ctx.saved_tensors)
        args = [next(saved) if a is None else a for a in ctx.args]
        if state.grad_enabled:  # create_graph: a differentiable backward, eagerly
            wrt = [a for a in args if isinstance(a, Tensor) and a.requires_grad]
            gs = iter(grad(ctx.c.fn(*args), wrt, gy, create_graph=True, allow_unused=True))
            return (None, None, None, *[next(gs) if isinstance(a, Tensor) and a.requires_grad
                                        else None for a in args])
        t = ctx.tapes[0]
        U = np.asarray(gy.detach()._data, np.float64).reshape(1, 1, t.out_size)
        _, G, _ = _seeded(ctx.tapes, ctx.c.fn, ctx.X, U, ctx.c.on_divergence,
                          ctx.c.recompile_limit)
        return (None, None, None,
                *[Tensor(G[0, 0, t._cols[i]:t._cols[i + 1]].reshape(t.in_shapes[i]))
                  if isinstance(a, Tensor) else None for i, a in enumerate(args)])


def compile(fn=None, *, argnums=0, on_divergence="retrace", recompile_limit=None,  # noqa: A001
            fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None,
            disable=False, fused=None):
    """Compile ``fn`` for replay: ``compile(f)(x)``, ``.grad(x)``, ``.value_and_grad_batch(X)``.

    ``recompile_limit`` (default ``RECOMPILE_LIMIT``, 8): traces of ``fn`` before a warning,
    and the most traces kept per input signature (least recently used go first).
    ``torch.compile``'s options (``fullgraph``, ``dynamic``, ``backend``, ``mode``,
    ``options``, ``disable``) are accepted and have no effect.  ``fused``: True compiles each
    trace's fused kernel in the background at once, False never, None (default) once a
    trace has evaluated ``fused.FUSE_AFTER`` points (tapegrad/replay/fused.py).

    >>> import numpy as np, tapegrad as tg
    >>> f = tg.compile(lambda x: (x ** 2).sum())
    >>> f.grad_batch(np.array([[1.0, 2.0], [3.0, 4.0]]))
    array([[2., 4.],
           [6., 8.]])
    """
    if fn is None:
        return lambda f: Compiled(f, argnums, on_divergence, recompile_limit, fused)
    return Compiled(fn, argnums, on_divergence, recompile_limit, fused)


def batch_grad(fn, *Xs, argnums=0):
    """Gradient of scalar ``fn`` at each of B points (rows of each X), by batch replay."""
    if not callable(fn):
        raise TypeError(f"batch_grad(fn, *Xs): fn must be callable, got {type(fn).__name__}")
    if not Xs:
        raise TypeError("batch_grad(fn, *Xs): no points given; pass one array per input of "
                        "fn, each of shape (B, *input_shape): batch_grad(f, X)")
    return Compiled(fn, argnums).grad_batch(*Xs)


__all__ = ["Compiled", "DivergenceError", "Traced", "batch_grad", "compile", "load", "trace"]
