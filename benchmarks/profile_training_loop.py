"""Whether training loops run in flat memory and flat time over many iterations: RSS, the
bytes and rows of the tapes alive, how many tapes are alive, and the per-iteration time in
blocks, for

- ``mlp-sgd`` / ``mlp-adam``: an nn.Module MLP (Linear-Tanh-Linear) trained with SGD / Adam;
- ``scalar``: a scalar loss of Python-float-sized tensors (the scalar fast paths);
- ``history``: the MLP with SGD, keeping the loss history as floats (``loss.item()``).

``--collector``: a second thread makes cyclic garbage with finalizers and collects it all
the time (as a data-loading thread may): the thread's collections must not stop the
training thread's tape resets (tape.py ``_collecting``).  Runs on an older tapegrad too:

    PYTHONPATH=. python benchmarks/profile_training_loop.py 20000 [--collector]
"""
import gc
import statistics
import sys
import threading
import time
import weakref

import numpy as np

import tapegrad as tg
from tapegrad.tape import current_tape


def _rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


class _Cycle:
    def __init__(self):
        self.me = self

    def __del__(self):
        time.sleep(0)  # (lets other threads run while the collection lasts)


def _collector(stop):
    while not stop.is_set():
        for _ in range(200):
            _Cycle()
        gc.collect(0)


def _mlp(opt_name):
    rng = np.random.default_rng(0)
    model = tg.nn.Sequential(tg.nn.Linear(16, 32), tg.nn.Tanh(), tg.nn.Linear(32, 1))
    opt = (tg.optim.SGD(model.parameters(), lr=1e-3) if opt_name == "sgd"
           else tg.optim.Adam(model.parameters(), lr=1e-4))
    x = tg.tensor(rng.normal(size=(64, 16)))
    y = tg.tensor(rng.normal(size=(64, 1)))

    def step():
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        return loss
    return step


def _scalar():
    w = tg.tensor(0.3, requires_grad=True)
    b = tg.tensor(-0.1, requires_grad=True)

    def step():
        loss = ((w * 1.7 + b).tanh() - 0.25) ** 2 + (w * w) * 1e-3
        loss.backward()
        with tg.no_grad():
            w.sub_(1e-3 * w.grad)
            b.sub_(1e-3 * b.grad)
        w.grad = b.grad = None
        return loss
    return step


def run(name, n, blocks=10):
    step = _mlp("sgd") if name in ("mlp-sgd", "history") else \
        _mlp("adam") if name == "mlp-adam" else _scalar()
    history = []
    tapes = weakref.WeakSet()
    for _ in range(200):  # warm: kernels, free lists, the spare arena
        step()
    gc.collect()
    rss0, per, times = _rss(), n // blocks, []
    unreset = 0
    for b in range(blocks):
        t0 = time.perf_counter()
        for _ in range(per):
            tape = current_tape()
            tapes.add(tape)
            loss = step()
            if name == "history":
                history.append(loss.item())
            del loss
            unreset += tape.nrows != 0  # (its last non-leaf died: reset or dropped)
            del tape
        times.append((time.perf_counter() - t0) / per)
    gc.collect()
    alive = list(tapes)
    drss = _rss() - rss0
    rows = sum(tp.nrows for tp in alive)
    nbytes = sum(tp.nbytes() for tp in alive)
    drift = statistics.median(times[-3:]) / statistics.median(times[:3])
    print(f"{name:9s} {n} its: RSS +{drss / 2**20:6.2f} MiB  tapes alive at the end {len(alive)} "
          f"({rows} rows, {nbytes} B)  tapes not reset at del {unreset:5d}  "
          f"us/it first {times[0] * 1e6:7.1f} last {times[-1] * 1e6:7.1f}  "
          f"drift (last 3 / first 3 blocks) {drift:.3f}", flush=True)


def main(n=20000, collector=False):
    tg.warmup(replay=False)
    stop = threading.Event()
    if collector:
        threading.Thread(target=_collector, args=(stop,), daemon=True).start()
    try:
        for name in ("mlp-sgd", "mlp-adam", "scalar", "history"):
            run(name, n)
    finally:
        stop.set()


if __name__ == "__main__":
    args = sys.argv[1:]
    main(*(int(a) for a in args if not a.startswith("--")), collector="--collector" in args)
