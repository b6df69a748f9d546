"""Interleaved A/B of the loss functions' per-call cost at small sizes (issue 20): forward
(``fwd``) or forward + backward (``fb``) of F.cross_entropy (class indices, and class
probabilities), nll_loss, binary_cross_entropy(_with_logits), mse, l1, smooth_l1 and huber
on a leaf input, between two tapegrad checkouts, with PyTorch in a third worker as the
reference.  Each worker (one per checkout, its root first on sys.path, and one for torch;
single-threaded) is warmed, then asked in turn for a round: every case timed as 5 blocks of
20 calls (CPU time), the order of the workers reversed every other round.  The figures are
each worker's median us per call, new/old the median over rounds of the paired ratio::

    python benchmarks/ab_losses.py /path/to/old /path/to/new [rounds] [fwd|fb] [loss,...]
"""
import json
import os
import statistics
import subprocess
import sys

WORKER = r'''
import sys, json, time
import numpy as np
root, lib, phase, only = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
if lib == "torch":
    import torch as tg
    import torch.nn.functional as F
    torch = tg
    torch.set_num_threads(1)
else:
    sys.path[:0] = [root]
    import tapegrad as tg
    import tapegrad.nn.functional as F
    assert tg.__file__.startswith(root), tg.__file__
    tg.warmup(replay=False)
rng = np.random.default_rng(0)

def case(name, shape, loss):
    B, C = shape
    x = tg.tensor(rng.normal(size=shape), requires_grad=True)
    p = tg.tensor(rng.uniform(0.05, 0.95, size=shape), requires_grad=True)
    logp = tg.tensor(np.log(rng.dirichlet(np.ones(C), size=B)), requires_grad=True)
    t = tg.tensor(rng.integers(0, C, size=B))
    y = tg.tensor(rng.normal(size=shape))
    q = tg.tensor(rng.dirichlet(np.ones(C), size=B))
    b = tg.tensor(rng.integers(0, 2, size=shape).astype(np.float64))
    f = {"ce": lambda: F.cross_entropy(x, t), "ce_prob": lambda: F.cross_entropy(x, q),
         "nll": lambda: F.nll_loss(logp, t), "bce": lambda: F.binary_cross_entropy(p, b),
         "bce_logits": lambda: F.binary_cross_entropy_with_logits(x, b),
         "mse": lambda: F.mse_loss(x, y), "l1": lambda: F.l1_loss(x, y),
         "smooth_l1": lambda: F.smooth_l1_loss(x, y), "huber": lambda: F.huber_loss(x, y)}[loss]
    if phase == "fwd":
        return f
    return lambda: f().backward()

CASES = [(f"{loss} {B}x{C}", case(loss, (B, C), loss)) for loss in
         ("ce", "ce_prob", "nll", "bce", "bce_logits", "mse", "l1", "smooth_l1", "huber")
         for B, C in ((4, 3), (8, 10), (256, 10))]
CASES = [c for c in CASES if only == "all" or c[0].split()[0] in only.split(",")]
for _, call in CASES:
    for _ in range(200):
        call()
print(json.dumps([n for n, _ in CASES]), flush=True)
for line in sys.stdin:
    out = []
    for _, call in CASES:
        ts = []
        for _ in range(5):
            t0 = time.process_time()
            for _ in range(20):
                call()
            ts.append((time.process_time() - t0) / 20)
        out.append(min(ts))
    print(json.dumps(out), flush=True)
'''
THREADS = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def main(old, new, rounds="15", phase="fwd", only="all"):
    env = dict(os.environ, **THREADS)
    workers = [(old, "tapegrad"), (new, "tapegrad"), (old, "torch")]
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, root, lib, phase, only],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              cwd="/", env=env) for root, lib in workers]
    names = [json.loads(p.stdout.readline()) for p in procs][0]
    times = [[] for _ in procs]  # [worker][round][case]
    for r in range(int(rounds)):
        order = range(len(procs)) if r % 2 == 0 else reversed(range(len(procs)))
        for i in order:
            procs[i].stdin.write("1\n")
            procs[i].stdin.flush()
            times[i].append(json.loads(procs[i].stdout.readline()))
    for p in procs:
        p.stdin.close()
        p.wait()
    print(f"{phase}: us a call (median over rounds of each round's best block of 20)")
    for c, name in enumerate(names):
        a, b, t = (statistics.median(w[c] for w in times[i]) * 1e6 for i in range(3))
        ratio = statistics.median(times[1][r][c] / times[0][r][c] for r in range(len(times[0])))
        print(f"{name:20s} old {a:7.1f} ({a / t:5.2f}x torch)  new {b:7.1f} ({b / t:5.2f}x "
              f"torch)  torch {t:6.1f}  new/old {ratio:.3f}", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
