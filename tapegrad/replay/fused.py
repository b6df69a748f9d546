"""Fused kernels per traced tape (issue 21): a tape's rows as one generated Numba function.

The interpreter (``_sweep._replay_blocks``) dispatches every row at every block of points.
A fused kernel is Python source generated from a trace's replay plan (``_Plan``): the
forward rows, then the reverse rows, written out as straight-line code over local scalars
for size-1 slots and as loops over small per-thread arrays (``W`` values, ``A`` adjoints)
for vector slots, inside one loop over points.  Consecutive elementwise rows of one length
share one loop, their operands and intermediates held in locals (a sum in the loop that
computes its operand, a sum's reverse in the loop that uses its adjoint); vector inputs
are read from X and their adjoints summed in G where they are (no copies); a kernel
written out in locals runs each reverse statement as soon as its inputs exist
(``_interleave``), and an adjoint's first contribution ``0.0 + P`` is ``P`` where a zero's
sign cannot reach an output (``_drop_zero_adds``).

The rules of this tier (DESIGN, tiered replay):

- **The first result never waits on a compile.**  Kernels are generated and compiled in a
  background thread; until one is ready the interpreter answers, then the kernel takes
  over (``Traced.run`` and the single-point path ask for it on every call).  A tape is
  queued once it has been evaluated at ``FUSE_AFTER`` points (batch points and
  single-point calls together), or at its first use with ``tg.compile(f, fused=True)``;
  ``Compiled.compile_fused(*args, wait=True)`` / ``Traced.compile_fused(wait=True)``
  compile ahead of time and wait.
- **Bit for bit.**  Every template is its rule's arithmetic in the rule's order (adjoints
  start at 0.0 and are accumulated row by row, the last row first, as ``_reverse_sweep``
  does; a fused loop only where that order is kept element by element), so kernel and
  interpreter agree exactly (``tests/test_fused.py`` compares generated tapes).  A
  product large enough for the interpreter to call BLAS (M K N >= 4096) is not fused.
- **Vector outputs** get a ``seeded`` kernel instead (``Traced.run_seeded``: ``jacobian``,
  ``jacobian_batch``, ``vjp_batch``, ``jvp_batch``): per point one forward, then the reverse
  once per seed row in the point's own locals (``_sweep._seeded_blocks`` runs the rows once
  for all seeds side by side; the arithmetic per seed is the same).  A scalar output's
  ``batch`` kernel serves its Jacobian (the seed 1.0); other seeds of a scalar output stay
  interpreted.  The batch calls then queue *direct* kernels of their own
  (``direct_source``: ``jacobian_batch(index=, out=)``'s per mask; "dense" for the plain
  ``jacobian_batch`` and ``jvp_batch``, "vjp" for ``vjp_batch``), which take over once
  ready: inputs read where they are, unit seeds as literals, only the argnums' columns.
- **Ineligible tapes stay interpreted**: a row without a template (``COVERED``), more than
  ``MAX_ROWS`` rows, ``MAX_VALUES`` values or ``MAX_PIECES`` pieces of code (map entries,
  block copies, products: what a loaded file's data could make us generate), or in-place
  rows.  ``status(t)`` says which.
- **Guards** are checked at every point as the interpreter checks them; a diverging point
  is flagged (``bad``) and resolved as ever (retrace, raise or mask), by the other traces'
  own kernels or the interpreter.
- **Disk cache**: the source goes to ``cache_dir()`` as ``tg_fused_<sha256>.py`` (the hash
  of the source, which holds the tape's opcodes, shapes and constants, and of the Numba
  version) and compiles with Numba's ``cache=True``: another process loads the machine code
  instead of compiling.  The directory is bounded (``CACHE_MB``, default 256): the oldest
  kernels go first.  The source is self-contained (no call into tapegrad), so an edited
  rule can never run stale from it: the edit changes the generated source, hence the key.
- ``TAPEGRAD_FUSED=0`` (or ``set_enabled(False)``) turns the tier off; it is off under
  ``NUMBA_DISABLE_JIT=1``.
"""
import atexit
import concurrent.futures
import ctypes
import hashlib
import heapq
import math
import os
import pathlib
import queue
import re
import sys
import threading
import time
import types
import warnings
import weakref

import numpy as np

from .. import _eager, _jit
from ..ops import control as C
from ..ops import elementwise as E
from ..ops import linalg as L
from ..ops import reductions as R
from ..ops import shape as S
from ..ops import strided as T
from ..ops.registry import NAMES, OPS

GENERATOR = 2  # part of every key: bump when the generated code's conventions change
MAX_ROWS = 2500  # longer tapes stay interpreted.  Compile time grows about linearly since
# the kernels are single-assignment (_single_assignment; it was quadratic): Rosenbrock's loop
# form, CPU seconds, 99 rows 0.9 s, 1,089 rows (n = 100) 8 s (was 191 s wall, loaded)
MAX_VALUES = 1 << 16  # larger arenas stay interpreted: the generator writes and scans code
# per element (an input's gradient stores, its runs of array elements): a trace of
# (2 x).sum() over 10**6 inputs took 50 s to generate here (loaded machine), in Python, in
# the compile thread; a loaded file's arena may hold 10**8
MAX_PIECES = 1 << 16  # and tapes whose code grows with their rows' data, not their count:
# move rows' index maps (a literal per output element), cat block copies (a loop each: a cat
# of empty blocks claims any number), batched products (loops each, empty ones too)
FUSE_AFTER = 200_000  # points a tape evaluates before its kernel is queued


def _cache_mb(text, default=256.0):
    """TAPEGRAD_FUSED_CACHE_MB's megabytes: a number >= 0; anything else is reported (as
    Numba reports a value of its own variables it cannot parse) and the default used.
    (float() of it at import made ``import tapegrad`` fail on "256MB", naming no variable;
    "nan" emptied the cache at every kernel written.)"""
    if not text:  # (unset, or set to nothing)
        return default
    try:
        mb = float(text)
    except ValueError:
        mb = math.nan
    if not mb >= 0:
        warnings.warn(f"tapegrad: TAPEGRAD_FUSED_CACHE_MB={text[:40]!r} is not a number of "
                      f"megabytes >= 0; the fused-kernel cache keeps up to {default:g} MB",
                      RuntimeWarning, stacklevel=2)
        return default
    return mb


CACHE_MB = _cache_mb(os.environ.get("TAPEGRAD_FUSED_CACHE_MB"))
_ENABLED = [os.environ.get("TAPEGRAD_FUSED", "1") != "0" and not _jit.DISABLED]
SERIAL_VALUES = 1 << 18  # values x points below which one thread runs a batch
_CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def set_enabled(on):
    """Fused kernels on or off for this process (``TAPEGRAD_FUSED=0`` at start-up)."""
    _ENABLED[0] = bool(on) and not _jit.DISABLED


def enabled():
    return _ENABLED[0]


class Ineligible(Exception):
    """The tape cannot be fused (the message says why); the interpreter keeps running it."""


# -- templates ---------------------------------------------------------------------------
# Each elementwise opcode: (forward expression, reverse statements), its rule's exact
# arithmetic.  Fields: {a} {b} the inputs' values, {w} where's condition, {y} the output,
# {c} {d} the row's constants, {gy} the output's adjoint, {ga} {gb} the inputs'.  None:
# no reverse (comparisons and detach: the sweep never passes them).
_ADD_GY = ["{ga} += {gy}"]
_TEMPLATES = {
    E.NEG: ("-{a}", ["{ga} -= {gy}"]),
    E.ABS: ("math.fabs({a})", ["if {a} > 0.0:\n    {ga} += {gy}\nelif {a} < 0.0:\n"
                               "    {ga} -= {gy}\nelse:\n    {ga} += {gy} * 0.0"]),
    E.EXP: ("math.exp({a})", ["{ga} += {gy} * {y}"]),
    E.LOG: ("(math.log({a}) if {a} > 0.0 else (-math.inf if {a} == 0.0 else math.nan))",
            ["{ga} += {gy} / {a}"]),
    E.LOG2: ("(math.log2({a}) if {a} > 0.0 else (-math.inf if {a} == 0.0 else math.nan))",
             ["{ga} += {gy} / ({a} * _LN2)"]),
    E.LOG1P: ("(math.log1p({a}) if {a} > -1.0 else (-math.inf if {a} == -1.0 else math.nan))",
              ["{ga} += {gy} / (1.0 + {a})"]),
    E.EXPM1: ("math.expm1({a})", ["{ga} += {gy} * ({y} + 1.0)"]),
    E.SQRT: ("(math.sqrt({a}) if {a} >= 0.0 else math.nan)", ["{ga} += {gy} / (2.0 * {y})"]),
    E.SIN: ("math.sin({a})", ["{ga} += {gy} * math.cos({a})"]),
    E.COS: ("math.cos({a})", ["{ga} -= {gy} * math.sin({a})"]),
    E.TAN: ("math.tan({a})", ["{ga} += {gy} * (1.0 + {y} * {y})"]),
    E.TANH: ("math.tanh({a})", ["{ga} += {gy} * (1.0 - {y} * {y})"]),
    E.SIGMOID: ("_sigmoid({a})", ["{ga} += {gy} * {y} * (1.0 - {y})"]),
    E.RELU: ("(0.0 if {a} <= 0.0 else {a})", ["if not {y} <= 0.0:\n    {ga} += {gy}"]),
    E.ATAN: ("np.arctan({a})", ["{ga} += {gy} / ({a} * {a} + 1.0)"]),
    E.SINH: ("np.sinh({a})", ["{ga} += {gy} * np.cosh({a})"]),
    E.COSH: ("np.cosh({a})", ["{ga} += {gy} * np.sinh({a})"]),
    E.SIGN: ("(1.0 if {a} > 0.0 else (-1.0 if {a} < 0.0 else 0.0))", []),
    E.FLOOR: ("np.floor({a})", []),
    E.CEIL: ("np.ceil({a})", []),
    C.STOP_GRAD: ("{a}", None),
    S.VIEW: ("{a}", _ADD_GY),
    E.ADD_C: ("{a} + {c}", _ADD_GY),
    E.SUB_C: ("{a} - {c}", _ADD_GY),
    E.RSUB_C: ("{c} - {a}", ["{ga} -= {gy}"]),
    E.MUL_C: ("{a} * {c}", ["{ga} += {gy} * {c}"]),
    E.DIV_C: ("{a} / {c}", ["{ga} += {gy} / {c}"]),
    E.RDIV_C: ("{c} / {a}", ["{ga} -= {gy} * {y} / {a}"]),
    E.CLAMP: ("_clamp({a}, {c}, {d})", ["if {a} >= {c} and {a} <= {d}:\n    {ga} += {gy}"]),
    E.ADD: ("{a} + {b}", ["{ga} += {gy}", "{gb} += {gy}"]),
    E.SUB: ("{a} - {b}", ["{ga} += {gy}", "{gb} -= {gy}"]),
    E.MUL: ("{a} * {b}", ["{ga} += {gy} * {b}", "{gb} += {gy} * {a}"]),
    E.DIV: ("{a} / {b}", ["{ga} += {gy} / {b}", "{gb} -= {gy} * (({a} / {b}) / {b})"]),
    E.POW: ("{a} ** {b}", ["if {b} != 0.0:\n    {ga} += {gy} * {b} * {a} ** ({b} - 1.0)",
                           "if not ({a} == 0.0 and {b} >= 0.0):\n"
                           "    {gb} += {gy} * {y} * math.log({a})"]),
    E.MAXIMUM: ("_maximum({a}, {b}, 1.0)", ["_maximum_rev({a}, {b}, {gy}, 1.0)"]),
    E.MINIMUM: ("_maximum({a}, {b}, -1.0)", ["_maximum_rev({a}, {b}, {gy}, -1.0)"]),
    E.ATAN2: ("np.arctan2({a}, {b})", ["_atan2_rev({a}, {b}, {gy})"]),
    E.WHERE: ("({a} if {w} != 0.0 else {b})",
              ["if {w} != 0.0:\n    {ga} += {gy}\nelse:\n    {gb} += {gy}"]),
    C.CMP: ("(1.0 if {a} {cmp} {b} else 0.0)", None),
    C.CMP_C: ("(1.0 if {a} {cmp} {c} else 0.0)", None),
}
# two-output reverse helpers: (ga, gb) increments, unpacked by the caller
_PAIR_REV = {"_maximum_rev", "_atan2_rev"}
_CMP = ("<", "<=", ">", ">=", "==", "!=")
_CONST_OPS = (E.ADD_C, E.SUB_C, E.RSUB_C, E.MUL_C, E.DIV_C, E.RDIV_C, E.CLAMP)
_MOVES = (T.EXPAND, T.STRIDED, S.GATHER)
_CATS = (S.CAT, S.STACK)
_MATMUL = (L.MM, L.MV, L.DOT, L.BMM)
COVERED = frozenset([*_TEMPLATES, E.POW_C, E.RPOW_C, R.SUM, R.MEAN, *_MOVES, *_CATS, *_MATMUL,
                     C.GUARD, C.GUARD_EQ])


def op_name(op):
    """An opcode as its forward rule names it (``exp``, ``matmul``, ``guard_eq``)."""
    if op == S.VIEW:
        return "view"  # (a copy the sweeps do inline: no rule of its own)
    fwd = getattr(OPS.get(op), "fwd", None)
    return fwd.__name__.removesuffix("_fwd") if fwd is not None else str(op)


def covered_names():
    """The ops with a fused template, by their forward rules' names (sorted)."""
    return sorted({op_name(op) for op in COVERED})


# helpers the generated module defines for itself: the kernel is self-contained (see the
# module docstring), each one its rule's arithmetic
_PRELUDE = '''\
import math
import numpy as np
from numba import njit

_LN2 = math.log(2.0)
_OPTS = dict(cache=True, nogil=True, fastmath=False, error_model="numpy")


{sigmoid}


@njit
def _maximum(x, y, s):
    return x if s * x > s * y or x != x else y


@njit
def _maximum_rev(a, b, gy, s):
    x = s * a
    y = s * b
    if x == y:
        return gy * 0.5, gy * 0.5, True, True
    return gy, gy, not x < y, not x > y


@njit
def _atan2_rev(x, y, gy):
    r = x * x + y * y
    if r != 0.0:
        return gy * y / r, gy * x / r, True, True
    return 0.0, 0.0, False, False


@njit
def _clamp(x, lo, hi):
    if x < lo:
        x = lo
    if x > hi:
        x = hi
    return x
'''
_PRELUDE = _PRELUDE.replace("{sigmoid}", _eager._sigmoid_source())  # (its own formula)


def _lit(v):
    """A float64 as an exact Python literal."""
    v = float(v)
    if v != v:
        return "math.nan"
    if v in (math.inf, -math.inf):
        return "math.inf" if v > 0 else "(-math.inf)"
    return f"({v!r})" if math.copysign(1.0, v) < 0 else repr(v)


def _map_of(op, meta, k, ne):
    """A move row's source element per output element (EXPAND, STRIDED, GATHER)."""
    if op == S.GATHER:
        return [int(j) for j in meta[k + 1:k + 1 + ne]]
    index = getattr(T.strided_index, "py_func", T.strided_index)
    k += op == T.STRIDED  # (after the view's name)
    return [int(index(i, meta, k)) for i in range(ne)]


class _Group:
    """An open loop over ``n`` elements shared by consecutive elementwise rows: the ranges
    it touched, and its locals (``W[e + i]`` / ``A[e + i]`` held in registers)."""

    def __init__(self, n):
        self.n = n
        self.lines = []
        self.local = {}  # array ref -> local name
        self.dirty = []  # (array ref, local): stored back when the group closes
        self.ranges = {}  # (kind, first element) -> n; kind 'v' written, 'r' read, 'g' adj
        self.pre = []  # lines before the loop and after it (sums taken in it)
        self.post = []


class _Gen:
    """The source of one tape's kernels, from its replay plan."""

    def __init__(self, t, plan):
        self.p = plan
        self.offs = plan.offs
        self.nv = int(plan.offs[-1])
        fwd = plan.fwd
        if len(fwd) > MAX_ROWS:
            raise Ineligible(f"{len(fwd)} rows (more than {MAX_ROWS})")
        for op in np.unique(fwd[:, 0]).tolist():
            if op not in COVERED:
                raise Ineligible(f"{op_name(op)} (opcode {op}, {NAMES.get(op, '?')}) has no "
                                 "fused template")
        if self.nv > MAX_VALUES:
            raise Ineligible(f"{self.nv} values (more than {MAX_VALUES})")
        pieces = self._pieces(fwd)
        if pieces > MAX_PIECES:
            raise Ineligible(f"its rows' code would take {pieces} pieces (map entries, block "
                             f"copies, products; more than {MAX_PIECES})")
        outs = fwd[:, 1][fwd[:, 1] >= 0]
        self.in_slots = [2 * int(s) for s in t.in_slots]
        if len(np.unique(outs)) != len(outs) or np.isin(outs, self.in_slots).any():
            raise Ineligible("in-place rows (a slot written twice)")
        # storage: an element is a local scalar where the largest slot holding it has size 1
        big = np.zeros(self.nv, np.int64)
        slots = {int(s) for s in plan.fill} | set(self.in_slots) | {int(plan.out_slot)}
        for op, o, a, b, k in fwd.tolist():
            slots |= {s for s in (o, a, b) if s >= 0}
            if op == E.WHERE:
                slots.add(k)
            if op in _CATS:
                slots |= {s for s, _ in self._blocks(k)}
        for s in slots:
            lo, n = self.span(s)
            big[lo:lo + n] = np.maximum(big[lo:lo + n], n)
        self.scalar = big <= 1

    def span(self, s):
        return int(self.offs[s]), int(self.offs[s + 1] - self.offs[s])

    def _pieces(self, fwd):
        """What the rows' code grows with beyond one piece a row: a move's map entries (one
        per output element), a cat's block copies (outer times operands), a product's
        batches (each its own loops)."""
        meta, total = self.p.meta, len(fwd)
        for op, o, _, _, k in fwd.tolist():
            if op in _MOVES:
                total += self.span(o)[1]
            elif op in _CATS:
                total += int(meta[k]) * int(meta[k + 1])
            elif op in _MATMUL:
                total += int(meta[k])
        return total

    def name(self, e, adj=False):
        if self.scalar[e]:
            return f"{'g' if adj else 'v'}{e}"
        return f"{'A' if adj else 'W'}[{e}]"

    def at(self, e0, n, idx, adj=False):
        """Element ``idx`` (an expression) of the n-element range at e0."""
        if n == 1:
            return self.name(e0, adj)
        return f"{'A' if adj else 'W'}[{e0} + {idx}]"

    def tmp(self):
        self.ntmp += 1
        return f"_t{self.ntmp}"

    # -- elementwise rows, grouped into loops ---------------------------------------------
    def _fields(self, op, o, a, b, k, n):
        """The row's template and its operands: (forward, reverse, {field: (first element,
        kind)}, {field: literal})."""
        fexpr, rev = _TEMPLATES.get(op, (None, None))
        cs = self.p.consts
        lits = {}
        if op == E.POW_C:
            c = float(cs[k])
            fexpr = ("{a} * {a}" if c == 2.0 else "{a} * {a} * {a}" if c == 3.0 else
                     "{a} ** K[%d]" % k)  # (x * x, (x * x) * x: as pow_c_fwd)
            rev = (["{ga} += {gy} * 2.0 * {a}"] if c == 2.0 else
                   ["{ga} += {gy} * 3.0 * ({a} * {a})"] if c == 3.0 else
                   [] if c == 0.0 else ["{ga} += {gy} * K[%d] * {a} ** (K[%d] - 1.0)" % (k, k)])
        elif op == E.RPOW_C:
            c = float(cs[k])
            fexpr = "K[%d] ** {a}" % k
            lc = "math.log(K[%d])" % k if c > 0.0 else "math.nan"
            rev = ["if not (K[%d] == 0.0 and {a} >= 0.0):\n    {ga} += {gy} * {y} * %s"
                   % (k, lc)]
        elif op == C.CMP:
            lits["cmp"] = _CMP[k]
        elif op == C.CMP_C:
            meta = self.p.meta
            lits["cmp"] = _CMP[int(meta[k])]
            lits["c"] = _lit(cs[int(meta[k + 1])])
        elif op in _CONST_OPS:
            lits["c"] = _lit(cs[k])
            if op == E.CLAMP:
                lits["d"] = _lit(cs[k + 1])
        ops = {"y": self.offs[o], "a": self.offs[a]}
        if b >= 0:
            ops["b"] = self.offs[b]
        if op == E.WHERE:
            ops["w"] = self.offs[k]
        return fexpr, rev, {f: int(e) for f, e in ops.items()}, lits

    def _ref(self, g, e0, adj, write):
        """A group's reference to element i of the range at e0: a local (loaded at first
        use, stored back at the end when written) in a loop, a name otherwise."""
        if g.n == 1:
            if adj:
                self.touched[e0] = True
            if not self.scalar[e0]:
                self._read("A" if adj else "W", e0, 1)
            return self.name(e0, adj)
        key = ("A" if adj else "W", e0)
        loc = g.local.get(key)
        if loc is None:
            loc = g.local[key] = self.tmp()
            span = slice(e0, e0 + g.n)
            if adj and not self.touched[span].any():  # its first use: 0.0, as A's would be,
                g.lines.append(f"{loc} = 0.0")  # and A need not be zeroed there
                self.fresh[span] = True
                write = True
            elif adj or not write:  # (a forward output is assigned, never read first)
                g.lines.append(f"{loc} = {key[0]}[{e0} + i]")
                self._read(key[0], e0, g.n)
            if adj:
                self.touched[span] = True
        if write and (key, loc) not in g.dirty:
            g.dirty.append((key, loc))
        return loc

    # -- stores nothing reads: a loop's results go back to W or A only where a later row (or
    # the output, the gradient) reads them -----------------------------------------------
    def _read(self, kind, lo, n):
        self.events.append((kind, lo, lo + n, None))

    def _read_slots(self, kind, slots):
        for s in slots:
            if s >= 0:
                self._read(kind, *self.span(s))

    def _store(self, kind, lo, n):
        """A marker for the store line of elements lo..lo+n-1 (``_live`` keeps or drops it)."""
        self.events.append((kind, lo, lo + n, len(self.events)))
        return f"\x00{len(self.events) - 1}\x00"

    def _live(self, lines):
        """Lines without the stores that no later event reads."""
        dead = set()
        later = {"W": np.zeros(self.nv + 1, bool), "A": np.zeros(self.nv + 1, bool)}
        for kind, lo, hi, store in reversed(self.events):
            if store is None:
                later[kind][lo:hi] = True
            elif not later[kind][lo:hi].any():
                dead.add(store)
        out = []
        for line in lines:
            m = _MARK.match(line)
            if m is None:
                out.append(line)
            elif int(m.group(2)) not in dead:
                out.append(m.group(1) + m.group(3))
        return out

    @staticmethod
    def _fits(g, touch):
        """Whether a row touching ``touch`` [(kind, first element, n)] may join group g
        element by element: a range the group wrote (values) or touched (adjoints) may be
        met again only at the same first element.  (An adjoint met at a lower first element
        would keep each element's order of terms, but Rosenbrock's vector form, ``g[1 + i]
        += ...`` then ``g[i] += ...`` in one loop, ran 1.19x -> 1.31x hand-written: each pass
        then loads what the one before stored, a chain through memory.)"""
        for kind, e0, n in touch:
            for (k2, f2), n2 in g.ranges.items():
                if k2 != kind and not (kind in "vr" and k2 in "vr"):
                    continue
                if kind == "r" and k2 == "r":
                    continue  # two reads of values: any offsets
                if f2 != e0 and e0 < f2 + n2 and f2 < e0 + n:
                    return False
        return True

    def _elementwise(self, lines, groups, r, forward):
        op, o, a, b, k = r
        n = self.span(o)[1]
        fexpr, rev, ops, lits = self._fields(op, o, a, b, k, n)
        if not forward and not rev:
            return
        if forward:
            touch = [("v", ops["y"], n)] + [("r", e, n) for f, e in ops.items() if f != "y"]
        else:
            touch = [("g", e, n) for f, e in ops.items() if f in ("y", "a", "b")]
        g = groups[-1] if groups else None
        if g is None or g.n != n or n == 1 or not self._fits(g, touch):
            self._close(lines, groups)
            g = _Group(n)
            groups.append(g)
        for kind, e0, m in touch:
            g.ranges[(kind, e0)] = m
        text = fexpr if forward else "\n".join(rev)  # (only the values it uses are loaded)
        f = {field: self._ref(g, e0, False, forward and field == "y")
             for field, e0 in ops.items() if "{%s}" % field in text or forward and field == "y"}
        f.update(lits)
        if forward:
            g.lines.append(f"{f['y']} = " + fexpr.format(**f))
            return
        f["gy"] = self._ref(g, ops["y"], True, False)
        f["ga"] = self._ref(g, ops["a"], True, True)
        if "b" in ops:
            f["gb"] = self._ref(g, ops["b"], True, True)
        for stmt in rev:
            if stmt.split("(")[0] in _PAIR_REV:
                stmt = "_da, _db, _ua, _ub = " + stmt + \
                       "\nif _ua:\n    {ga} += _da\nif _ub:\n    {gb} += _db"
                if op == E.ATAN2:
                    stmt = stmt.replace("{gb} += _db", "{gb} -= _db")
            g.lines.extend(stmt.format(**f).split("\n"))

    def _sum_in_loop(self, groups, r):
        """A sum (mean) of a range the open loop holds, taken in that loop: the same
        additions in the same order (i = 0, 1, ...) as its own loop would make, with no
        store and load of the range between.  False where it does not apply."""
        g = groups[-1] if groups else None
        op, o, a, b, k = r
        ao, na = self.span(a)
        loc = None if g is None or g.n != na or na < 2 else g.local.get(("W", ao))
        if loc is None:
            return False
        t = self.tmp()
        scale = _lit(1.0 if op == R.SUM else 1.0 / na)
        g.pre.append(f"{t} = 0.0")
        g.lines.append(f"{t} += {loc}")
        g.post.append(f"{self.name(self.span(o)[0])} = {t} * {scale}")
        return True

    def _spread_in_loop(self, lines, groups, r):
        """A sum's (mean's) reverse, ``ga[i] += gy * scale``, as a row of a loop group (the
        open one if it has the operand's length, else a new one): the following elementwise
        rows take ``ga[i]`` from the local instead of a store and a load.  False where it
        does not apply (a scalar operand)."""
        op, o, a, b, k = r
        ao, na = self.span(a)
        if na < 2:
            return False
        touch = [("g", ao, na)]
        g = groups[-1] if groups else None
        if g is None or g.n != na or not self._fits(g, touch):
            self._close(lines, groups)
            g = _Group(na)
            groups.append(g)
        g.ranges[("g", ao)] = na
        self._read_slots("A", [o])
        t = self.tmp()
        scale = _lit(1.0 if op == R.SUM else 1.0 / na)
        lines.append(f"{t} = {self.name(self.span(o)[0], True)} * {scale}")  # (before the loop)
        ga = self._ref(g, ao, True, True)
        g.lines.append(f"{ga} += {t}")
        return True

    def _close(self, lines, groups):
        if not groups or groups[-1] is None:
            return
        g = groups[-1]
        body = g.lines + [self._store(arr, e0, g.n) + f"{arr}[{e0} + i] = {loc}"
                          for (arr, e0), loc in g.dirty]
        if g.n == 1:
            lines.extend(body)
        else:
            lines += g.pre + [f"for i in range({g.n}):"] + ["    " + s for s in body] + g.post
        groups.append(None)

    # -- other rows -------------------------------------------------------------------
    def _forward_row(self, lines, r, fail):
        op, o, a, b, k = r
        meta = self.p.meta
        self._read_slots("W", [a, b] + ([s for s, _ in self._blocks(k)] if op in _CATS else []))
        if o < 0:  # a guard: the point must take the traced branch
            x = self.name(int(self.offs[a]))
            num = 1 + int(meta[k + 1])
            if op == C.GUARD:
                cond = f"({x} != 0.0) != {bool(meta[k] != 0)}"
            else:
                c = "K[%d]" % int(meta[k])
                cond = (f"({x} != {c} or math.copysign(1.0, {x}) != math.copysign(1.0, {c}))"
                        f" and not ({x} != {x} and {c} != {c})")  # (guard_eq_fwd's test)
            lines.append(f"if {cond}:")
            lines.extend("    " + s for s in fail(num))
            return
        (yo, ne), (ao, na) = self.span(o), self.span(a)
        t = self.tmp()
        if op in (R.SUM, R.MEAN):
            scale = _lit(1.0 if op == R.SUM else 1.0 / na)
            lines += [f"{t} = 0.0", *_loop(na, f"{t} += {self.at(ao, na, 'i')}"),
                      f"{self.name(yo)} = {t} * {scale}"]
        elif op in _MOVES:
            src = self._map(op, k, ne)
            lines += _loop(ne, f"{self.at(yo, ne, 'i')} = {self.at(ao, na, src)}")
        elif op in _CATS:
            for dst, src, m in self._cat_copies(yo, k):
                lines += self._copy(dst, src, m, "{y} = {x}", False)
        else:  # the matmul family, as _mm_loop
            M, K, N, products = self._mm(o, a, b, k)
            for y, x, z in products:  # y[m, n] = sum over kk of x[m, kk] z[kk, n]
                lines += [f"for m in range({M}):", f"    for n in range({N}):",
                          f"        {y()} = 0.0", f"    for kk in range({K}):",
                          f"        for n in range({N}):", f"            {y()} += {x()} * {z()}"]

    def _reverse_row(self, lines, r):
        op, o, a, b, k = r
        meta = self.p.meta
        cat = [s for s, _ in self._blocks(k)] if op in _CATS else []
        if op in _MATMUL:  # (the other rows' reverse reads no values)
            self._read_slots("W", [a, b])
        self._read_slots("A", [o, a, b] + cat)
        (yo, ne), (ao, na) = self.span(o), self.span(a)
        if op in (R.SUM, R.MEAN):
            scale = _lit(1.0 if op == R.SUM else 1.0 / na)
            t = self.tmp()
            add = f"{self.at(ao, na, 'i', True)} += {t}"
            if na > 1 and not self.touched[ao:ao + na].any():  # its first use: as 0.0 + t,
                self.fresh[ao:ao + na] = True  # and not zeroed before
                add = f"{self.at(ao, na, 'i', True)} = 0.0 + {t}"
            lines += [f"{t} = {self.name(yo, True)} * {scale}", *_loop(na, add)]
        elif op == T.EXPAND:  # the sums in float64 apart, then once into the adjoint
            src = self._map(op, k, ne)
            acc = self.tmp()
            if na == 1:
                lines += [f"{acc} = 0.0", f"for i in range({ne}):",
                          f"    {acc} += {self.at(yo, ne, 'i', True)}",
                          f"{self.name(ao, True)} += {acc}"]
            else:
                j = len(self.temps)
                self.temps.append(na)
                lines += [f"for i in range({na}):", f"    T{j}[i] = 0.0", f"for i in range({ne}):",
                          f"    T{j}[{src}] += {self.at(yo, ne, 'i', True)}",
                          f"for i in range({na}):",
                          f"    {self.at(ao, na, 'i', True)} += T{j}[i]"]
        elif op in _MOVES:
            src = self._map(op, k, ne)
            lines += _loop(ne, f"{self.at(ao, na, src, True)} += {self.at(yo, ne, 'i', True)}")
        elif op in _CATS:  # as cat_rev: input by input, block by block
            copies = self._cat_copies(yo, k)
            n = int(meta[k])
            for i in range(n):
                for dst, src, m in copies[i::n]:
                    lines += self._copy(src, dst, m, "{y} += {x}", True)
        else:  # as _mm_loop_rev: gx[m, kk] += gy[m, n] z[kk, n]; gz[kk, n] += x[m, kk] gy[m, n]
            M, K, N, products = self._mm(o, a, b, k)
            for y, x, z in products:
                body = [f"{x(True)} += {y(True)} * {z()}"] if meta[k + 4] != 0 else []
                if meta[k + 5] != 0:
                    body.append(f"{z(True)} += {x()} * {y(True)}")
                lines += [f"for m in range({M}):", f"    for kk in range({K}):",
                          f"        for n in range({N}):"] + ["            " + s for s in body]

    def _blocks(self, k):
        """A cat/stack row's operands: [(slot, block length)] (meta: [n, outer, slot...,
        block length...])."""
        meta = self.p.meta
        n = int(meta[k])
        return [(int(meta[k + 2 + i]), int(meta[k + 2 + n + i])) for i in range(n)]

    def _cat_copies(self, yo, k):
        """A cat/stack row's block copies in cat_fwd's order (outer index, then operand):
        [(output's first element, operand's first element, length)]."""
        out, dst = [], yo
        for q in range(int(self.p.meta[k + 1])):
            for s, m in self._blocks(k):
                out.append((dst, int(self.offs[s]) + q * m, m))
                dst += m
        return out

    def _copy(self, y0, x0, m, stmt, adj):
        """``stmt`` ({y} {x}) for elements y0.. and x0.. of a copied block of m."""
        if m == 1:
            return [stmt.format(y=self.name(y0, adj), x=self.name(x0, adj))]
        return _loop(m, stmt.format(y=f"{'A' if adj else 'W'}[{y0} + i]",
                                    x=f"{'A' if adj else 'W'}[{x0} + i]"))

    def _map(self, op, k, ne):
        """A move's index map as an expression of i (a module-level array)."""
        src = _map_of(op, self.p.meta, k, ne)
        j = len(self.maps)
        self.maps.append(src)
        return f"_M{j}[i]"

    def _mm(self, o, a, b, k):
        """(M, K, N, [(y, x, z) per product]): y, x, z make the refs of y[m, n], x[m, kk],
        z[kk, n] (their adjoints given True), from the batch offsets in meta."""
        meta = self.p.meta
        nb, M, K, N = (int(meta[k + i]) for i in range(4))
        if M * K * N >= L._BLAS_MIN:
            raise Ineligible(f"a matrix product of {M}x{K}x{N} (the interpreter calls BLAS)")
        (yo, ne), (ao, na), (bo, nz) = self.span(o), self.span(a), self.span(b)

        def ref(e0, n, idx):
            return lambda adj=False: self.at(e0, n, idx, adj)
        return M, K, N, [(ref(yo + i * M * N, ne, f"m * {N} + n"),
                          ref(ao + int(meta[k + 6 + 2 * i]), na, f"m * {K} + kk"),
                          ref(bo + int(meta[k + 7 + 2 * i]), nz, f"kk * {N} + n"))
                         for i in range(nb)]

    # -- the kernels --------------------------------------------------------------------
    def body(self, fail, load, store_v, store_g, seed=None, direct=False):
        """The per-point code: (inputs, forward and value; the reverse and the gradient).
        ``store_v(i, value)`` stores output element i; the output's adjoints start at 1.0
        (a scalar output) or at ``seed(i)`` for element i (the seeded kernel).  ``direct``:
        the elements of vector inputs are not copied to W nor their adjoints from A (the
        caller's ``_direct`` reads them from X and accumulates them in G)."""
        p = self.p
        self.maps = []  # module-level index arrays (moves)
        self.events = []  # (W or A, first, end, None for a read or a store's id), in order
        self.temps = []  # per-point scratch arrays: sizes (expand's sums)
        self.ntmp = 0
        lines = []
        for c0, s in zip(self._cols(), self.in_slots, strict=True):
            e0, n = self.span(s)
            if n == 1:
                lines.append(f"{self.name(e0)} = {load(str(c0))}")
            elif n and not direct:
                lines += [f"for i in range({n}):", f"    W[{e0} + i] = {load(f'{c0} + i')}"]
        groups = []
        for r in p.fwd.tolist():
            op = r[0]
            if op in _TEMPLATES or op in (E.POW_C, E.RPOW_C):
                self._elementwise(lines, groups, r, True)
            elif op in (R.SUM, R.MEAN) and self._sum_in_loop(groups, r):
                pass
            else:
                self._close(lines, groups)
                self._forward_row(lines, r, fail)
        self._close(lines, groups)
        out, m = self.span(p.out_slot)
        self._read("W", out, m)
        if m == 1:
            lines.append(store_v("0", self.name(out)))
        elif m:
            lines += _loop(m, store_v("i", self.at(out, m, "i")))
        # adjoints start at 0.0: scalars all, array elements where a loop's first use does
        # not set them (_ref), found while the rows are written
        self.touched = np.zeros(self.nv, bool)
        self.rev_tmp0 = self.ntmp  # (the reverse's temporaries are numbered above it)
        self.fresh = np.zeros(self.nv, bool)
        self.touched[out:out + m] = True  # (the seeds)
        if seed is None:
            rows = [f"{self.name(out, True)} = 1.0"]
        else:
            rows = ([f"{self.name(out, True)} = {seed('0')}"] if m == 1 else
                    _loop(m, f"{self.at(out, m, 'i', True)} = {seed('i')}") if m else [])
        groups = []
        for r in p.rev[::-1].tolist():
            op = r[0]
            if op in _TEMPLATES or op in (E.POW_C, E.RPOW_C):
                self._elementwise(rows, groups, r, False)
            elif op in (R.SUM, R.MEAN) and self._spread_in_loop(rows, groups, r):
                pass
            else:
                self._close(rows, groups)
                self._reverse_row(rows, r)
                slots = r[1:4] + ([s for s, _ in self._blocks(r[4])] if op in _CATS else [])
                for s in slots:  # (out, operands: every adjoint such a row reads or adds to)
                    if s >= 0:
                        lo, n = self.span(s)
                        self.touched[lo:lo + n] = True
        self._close(rows, groups)
        for c, e in enumerate(p.in_elems.tolist()):
            if self.scalar[e] or not direct:
                rows.append(store_g(str(c), self.name(e, True)))
            self._read("A", e, 1)
        rev = ["pass"] + [f"g{e} = 0.0" for e in range(self.nv) if self.scalar[e]]
        cuts = {e for s in self.in_slots for e in self.span(s)} if direct else set()
        for lo, hi in self._vector_runs(self.fresh):
            ends = sorted({lo, hi} | {e for e in cuts if lo < e < hi})  # (one slot a loop)
            for a, b in zip(ends[:-1], ends[1:], strict=True):
                rev += [f"for i in range({b - a}):", f"    A[{a} + i] = 0.0"]
        return self._live(lines), rev + self._live(rows)

    def _seed_loop(self, rev, flat, nk=None):
        """The seeded kernel's reverse over its seed rows ``_j``: one at a time, or (a
        tape written out in locals, ``flat``) L = min(m, LANES) at a time as L lanes side
        by side, each statement written once per lane with the lane's own adjoints and
        temporaries: the lanes share the forward values and what their reverse rules
        compute from them alone (``math.cos(a)`` of sin's, ``a / b`` of div's: one
        expression for Numba/LLVM to compute once), each lane's arithmetic exactly the
        one-seed code's.  BA's residual (m = 3), one thread, min: 3 seeds in 1.5x
        hand-written Numba's time against 2.1x one at a time; compile 7-10 s cold on the
        loaded machine.  A vector-Jacobian product (k = 1) runs the L lanes on its one seed
        row: up to L times one sweep's work (a second, one-lane copy of the reverse would
        double the compile instead; ``nk``, the seed rows when known: the direct kernels')."""
        one = ["for _j in range(_nk):", *_indent(rev, 4)]
        lanes = min(self.p.out_elems.size if nk is None else nk, LANES) if flat else 1
        if lanes < 2 or lanes * len(rev) > UNROLL_LINES:
            return one
        rows = [f"_j{j}" if j else "_j" for j in range(lanes)]
        body = _lanes(rev, rows, self.rev_tmp0)
        # past the last full set of lanes, the lanes over take the last seed row again: the
        # same arithmetic on the same values, stored to the same place
        last = [f"_j{j} = min(_j + {j}, _nk - 1)" for j in range(1, lanes)]
        return ["for _j in range(0, _nk, %d):" % lanes, *_indent(last + body, 4)]

    def _direct(self, lines, seeded):
        """Lines with W[e...] of a vector input's element e as X[p, its column...] and
        A[e...] as G[p, column...] (``G[p, _j, ...]`` seeded): the index of every W and
        A reference begins with its first element (W[e0 + i], A[e]), and a reference lies
        within one slot."""
        at = {}
        for c0, s in zip(self._cols(), self.in_slots, strict=True):
            e0, n = self.span(s)
            if n > 1:
                at.update((e, c0 + e - e0) for e in range(e0, e0 + n))
        grad = "G[p, _j, " if seeded else "G[p, "

        def sub(m):
            e = int(m.group(2))
            if e not in at:
                return m.group(0)
            return ("X[p, " if m.group(1) == "W" else grad) + str(at[e])
        return [_REF.sub(sub, line) for line in lines]

    def _cols(self):
        cols, c = [], 0
        for s in self.in_slots:
            cols.append(c)
            c += self.span(s)[1]
        return cols

    def _vector_runs(self, skip):
        """Runs of array elements (not scalars), except those ``skip`` marks."""
        runs, e = [], 0
        other = self.scalar | skip
        while e < self.nv:
            if other[e]:
                e += 1
                continue
            f = e
            while f < self.nv and not other[f]:
                f += 1
            runs.append((e, f))
            e = f
        return runs

    def _written(self, body, direct, seeded):
        """(setup, forward, reverse, module-level maps, whether written out in locals) of
        ``body(direct)``'s per-point code: a small tape's every element a local (no W, A
        arrays), else loops over W and A, with (``direct``) vector inputs read from X and
        their adjoints summed in G (no copies)."""
        fwd_b, rev_b = body(False)
        setup = [f"W = np.empty({max(self.nv, 1)})", f"A = np.empty({max(self.nv, 1)})"]
        setup += [f"T{j} = np.empty({n})" for j, n in enumerate(self.temps)]
        for s in self.p.fill.tolist():
            e0, n = self.span(s)
            if n == 1:
                setup.append(f"{self.name(e0)} = C[{e0}]")
            elif n:
                setup += [f"for i in range({e0}, {e0 + n}):", "    W[i] = C[i]"]
        flat = _unrolled(setup, fwd_b, rev_b, self.maps)
        if flat is not None:
            setup, fwd_b, rev_b = flat
        elif direct:
            fwd_b, rev_b = body(True)
            fwd_b, rev_b = (self._direct(lines, seeded) for lines in (fwd_b, rev_b))
        maps = [f"_M{j} = np.array({m!r}, dtype=np.int64)" for j, m in enumerate(self.maps)]
        return setup, fwd_b, rev_b, maps, flat is not None

    def direct_source(self, at, kind="out"):
        """The module's source for ``jacobian_batch(index=, out=)`` (tapegrad/replay/
        gather.py): the kernel ``direct(S0, I0, ..., data, start, at, V, U, bad, C, K, p0,
        p1)``.  Point p reads input j from row ``I_j[p]`` of S_j (N_j, w_j) (row p where I_j
        is empty) and writes entry (i, c) of its Jacobian (the reverse sweep of the unit seed
        e_i) to ``data[start[p, i] + at[i, c]]`` where ``at[i, c] >= 0``: no gathered copy
        of the inputs, no block to scatter.  The seeded kernel's arithmetic with the seeds
        1.0 and 0.0 (bit for bit its results: LLVM folds only what IEEE leaves exact).

        ``kind``: "out" (as above; V and U unused), "dense" (the plain ``jacobian_batch``
        and ``jvp_batch``: row i of point p's block at ``data[(p m + i) n:]``, a (B, m, n)
        array, start unused, and the value to V (B, m)), "vjp" (``vjp_batch``: one seed row
        per point, ``U[p or 0, 0]`` (B or 1, 1, m), its product at ``data[p n:]``, a (B, n)
        array, and the value to V).

        A tape written out in locals (when its kept rows' lanes fit ``UNROLL_LINES``) gets
        at written into the source: rows run LANES at a time, each lane's row a literal,
        and only the kept entries are stored, so the code of the others is dead and
        dropped (BA: the row 1 - w^2 keeps one entry of 17, and its lane costs nothing
        else).  Other tapes read the seeds' rows and at at run time (one kernel for every
        mask), one row at a time as the seeded kernel."""
        k, n = at.shape
        vjp = kind == "vjp"

        def start(j):  # where row j of point p's block begins in data
            return f"start[p, {j}]" if kind == "out" else f"(p * {k} + {j}) * {n}"

        def body(direct):
            return self.body(_fail, _load_x, (lambda i, v: "pass") if kind == "out" else
                             (lambda i, v: f"V[p, {i}] = {v}"),
                             lambda c, g: f"_STORE(_j, {c}, {g})", lambda i: f"_SEED(_j, {i})",
                             direct)
        setup, fwd_b, rev_b, maps, flat = self._written(body, False, True)
        rows = [i for i in range(k) if (at[i] >= 0).any()]
        if flat and len(rows) * len(rev_b) <= UNROLL_LINES:
            lines = [f"_s{i} = {start(i)}" for i in rows]
            for g in range(0, len(rows), LANES):
                lines += _lanes(rev_b, [str(i) for i in rows[g:g + LANES]], self.rev_tmp0)
            rev_b = [_literal(line, at, vjp) for line in lines]
        else:
            rev_b = [_at_run_time(line, at, vjp, start("_j"))
                     for line in self._seed_loop(rev_b, flat, k)]
        rev_b = [line for line in rev_b if line is not None]
        setup, fwd_b, rev_b = _unread_dropped(
            _drop_zero_adds(_single_assignment([setup, fwd_b, rev_b])))
        cols = self._cols()
        owner = {}
        for j, (c0, s) in enumerate(zip(cols, self.in_slots, strict=True)):
            owner.update((c, j) for c in range(c0, c0 + self.span(s)[1]))

        def read(m):  # X[p, c ...] -> S_j[_r_j, c - c0_j ...] (the load's first column)
            c = int(m.group(1))
            return f"S{owner[c]}[_r{owner[c]}, {c - cols[owner[c]]}"
        fwd_b, rev_b = ([_XREF.sub(read, line) for line in lines] for lines in (fwd_b, rev_b))
        n_in = len(self.in_slots)
        kernel = [f"def direct({''.join(f'S{j}, I{j}, ' for j in range(n_in))}"
                  "data, start, at, V, U, bad, C, K, p0, p1):",
                  *_indent(setup, 4),
                  f"    _nk = {k}",
                  "    _each = U.shape[0] > 1",
                  *[f"    _d{j} = len(I{j}) > 0" for j in range(n_in)],
                  "    for p in range(p0, p1):",
                  *[f"        _r{j} = I{j}[p] if _d{j} else p" for j in range(n_in)],
                  *(["        _q = p if _each else 0"] if vjp else []),
                  *_indent(fwd_b, 8),
                  "        bad[p] = 0",
                  *_indent(rev_b, 8)]
        src = [_PRELUDE, f"N_IN = {n_in}", *maps, "", "", "@njit(**_OPTS)", *kernel,
               "    return 0", ""]
        return "\n".join(src)

    def source(self, seeded=False):
        """The module's source: the kernel ``batch(X, V, G, bad, C, K, p0, p1)``, value and
        (if G has rows) gradient at points p0..p1-1 of X; C holds the plan's constant
        values, K its const pool.  (One kernel serves single points too: a second one for
        them doubled the compile, 3-12 s here, for ~0.5 us a call.)

        ``seeded`` (a vector output): the kernel ``seeded(X, U, V, G, bad, C, K, p0, p1)``
        instead, ``_sweep._seeded_blocks``'s arithmetic: V (B, m) the output, G (B, k, n)
        row j of U[p] (U is (B or 1, k, m)) times the Jacobian, one forward per point and
        the reverse once per seed row, all in this point's locals."""
        def body(direct=False):
            if seeded:
                return self.body(_fail, _load_x, lambda i, v: f"V[p, {i}] = {v}",
                                 lambda c, g: f"G[p, _j, {c}] = {g}",
                                 lambda i: f"U[_q, _j, {i}]", direct)
            return self.body(_fail, _load_x, lambda i, v: f"V[p] = {v}",
                             lambda c, g: f"G[p, {c}] = {g}", direct=direct)
        setup, fwd_b, rev_b, maps, flat = self._written(body, True, seeded)
        rev_b = self._seed_loop(rev_b, flat) if seeded else rev_b
        setup, fwd_b, rev_b = _drop_zero_adds(_single_assignment([setup, fwd_b, rev_b]))
        if seeded:
            kernel = ["def seeded(X, U, V, G, bad, C, K, p0, p1):",
                      *_indent(setup, 4),
                      "    _nk = U.shape[1]",
                      "    _each = U.shape[0] > 1",
                      "    for p in range(p0, p1):",
                      *_indent(fwd_b, 8),
                      "        bad[p] = 0",
                      "        _q = p if _each else 0",
                      *_indent(rev_b, 8)]
        elif flat:  # straight-line: the reverse interleaved with the forward
            kernel = ["def batch(X, V, G, bad, C, K, p0, p1):",
                      *_indent(setup, 4),
                      "    grad = G.shape[0] > 0",
                      "    for p in range(p0, p1):",
                      "        if grad:",
                      *_indent(_interleave(fwd_b + ["bad[p] = 0"], rev_b), 12),
                      "        else:",  # (its own names: each name assigned once)
                      *_indent(_renamed(fwd_b), 12),
                      "            bad[p] = 0"]
        elif _merged(fwd_b, rev_b) is not None:  # the last loop of the forward and the
            head, both, alone = _merged(fwd_b, rev_b)  # first of the reverse as one
            kernel = ["def batch(X, V, G, bad, C, K, p0, p1):",
                      *_indent(setup, 4),
                      "    grad = G.shape[0] > 0",
                      "    for p in range(p0, p1):",
                      *_indent(head, 8),
                      "        if grad:",
                      *_indent(both, 12),
                      "        else:",
                      *_indent(alone, 12)]
        else:
            kernel = ["def batch(X, V, G, bad, C, K, p0, p1):",
                      *_indent(setup, 4),
                      "    grad = G.shape[0] > 0",
                      "    for p in range(p0, p1):",
                      *_indent(fwd_b, 8),
                      "        bad[p] = 0",
                      "        if grad:",
                      *_indent(rev_b, 12)]
        src = [_PRELUDE, *maps, "", "", "@njit(**_OPTS)", *kernel, "    return 0", ""]
        return "\n".join(src)


def _renamed(lines):
    """Straight-line ``lines`` with the names they assign suffixed ``v``, so a second copy
    of them keeps each name assigned once; the names they only read (the setup's hoisted
    constants, a captured tensor's values) stay as they are."""
    own = {n for line in lines if (m := _TARGET.match(line.strip())) is not None
           for n in m.group(1).split(", ")}
    return [_SSA_NAME.sub(lambda m: m.group(1) + "v" if m.group(1) in own else m.group(1),
                          line) for line in lines]


_XREF = re.compile(r"\bX\[p, ([0-9]+)")
_SEED = re.compile(r"_SEED\((\w+), (\w+)\)")
_STORE_AT = re.compile(r"^( *)_STORE\((\w+), ([0-9]+), (.*)\)$")


def _literal(line, at, vjp=False):
    """A line of the direct kernel whose seed rows are literals: seeds as 1.0 or 0.0
    (``vjp``: read from U), stores of kept entries to ``data``, of the others dropped
    (None)."""
    line = _SEED.sub((lambda m: f"U[_q, {m.group(1)}, {m.group(2)}]") if vjp else
                     (lambda m: "1.0" if m.group(1) == m.group(2) else "0.0"), line)
    m = _STORE_AT.match(line)
    if m is None:
        return line
    o = int(at[int(m.group(2)), int(m.group(3))])
    return f"{m.group(1)}data[_s{m.group(2)} + {o}] = {m.group(4)}" if o >= 0 else None


def _at_run_time(line, at, vjp=False, start="start[p, _j]"):
    """A line of the direct kernel whose seed row ``_j`` is a variable: the seed compared
    (``vjp``: read from U), the offset read from at (an argument), row _j beginning at
    ``start`` in data; a column no row keeps is never stored."""
    line = _SEED.sub((lambda m: f"U[_q, {m.group(1)}, {m.group(2)}]") if vjp else
                     (lambda m: f"(1.0 if {m.group(1)} == {m.group(2)} else 0.0)"), line)
    m = _STORE_AT.match(line)
    if m is None:
        return line
    pad, j, c, g = m.groups()
    if not (at[:, int(c)] >= 0).any():
        return None
    return f"{pad}if at[{j}, {c}] >= 0: data[{start.replace('_j', j)} + at[{j}, {c}]] = {g}"


def _units(lines):
    """Lines as statements: a line at the first level with the deeper lines (its block)
    and ``elif``/``else`` clauses after it."""
    units = []
    for line in lines:
        if units and (line.startswith(" ") or line.startswith(("elif ", "else:"))):
            units[-1].append(line)
        else:
            units.append([line])
    return units


_OWN = re.compile(r"\b(g\d+|_t\d+|_T\d+_\d+|_da|_db|_ua|_ub|_j)\b")


def _lanes(rev, rows, first):
    """The one-seed reverse ``rev`` as len(rows) lanes side by side: each statement
    written once per lane j, its seed row ``_j`` as ``rows[j]`` (a name or a literal),
    its adjoints and temporaries its own (``g5`` -> ``g5_1``) but the forward's
    temporaries (``_t`` numbered up to ``first``), which the lanes share."""
    def lane(line, j):
        def sub(m):
            name = m.group(1)
            if name == "_j":
                return rows[j]
            if name.startswith("_t") and int(name[2:]) <= first:
                return name  # (a forward temporary: shared)
            return f"{name}_{j}"
        return _OWN.sub(sub, line)
    return [lane(line, j) for unit in _units(rev) for j in range(len(rows)) for line in unit]


_REF = re.compile(r"(?<![\w.])([WA])\[([0-9]+)")
_MARK = re.compile("^( *)\x00([0-9]+)\x00(.*)$")
_TARGET = re.compile(r"^([A-Za-z_]\w*(?:, [A-Za-z_]\w*)*) (=|\+=|-=) (.*)$")
_NAME = re.compile(r"(?<![\w.])([A-Za-z_]\w*)")


def _single_assignment(parts):
    """The parts (lists of lines, run one after the other) with every name assigned once
    where it can be: ``x = a`` then ``x += b`` become ``x__1 = a``, ``x__2 = x__1 + (b)``
    (the same float arithmetic).  Numba rebuilds SSA form for each name assigned more than
    once with a pass over the whole function: its compile time grew as rows x names (the
    adjoints, each group's temporaries written out once per element), 40 s of a 56 s
    compile of BA's residual.  A name assigned inside an ``if`` or a loop that had a value
    before keeps one name there (a copy before the block); a loop's own names are renamed
    inside it.  BA's residual (m = 3, lanes): compile 7 s against 17-33 s, loaded."""
    count = {}

    def fresh(name):
        count[name] = count.get(name, 0) + 1
        return f"{name}__{count[name]}"

    def run(lines, vmap, out, pad, frozen):
        """Lines (one level) into out; names in ``frozen`` keep their one name (a loop
        around these lines carries them)."""
        def uses(text):
            return _NAME.sub(lambda m: vmap.get(m.group(1), m.group(1)), text)
        for unit in _units(lines):
            head = unit[0]
            if len(unit) == 1 and not head.endswith(":"):
                m = _TARGET.match(head)
                names = [] if m is None else m.group(1).split(", ")
                if m is None or any(n in frozen for n in names):
                    out.append(pad + uses(head))
                    continue
                op, rhs = m.group(2), uses(m.group(3))
                if op != "=":
                    rhs = f"{vmap[names[0]]} {op[0]} ({rhs})"
                for name in names:
                    vmap[name] = fresh(name)
                out.append(f"{pad}{', '.join(vmap[n] for n in names)} = {rhs}")
                continue
            assigned = set()
            for line in unit:
                m = _TARGET.match(line.strip())
                if m is not None:
                    assigned.update(m.group(1).split(", "))
            inner = [line for line in unit[1:] if line.startswith(" ")]
            loop = head.startswith("for ") and len(inner) == len(unit) - 1
            # one name in the block: what an if assigns, what a loop carries
            keep = {n for n in assigned if n in vmap} if loop else assigned
            for name in sorted(keep - frozen):
                new = fresh(name)
                if name in vmap:
                    out.append(f"{pad}{new} = {vmap[name]}")
                vmap[name] = new
            if not loop:
                out.extend(pad + uses(line) for line in unit)
                continue
            out.append(pad + uses(head))
            # the loop's own names are renamed inside it; after it, their last names (a
            # product's sums start in one loop and go on in the next)
            body = dict(vmap)
            run([line[4:] for line in inner], body, out, pad + "    ", frozen | keep)
            vmap.update((n, v) for n, v in body.items() if n not in vmap)

    done = []
    vmap = {}
    for lines in parts:
        out = []
        run(lines, vmap, out, "", frozen=set())
        done.append(out)
    return done


_ASSIGN = re.compile(r"^( *)([A-Za-z_]\w*) = (.*)$")
_FROM = re.compile(r"^([A-Za-z_]\w*)(?: ([+-]) \((.*)\))?$")
_CANON = re.compile(r"^[0-9][0-9.e+]*$")  # (a literal: not -0.0)


def _drop_zero_adds(parts):
    """The parts (single-assignment lines) with ``g = z + (c)`` written ``g = c`` where z
    is a name set to 0.0 (an adjoint's start) and c a name that cannot hold -0.0: a
    literal other than -0.0, or a sum or difference whose first term cannot (a + b is
    -0.0 only when a is; 0.0 + c is c then, bit for bit, NaN included: c is the quiet NaN
    an addition made).  The interpreter's first ``A[e] += gy`` of an adjoint that one
    other adjoint feeds: ~a third of the additions of a scalar tape's reverse, which LLVM
    may not drop (0.0 + x is not x for x = -0.0)."""
    count = {}
    for lines in parts:
        for line in lines:
            m = _TARGET.match(line.strip())
            if m is not None:
                for name in m.group(1).split(", "):
                    count[name] = count.get(name, 0) + (1 if m.group(2) == "=" else 2)
    zero, canon = set(), set()

    def copy(name, rhs, f):
        if rhs == "0.0":
            zero.add(name)
        elif _CANON.match(rhs):
            canon.add(name)
        elif rhs.endswith(" * 1.0") and rhs[:-6] in canon:  # (x * 1.0 is x)
            canon.add(name)
        elif f is not None and (f.group(1) in zero or f.group(1) in canon):
            canon.add(name)
            if f.group(1) in zero and f.group(2) == "+" and f.group(3) in canon:
                return f.group(3)
        return None
    done = _rewrite(parts, count, copy)
    return _drop_zero_starts(done, count, zero, canon)


def _rewrite(parts, count, new_rhs):
    """The parts with each single-assignment line ``name = rhs`` given the right-hand
    side ``new_rhs(name, rhs, rhs as _FROM matches it)`` returns (None: as it was)."""
    done = []
    for lines in parts:
        out = []
        for line in lines:
            m = _ASSIGN.match(line)
            if m is not None and count.get(m.group(2)) == 1:
                rhs = new_rhs(m.group(2), m.group(3), _FROM.match(m.group(3)))
                if rhs is not None:
                    line = f"{m.group(1)}{m.group(2)} = {rhs}"
            out.append(line)
        done.append(out)
    return done


def _unread_dropped(parts):
    """The parts (lines run one after the other) without the assignments ``name = ...``
    at the first level whose names no later line reads.  Every other statement (a store,
    an ``if`` or a loop, all it names) is kept; right-hand sides are pure (no call can
    raise: error_model numpy), so dropping one changes nothing else.  The direct kernel's
    lanes and entries its mask drops: LLVM would drop them too, but Numba's front end
    would type and lower them first."""
    units = [(j, unit) for j, lines in enumerate(parts) for unit in _units(lines)]
    live = set()
    keep = [False] * len(units)
    for u in range(len(units) - 1, -1, -1):
        unit = units[u][1]
        m = _TARGET.match(unit[0]) if len(unit) == 1 else None
        if m is not None and m.group(2) == "=":
            if not live.intersection(m.group(1).split(", ")):
                continue
            live.update(_NAME.findall(m.group(3)))
        else:
            for line in unit:
                live.update(_NAME.findall(line))
        keep[u] = True
    out = [[] for _ in parts]
    for (j, unit), k in zip(units, keep, strict=True):
        if k:
            out[j] += unit
    return out


_SSA_NAME = re.compile(r"\b(\w+__\d+)\b")
_STORE = re.compile(r"^[A-Za-z_]\w*\[")
_GSTORE = re.compile(r"^G\[")
REGISTERS = 16  # (x86-64's SSE registers: _interleave)
_XLOAD = re.compile(r"^\w+ = X\[p, [0-9 +]+\]$")


def _interleave(fwd, rev):
    """Straight-line forward and reverse (single-assignment lines at one level; if blocks
    as one statement each) as one sequence: each reverse statement as soon as the values
    it reads exist, the forward's in their order between.  The same statements, each
    reading the same values, so the same results bit for bit; what a hand-writer does,
    a term's gradient beside its value: the forward's values are used while still in
    registers (Rosenbrock's loop form, n = 100: 711 register moves a point -> 364) and
    the reverse's work fills the forward's running sum's latency.  Stores (V, bad) and
    ``if`` blocks (guards leave by ``continue``) keep their order among themselves; a
    store to G waits for the guards before it alone (G is not V: ``Kernel.run``), so a
    gradient element is stored as soon as it is summed, not held to the end; a load
    ``v = X[p, c]`` waits for the forward statement that first reads it.  Rosenbrock's
    loop form, n = 100: its 100 inputs and 100 gradients were live across the whole
    point (spilled to the stack and back).  Only past ``REGISTERS`` loads: below, the
    stores in order and the loads first ran 1-3% faster (n = 10, interleaved, min)."""
    units = _units(fwd) + _units(rev)
    nf = len(_units(fwd))
    spread = sum(len(u) == 1 and _XLOAD.match(u[0]) is not None for u in units[:nf]) > \
        REGISTERS
    last_def, readers = {}, {}
    deps = []
    loads = set()
    for j, unit in enumerate(units):
        defs, reads = set(), set()
        for line in unit:
            text = line.strip()
            m = _TARGET.match(text)
            if m is not None and not _STORE.match(text):
                defs.update(m.group(1).split(", "))
                if m.group(2) != "=":
                    reads.update(m.group(1).split(", "))
                reads.update(_NAME.findall(m.group(3)))
            else:
                reads.update(_NAME.findall(text))
            if _GSTORE.match(text) and spread:
                defs.add(" G")  # (after the guards before it: they read " G")
                reads.add(" guards")
            elif text.startswith("if ") or text == "continue":
                defs.update((" memory", " guards"))  # (not names: in order)
                reads.add(" G")
            elif _STORE.match(text):
                defs.add(" memory")
        if spread and len(unit) == 1 and j < nf and _XLOAD.match(unit[0]):
            loads.add(j)
        d = {last_def[n] for n in reads | defs if n in last_def}
        for n in defs:
            d.update(readers.get(n, ()))
        for n in reads:
            readers.setdefault(n, []).append(j)
        for n in defs:
            last_def[n] = j
            readers[n] = []
        d.discard(j)
        deps.append(d)
    users = [[] for _ in units]
    left = [len(d) for d in deps]
    for j, d in enumerate(deps):
        for i in d:
            users[i].append(j)
    # (a unit's rank: its place, a load's just before its first forward reader's)
    rank = list(range(len(units)))
    for j in loads:
        rank[j] = min((k - 0.5 for k in users[j] if k < nf), default=j)
    ready = ([], [])  # (forward, reverse) units whose inputs exist, lowest rank first
    for j in range(len(units)):
        if not left[j]:
            heapq.heappush(ready[j >= nf], (rank[j], j))
    out = []
    while ready[0] or ready[1]:
        _, j = heapq.heappop(ready[1] if ready[1] else ready[0])
        out += units[j]
        for k in users[j]:
            left[k] -= 1
            if not left[k]:
                heapq.heappush(ready[k >= nf], (rank[k], k))
    if len(out) != len(fwd) + len(rev):
        raise AssertionError("fused: the interleaved kernel lost statements")
    return out


_LOOP_I = re.compile(r"^for i in range\(([0-9]+)\):$")
_W_AT = re.compile(r"\bW__[0-9]+\[([0-9]+) \+ i\]")


def _merged(fwd, rev):
    """A loop kernel's forward and reverse (single-assignment lines) with the forward's
    last loop and the reverse's first, of one length, run as one loop: (the forward before
    that loop, the lines when the gradient is asked for, the lines when not), or None
    where that would change a result.  The reverse's lines before its loop move before
    the forward's (they read nothing the loop or the forward after it sets: the seeds and
    zero starts); the reverse loop's body reads of the forward loop's values only those
    it stored in W at the same element (``W[e + i]``), written earlier in the same pass;
    the forward loop reads no adjoint; so each statement reads the same values as
    before.  A guard after the loop then fails after the reverse loop ran: that point's
    gradient row is overwritten as ever (``bad``).  Rosenbrock's vector form: its values
    t and 1 - x used where they are computed, not stored in W and loaded again."""
    fu, ru = _units(fwd), _units(rev)
    lf = max((j for j, u in enumerate(fu) if _LOOP_I.match(u[0])), default=None)
    lr = None if lf is None else next((j for j, u in enumerate(ru) if u[0] == fu[lf][0]),
                                      None)
    if lr is None:
        return None
    floop, rloop = fu[lf], ru[lr]
    tail = [line for u in fu[lf + 1:] for line in u]
    pre = [line for u in ru[:lr] for line in u]

    def defined(lines):
        out = set()
        for line in lines:
            m = _TARGET.match(line.strip())
            if m is not None and not _STORE.match(line.strip()):
                out.update(m.group(1).split(", "))
        return out

    def read(lines):
        return {n for line in lines for n in _NAME.findall(line)}
    late = defined(floop) | defined(tail)
    fbody, rbody = floop[1:], rloop[1:]
    stored = {int(m.group(1)) for line in fbody for m in _W_AT.finditer(line)
              if _W_AT.match(line.strip())}
    reads_w = {int(m.group(1)) for line in rbody for m in _W_AT.finditer(line)}
    if read(pre) & late or any("W__" in line for line in pre) or \
            read(rbody) & late or not reads_w <= stored or \
            any(re.search(r"\b(A__[0-9]+|G)\[", line) for line in fbody) or \
            read(tail) & (defined(pre) | defined(rloop)):
        return None
    if any(re.search(r"\bW__[0-9]+\[", line) and not _W_AT.search(line) for line in rbody):
        return None  # (a W read at another index)
    head = [line for u in fu[:lf] for line in u]
    rest = [line for u in ru[lr + 1:] for line in u]
    # the reverse reads the values from the forward's locals; their stores go where no
    # later line reads W
    local = {}
    for line in fbody:
        m = re.match(r"^( *)W__[0-9]+\[([0-9]+) \+ i\] = (\w+)$", line)
        if m is not None and m.group(1) == "    ":
            local[int(m.group(2))] = m.group(3)
    rbody = [_W_AT.sub(lambda m: local.get(int(m.group(1)), m.group(0)), line)
             for line in rbody]
    if not any("W__" in line for line in tail + rest + rbody):
        fbody = [line for line in fbody if not _W_AT.match(line.strip())]
    both = pre + [floop[0]] + fbody + rbody + tail + ["bad[p] = 0"] + rest
    return head, both, [floop[0]] + fbody + tail + ["bad[p] = 0"]


def _product_of(name, e):
    """Whether expression ``e`` is ``name`` or ``name * ...`` / ``name / ...`` with no
    other term at its top level (and no other ``name``): a zero name gives a zero of
    either sign or the default NaN, whatever the zero's sign."""
    if e == name:
        return True
    if not e.startswith(name + " ") or _NAME.findall(e).count(name) != 1:
        return False
    rest = e[len(name):]
    if not rest.startswith((" * ", " / ")):
        return False
    depth = 0
    for i, ch in enumerate(rest):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and rest[i:i + 3] in (" + ", " - "):
            return False
    return True


def _drop_zero_starts(parts, count, zero, canon):
    """The parts with ``g = z + (P)`` (z set to 0.0, P any expression) written ``g = P``,
    and ``g = z - (P)`` written ``g = -(P)``, where the sign of a zero g cannot reach any
    output: 0.0 + P is P but for P = -0.0 (then +0.0), 0.0 - P is -P but for P = +0.0
    (then +0.0; a NaN's sign aside), and every use of g is one whose result is the same for
    either zero: a
    copy of it that is itself such, or ``c + (E)`` / ``c - (E)`` with c a name that
    cannot hold -0.0 (an adjoint's running sum) and E g times or over other factors (c
    plus or minus a zero is c; a zero times inf is the one default NaN).  The first
    contribution ``A[e] = 0.0; A[e] += gy * ...`` to most adjoints of a scalar tape: with
    the dropped copies (_drop_zero_adds) Rosenbrock's loop form at n = 100 ran 1.61x ->
    1.38x hand-written Numba (CPU min, interleaved); with ``-(P)`` (LLVM folds the
    negation into the sum that uses it: one subtraction a term fewer) n = 100, 10^5
    points, 30 rounds interleaved, CPU median 1.39x -> 1.28x."""
    uses = {}
    for j, lines in enumerate(parts):
        for i, line in enumerate(lines):
            for name in set(_NAME.findall(line)):
                uses.setdefault(name, []).append((j, i))
    memo = {}

    def free(name):
        """Whether the sign of a zero ``name`` cannot reach an output."""
        if name in memo:
            return memo[name]
        memo[name] = False  # (a cycle: no)
        ok = True
        for j, i in uses.get(name, ()):
            m = _ASSIGN.match(parts[j][i])
            if m is not None and m.group(2) == name:
                continue  # (its own line)
            if m is None or count.get(m.group(2)) != 1:
                ok = False
            elif m.group(3) == name:
                ok = free(m.group(2))
            else:
                f = _FROM.match(m.group(3))
                ok = f is not None and f.group(2) is not None and f.group(1) != name and \
                    (f.group(1) in zero or f.group(1) in canon) and _product_of(name, f.group(3))
            if not ok:
                break
        memo[name] = ok
        return ok

    def start(name, rhs, f):
        if f is not None and f.group(2) is not None and f.group(1) in zero and free(name):
            return f.group(3) if f.group(2) == "+" else f"-({f.group(3)})"
        return None
    return _rewrite(parts, count, start)


LANES = 4  # seed rows a seeded kernel's reverse runs side by side (written out tapes)
UNROLL_LINES = 3000  # a tape whose loops unroll into at most this many lines is unrolled
_FOR = re.compile(r"^( *)for (\w+) in range\((\d+)(?:, (\d+))?\):$")
_INDEX = re.compile(r"\b([WAT]\d*|_M\d+)\[([0-9 +*\-]+)\]")


def _unroll_loops(lines, budget):
    """Lines with every loop over a literal range written out (its variable replaced by
    each value), or None past ``budget`` lines."""
    out = []
    i = 0
    while i < len(lines):
        m = _FOR.match(lines[i])
        if m is None:
            out.append(lines[i])
            i += 1
            continue
        pad, var = m.group(1), m.group(2)
        lo, hi = (int(m.group(3)), int(m.group(4))) if m.group(4) else (0, int(m.group(3)))
        j = i + 1
        while j < len(lines) and lines[j].startswith(pad + " "):
            j += 1
        body = [pad + line[len(pad) + 4:] for line in lines[i + 1:j]]
        word = re.compile(rf"\b{var}\b")
        for v in range(lo, hi):
            inner = _unroll_loops([word.sub(str(v), line) for line in body], budget - len(out))
            if inner is None:
                return None
            out += inner
            if len(out) > budget:
                return None
        i = j
    return out


def _unrolled(setup, fwd, rev, maps):
    """(setup, forward, reverse) with loops unrolled and array elements as locals (W[e]
    -> v<e>, A[e] -> g<e>, T<j>[e] -> _T<j>_<e>, _M<j>[i] -> its value), or None when
    that would pass ``UNROLL_LINES`` or an index stays unknown."""
    parts = []
    budget = UNROLL_LINES
    for lines in (setup, fwd, rev):
        flat = _unroll_loops(lines, budget)
        if flat is None:
            return None
        budget -= len(flat)
        parts.append(flat)

    def sub(m):
        name, idx = m.group(1), m.group(2)
        idx = _INDEX.sub(sub, idx)
        if not re.fullmatch(r"[0-9 +*\-]+", idx):
            raise ValueError(idx)
        e = eval(idx)  # noqa: S307 (integer arithmetic of our own generated text)
        if name.startswith("_M"):
            return str(maps[int(name[2:])][e])
        return {"W": f"v{e}", "A": f"g{e}"}.get(name, f"_{name}_{e}")

    out = []
    for lines in parts:
        done = []
        for line in lines:
            prev = None
            while prev != line:  # (nested: W[3 + _M0[2]])
                prev, line = line, _INDEX.sub(sub, line)
            if re.search(r"\b[WAT]\d*\[", line) and "np.empty" not in line:
                return None
            done.append(line)
        out.append([line for line in done if "np.empty" not in line])
    return out


def _fail(num):
    """A point whose guard ``num - 1`` diverges: flagged, and the next point."""
    return [f"bad[p] = {num}", "continue"]


def _load_x(c):
    return f"X[p, {c}]"


def _loop(n, stmt):
    return [f"for i in range({n}):", "    " + stmt]


def _indent(lines, n):
    pad = " " * n
    return [pad + s for s in lines]


def generate(t):
    """The fused kernels' module source for the traced tape ``t`` (raises Ineligible)."""
    plan = t._fused_plan()
    if plan.rev_error is not None:
        raise Ineligible(f"{NAMES.get(plan.rev_error, plan.rev_error)} has no reverse rule")
    return _Gen(t, plan).source(seeded=t.out_size != 1)


def generate_direct(t, at, kind="out"):
    """The source of t's ``direct`` kernel (``_Gen.direct_source``) of ``kind`` for the
    entry offsets at (k, n) int64 (-1: not stored); raises Ineligible."""
    plan = t._fused_plan()
    if plan.rev_error is not None:
        raise Ineligible(f"{NAMES.get(plan.rev_error, plan.rev_error)} has no reverse rule")
    return _Gen(t, plan).direct_source(at, kind)


# -- the disk cache ------------------------------------------------------------------------
def cache_dir():
    """Where generated kernels live: ``TAPEGRAD_FUSED_DIR``, else ``tapegrad_fused`` under
    ``NUMBA_CACHE_DIR`` if set, else ``~/.cache/tapegrad/fused`` (``XDG_CACHE_HOME``)."""
    d = os.environ.get("TAPEGRAD_FUSED_DIR")
    if d:
        return pathlib.Path(d)
    numba_dir = os.environ.get("NUMBA_CACHE_DIR")
    if numba_dir:
        return pathlib.Path(numba_dir) / "tapegrad_fused"
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(xdg) / "tapegrad" / "fused"


def _numba_dirs(d):
    """The directories where Numba keeps the machine code of the kernels in ``d``."""
    from_env = os.environ.get("NUMBA_CACHE_DIR")
    out = [d / "__pycache__"]
    if from_env:
        sub = os.path.dirname(os.path.abspath(d / "x.py"))
        out.append(pathlib.Path(from_env) / "_".join(
            [os.path.basename(sub), hashlib.sha1(sub.encode()).hexdigest()]))
    return out


def key_of(source):
    numba = _jit.load_numba()
    h = hashlib.sha256(f"{GENERATOR};{numba.__version__};{sys.version_info[:2]}\n".encode())
    h.update(source.encode())
    return h.hexdigest()[:32]


def _entries(d):
    """{key: (mtime of its source, [its files])} of the kernels cached in ``d``."""
    out = {}
    for f in d.glob("tg_fused_*.py"):
        try:
            out[f.stem[len("tg_fused_"):]] = [f.stat().st_mtime, [f]]
        except OSError:
            continue
    for nd in _numba_dirs(d):
        for f in nd.glob("tg_fused_*"):
            k = f.name[len("tg_fused_"):].split(".")[0]
            if k in out:
                out[k][1].append(f)
            else:
                out[k] = [0.0, [f]]  # machine code without its source: goes first
    return out


def cache_bytes(d=None):
    d = cache_dir() if d is None else d
    total = 0
    for _, files in _entries(d).values():
        for f in files:
            try:
                total += f.stat().st_size
            except OSError:
                pass
    return total


def evict(d=None, limit_mb=None, keep=()):
    """Delete the oldest cached kernels until ``d`` holds at most ``limit_mb`` (default
    ``CACHE_MB``); kernels in ``keep`` (keys) stay.  Returns the keys deleted."""
    d = cache_dir() if d is None else d
    limit = (CACHE_MB if limit_mb is None else limit_mb) * 2**20
    entries = _entries(d)
    sizes = {}
    for k, (_, files) in entries.items():
        sizes[k] = sum(f.stat().st_size for f in files if f.exists())
    total = sum(sizes.values())
    gone = []
    for k in sorted(entries, key=lambda k: entries[k][0]):
        if total <= limit:
            break
        if k in keep:
            continue
        for f in entries[k][1]:
            try:
                f.unlink()
            except OSError:
                pass
        total -= sizes[k]
        gone.append(k)
    return gone


_MODULES = {}  # key -> loaded module (one per process)
_MODULES_LOCK = threading.Lock()


def _private(dirs):
    """Whether only this user can change ``dirs`` (those that exist) and what they hold
    (``_jit.private_dir``: each owned by us and writable by neither group nor others, every
    directory above it ours or root's and not writable by others unless sticky).  Numba
    loads a cached kernel by its source file's stamp (mtime, size) and a hash of its
    bytecode, which holds none of its literals (a tape's constants, offsets, sizes), from an
    index that is a pickle: whoever can write there, or swap the directory for another,
    chooses the code a kernel runs."""
    return all(_jit.private_dir(p) for p in dirs)


_SHARED_WARNED = []


def _load(source):
    """The compiled module of ``source``: written to the cache dir if new, its kernels
    compiled (or loaded from Numba's cache) for their one signature each.  A file there of
    our key but other contents (planted, or damaged: its literals may differ and its
    machine code, cached by a stamp and a bytecode hash, still load) is written anew; a
    cache directory that others can write to is not used (the kernel compiles uncached)."""
    key = key_of(source)
    with _MODULES_LOCK:
        mod = _MODULES.get(key)
    if mod is not None:
        return key, mod
    d = cache_dir()
    d.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = d / f"tg_fused_{key}.py"
    dirs = [d, *_numba_dirs(d)]
    for nd in dirs[1:]:  # (before Numba makes them with the umask's modes)
        nd.mkdir(mode=0o700, parents=True, exist_ok=True)
    private = _private(dirs)
    if not private:
        if not _SHARED_WARNED:
            _SHARED_WARNED.append(True)
            warnings.warn(f"tapegrad: the fused-kernel cache {d} (or Numba's cache of it) is "
                          "not owned by this user or is writable by others (or a directory "
                          "above it is, or a link on its path is another user's), who could "
                          "plant kernels there; fused kernels compile without a disk cache. "
                          "Set TAPEGRAD_FUSED_DIR to a directory of your own", RuntimeWarning,
                          stacklevel=4)
        source = source.replace("_OPTS = dict(cache=True,", "_OPTS = dict(cache=False,", 1)
        path = pathlib.Path(f"<tapegrad fused kernel {key}>")
    elif not path.exists() or path.read_bytes() != source.encode():
        tmp = d / f".tg_fused_{key}.{os.getpid()}.{threading.get_ident()}.tmp"
        tmp.write_text(source)
        os.replace(tmp, path)  # (atomic: another process may write the same file)
    name = f"tapegrad_fused_{key}"
    mod = types.ModuleType(name)
    mod.__file__ = str(path)
    sys.modules[name] = mod
    exec(compile(source, str(path), "exec"), mod.__dict__)  # noqa: S102 (our own source)
    numba = _jit.load_numba()
    f8, i8 = numba.float64, numba.int64
    a1, a2, a3 = f8[::1], f8[:, ::1], f8[:, :, ::1]
    if hasattr(mod, "direct"):
        mod.direct.compile((a2, i8[::1]) * mod.N_IN + (a1, i8[:, ::1], i8[:, ::1], a2, a3,
                                                       i8[::1], a1, a1, i8, i8))
    elif hasattr(mod, "seeded"):
        mod.seeded.compile((a2, a3, a2, a3, i8[::1], a1, a1, i8, i8))
    else:
        mod.batch.compile((a2, a1, a2, i8[::1], a1, a1, i8, i8))
    with _MODULES_LOCK:
        _MODULES[key] = mod
    if private:
        evict(d, keep=(key,))
    return key, mod


# -- a kernel bound to its tape -----------------------------------------------------------
_POOL = []


def _pool():
    if not _POOL:
        _POOL.append(concurrent.futures.ThreadPoolExecutor(
            max(1, _CORES - 1), thread_name_prefix="tapegrad-fused"))
    return _POOL[0]


class Kernel:
    """A compiled fused kernel and the arrays it reads (the plan's constants): ``batch``
    (a scalar output: value and gradient) or ``seeded`` (a vector output: value and seeded
    reverse sweeps), the other None."""

    def __init__(self, t, key, mod, seconds):
        plan = t._fused_plan()
        self.key = key
        self.seconds = seconds  # wall time to generate and compile (or load)
        self.batch = getattr(mod, "batch", None)
        self.seeded = getattr(mod, "seeded", None)
        self.direct = getattr(mod, "direct", None)
        self.C = np.ascontiguousarray(plan.vals0, np.float64)
        if not len(self.C):
            self.C = np.zeros(1)
        self.K = np.ascontiguousarray(plan.consts, np.float64)
        if not len(self.K):
            self.K = np.zeros(1)
        self.width = max(1, len(plan.vals0))

    def run(self, X, V, G, bad, serial=False):
        """Value (and gradient, if G has rows) at the rows of X into V, G, bad: on all
        cores unless ``serial`` or the batch is small.  False (nothing done) for arrays of
        another Numba type than the one compiled (read-only, strided: the interpreter
        answers; a call must never compile in the caller's thread)."""
        if self.batch is None or not _plain(X, V, G, bad) or np.may_share_memory(X, G) or \
                np.may_share_memory(V, G):
            return False  # (the kernel reads X while it sums into G, stores G before V)
        self._split(len(X), self.width, serial,
                    lambda p0, p1: self.batch(X, V, G, bad, self.C, self.K, p0, p1), (V, G))
        return True

    def run_seeded(self, X, U, V, G, bad, serial=False):
        """``Traced.run_seeded`` into V (B, m), G (B, k, n), bad: as ``run``.  A scalar
        output's kernel serves the seed 1.0 (k = 1: its gradient is that product)."""
        if self.seeded is None:
            if U.shape != (1, 1, 1) or U[0, 0, 0] != 1.0:
                return False
            B = len(X)
            return self.run(X, V.reshape(B), G.reshape(B, G.shape[2]), bad, serial)
        if not _plain(X, U, V, G, bad) or np.may_share_memory(X, G):
            return False
        self._split(len(X), self.width * max(1, U.shape[1]), serial,
                    lambda p0, p1: self.seeded(X, U, V, G, bad, self.C, self.K, p0, p1),
                    (V, G))
        return True

    def run_direct(self, srcs, idxs, data, start, at, bad, serial=False, V=None, U=None):
        """The ``direct`` kernel over the B = len(bad) points (``_Gen.direct_source``): as
        ``run``, False where an array is not of the compiled type or data overlaps an
        input.  V (B, m) the values, U (B or 1, 1, m) the seeds (kinds "dense", "vjp")."""
        V = _NO_V if V is None else V
        U = _NO_U if U is None else U
        if self.direct is None or not _plain(*srcs, data, at, start, V, U, *idxs, bad) or \
                any(a.dtype != np.float64 for a in (*srcs, data, V, U)) or \
                any(np.may_share_memory(a, data) for a in (*srcs, V, U)):
            return False
        args = [a for pair in zip(srcs, idxs, strict=True) for a in pair]
        args += [data, start, at, V, U, bad, self.C, self.K]
        self._split(len(bad), self.width * len(at), serial,
                    lambda p0, p1: self.direct(*args, p0, p1))
        return True

    @staticmethod
    def _split(B, width, serial, call, outs=()):
        """call(p0, p1) over 0..B-1: in chunks on all cores, or at once in this thread
        (``serial``, or fewer than SERIAL_VALUES values).  The outputs ``outs`` of a run
        on several cores are pre-faulted first (``prefault``)."""
        nthreads = 1 if serial or B * width < SERIAL_VALUES else min(_CORES, B)
        if nthreads == 1:
            call(0, B)
            return
        prefault(*outs)
        cuts = np.linspace(0, B, 4 * nthreads + 1).astype(np.int64).tolist()
        chunks = iter(range(len(cuts) - 1))  # (next() is atomic: each chunk runs once)

        def work():
            for j in chunks:
                call(cuts[j], cuts[j + 1])
        futures = [_pool().submit(work) for _ in range(nthreads - 1)]
        work()
        for f in futures:
            f.result()


_NO_V = np.zeros((0, 1))  # (run_direct's V and U where its kernel reads neither)
_NO_U = np.zeros((1, 1, 1))
PREFAULT_BYTES = 64 << 20  # outputs at least this large are pre-faulted (prefault)
_MADV_POPULATE_WRITE = 23  # (Linux 5.14)
_LIBC = []


def prefault(*arrays):
    """Fault in the pages of large arrays in this thread, in one call to the OS
    (``madvise(MADV_POPULATE_WRITE)``; nothing where it is missing), before the kernel
    writes them on several cores: fresh outputs (``value_and_grad_batch(X)`` without
    ``out=``) otherwise take their first-touch page faults on all cores at once, which
    serialise in the OS.  Rosenbrock vector n = 100, 10^6 points, two cores, wall min of
    4: out= 0.55 s, fresh 1.88 s (median 5.5 s), fresh pre-faulted by a fill 0.86 s.  An
    array already faulted in (out=) costs ~0.5 ms per 800 MB.  Chosen over reusing
    buffers: outputs handed to the caller cannot be reused safely."""
    if sys.platform != "linux":
        return
    if not _LIBC:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
            _LIBC.append(libc)
        except (OSError, AttributeError):
            _LIBC.append(None)
    libc = _LIBC[0]
    if libc is None:
        return
    page = 4096
    for a in arrays:
        if a.nbytes >= PREFAULT_BYTES:
            lo = a.ctypes.data & ~(page - 1)
            libc.madvise(lo, a.ctypes.data + a.nbytes - lo, _MADV_POPULATE_WRITE)


def _plain(*arrays):
    """Whether the arrays are of the types the kernels are compiled for: C-contiguous,
    writable, bad (the last) int64."""
    return all(a.flags.c_contiguous and a.flags.writeable for a in arrays) and \
        arrays[-1].dtype == np.int64


# -- the background compiler ----------------------------------------------------------------
# a tape's state: t._fused is None (never asked), "queued", a Kernel, or "ineligible: why" /
# "failed: why"; t._fused_points counts the points it evaluated interpreted
_QUEUE = queue.Queue()
_WORKER = []
_WORKER_LOCK = threading.Lock()


_BUSY = threading.Lock()  # held while a kernel compiles: exit waits for it (see _settle)
_EXITING = []


def _worker():
    while True:
        ref, done, job = _QUEUE.get()
        t = ref()
        try:
            with _BUSY:
                if t is not None and not _EXITING:
                    job(t)
        finally:
            done.set()


def _settle():
    """At exit: no compile begins, and the one in progress ends first (LLVM must not be
    running in a daemon thread while the interpreter shuts down: tapegrad/_kernels.py)."""
    _EXITING.append(True)
    with _BUSY:
        pass


atexit.register(_settle)


def _compiled(t, make_source):
    """A Kernel of t from ``make_source()``, generated and compiled (or loaded) in this
    thread, or the status that says why not ('ineligible: why', 'failed: why')."""
    t0 = time.perf_counter()
    try:
        source = make_source()
    except Ineligible as e:
        return f"ineligible: {e}"
    try:
        key, mod = _load(source)
    except Exception as e:  # noqa: BLE001 (a kernel that cannot compile: stay interpreted)
        warnings.warn(f"tapegrad: a fused kernel failed to compile ({type(e).__name__}: {e});"
                      " the interpreter keeps running this tape; please report this as a "
                      "tapegrad bug", RuntimeWarning, stacklevel=3)
        return f"failed: {type(e).__name__}: {e}"
    return Kernel(t, key, mod, time.perf_counter() - t0)


def build(t):
    """Generate, compile (or load) and install t's kernel, in this thread; returns it, or
    None when the tape is ineligible or the compile failed (its status says why)."""
    k = t._fused = _compiled(t, lambda: generate(t))
    return k if isinstance(k, Kernel) else None


def _build_queued(t):
    if t.__dict__.get("_fused") == "queued":
        build(t)


def _submit(t, job):
    """Queue ``job(t)`` for the compile thread (started if need be; the caller holds
    _WORKER_LOCK); returns the Event set when it has run."""
    done = threading.Event()
    if not _WORKER or not _WORKER[0].is_alive():
        _WORKER[:] = [_eager.start_thread(_worker, name="tapegrad-fused-compile")]
    _QUEUE.put((weakref.ref(t), done, job))
    return done


def request(t, wait=False):
    """Queue t's kernel for the background compile (once); with ``wait``, block until it
    is ready (or known ineligible).  Returns t's status."""
    if not _ENABLED[0]:
        return "disabled"
    with _WORKER_LOCK:
        if t.__dict__.get("_fused") is None:
            t._fused = "queued"
            t._fused_done = _submit(t, _build_queued)
        done = t.__dict__.get("_fused_done")
    if wait and done is not None:
        done.wait()
    return status(t)


DIRECT_MASKS = 4  # direct kernels of a kind a tape keeps (one per out= mask); past, others answer


def direct_kernel(t, at, wait=False, kind="out"):
    """t's ready ``direct`` kernel of ``kind`` for the entry offsets at (k, n)
    (``jacobian_batch(index=, out=)`` and, kinds "dense" and "vjp", the plain
    ``jacobian_batch``, ``jvp_batch`` and ``vjp_batch``: tapegrad/replay/gather.py), or
    None: another path answers.  Its compile is queued at the first ask once t is hot (its
    own kernel asked for: ``FUSE_AFTER`` points or ``compile_fused``), or with ``wait``,
    which blocks until it is ready or known ineligible ("direct_status")."""
    if not _ENABLED[0]:
        return None
    key = (kind, at.shape, at.tobytes())
    d = t.__dict__
    with _WORKER_LOCK:
        kernels = d.setdefault("_fused_direct", {})
        f = kernels.get(key)
        if f is None and (wait or d.get("_fused") is not None) and \
                sum(c[0] == kind for c in kernels) < DIRECT_MASKS:
            def job(t):
                kernels[key] = _compiled(t, lambda: generate_direct(t, at, kind))
            f = kernels[key] = _submit(t, job)
    if wait and isinstance(f, threading.Event):
        f.wait()
        f = kernels.get(key)
    return f if f.__class__ is Kernel else None


def direct_status(t, at, kind="out"):
    """The status of t's direct kernel of ``kind`` for at: as ``status``, "queued" while
    compiling."""
    f = t.__dict__.get("_fused_direct", {}).get((kind, at.shape, at.tobytes()))
    if f is None:
        return "interpreted"
    return "fused" if isinstance(f, Kernel) else "queued" if isinstance(f, threading.Event) \
        else f


def status(t):
    """"disabled", "interpreted" (not queued), "queued" (compiling), "fused", or
    "ineligible: why" / "failed: why"."""
    if not _ENABLED[0]:
        return "disabled"
    f = t.__dict__.get("_fused")
    if f is None:
        return "interpreted"
    return "fused" if isinstance(f, Kernel) else f


def kernel(t, points):
    """t's ready kernel, or None (the interpreter answers): counts ``points`` toward
    ``FUSE_AFTER`` and queues the compile when they reach it (``t._fused_auto``: True
    queues at once, False never).  On every replay call: ~0.3 us, kept plain."""
    d = t.__dict__
    f = d.get("_fused")
    if f is None:
        if _ENABLED[0]:
            n = d["_fused_points"] = d.get("_fused_points", 0) + points
            auto = d.get("_fused_auto")
            if auto or (n >= FUSE_AFTER and auto is None):
                request(t)
        return None
    return f if f.__class__ is Kernel and _ENABLED[0] else None
