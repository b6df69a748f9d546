"""Where bench_eager_vector's recording time goes (issue 20), in one process, CPU time
(``time.process_time``, medians of whole records: steadier than pytest-benchmark's wall
time on a loaded machine)::

    python benchmarks/profile_eager_vector.py [rounds]      # default 40

For each case, us/op of ``record()`` as it is, then with every NumPy call of the
elementwise ops replaced (through the thread's quiet context, which they all call) by
``np.empty`` of the result's shape (the arithmetic gone, an array still made per op), and
by one array handed back every time (no array made: the Python bookkeeping alone, the
floor that issue 20's record-now-compute-later route would approach before its compiled
forward runs); and the Python bytecodes one op executes (deterministic, by function).
The values of the replaced runs are garbage: timing only.
"""
import sys
import time
from collections import Counter

import numpy as np

import bench_eager_vector as bv
from tapegrad._state import state


def _median_us_per_op(w, rounds):
    ts = []
    for _ in range(rounds):
        t0 = time.process_time()
        g = w.record()
        ts.append(time.process_time() - t0)
        del g
    return float(np.median(ts)) / bv.OPS * 1e6


class _Stand:
    """The thread's quiet context standing in for NumPy: ``make()`` is every op's result."""

    def __init__(self, make):
        self.run = lambda fn, *args: make()


def _bytecodes(w):
    """Bytecodes per op of one record, by (file, function)."""
    per = Counter()

    def trace(frame, event, arg):
        frame.f_trace_opcodes = True
        if event == "opcode":
            per[frame.f_code.co_filename.rsplit("/", 1)[-1], frame.f_code.co_name] += 1
        return trace

    sys.settrace(trace)
    g = w.record()
    sys.settrace(None)
    del g
    return per


def main(rounds=40):
    for n, dtype in bv.CASES:
        w = bv.BUILDERS["tapegrad"](n, dtype)
        quiet, dt = state.quiet, np.dtype(dtype)
        row = {"as is": _median_us_per_op(w, rounds)}
        try:
            state.quiet = _Stand(lambda: np.empty(n, dt))
            row["np.empty for NumPy"] = _median_us_per_op(w, rounds)
            one = np.empty(n, dt)
            state.quiet = _Stand(lambda: one)
            row["no array made"] = _median_us_per_op(w, rounds)
        finally:
            state.quiet = quiet
        print(f"n={n} {dtype}: " + ", ".join(f"{k} {v:.3f}" for k, v in row.items()) + " us/op")
        per = _bytecodes(w)
        total = sum(per.values()) / bv.OPS
        top = ", ".join(f"{f}:{c} {k / bv.OPS:.0f}" for (f, c), k in per.most_common(4))
        print(f"    {total:.0f} bytecodes/op ({top})")


if __name__ == "__main__":
    main(*map(int, sys.argv[1:]))
