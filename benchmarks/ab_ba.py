"""Interleaved A/B of ADBench BA's ba1 Jacobian (bench_ba.py's calls) between tapegrad
checkouts: one worker process per checkout and case (its root first on sys.path, so its
tapegrad is imported), warmed once (fused kernels compiled or loaded, untimed), then asked
in turn for ``AB_CALLS`` timed calls (CPU time each, both cores' threads counted); the
figure is each worker's median over all rounds, printed with its ratio to the hand-written
Numba Jacobian (bench_ba's ``numba hand-written``, run from the first checkout).

    TAPEGRAD_ADBENCH=/work/shared/adbench python benchmarks/ab_ba.py \\
        /path/to/checkoutA /path/to/checkoutB [--index]

Cases: ``tapegrad stacked inputs`` (the plain ``jacobian_batch(*inputs)``, blocks copied
into the CSR data) per checkout, with ``--index`` ``tapegrad jacobian_batch`` (``index=``,
``out=``) too.
"""
import os
import subprocess
import sys
import time

from _ab import SERVE, medians

WORKER = r'''
import sys, time, json
root, lib = sys.argv[1], sys.argv[2]
sys.path[:0] = [root, root + "/benchmarks"]
import bench_ba as B
call = B.LIBRARIES[lib](B.Problem(B.DATA))
call(); call()
print("ready", flush=True)
''' + SERVE


def main():
    roots = [a for a in sys.argv[1:] if not a.startswith("--")]
    rounds = int(os.environ.get("AB_ROUNDS", 15))
    calls = int(os.environ.get("AB_CALLS", 5))
    libs = ["tapegrad stacked inputs"] + (["tapegrad jacobian_batch"] if "--index" in sys.argv
                                         else [])
    who = [(roots[0], "numba hand-written")] + [(r, lib) for lib in libs for r in roots]
    procs = []
    for root, lib in who:
        t0 = time.time()
        p = subprocess.Popen([sys.executable, "-c", WORKER, root, lib], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, cwd="/tmp", env=os.environ)
        assert p.stdout.readline().strip() == "ready"
        print(f"# {lib} {root}: ready in {time.time() - t0:.0f} s", file=sys.stderr)
        procs.append(p)
    med = medians(procs, rounds, lambda i: calls)
    for (root, lib), m in zip(who, med, strict=True):
        print(f"{lib:24s} {root}: median {m * 1e3:.2f} ms CPU, ratio to hand-written "
              f"{m / med[0]:.3f}")
    print(f"# load average {os.getloadavg()}", file=sys.stderr)


if __name__ == "__main__":
    main()
