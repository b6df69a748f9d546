"""A small backward's cost against what the thread's tape holds besides its own graph.

Three states, interleaved rounds, medians of CPU time (process_time) per backward of a
10-op graph: ``fresh`` (nothing else recorded), ``dropped`` (N graphs built and dropped
first: the tape resets when their last tensor dies), ``pinned`` (the same N graphs built
while one older graph is kept alive: their rows stayed on the tape until tape segments,
tape.py ``Tape._split``; now the kept graph pins its own segment, up to ~4,096 slots, and
the backward sweeps its own graph).  benchmarks/profile_tape_memory.py has more states.  Prints the tape's rows and bytes before each backward and the ratios to ``fresh``.
tests/test_replay_semantics22.py asserts the row counts (never the times).

    PYTHONPATH=. python benchmarks/profile_tape_history.py 2000
"""
import gc
import statistics
import sys
import time

import numpy as np

import tapegrad as tg
from tapegrad.tape import current_tape

W = tg.tensor(np.ones(8), requires_grad=True)


def _graph(n=16):
    a = tg.tensor(np.linspace(0.1, 1.0, n), requires_grad=True)
    return ((a * 2.0).exp() * a).sum()


def _small():
    x = tg.tensor(np.arange(8.0), requires_grad=True)
    return ((x * W).sin() * 2.0 + x).sum()


def _state(kind, n):
    kept = _graph() if kind == "pinned" else None
    if kind != "fresh":
        for _ in range(n):
            _graph()
    return kept


def main(n=2000, rounds=15):
    tg.warmup(replay=False)
    times = {"fresh": [], "dropped": [], "pinned": []}
    rows = {}
    for _ in range(rounds):
        for kind in times:
            kept = _state(kind, n)
            y = _small()
            tape = current_tape()
            rows[kind] = (tape.nrows, tape.nbytes())
            t = time.process_time()
            y.backward()
            times[kind].append(time.process_time() - t)
            del kept, y
            gc.collect()
    base = statistics.median(times["fresh"])
    for kind, ts in times.items():
        med = statistics.median(ts)
        print(f"{kind:8s} rows {rows[kind][0]:7d} bytes {rows[kind][1]:9d}  backward "
              f"{med * 1e6:8.1f} us  ratio {med / base:5.2f}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
