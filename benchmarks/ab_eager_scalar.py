"""Interleaved A/B of bench_eager's scalar graph ``y = y * a + sin(y) * b`` at 10^5 ops,
recording (``rec``) or record + backward (``fb``), between two tapegrad checkouts, as
ab_eager_vector.py does (its worker): one warmed worker process per checkout (its root first on
sys.path), asked in turn for 2 timed graphs a round (CPU time each), the order reversed
every other round; the figure is each checkout's median ns/op over all rounds::

    PYTHONPATH=. python benchmarks/ab_eager_scalar.py /path/to/old /path/to/new [rounds] [rec|fb]
"""
import sys

from _ab import medians
from ab_eager_vector import workers

N = 10**5


def main(old, new, rounds="15", phase="rec"):
    procs = workers(old, new, N, "scalar", phase)
    a, b = (m / N * 1e9 for m in medians(procs, int(rounds), lambda i: 2))
    print(f"scalar N={N} {phase}: old {a:.1f} ns/op, new {b:.1f} ns/op, new/old {b / a:.3f}",
          flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
