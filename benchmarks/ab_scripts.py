"""Interleaved A/B of issue 20's script steps between two tapegrad checkouts: bench_scripts.py's
scripts, bench_rnn.py's ``lstm step`` / ``gru step`` (``rnn LSTM``, ``rnn GRU``) and, alone,
the op their cells call most (``chunk``: a (20, 256) gate tensor's ``chunk(4, 1)``), and the
k-means scripts' ``min`` (``min dim``: a (1000, 100) tensor's ``min(dim=1)`` and
``min(dim=0)``).  One worker process per checkout (its root first on sys.path, one BLAS
thread; the steps are this directory's benchmark modules for both, so a new script can be
compared), warmed, then asked in turn for a few timed steps a round (CPU time each), the
order reversed every other round; the figure is each checkout's median step, and new/old
their ratio::

    PYTHONPATH=. python benchmarks/ab_scripts.py /path/to/old /path/to/new [rounds] [script...]

(rounds default 20; scripts by name or their beginnings, default all.)
"""
import os
import subprocess
import sys

from _ab import medians

SCRIPTS = ("poly fit", "kmeans", "kmeans dim0", "lstm", "mlp step float64", "mlp step float32",
           "rnn LSTM", "rnn GRU", "chunk", "min dim")
BENCH = os.path.dirname(os.path.abspath(__file__))  # the steps both checkouts run: these
WORKER = r'''
import sys, json, time
root, script, bench = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path[:0] = [root, bench]
import tapegrad
assert tapegrad.__file__.startswith(root), tapegrad.__file__
tapegrad.warmup(float32=True, replay=False)
if script == "chunk":
    import numpy as np
    g0 = tapegrad.tensor(np.ones((20, 256)), requires_grad=True)
    def step():
        for _ in range(20):
            (g0 * 1.0).chunk(4, 1)
elif script == "min dim":
    import numpy as np
    d2 = tapegrad.tensor(np.random.default_rng(0).standard_normal((1000, 100)),
                         requires_grad=True)
    def step():
        for _ in range(10):
            d2.min(dim=1)
            d2.min(dim=0)
elif script.startswith("rnn "):
    import bench_rnn
    step = bench_rnn._builder("tapegrad", script[4:])[0]
else:
    import bench_scripts
    step = bench_scripts.SCRIPTS[script](tapegrad)[0]
for _ in range(10):
    step()
print("ready", flush=True)
for line in sys.stdin:
    out = []
    for _ in range(int(line)):
        t0 = time.process_time()
        step()
        out.append(time.process_time() - t0)
    print(json.dumps(out), flush=True)
'''


def main(old, new, rounds="20", *names):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    for script in [s for s in SCRIPTS if not names or any(s.startswith(n) for n in names)]:
        procs = [subprocess.Popen([sys.executable, "-c", WORKER, root, script, BENCH],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  cwd="/", env=env) for root in (old, new)]
        for p in procs:
            assert p.stdout.readline().strip() == "ready"
        a, b = (m * 1e6 for m in medians(procs, int(rounds), lambda i: 5))
        print(f"{script}: old {a:.1f} us, new {b:.1f} us, new/old {b / a:.3f}", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
