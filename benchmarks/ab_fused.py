"""Interleaved A/B of the batch replay of Rosenbrock's value and gradient (bench_fused.py's
``tapegrad fused`` call: ``Traced.run(X, True, out=(V, G), serial=True)``, one thread, the
fused kernel compiled or loaded first, untimed) between tapegrad checkouts: one worker
process per checkout (its root first on sys.path, so its tapegrad is imported), warmed
once, then asked in turn for ``AB_CALLS`` timed calls (CPU time each); the figure is each
checkout's median over all rounds, printed as a ratio to the first checkout's and, with
``--numba``, the hand-written Numba kernel's (bench_fused.py) in the same rounds.  The
values' and gradients' bits are compared between checkouts.

    python benchmarks/ab_fused.py FORM N B /path/to/checkoutA /path/to/checkoutB [--numba]
        [--interpreter]

FORM ``vector`` or ``loop``; ``--interpreter``: the fused tier off (what runs before the
kernel is ready).  ``AB_ROUNDS`` (default 15) rounds, ``AB_CALLS`` (default 20) calls.
"""
import json
import os
import subprocess
import sys
import time

from _ab import SERVE, medians

WORKER = r'''
import sys, time, json, hashlib
root, form, n, B, lib, interp = sys.argv[1:7]
n, B = int(n), int(B)
sys.path[:0] = [root, root + "/benchmarks"]
import numpy as np
import bench_fused as F
from tapegrad import bench as tb
from tapegrad.replay import fused
X = tb.rosen_points(B, n)
V, G = np.empty(B), np.empty_like(X)
bad = np.zeros(B, np.int64)
if lib == "numba":
    call = lambda: F.rosen_value_and_grad_numba(X, V, G)
    t0 = time.perf_counter()
else:
    t0 = time.perf_counter()
    f, t, status = F._traced(form, n, interp != "1")
    assert interp == "1" or status == "fused", status
    fused.set_enabled(interp != "1")
    call = lambda: t.run(X, True, out=(V, G), serial=True, bad=bad)
call(); call()
F._check(X, V, G)
h = hashlib.sha256(V.tobytes() + G.tobytes()).hexdigest()[:16]
print(json.dumps(["ready", round(time.perf_counter() - t0, 2), h]), flush=True)
''' + SERVE


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    form, n, B, roots = args[0], int(args[1]), int(args[2]), args[3:]
    rounds = int(os.environ.get("AB_ROUNDS", 15))
    calls = int(os.environ.get("AB_CALLS", 20))
    interp = "1" if "--interpreter" in sys.argv else "0"
    who = [(r, "tapegrad") for r in roots]
    if "--numba" in sys.argv:
        who.append((roots[0], "numba"))
    procs, hashes = [], {}
    for root, lib in who:
        p = subprocess.Popen([sys.executable, "-c", WORKER, root, form, str(n), str(B), lib,
                              interp], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, cwd="/tmp", env=os.environ)
        tag, seconds, h = json.loads(p.stdout.readline())
        assert tag == "ready"
        print(f"# {lib} {root}: ready in {seconds} s (kernel compile or load), bits {h}",
              file=sys.stderr)
        if lib == "tapegrad":
            hashes[root] = h
        procs.append(p)
    med = medians(procs, rounds, lambda i: calls)
    for (root, lib), m in zip(who, med, strict=True):
        print(f"{form} n={n} B={B} {lib:8s} {root}: median {m * 1e6:.1f} us CPU, "
              f"ratio to first {m / med[0]:.3f}")
    print("bits equal across checkouts:", len(set(hashes.values())) == 1)


if __name__ == "__main__":
    t0 = time.time()
    main()
    print(f"# {time.time() - t0:.0f} s, load average {os.getloadavg()}", file=sys.stderr)
