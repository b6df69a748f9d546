"""A replay plan's rows lowered for the one-point interpreters (``_sweep._point_forward``
and ``_point_reverse``): operands resolved to arena offsets once, when the plan is built,
instead of looked up per row and per call (issue 21).

Each instruction is four int32 words, ``[op, out, in0, in1 or aux]``:

- a row of ``POINT_OPS`` whose output and inputs are single elements keeps its opcode,
  with its slots' offsets (``in1`` for a binary op, else the row's aux: a const index);
- a row of ``SIZED_BY_META`` (softmax, log_softmax: their rules read their sizes from
  meta) keeps its opcode at any size, with its offsets and aux; one group of at most
  ``SMALL_GROUP`` contiguous elements becomes ``[SOFTMAX1 or LOG_SOFTMAX1, out, in, size]``;
- a scalar softplus with beta 1.0 becomes ``[SOFTPLUS1, out, in, aux]``;
- a ``cat``/``stack`` of n single elements becomes ``[STACK1, out, n, e]``, the offsets of
  its operands in ``ext[e .. e+n-1]``;
- superinstructions (``_sweep.ADDS``, ``STACK_SOFTMAX1``): consecutive instructions above,
  a chain of scalar ADD_C/ADD rows each adding to the one before, or a STACK1 whose values
  go to a SOFTMAX1 (LOG_SOFTMAX1) right after it, become one instruction (``_fuse``);
- any other row (vectors, guards, reductions, ops without a branch there) joins a
  ``[RUN, r0, r1, 0]``: plan rows ``r0 .. r1-1``, run by the general interpreters,
  consecutive ones merged.

The code is built from the same ``fwd``/``rev`` rows and ``offs`` the interpreters take,
so what they read stays within the arena a validated trace laid out.
"""
import numpy as np

from .._sweep import (ADDS, LOG_SOFTMAX1, POINT_OPS, RUN, SIZED_BY_META, SOFTMAX1, SOFTPLUS1,
                      STACK1, STACK_LOG_SOFTMAX1, STACK_SOFTMAX1)
from ..ops.elementwise import ADD, ADD_C, SOFTPLUS
from ..ops.nn import LOG_SOFTMAX, SMALL_GROUP, SOFTMAX
from ..ops.shape import CAT, STACK

_SMALL = {SOFTMAX: SOFTMAX1, LOG_SOFTMAX: LOG_SOFTMAX1}
_STACKED = {SOFTMAX1: STACK_SOFTMAX1, LOG_SOFTMAX1: STACK_LOG_SOFTMAX1}
FUSE = True  # (False: no superinstructions; the tests and benchmarks compare the two)

_INT32 = np.iinfo(np.int32).max


def _fuse(code, ext, ins):
    """Append instruction ``ins`` to ``code``, or merge it into the last one: a scalar ADD
    whose in0 is the out of an ADD, ADD_C or ADDS before it extends their chain (ADDS); a
    SOFTMAX1 (LOG_SOFTMAX1) of the n values a STACK1 before it wrote joins it.  The
    instruction merged into is the last to have written ``ext``: its words are rewritten
    at the end."""
    op, o, a, b = ins
    last = code[-1] if code else (RUN, 0, 0, 0)
    if op == ADD and last[0] in (ADD, ADD_C) and a == last[1]:
        code[-1] = (ADDS, 2, len(ext), int(last[0] == ADD_C))
        ext.extend((last[2], last[3], last[1], b, o))
    elif op == ADD and last[0] == ADDS and a == ext[-1]:
        code[-1] = (ADDS, last[1] + 1, last[2], last[3])
        ext.extend((b, o))
    elif op in _STACKED and last[0] == STACK1 and a == last[1] and b == last[2]:
        e, n = last[3], last[2]
        ext[e:] = [last[1]] + ext[e:e + n]
        code[-1] = (_STACKED[op], o, n, e)
    else:
        code.append(ins)


def point_code(rows, offs, meta, consts, ext):
    """The code of plan rows ``rows`` (fwd or rev) over the plan's ``offs``, ``meta`` and
    ``consts``: (L, 4) int64, the operands of its STACK1 and superinstructions appended to
    the list ``ext``."""
    size = np.diff(offs).tolist()  # (offs[s + 1] - offs[s]: a slot's elements, plan layout)
    start = offs.tolist()
    code = []
    emit = (lambda ins: _fuse(code, ext, ins)) if FUSE else code.append
    for r, (op, so, sa, sb, aux) in enumerate(rows.tolist()):
        if so >= 0 and sa >= 0 and op in POINT_OPS and size[so] == 1 and size[sa] == 1 and \
                (sb < 0 or size[sb] == 1):
            if op == SOFTPLUS and consts[aux] == 1.0:
                op = SOFTPLUS1
            emit((op, start[so], start[sa], start[sb] if sb >= 0 else aux))
            continue
        if op in SIZED_BY_META and so >= 0:
            outer, n, inner = (int(v) for v in meta[aux:aux + 3])
            if outer == 1 and inner == 1 and n <= SMALL_GROUP:  # (nn._point_group)
                emit((_SMALL[op], start[so], start[sa], n))
            else:
                code.append((op, start[so], start[sa], aux))
            continue
        if op in (CAT, STACK) and so >= 0:
            n, outer = int(meta[aux]), int(meta[aux + 1])
            slots = meta[aux + 2:aux + 2 + n]
            if outer == 1 and size[so] == n and (meta[aux + 2 + n:aux + 2 + 2 * n] == 1).all():
                code.append((STACK1, start[so], n, len(ext)))
                ext.extend(start[int(s)] for s in slots)
                continue
        if code and code[-1][0] == RUN and code[-1][2] == r:
            code[-1] = (RUN, code[-1][1], r + 1, 0)
        else:
            code.append((RUN, r, r + 1, 0))
    return np.array(code, np.int64).reshape(len(code), 4)


def point_program(fwd, rev, offs, meta, consts, lowered=True):
    """The one-point code of a plan (its ``fwd`` and ``rev`` rows over ``offs``, ``meta``,
    ``consts``),
    packed as ``_sweep._replay_point`` reads it: (forward instructions, reverse
    instructions, ext words, the int32 words of both codes and ext, two to an int64).
    ``lowered=False``: every row by the general interpreters (one RUN each way, what the
    one-point replay ran before its rows were lowered: benchmarks compare the two).  An
    arena too large for int32 offsets is run that way too."""
    ext = []
    if lowered:
        fc, rc = (point_code(rows, offs, meta, consts, ext) for rows in (fwd, rev))
    if not lowered or max(fc.max(initial=0), rc.max(initial=0), max(ext, default=0)) > _INT32:
        ext = []
        fc, rc = (np.array([[RUN, 0, len(rows), 0]], np.int64) for rows in (fwd, rev))
    words = np.concatenate([fc.ravel(), rc.ravel(), np.array(ext + [0] * (len(ext) % 2),
                                                             np.int64)])
    return len(fc), len(rc), len(ext), words.astype(np.int32).view(np.int64)
