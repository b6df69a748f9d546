"""Interleaved A/B of slicing-heavy eager code between two tapegrad checkouts (the views'
bookkeeping, ops/views.py): an LSTM cell unrolled T steps (gates sliced in four, the
LSTM/GRU gate path) recorded and swept, and a loop of view ops with no grad (slices, t,
reshape, expand, detach) and one in-place op on the base per step::

    PYTHONPATH=. python benchmarks/ab_views.py /path/to/old /path/to/new [rounds]
"""
import subprocess
import sys

from _ab import medians

WORKER = r'''
import sys, json, time
root, case = sys.argv[1], sys.argv[2]
sys.path[:0] = [root]
import numpy as np
import tapegrad as tg
assert tg.__file__.startswith(root), tg.__file__
rng = np.random.default_rng(0)
B, I, H, T = 8, 16, 32, 20
W = tg.tensor(rng.normal(size=(I + H, 4 * H)) * 0.1, requires_grad=True)
b = tg.zeros(4 * H, requires_grad=True)
xs = [tg.tensor(rng.normal(size=(B, I))) for _ in range(T)]


def lstm():
    h = c = tg.zeros(B, H)
    for x in xs:
        g = tg.cat([x, h], 1) @ W + b
        i, f = g[:, :H].sigmoid(), g[:, H:2 * H].sigmoid()
        o, u = g[:, 2 * H:3 * H].sigmoid(), g[:, 3 * H:].tanh()
        c = f * c + i * u
        h = o * c.tanh()
    h.sum().backward()


z = tg.zeros(16, 16)


def views():
    for k in range(200):
        a, r, t = z[k % 16], z[:, 3:9], z.t()
        e, d, v = z[0].expand(4, 16), z.detach(), z.reshape(-1)
        z[k % 16, 0] = float(k)


run = lstm if case == "lstm" else views
for _ in range(5):
    run()
print("ready", flush=True)
for line in sys.stdin:
    out = []
    for _ in range(int(line)):
        t0 = time.process_time()
        run()
        out.append(time.process_time() - t0)
    print(json.dumps(out), flush=True)
'''


def main(old, new, rounds="16"):
    for case in ("lstm", "views"):
        procs = [subprocess.Popen([sys.executable, "-c", WORKER, root, case],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  cwd="/") for root in (old, new)]
        for p in procs:
            assert p.stdout.readline().strip() == "ready"
        a, b = (m * 1e3 for m in medians(procs, int(rounds), lambda i: 3))
        print(f"{case}: old {a:.3f} ms, new {b:.3f} ms, new/old {b / a:.3f}", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
