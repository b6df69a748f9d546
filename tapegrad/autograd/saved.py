"""The check after a backward's sweep that no value saved for a swept row was modified
in place after the row was recorded (PyTorch's version-counter error).  The in-place ops
(``ops/inplace.py``) log each change on the tape; this reads the log and the graph views.
"""
import re

import numpy as np

from .. import dtypes
from ..ops.inplace import _FLAGS, _NCODES
from ..tape import OP_MASK
from .graph import _SAVED_COLUMN, views


def check_saved(tape, rows, reach, lo, hi, changes):
    """Raise PyTorch's error if the sweep (of rows ``lo .. hi-1``) went through a row that
    saved a value modified in place after the row was recorded (by the log's first
    ``changes`` changes: those made before the sweep)."""
    log = tape.mutated
    ints = np.frombuffer(log.ints, np.int64).reshape(-1, 3)[:changes].copy()
    rows = rows[lo:hi]
    n = len(rows)
    entry = np.full(tape.nslots, -1, np.int64)
    slots, first = np.unique(ints[:, 0], return_index=True)
    entry[slots] = first  # the first change of a slot is the one that counts
    limit = ints[:, 1]
    ops = rows[:, 0] & OP_MASK
    ops = np.where(ops < _NCODES, ops, _NCODES)
    outs = rows[:, 1]
    ran = (outs >= 0) & (reach[np.maximum(outs, 0)] != 0)
    needs = np.zeros(tape.nslots, bool)  # slots that require grad: an op's output, or a leaf
    needs[outs[outs >= 0]] = True
    needs[[s for s, _ in tape.leaves]] = True
    a, b = rows[:, 2], rows[:, 3]
    a_rg = needs[np.maximum(a, 0)] & (a >= 0)
    b_rg = needs[np.maximum(b, 0)] & (b >= 0)
    hit = np.full(n, -1, np.int64)
    # a leaf packed by saved_tensors_hooks is whatever its unpack returns (pack got the leaf
    # itself): PyTorch checks no version of it.  (A non-leaf's pack gets a copy of the values
    # saved, graph._saved: those stay checked, refused rather than computed on old values.)
    packed = {2: [], 3: [], 1: []}
    if tape.packed:
        leaf_slots = {s for s, _ in tape.leaves}
        for r, what in tape.packed:
            col = _SAVED_COLUMN[what]
            if lo <= r < hi and int(rows[r - lo, col]) in leaf_slots:
                packed[col].append(r - lo)
    for col, saved in ((2, _FLAGS["a"][ops] | (_FLAGS["A"][ops] & b_rg)),
                       (3, _FLAGS["b"][ops] | (_FLAGS["B"][ops] & a_rg)),
                       (1, _FLAGS["o"][ops])):
        if packed[col]:
            saved[packed[col]] = False  # (saved: a new array)
        s = rows[:, col]
        e = np.where(s >= 0, entry[np.maximum(s, 0)], -1)
        bad = ran & saved & (e >= 0)
        bad &= np.arange(lo, hi) < limit[np.maximum(e, 0)]
        hit = np.where(bad & (hit < 0), e, hit)
    rs = np.flatnonzero(hit >= 0)
    if rs.size:
        r = rs[-1]  # the sweep meets the last one first (r: in the span)
        s, _, ver = (int(v) for v in ints[hit[r]])
        counter = log.counters[hit[r]]
        raise RuntimeError(_modified_message(tape, s, counter, ver, int(rows[r, 1]) == s))


def _modified_message(tape, s, c, ver, as_output):
    v = views(tape)
    producer = int(v.row_of[s]) if s < len(v.row_of) else -1
    if not as_output and c.gen == tape.gen and 0 <= c.slot < len(v.row_of):
        producer = int(v.row_of[c.slot])  # a saved input names the tensor's grad_fn now
    if producer >= 0:  # (through a no_grad in-place op's pass row: the tensor's grad_fn)
        producer = int(v.row_of[v.through(int(v.rows[producer, 1]))])
    which = ""
    shape = c.shape
    if tape.alias_uses and s in tape.alias_uses:  # a view's or detach()'s values (of the
        # tensor written: tape.py _const_use): it has no node, and a shape of its own
        shape, producer = list(tape.shapes.get(s, c.shape)), -1
    elif tape.alias_of and producer >= 0 and v.name(producer) != "DetachBackward0" and \
            any(s in a for a in tape.alias_of.values()):  # a view's values: PyTorch names
        shape, producer = list(tape.shapes.get(s, c.shape)), -1  # its view regenerated on
        which = ", which is output 0 of AsStrided,"  # the base's change (ops/views.py note)
    if producer >= 0:
        which = f", which is output 0 of {re.sub(r'Backward[0-9]*$', '', v.name(producer))},"
    return ("one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: [{dtypes.legacy_type_name(c.dtype)} {shape}]{which} is at "
            f"version {c.version}; expected version {ver} instead. Hint: tapegrad keeps its own "
            "copy of every saved value, but refuses this backward as PyTorch does; compute on "
            "a copy (or use the op's out-of-place form) instead of modifying in place.")
