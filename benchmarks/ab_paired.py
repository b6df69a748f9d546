"""Interleaved A/B between two tapegrad checkouts, as paired ratios: the workers of
ab_scripts.py (a script's step) or ab_eager_vector.py (its vector cases, or bench_eager's
scalar graph), asked in turn for ``calls`` timed calls a round (CPU time each), the order
reversed every other round; each round's median per checkout gives one ratio new/old, and
the figure is the median (and IQR) of those ratios::

    PYTHONPATH=. python benchmarks/ab_paired.py OLD NEW ROUNDS CALLS script "poly fit"
    PYTHONPATH=. python benchmarks/ab_paired.py OLD NEW ROUNDS CALLS vector rec|fb
    PYTHONPATH=. python benchmarks/ab_paired.py OLD NEW ROUNDS CALLS scalar rec|fb

(A ratio of medians over all rounds, as ab_scripts.py prints, mixes the load of different
minutes; a round's pair ran within a second of each other.)
"""
import json
import os
import subprocess
import sys

import numpy as np
from ab_eager_vector import CASES, workers
from ab_scripts import BENCH
from ab_scripts import WORKER as SCRIPT_WORKER


def paired(procs, rounds, calls):
    """Median and quartiles of the per-round ratios of procs[1]'s median to procs[0]'s."""
    per = [[], []]
    for r in range(rounds):
        for i in (0, 1) if r % 2 == 0 else (1, 0):
            procs[i].stdin.write(f"{calls}\n")
            procs[i].stdin.flush()
            per[i].append(np.median(json.loads(procs[i].stdout.readline())))
    for p in procs:
        p.stdin.close()
        p.wait()
    return np.percentile(np.array(per[1]) / np.array(per[0]), [50, 25, 75])


def _script_workers(old, new, script):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    procs = [subprocess.Popen([sys.executable, "-c", SCRIPT_WORKER, root, script, BENCH],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              cwd="/", env=env) for root in (old, new)]
    for p in procs:
        assert p.stdout.readline().strip() == "ready"
    return procs


def main(old, new, rounds, calls, kind, arg):
    rounds, calls = int(rounds), int(calls)
    if kind == "script":
        cases = [(arg, lambda: _script_workers(old, new, arg))]
    elif kind == "scalar":
        cases = [(f"scalar {arg}", lambda: workers(old, new, 10**5, "scalar", arg))]
    else:
        cases = [(f"n={n} {dt} {arg}", lambda n=n, dt=dt: workers(old, new, n, dt, arg))
                 for n, dt in CASES]
    for name, start in cases:
        med, q1, q3 = paired(start(), rounds, calls)
        print(f"{name}: paired new/old median {med:.3f} (IQR {q1:.3f}-{q3:.3f}, "
              f"{rounds} rounds of {calls})", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
