"""Which rows a backward sweeps: the span of its graph, not the whole tape.

Each slot ``o`` gets two numbers, computed by compiled code for the rows recorded since
the last backward (``_sweep._spans_of_slots``, amortised: every row is visited once):
``prod[o]``, the row that wrote it, and ``low[o]``, a row at or below every row of its
graph.  A backward from outputs ``S`` sweeps rows ``min low[S] .. max prod[S]`` only, so
an unrelated graph alive on the same tape (a validation loss, a baseline kept from before
the loop) costs it nothing.  8 bytes a slot, int32: a tape never holds 2**31 rows.
"""
import functools

import numpy as np

from .. import _kernels as compiled
from ..ops.registry import OPS

# rows up to which graph_span(whole=True) does without the spans: a tape is mostly swept
# once (a backward without retain_graph retires it), so computing its spans costs more
# than the sweep's skipping of rows outside the graph (a compare each): a 501-row graph's
# backward 4-7% faster, and a 5-row graph beside a live 2,040-row one still faster without
# (issue 20); the bound caps the rows a repeated retain_graph backward re-skips
SMALL = 4096
_NONE = np.iinfo(np.int32).max  # low of a slot that no row writes (a leaf, a constant)


@functools.cache
def _tables():
    """Per opcode: where a row keeps slot numbers besides in0/in1 (registry ``aux`` and
    ``meta_slots``): 0 nowhere, 1 its aux, 2 ``meta[aux + p0]`` (and ``+ p1``), 3 a meta
    list (count at ``aux + p0``, slots from ``aux + p1``), 4 unknown (bounded by row 0)."""
    n = max(OPS) + 2
    kind = np.full(n, 4, np.int64)
    p0 = np.full(n, -1, np.int64)
    p1 = np.full(n, -1, np.int64)
    for code, d in OPS.items():
        spec = getattr(d.meta_slots, "spec", None)
        if d.meta_slots is None:
            kind[code] = 1 if d.aux == "slot" else 0
        elif spec is not None and spec[0] == "list":
            kind[code], p0[code], p1[code] = 3, spec[1], spec[2]
        elif spec is not None and spec[0] == "at" and len(spec) <= 3:
            kind[code] = 2
            p0[code] = spec[1]
            p1[code] = spec[2] if len(spec) == 3 else -1
    return kind, p0, p1


def graph_span(tape, rows, meta, slots, whole=False):
    """``(lo, hi)``: the rows that a backward from ``slots`` can reach lie in ``lo .. hi-1``.

    ``whole`` (a reverse sweep's): a lone slot that the last row writes, on a tape of up to
    SMALL rows, gets ``0 .. nrows-1`` without the spans (which cost ~4 us on a new tape:
    two arrays made and filled, a compiled call; issue 20).  A span bounds a graph's rows
    from below only, so a sweep meets rows outside the graph anyway: their outputs are
    unreached, and visiting a few more costs ~nothing."""
    m = len(rows)
    if whole and m <= SMALL and len(slots) == 1 and m and rows[m - 1, 1] == slots[0]:
        return 0, m
    n = tape.nslots
    low, prod = tape.span_low, tape.span_prod
    if low is None or len(low) < n:
        cap = max(n, 64, len(low) * 3 // 2 if low is not None else 0)
        low2, prod2 = np.empty(cap, np.int32), np.empty(cap, np.int32)  # (np.full's Python
        low2.fill(_NONE)  # layer costs ~1 us a call: one per backward, issue 20)
        prod2.fill(-1)
        if low is not None:
            low2[:len(low)] = low
            prod2[:len(prod)] = prod
        tape.span_low, tape.span_prod = low, prod = low2, prod2
    if tape.span_done < len(rows):
        compiled._spans_of_slots(rows, meta, *_tables(), low, prod, tape.span_done)
        tape.span_done = len(rows)
    lo, hi = len(rows), 0
    for s in slots:
        if s < n:
            lo = min(lo, int(low[s]))
            hi = max(hi, int(prod[s]) + 1)
    return min(lo, hi), hi


def needed_slots(tape, rows, meta, inputs, lo, hi):
    """``(dep, run)``, per slot of ``tape`` (uint8), for a backward given ``inputs`` (tensors)
    through rows ``lo .. hi-1``: ``run``, whether the row writing the slot is one of
    PyTorch's nodes "needed" for the inputs, the only ones it runs (and frees); ``dep``,
    whether the slot's gradient reaches an input's slot (or it is one: its tensor hooks
    run).  A row that reads an unknown layout, a LINK to an older tape's non-leaf among
    them, counts as needed."""
    dep = np.zeros(tape.nslots, np.uint8)
    run = np.zeros(tape.nslots, np.uint8)
    dep[[s for t in inputs for s in tape.slots_of(t)]] = 1
    compiled._needed_slots(rows, meta, *_tables(), dep, run, lo, hi)
    return dep, run
