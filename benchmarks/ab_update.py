"""Interleaved A/B of a hand-written parameter update between two tapegrad checkouts: the four
parameters of bench_mlp's MLP (256 x 100, 256, 10 x 256, 10) after a backward, updated the
ways PyTorch tutorials write it, with nothing recording (issue 20):

- ``data``: ``p.data -= lr * p.grad`` for each p;
- ``no_grad``: ``p -= lr * p.grad`` for each p, under ``no_grad()``;
- ``zero``: ``p.grad.zero_()`` for each p.

One worker process per checkout (its root first on sys.path), warmed, asked in turn for 50
timed updates a round (CPU time each), the order reversed every other round; the figures
are each worker's median us per update of all four and the ratio new/old::

    PYTHONPATH=benchmarks python benchmarks/ab_update.py /path/to/old /path/to/new [rounds] [dtypes]
"""
import os
import subprocess
import sys

from _ab import medians

WORKER = r'''
import sys, json, time
import numpy as np
root, what, dtype = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path[:0] = [root]
import tapegrad as tg
assert tg.__file__.startswith(root), tg.__file__
rng = np.random.default_rng(0)
ps = [tg.tensor(rng.standard_normal(s).astype(dtype), requires_grad=True)
      for s in ((256, 100), (256,), (10, 256), (10,))]
sum((p * p).sum() for p in ps).backward()


def data():
    for p in ps:
        p.data -= 0.01 * p.grad


def no_grad():
    with tg.no_grad():
        for p in ps:
            p -= 0.01 * p.grad


def zero():
    for p in ps:
        p.grad.zero_()


update = {"data": data, "no_grad": no_grad, "zero": zero}[what]
for _ in range(200):
    update()
print("ready", flush=True)
for line in sys.stdin:
    out = []
    for _ in range(int(line)):
        t0 = time.process_time()
        update()
        out.append(time.process_time() - t0)
    print(json.dumps(out), flush=True)
'''


def main(old, new, rounds="30", dtypes="float32,float64"):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    for dtype in dtypes.split(","):
        for what in ("data", "no_grad", "zero"):
            procs = [subprocess.Popen([sys.executable, "-c", WORKER, root, what, dtype],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      text=True, cwd="/", env=env) for root in (old, new)]
            for p in procs:
                assert p.stdout.readline().strip() == "ready"
            a, b = (m * 1e6 for m in medians(procs, int(rounds), lambda i: 50))
            print(f"update {what} {dtype}: old {a:.1f} us, new {b:.1f} us (four parameters); "
                  f"new/old {b / a:.3f}", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
