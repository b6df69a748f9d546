"""Row layouts: what each opcode's row may reference, checked before compiled code sees a
tape that came from outside (``tapegrad.load``, unpickling a trace).

The compiled rules index the arena, the const and meta pools with the numbers a row holds
and never check them (a check per element would cost more than the rule).  A tape recorded
here is right by construction; a file is not, so every op declares its layout with its
``declare(..., check=...)`` and ``replay/validate.py`` runs the checks over every row of a
loaded tape.  A check gets a ``Layout`` (the tape's slot sizes, pools and guard count) and
the rows of its opcode, all at once (NumPy arrays: a trace may hold 10**6 rows); it raises
``ValueError`` naming the row and the field.  Sizes and products are exact near int64's
ends (``product``); a window of variable length (indices, a cat's operands) is read
through ``Layout.ragged``, counted against the load's work bound first.

Elementwise ops need no check of their own: ``declare`` derives it from their ``aux``.
"""
import numpy as np

MAX_DIMS = 64  # a strided map's dims (NumPy allows 64)


class Layout:
    """One tape's bounds: ``size[s]`` elements in slot s, the pools, the guard count."""

    def __init__(self, size, meta, nconsts, nguards, name, computed=None, const_values=None):
        self.size = size
        # the const pool's values (checks of ops whose rules assume something of them)
        self.const_values = np.zeros(nconsts) if const_values is None else const_values
        # computed[s]: slot s is an input or a row's output (else a constant, whose
        # adjoint no gradient reads)
        self.computed = np.ones(len(size), bool) if computed is None else computed
        self.nslots = len(size)
        self.meta = meta
        self.nconsts = nconsts
        self.nguards = nguards
        self.name = name  # opcode -> node name, for messages
        self.op = None
        self.rows = None  # the row numbers being checked (for messages)
        self.work = 0.0  # replay work beyond reading and writing each row's slots (products)
        self.bound = None  # bound(work, what): validate's work bound, or None
        self.read = 0.0  # meta entries read by the checks of variable-length windows
        self.spans = None  # a list: (starts, length(s)) of the meta windows the checks read
        self.slot_at = []  # meta positions holding slot numbers (cat's operands, a bias)

    def fail(self, i, msg):
        """Raise for the i-th row of those being checked."""
        row = int(self.rows[i])
        what = "" if self.op == "any" else f" ({self.name(self.op)}, opcode {self.op})"
        raise ValueError(f"trace field 'rows': row {row}{what}: {msg}")

    def _first(self, bad, msg):
        if bad.any():
            self.fail(int(np.argmax(bad)), msg(int(np.argmax(bad))))

    # -- vectorised over the rows of one opcode ----------------------------------------
    def slots(self, x, what, optional=False):
        """Every entry of ``x`` names a slot (or is -1, if ``optional``)."""
        bad = ((x < 0) | (x >= self.nslots)) & ~(optional & (x == -1))
        self._first(bad, lambda i: f"{what} slot {int(x[i])} is out of range (the trace has "
                                   f"{self.nslots} slots)")

    def same_size(self, x, o, what, optional=False):
        """Slots ``x`` hold as many elements as slots ``o`` (skipping -1 if ``optional``)."""
        have = x >= 0 if optional else np.ones(len(x), bool)
        sx = np.where(have, self.size[np.where(have, x, 0)], 0)
        so = np.where(have, self.size[o], 0)
        self._first(sx != so, lambda i: f"{what} (slot {int(x[i])}) has {int(sx[i])} elements, "
                                        f"the output {int(so[i])}")

    def before(self, x, o, what):
        """Slots ``x`` were written before the rows' outputs ``o`` (recording order)."""
        self._first(x >= o, lambda i: f"{what} slot {int(x[i])} is not older than the "
                                      f"output slot {int(o[i])}")

    def consts(self, k, n, what="aux"):
        """``consts[k .. k+n-1]`` exist."""
        bad = (k < 0) | (k > self.nconsts - n)
        self._first(bad, lambda i: f"{what} const index {int(k[i])} is out of range (the trace "
                                   f"has {self.nconsts} consts; this op reads {n})")

    def no_output(self, o):
        self._first(o != -1, lambda i: f"out must be -1 (a guard has no output), got {int(o[i])}")

    def sizes(self, x, what):
        """The sizes of slots ``x`` (after checking they exist): slot_of for every row."""
        self.slots(x, what)
        return self.size[x]

    def fields(self, k, n, what="meta"):
        """``meta[k .. k+n-1]`` of every row as an (rows, n) array: window for every row."""
        bad = (k < 0) | (k > len(self.meta) - n)
        self._first(bad, lambda i: f"{what} reads meta[{int(k[i])}:{int(k[i]) + n}], past the "
                                   f"meta pool ({len(self.meta)} entries)")
        self._span(k, n)
        return self.meta[k[:, None] + np.arange(n)]

    def const_index(self, c, n=1):
        """Const indices ``c`` (meta fields) each start n consts."""
        self.consts(c, n, what="meta")

    def strided_maps(self, k, n, target):
        """The maps ``[ndim, base, shape..., strides...]`` at ``meta[k]`` send ``n`` elements
        into 0..target-1 (all arrays, one per row; strided.strided_index reads them), the rows
        grouped by their dims.  Exact in int64:
        a term that could overflow is out of range already (no slot has 2**53 elements)."""
        head = self.fields(k, 2, "strided map")
        nd, base = head[:, 0], head[:, 1]
        self._first((nd < 0) | (nd > MAX_DIMS), lambda i: f"strided map at meta[{int(k[i])}] "
                    f"has {int(nd[i])} dims (0..{MAX_DIMS} allowed)")
        # (a map of no dims names one source element even for no elements: the reverse
        # sweep's sum along a run reads and writes it for a run of none)
        self._first((nd == 0) & ((base < 0) | (base >= target)),
                    lambda i: self._reach(int(k[i]), int(target[i])))
        for d in np.unique(nd).tolist():
            if not d:
                continue  # (every element from meta[k + 1]: checked above)
            at = np.flatnonzero(nd == d)

            def first(bad, msg, at=at):  # bad over the group: fail at that row
                if bad.any():
                    j = int(at[np.argmax(bad)])
                    self.fail(j, msg(j))
            kk = k[at] + 2
            bad = kk > len(self.meta) - 2 * d
            first(bad, lambda i: f"strided map reads meta[{int(k[i]) + 2}:"
                                 f"{int(k[i]) + 2 + 2 * d}], past the meta pool "
                                 f"({len(self.meta)} entries)")
            self._span(kk, 2 * d)
            f = self.meta[kk[:, None] + np.arange(2 * d)]
            shape, strides, m = f[:, :d], f[:, d:], n[at]
            big = np.prod(shape.astype(np.float64), axis=1) > 2.0 ** 62
            prod = np.prod(np.where(big[:, None], 0, shape), axis=1)
            first((shape < 0).any(axis=1) | big | (prod != m),
                  lambda i: f"strided map at meta[{int(k[i])}] has shape "
                            f"{self.meta[int(k[i]) + 2:int(k[i]) + 2 + d].tolist()} for "
                            f"{int(n[i])} elements")
            # (with elements, every dim >= 1 and lo <= base <= hi: base out of range fails,
            # and a base in range cannot overflow the sums below)
            full = (m > 0) & (base[at] >= 0) & (base[at] < target[at])
            first((m > 0) & ~full, lambda i: self._reach(int(k[i]), int(target[i])))
            span = (shape - 1).astype(np.float64) * strides
            huge = (np.abs(span) >= 2.0 ** 53).any(axis=1) & full
            terms = np.where(huge[:, None] | ~full[:, None], 0, (shape - 1) * strides)
            lo = base[at] + np.minimum(terms, 0).sum(axis=1)
            hi = base[at] + np.maximum(terms, 0).sum(axis=1)
            first(full & (huge | (lo < 0) | (hi >= target[at])), lambda i: self._reach(
                int(k[i]), int(target[i])))

    def _reach(self, k, target):
        nd, base = self.meta[k:k + 2].tolist()
        dims = self.meta[k + 2:k + 2 + 2 * nd].tolist()
        span = [(m - 1) * st for m, st in zip(dims[:nd], dims[nd:])]  # (Python ints: exact)
        lo, hi = base + sum(min(0, t) for t in span), base + sum(max(0, t) for t in span)
        return f"strided map at meta[{k}] reaches elements {lo}..{hi} of a slot of {target}"

    def check_each(self, bad, msg):
        """Fail at the first row where ``bad`` holds, with ``msg(i)`` (i: its position)."""
        self._first(bad, msg)

    def at_least(self, f, names, lo=0):
        """Each column of ``f`` (rows, len(names)) is at least ``lo``."""
        self._first((f < lo).any(axis=1), lambda i: "meta field {} = {} must be >= {}".format(
            *next((nm, int(v)) for nm, v in zip(names, f[i]) if v < lo), lo))

    def needs_grad(self, needs, slots, name):
        """A product's need flags (``need_a``...: 0 skips an operand's adjoint): 0 only for a
        constant operand (as recorded: every input requires grad).  The interpreters skip
        the product, so a cleared flag on a computed operand silently zeroed that part of
        the gradient, which a loaded trace without ``grad0`` (a vector output, a format-1
        file) never compares.  (``slots``: checked to exist.)"""
        self._first((needs == 0) & self.computed[slots],
                    lambda i: f"meta field {name} = 0 (no gradient into slot {int(slots[i])}), "
                              f"but slot {int(slots[i])} is computed from the inputs")

    # -- windows of variable length ----------------------------------------------------
    def window(self, k, count, width=1, what="meta"):
        """``meta[k .. k + width * count - 1]`` exists for every row (and count >= 0); exact
        for any int64 (``width * count`` is never formed)."""
        room = len(self.meta) - k
        bad = (k < 0) | (room < 0) | (count < 0) | (count > np.maximum(room, 0) // width)
        self._first(bad, lambda i: f"{what} reads meta[{int(k[i])}:"
                                   f"{int(k[i]) + width * int(count[i])}], past the meta pool "
                                   f"({len(self.meta)} entries)")
        self._span(k, width * count)

    def ragged(self, k, count, what, width=1):
        """``(row, at)`` of every entry ``meta[k[i] + width * j]``, ``j < count[i]`` (windows
        checked), in row order, in chunks of at most ``CHUNK``; a chunk's index arrays are
        all the memory taken.  The entries are counted against ``bound`` (validate's work
        bound) before any is read: ``READ`` operations each (~50 ns of NumPy an entry, where
        the bound counts compiled operations of ~1 ns), ``REREAD`` each named by more than
        one window (recorded rows each push their own; a small file's rows may all name one
        long window: 10**4 rows naming one window of 10**5 entries took 90 s)."""
        total = float(np.sum(count, dtype=np.float64))
        m = len(self.meta) + 1
        covered = np.cumsum(np.bincount(k, minlength=m) -
                            np.bincount(k + width * count, minlength=m))
        again = total * width - np.count_nonzero(covered)
        self.read += READ * total * width + REREAD * again
        if self.bound is not None:
            self.bound(self.read, f"checking the {what} its rows name in the meta pool ({READ} "
                                  f"operations an entry, {REREAD} for each of the {again:.3g} "
                                  "named again by another row)")
        ends = np.cumsum(count)
        for lo in range(0, int(total), CHUNK):
            e = np.arange(lo, min(lo + CHUNK, int(total)))
            row = np.searchsorted(ends, e, side="right")
            yield row, k[row] + width * (e - (ends[row] - count[row]))

    def indices(self, k, count, target, what="index", ascending=False):
        """``meta[k[i] .. k[i] + count[i] - 1]`` are element indices below ``target[i]``
        (and non-decreasing, if ``ascending``)."""
        self.window(k, count, what=what)
        for row, at in self.ragged(k, count, f"{what} entries"):
            v = self.meta[at]
            self._first_of(row, (v < 0) | (v >= target[row]), lambda i: (
                f"an {what} in meta[{int(k[i])}:{int(k[i]) + int(count[i])}] is outside "
                f"0..{int(target[i]) - 1}"))
            if ascending:
                down = (at > k[row]) & (v < self.meta[np.maximum(at - 1, 0)])
                self._first_of(row, down, lambda i: f"{what}s must be non-decreasing")

    def _span(self, k, n):
        if self.spans is not None:  # (kept only for a tape holding slot numbers in meta)
            self.spans.append((k, n))

    def holds_slots(self, at):
        """Meta positions ``at`` hold slot numbers: the replay plan renumbers them in place
        (replay/__init__.py _Plan), so no other row may read them (``shared_slots``)."""
        if self.spans is not None:
            self.slot_at.append(at)

    def shared_slots(self):
        """The first meta position holding a slot number that two rows name (or one row
        twice), or that another row's check read as well; None if there is none."""
        at = np.concatenate(self.slot_at) if self.slot_at else np.zeros(0, np.int64)
        if not len(at):
            return None
        starts = np.concatenate([k for k, _ in self.spans])
        ends = np.concatenate([k + n for k, n in self.spans])  # (n: one, or one a row)
        m = len(self.meta) + 1
        cover = np.cumsum(np.bincount(starts, minlength=m) - np.bincount(ends, minlength=m))
        bad = (cover[at] != 1) | (np.bincount(at, minlength=m)[at] != 1)
        return int(at[np.argmax(bad)]) if bad.any() else None

    def _first_of(self, row, bad, msg):
        """Fail at ``row`` of the first entry where ``bad`` holds."""
        if bad.any():
            i = int(row[np.argmax(bad)])
            self.fail(i, msg(i))


CHUNK = 1 << 20  # meta entries ``Layout.ragged`` indexes at once
READ, REREAD = 8, 64  # work-bound operations a meta entry read (again) by a check counts
BIG = 2.0 ** 62  # a product above this (float64: within 1e-16) exceeds any slot's size


def product(*cols):
    """The row-wise product of int64 columns (each >= 0), and where it is too big for any
    slot.  Exact where it is not: int64 wraps modulo 2**64, so a product below 2**63 comes
    out right however its partial products wrapped, and float64 tells which are below."""
    big = np.prod([c.astype(np.float64) for c in cols], axis=0) > BIG
    with np.errstate(over="ignore"):
        exact = np.prod(cols, axis=0)
    return np.where(big, -1, exact), big


def elementwise(consts=0, slot_aux=False, binary=None, also=None):
    """The layout of an elementwise row: out, in0 (and in1, if any) of one size; aux a
    run of ``consts`` const indices, or (``slot_aux``) a slot of that size too; ``also``:
    a further check of the op's own (still an elementwise layout: sparse/pattern.py)."""
    def check(lay, R):
        o, a, b, k = R[:, 1], R[:, 2], R[:, 3], R[:, 4]
        lay.slots(o, "out")
        lay.slots(a, "in0")
        lay.slots(b, "in1", optional=True)
        lay.same_size(a, o, "in0")
        lay.same_size(b, o, "in1", optional=True)
        if consts:
            lay.consts(k, consts)
        if slot_aux:
            lay.slots(k, "aux")
            lay.same_size(k, o, "aux")
            lay.before(k, o, "aux")
        if also is not None:
            also(lay, R)
    return check


def reduction(map_at=0, consts_at=None, head=()):
    """A reduction row: in0's elements into out's by a strided map at ``meta[k + map_at]``;
    ``consts_at``: meta[k + consts_at] is a const index; ``head``: names of meta fields
    before the map that must be >= 1 (argmax's inner, size).  Over all rows at once."""
    def check(lay, R):
        o, b, k = R[:, 1], R[:, 3], R[:, 4]
        n_out, n_in = lay.sizes(o, "out"), lay.sizes(R[:, 2], "in0")
        lay.check_each(b != -1, lambda i: f"in1 must be -1, got {int(b[i])}")
        if consts_at is not None:
            lay.const_index(lay.fields(k + consts_at, 1)[:, 0])
        if head:
            h = lay.fields(k, len(head))
            lay.check_each((h < 1).any(axis=1), lambda i: "meta field {} = {} must be >= 1".format(
                *next((nm, int(v)) for nm, v in zip(head, h[i]) if v < 1)))
        lay.check_each((n_in > 0) & (n_out == 0),
                       lambda i: f"{int(n_in[i])} elements reduce into an empty output")
        lay.strided_maps(k + map_at, n_in, n_out)
    return check


def both(*checks):
    """A check running each of ``checks``."""
    def check(lay, R):
        for c in checks:
            c(lay, R)
    return check


def refuse(why):
    """The check of an op that a loaded trace may not hold (its rule runs Python)."""
    def check(lay, R):
        lay.fail(0, f"cannot be replayed: {why}")
    return check
