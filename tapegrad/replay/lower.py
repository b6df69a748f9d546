"""A replay plan's rows lowered for the one-point interpreters (``_sweep._scalar_forward``
and ``_scalar_reverse``): operands resolved to arena offsets once, when the plan is built,
instead of looked up per row and per call (issue 21).

Each code row is ``[op, out, in0, in1 or aux, row]``:

- a row whose output and inputs are single elements keeps its opcode, with its slots'
  offsets (``in1`` for a binary op, else the row's aux: a const index) and its plan row
  (the interpreters run a row of an opcode they have no branch for by that index);
- a row of ``SIZED_BY_META`` (softmax, log_softmax: their rules read their sizes from
  meta) keeps its opcode at any size, with its offsets and aux;
- a ``cat``/``stack`` of single elements becomes one copy per operand (``VIEW`` rows),
  listed last operand first, so the reverse walk accumulates in ``cat_rev``'s order;
- any other row (vectors, guards, reductions) joins a ``[RUN, r0, r1, 0, r0]`` row: plan
  rows ``r0 .. r1-1``, run by the general interpreters, consecutive ones merged.

The code is built from the same ``fwd``/``rev`` rows and ``offs`` the interpreters take,
so what they read stays within the arena a validated trace laid out.
"""
import numpy as np

from .._sweep import RUN, SIZED_BY_META
from ..ops.shape import CAT, STACK, VIEW


def point_code(rows, offs, meta):
    """The code of plan rows ``rows`` (fwd or rev) over the plan's ``offs``: (L, 5) int64."""
    size = np.diff(offs).tolist()  # (offs[s + 1] - offs[s]: a slot's elements, plan layout)
    start = offs.tolist()
    code = []
    for r, (op, so, sa, sb, aux) in enumerate(rows.tolist()):
        if so >= 0 and size[so] == 1 and sa >= 0 and size[sa] == 1 and \
                (sb < 0 or size[sb] == 1):
            code.append((op, start[so], start[sa], start[sb] if sb >= 0 else aux, r))
            continue
        if op in SIZED_BY_META and so >= 0:
            code.append((op, start[so], start[sa], aux, r))
            continue
        if op in (CAT, STACK) and so >= 0:
            n, outer = int(meta[aux]), int(meta[aux + 1])
            slots = meta[aux + 2:aux + 2 + n]
            if outer == 1 and size[so] == n and (meta[aux + 2 + n:aux + 2 + 2 * n] == 1).all():
                code.extend((VIEW, start[so] + j, start[int(slots[j])], 0, r)
                            for j in range(n - 1, -1, -1))
                continue
        if code and code[-1][0] == RUN and code[-1][2] == r:
            code[-1] = (RUN, code[-1][1], r + 1, 0, code[-1][4])
        else:
            code.append((RUN, r, r + 1, 0, r))
    return np.array(code, np.int64).reshape(len(code), 5)
