"""A replay plan's rows lowered for the one-point interpreters (``_point._point_forward``
and ``_point_reverse``): operands resolved to arena offsets once, when the plan is built,
instead of looked up per row and per call (issue 21).

Each instruction is four int32 words, ``[op, out, in0, in1 or aux]``:

- ``[LOAD, e0, e1, 0]``: arena elements e0 .. e1-1 from vals0 (``_replay_point`` runs these,
  at the head of the forward code, before the inputs): the elements no forward row writes
  (inputs, constants), not the whole arena at every call;
- a row of ``POINT_OPS`` whose output and inputs are single elements keeps its opcode,
  with its slots' offsets (``in1`` for a binary op, else the row's aux: a const index);
- a row of ``SIZED_BY_META`` (softmax, log_softmax: their rules read their sizes from
  meta) keeps its opcode at any size, with its offsets and aux; one group of at most
  ``SMALL_GROUP`` contiguous elements becomes ``[SOFTMAX1 or LOG_SOFTMAX1, out, in, size]``;
- a scalar softplus with beta 1.0 becomes ``[SOFTPLUS1, out, in, aux]``;
- a ``cat``/``stack`` of n single elements becomes ``[STACK1, out, n, e]``, the offsets of
  its operands in ``ext[e .. e+n-1]``;
- superinstructions (``_point.ADDS``, ``STACK_SOFTMAX1``), only where every row is lowered
  (no RUN), so that every reader of an element is known: a chain of scalar ADD_C/ADD rows
  each adding to the sum before it, that sum read by nothing else; a STACK1 whose values
  nothing but a SOFTMAX1 (LOG_SOFTMAX1) right after it reads.  The sums between and the
  stack's values are never stored (``_fuse``);
- any other row (vectors, guards, reductions, ops without a branch there) joins a
  ``[RUN, r0, r1, 0]``: plan rows ``r0 .. r1-1``, run by the general interpreters,
  consecutive ones merged.

The code is built from the same ``fwd``/``rev`` rows and ``offs`` the interpreters take,
so what they read stays within the arena a validated trace laid out.
"""
from collections import Counter

import numpy as np

from .._point import (ADDS, LOAD, LOG_SOFTMAX1, POINT_OPS, RUN, SIZED_BY_META, SOFTMAX1,
                      SOFTPLUS1, STACK1, STACK_LOG_SOFTMAX1, STACK_SOFTMAX1)
from ..ops.elementwise import ADD, ADD_C, SOFTPLUS
from ..ops.nn import LOG_SOFTMAX, SMALL_GROUP, SOFTMAX
from ..ops.shape import CAT, STACK

_SMALL = {SOFTMAX: SOFTMAX1, LOG_SOFTMAX: LOG_SOFTMAX1}
_STACKED = {SOFTMAX1: STACK_SOFTMAX1, LOG_SOFTMAX1: STACK_LOG_SOFTMAX1}
FUSE = True  # (False: no superinstructions; the tests and benchmarks compare the two)

_INT32 = np.iinfo(np.int32).max


def _fuse(code, reads):
    """The instructions ``code`` (``_lower``'s, one row each) with superinstructions where
    ``reads`` (a Counter of the reads of each arena element, every reader known) allows:
    an ADD whose in0 is the out of an ADD, ADD_C or chain right before it, read by it
    alone, extends the chain; a SOFTMAX1 (LOG_SOFTMAX1) of the n values of the STACK1
    right before it, read by it alone, joins it.  A chain is ``(ADDS, n, c, [in0, in1 or
    const, in1 of each ADD after the first, out])``, c = 1 where an ADD_C starts it."""
    out = []
    for ins in code:
        op, o, a, b, ops = ins
        last = out[-1] if out else (RUN, -1, 0, 0, None)
        if op == ADD and last[0] in (ADD, ADD_C, ADDS) and a != b:
            lo = last[3][-1] if last[0] == ADDS else last[1]
            if a == lo and reads[lo] == 1:
                if last[0] == ADDS:
                    out[-1] = (ADDS, last[1] + 1, last[2], last[3][:-1] + [b, o], None)
                else:
                    out[-1] = (ADDS, 2, int(last[0] == ADD_C), [last[2], last[3], b, o], None)
                continue
        if op in _STACKED and last[0] == STACK1 and a == last[1] and b == last[2] and \
                all(map((1).__eq__, map(reads.__getitem__, range(a, a + b)))):
            out[-1] = (_STACKED[op], o, b, None, last[4])
            continue
        out.append(ins)
    return out


def _emit(code, ext):
    """``code`` as (L, 4) int64, the operands of its STACK1 and superinstructions appended to
    the list ``ext``."""
    words = []
    for op, o, a, b, ops in code:
        if op == ADDS:
            words.append((ADDS, o, len(ext), a))
            ext.extend(b)
        elif ops is not None:
            words.append((op, o, a, len(ext)))
            ext.extend(ops)
        else:
            words.append((op, o, a, b))
    return np.array(words, np.int64).reshape(len(words), 4)


def _lower(rows, offs, meta, consts, reads):
    """The instructions of plan rows ``rows``, one a row (consecutive RUN rows merged), each
    ``(op, out, in0, in1 or aux, operands or None)``; the arena elements each reads appended
    to the list ``reads`` (RUN for a row run by the general interpreters)."""
    size = np.diff(offs).tolist()  # (offs[s + 1] - offs[s]: a slot's elements, plan layout)
    start = offs.tolist()
    code = []
    for r, (op, so, sa, sb, aux) in enumerate(rows.tolist()):
        if so >= 0 and sa >= 0 and op in POINT_OPS and size[so] == 1 and size[sa] == 1 and \
                (sb < 0 or size[sb] == 1):
            if op == SOFTPLUS and consts[aux] == 1.0:
                op = SOFTPLUS1
            reads.append(start[sa])
            if sb >= 0:
                reads.append(start[sb])
            code.append((op, start[so], start[sa], start[sb] if sb >= 0 else aux, None))
            continue
        if op in SIZED_BY_META and so >= 0:
            outer, n, inner = (int(v) for v in meta[aux:aux + 3])
            reads.extend(range(start[sa], start[sa] + outer * n * inner))
            if outer == 1 and inner == 1 and n <= SMALL_GROUP:  # (nn._point_group)
                code.append((_SMALL[op], start[so], start[sa], n, None))
            else:
                code.append((op, start[so], start[sa], aux, None))
            continue
        if op in (CAT, STACK) and so >= 0:
            n, outer = int(meta[aux]), int(meta[aux + 1])
            slots = meta[aux + 2:aux + 2 + n]
            if outer == 1 and size[so] == n and (meta[aux + 2 + n:aux + 2 + 2 * n] == 1).all():
                ops = [start[int(s)] for s in slots]
                reads.extend(ops)
                code.append((STACK1, start[so], n, None, ops))
                continue
        reads.append(RUN)  # (a row run by the general interpreters: its reads not known)
        if code and code[-1][0] == RUN and code[-1][2] == r:
            code[-1] = (RUN, code[-1][1], r + 1, 0, None)
        else:
            code.append((RUN, r, r + 1, 0, None))
    return code


def point_code(rows, offs, meta, consts, ext, reads=None):
    """The code of plan rows ``rows`` (fwd or rev) over the plan's ``offs``, ``meta`` and
    ``consts``: (L, 4) int64, the operands of its STACK1 and superinstructions appended to
    the list ``ext``.  ``reads``: the reads of each arena element by the forward rows, every
    reader known (``point_program``); None: no superinstructions."""
    code = _lower(rows, offs, meta, consts, [])
    return _emit(_fuse(code, reads) if FUSE and reads is not None else code, ext)


def forward_reads(fwd, offs, meta, consts, out):
    """The reads of each arena element by the rows ``fwd`` and by ``_replay_point`` (the
    output slot ``out``'s), a Counter, or None where a row is not lowered (its reads not
    known)."""
    reads = [int(offs[out])]
    _lower(fwd, offs, meta, consts, reads)
    reads = Counter(reads)
    return None if RUN in reads else reads


def _loads(fwd, offs):
    """The LOAD instructions of the arena elements that no row of ``fwd`` writes."""
    nv = int(offs[-1])
    o = fwd[:, 1][fwd[:, 1] >= 0]
    edge = np.zeros(nv + 1, np.int64)
    np.add.at(edge, offs[o], 1)
    np.add.at(edge, offs[o + 1], -1)
    unwritten = np.concatenate([[False], np.cumsum(edge[:nv]) == 0, [False]])
    e = np.nonzero(np.diff(unwritten.astype(np.int8)))[0]
    return [(LOAD, int(a), int(b), 0) for a, b in zip(e[0::2], e[1::2])]


def point_program(fwd, rev, offs, meta, consts, out, lowered=True):
    """The one-point code of a plan (its ``fwd`` and ``rev`` rows over ``offs``, ``meta``,
    ``consts``; ``out`` its output slot), packed as ``_point._replay_point`` reads it:
    (forward instructions, reverse instructions, ext words, the int32 words of both codes
    and ext, two to an int64).  ``lowered=False``: every row by the general interpreters
    (one RUN each way, what the one-point replay ran before its rows were lowered:
    benchmarks compare the two).  An arena too large for int32 offsets is run that way
    too."""
    ext = []
    loads = np.array(_loads(fwd, offs), np.int64).reshape(-1, 4)
    if lowered:
        reads = [int(offs[out])]  # (forward_reads', each row lowered once)
        fwd_code = _lower(fwd, offs, meta, consts, reads)
        rev_code = _lower(rev, offs, meta, consts, [])
        reads = Counter(reads)
        # (rev's rows are fwd's, lowered alike, but for those an SQSUM row makes: not in fwd)
        if FUSE and RUN not in reads and all(ins[0] != RUN for ins in rev_code):
            fwd_code, rev_code = _fuse(fwd_code, reads), _fuse(rev_code, reads)
        fc, rc = _emit(fwd_code, ext), _emit(rev_code, ext)
    if not lowered or max(fc.max(initial=0), rc.max(initial=0), max(ext, default=0)) > _INT32:
        ext = []
        fc, rc = (np.array([[RUN, 0, len(rows), 0]], np.int64) for rows in (fwd, rev))
    fc = np.concatenate([loads, fc])
    words = np.concatenate([fc.ravel(), rc.ravel(), np.array(ext + [0] * (len(ext) % 2),
                                                             np.int64)])
    return len(fc), len(rc), len(ext), words.astype(np.int32).view(np.int64)
