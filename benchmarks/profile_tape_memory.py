"""What the thread's tapes hold, and what a small backward costs, when graphs are kept
alive among many dropped ones (tape.py ``Tape._split``: segments).  Five states:

- ``a``: one kept graph, then N dropped graphs (no backward);
- ``b``: a training loop that keeps every loss in a list (each step's backward);
- ``c``: N graphs, each kept with probability 1%, kept ones dropped at random;
- ``d``: retain_graph=True graphs kept across iterations, N/10 dropped between each;
- ``e``: two threads doing ``a`` at once.

Prints, per state, the live segments, their rows and bytes (``Tape.nbytes``), the bytes
per kept graph, and the median CPU time of a small backward recorded after it.  RSS
deltas for ``b`` against PyTorch (which keeps the graphs, freeing saved tensors on
backward).  Runs on an older tapegrad too (before/after):

    PYTHONPATH=. python benchmarks/profile_tape_memory.py 20000
"""
import gc
import random
import statistics
import sys
import threading
import time

import numpy as np

import tapegrad as tg
from tapegrad.tape import current_tape


def _graph(n=16):
    a = tg.tensor(np.linspace(0.1, 1.0, n), requires_grad=True)
    return ((a * 2.0).exp() * a).sum()


def _held(tensors):
    """The tapes that ``tensors`` keep alive: their own, and those their links reach."""
    todo = [t._tok.tape for t in tensors if t._tok is not None]
    seen = {}
    while todo:
        tp = todo.pop()
        if id(tp) not in seen:
            seen[id(tp)] = tp
            todo += [tok.tape for tok, _ in tp.links if tok is not None]
    cur = current_tape()
    seen.setdefault(id(cur), cur)
    return list(seen.values())


def _small_backward():
    W = tg.tensor(np.ones(8), requires_grad=True)
    x = tg.tensor(np.arange(8.0), requires_grad=True)
    y = ((x * W).sin() * 2.0 + x).sum()
    t = time.process_time()
    y.backward()
    return time.process_time() - t


def _report(name, kept, nkept):
    tapes = _held(kept)
    rows = sum(tp.nrows for tp in tapes)
    nbytes = sum(tp.nbytes() for tp in tapes)
    bwd = statistics.median(_small_backward() for _ in range(9))
    print(f"{name}: {len(tapes):4d} tapes {rows:8d} rows {nbytes / 2**20:8.2f} MiB "
          f"{nbytes / max(nkept, 1):10.0f} B/kept graph  small backward {bwd * 1e6:7.1f} us",
          flush=True)


def state_a(n):
    kept = [_graph()]
    for _ in range(n):
        _graph()
    _report(f"a  1 kept + {n} dropped      ", kept, 1)


def _mlp_step(lib, w1, w2, x):
    return ((x @ w1).tanh() @ w2).pow(2).mean()


def state_b(steps, lib=tg):
    rng = np.random.default_rng(0)
    w1 = lib.tensor(rng.normal(size=(16, 32)), requires_grad=True)
    w2 = lib.tensor(rng.normal(size=(32, 1)), requires_grad=True)
    x = lib.tensor(rng.normal(size=(64, 16)))
    losses = []
    rss0 = _rss()
    for _ in range(steps):
        loss = _mlp_step(lib, w1, w2, x)
        loss.backward()
        losses.append(loss)
    drss = _rss() - rss0
    if lib is tg:
        _report(f"b  {steps} losses kept (MLP step)", losses, steps)
    print(f"b  {lib.__name__:8s} RSS +{drss / 2**20:.2f} MiB for {steps} kept losses "
          f"({drss / steps:.0f} B each)", flush=True)


def _rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def state_c(n):
    rng = random.Random(23)
    kept = []
    for _ in range(n):
        y = _graph()
        if rng.random() < 0.01:
            kept.append(y)
        if kept and rng.random() < 0.005:
            kept.pop(rng.randrange(len(kept)))
    _report(f"c  {len(kept)} kept of {n} at random  ", kept, len(kept))


def state_d(n):
    w = tg.tensor(np.ones(16), requires_grad=True)
    kept = []
    for i in range(10):
        y = (w * float(i)).sin().sum()
        y.backward(retain_graph=True)
        kept.append(y)
        for _ in range(n // 10):
            _graph()
    _report(f"d  10 retained + {n} dropped    ", kept, 10)


def state_e(n):
    out = []

    def work():
        kept = [_graph()]
        for _ in range(n):
            _graph()
        tapes = _held(kept)
        out.append((sum(tp.nrows for tp in tapes), sum(tp.nbytes() for tp in tapes)))

    ts = [threading.Thread(target=work) for _ in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for rows, nbytes in out:
        print(f"e  thread: 1 kept + {n} dropped: {rows:8d} rows {nbytes / 2**20:8.2f} MiB",
              flush=True)


def main(n=20000):
    tg.warmup(replay=False)
    for f in (state_a, state_b, state_c, state_d, state_e):
        f(n if f is not state_b else 200)
        gc.collect()
    try:
        import torch
    except ImportError:
        return
    torch.set_default_dtype(torch.float64)
    state_b(200, torch)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
