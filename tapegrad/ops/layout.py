"""Row layouts: what each opcode's row may reference, checked before compiled code sees a
tape that came from outside (``tapegrad.load``, unpickling a trace).

The compiled rules index the arena, the const and meta pools with the numbers a row holds
and never check them (a check per element would cost more than the rule).  A tape recorded
here is right by construction; a file is not, so every op declares its layout with its
``declare(..., check=...)`` and ``replay/validate.py`` runs the checks over every row of a
loaded tape.  A check gets a ``Layout`` (the tape's slot sizes, pools and guard count) and
the rows of its opcode; it raises ``ValueError`` naming the row and the field.

Elementwise ops need no check of their own: ``declare`` derives it from their ``aux``.
"""
import numpy as np

MAX_DIMS = 64  # a strided map's dims (NumPy allows 64)


class Layout:
    """One tape's bounds: ``size[s]`` elements in slot s, the pools, the guard count."""

    def __init__(self, size, meta, nconsts, nguards, name, computed=None):
        self.size = size
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
        self.work = 0  # replay work beyond reading and writing each row's slots (products)

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
        self._first((n > 0) & (nd == 0) & ((base < 0) | (base >= target)),
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

    # -- one row at a time (meta layouts) ----------------------------------------------
    def window(self, i, k, n, what="meta"):
        """``meta[k .. k+n-1]`` of row i as Python ints (after checking they exist)."""
        k, n = int(k), int(n)
        if n < 0 or k < 0 or k + n > len(self.meta):
            self.fail(i, f"{what} reads meta[{k}:{k + n}], past the meta pool "
                         f"({len(self.meta)} entries)")
        return self.meta[k:k + n].tolist()

    def ints(self, i, values, names, lo=0):
        """Each of ``values`` is at least ``lo``."""
        for v, nm in zip(values, names):
            if v < lo:
                self.fail(i, f"meta field {nm} = {v} must be >= {lo}")

    def needs_grad(self, i, needs, slots, names):
        """A product's need flags (``need_a``...: 0 skips an operand's adjoint): 0 only for a
        constant operand (as recorded: every input requires grad).  The interpreters skip
        the product, so a cleared flag on a computed operand silently zeroed that part of
        the gradient, which a loaded trace without ``grad0`` (a vector output, a format-1
        file) never compares."""
        for need, s, nm in zip(needs, slots, names):
            if not need and self.computed[s]:
                self.fail(i, f"meta field {nm} = 0 (no gradient into slot {s}), but slot {s} "
                             "is computed from the inputs")

    def slot_of(self, i, s, what):
        if not 0 <= s < self.nslots:
            self.fail(i, f"{what} slot {s} is out of range (the trace has {self.nslots} slots)")
        return int(self.size[s])

    def indices(self, i, k, n, target, what="index"):
        """``meta[k .. k+n-1]`` are element indices below ``target``."""
        self.window(i, k, n, what)
        idx = self.meta[int(k):int(k) + int(n)]
        if n and (idx.min() < 0 or idx.max() >= target):
            self.fail(i, f"an {what} in meta[{k}:{k + n}] is outside 0..{target - 1}")


ROW_WORK = 10_000  # what a row checked one at a time in Python costs (element operations,
# as validate's work bound counts them: ~10 us a row, as much as 10**4 element operations)


def each_row(fn):
    """A check from ``fn(layout, i, o, a, b, k)`` run on every row (Python ints).  Such rows
    count ``ROW_WORK`` each toward the load's work bound (``per_row``): a 120 kB file of
    10**6 rows took 7 s to check one at a time, 1 GB of them minutes; checks of fixed-size
    fields are written over all rows at once instead (``sizes``, ``fields``)."""
    def check(lay, R):
        for i, (_, o, a, b, k) in enumerate(R.tolist()):
            fn(lay, i, o, a, b, k)
    check.per_row = True
    return check


def elementwise(consts=0, slot_aux=False, binary=None):
    """The layout of an elementwise row: out, in0 (and in1, if any) of one size; aux a
    run of ``consts`` const indices, or (``slot_aux``) a slot of that size too."""
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
    check.per_row = any(getattr(c, "per_row", False) for c in checks)
    return check


def refuse(why):
    """The check of an op that a loaded trace may not hold (its rule runs Python)."""
    def check(lay, R):
        lay.fail(0, f"cannot be replayed: {why}")
    return check
