"""Interleaved A/B of bench_eager_vector's recording (``rec``) or record + backward (``fb``)
between two tapegrad checkouts: one worker process per checkout (its root first on
sys.path), warmed, then asked in turn for 5 timed records a round (CPU time each), the
order reversed every other round; the figure is each checkout's median us/op over all
rounds, and new/old their ratio::

    PYTHONPATH=. python benchmarks/ab_eager_vector.py /path/to/old /path/to/new [rounds] [rec|fb]

The worker also serves ab_eager_scalar.py (dtype "scalar": bench_eager's scalar graph).
"""
import subprocess
import sys

from _ab import medians

CASES = ((4, "float64"), (256, "float64"), (256, "float32"), (4, "float32"))
WORKER = r'''
import sys, json, time
root, n, dtype, phase = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
sys.path[:0] = [root, root + "/benchmarks"]
import tapegrad
import bench_eager_vector as bv
import peers
assert tapegrad.__file__.startswith(root), tapegrad.__file__
if dtype == "scalar":
    w = peers.tapegrad_eager(n)
    backward = w.backward
else:
    w = bv.BUILDERS["tapegrad"](n, dtype)
    backward = lambda g: g.backward()
for _ in range(30 if dtype != "scalar" else 3):
    g = w.record(); backward(g); del g
print("ready", flush=True)
for line in sys.stdin:
    out = []
    for _ in range(int(line)):
        t0 = time.process_time()
        g = w.record()
        if phase == "fb":
            backward(g)
        out.append(time.process_time() - t0)
        del g
    print(json.dumps(out), flush=True)
'''


def workers(old, new, n, dtype, phase):
    """One warmed worker per checkout, ready for ``medians``."""
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, root, str(n), dtype, phase],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              cwd="/") for root in (old, new)]
    for p in procs:
        assert p.stdout.readline().strip() == "ready"
    return procs


def main(old, new, rounds="30", phase="rec"):
    for n, dtype in CASES:
        procs = workers(old, new, n, dtype, phase)
        a, b = (m / 501 * 1e6 for m in medians(procs, int(rounds), lambda i: 5))
        print(f"n={n} {dtype} {phase}: old {a:.3f} us/op, new {b:.3f} us/op, new/old {b / a:.3f}",
              flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
