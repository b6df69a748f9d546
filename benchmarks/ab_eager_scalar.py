"""Interleaved A/B of bench_eager's scalar graph ``y = y * a + sin(y) * b`` at 10^5 ops,
recording (``rec``) or record + backward (``fb``), between two tapegrad checkouts, as
ab_eager_vector.py does: one warmed worker process per checkout (its root first on
sys.path), asked in turn for 2 timed graphs a round (CPU time each), the order reversed
every other round; the figure is each checkout's median ns/op over all rounds::

    PYTHONPATH=. python benchmarks/ab_eager_scalar.py /path/to/old /path/to/new [rounds] [rec|fb]
"""
import subprocess
import sys

from _ab import medians

N = 10**5
WORKER = r'''
import sys, json, time
root, n, phase = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sys.path[:0] = [root, root + "/benchmarks"]
import tapegrad
import peers
assert tapegrad.__file__.startswith(root), tapegrad.__file__
w = peers.tapegrad_eager(n)
for _ in range(3):
    w.fwd_bwd()
print("ready", flush=True)
for line in sys.stdin:
    out = []
    for _ in range(int(line)):
        t0 = time.process_time()
        g = w.record()
        if phase == "fb":
            w.backward(g)
        out.append(time.process_time() - t0)
        del g
    print(json.dumps(out), flush=True)
'''


def main(old, new, rounds="15", phase="rec"):
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, root, str(N), phase],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              cwd="/") for root in (old, new)]
    for p in procs:
        assert p.stdout.readline().strip() == "ready"
    a, b = (m / N * 1e9 for m in medians(procs, int(rounds), lambda i: 2))
    print(f"scalar N={N} {phase}: old {a:.1f} ns/op, new {b:.1f} ns/op, new/old {b / a:.3f}",
          flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
