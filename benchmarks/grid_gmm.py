"""ADBench GMM's gradient over the whole grid of ``gmm/1k`` (d = 2..64, K = 5..100: every
file there), tapegrad's replay against JAX and torch in one run: one worker process per
library (bench_gmm.py's calls, one thread each), kept for every case; per case each loads
the data and makes its untimed first call (reported apart: trace, XLA compile), then the
workers are asked in turn, the order reversed every other round, for timed calls (CPU time
each, ``time.process_time``, about 0.1 s a round); the figure is each library's median.

    TAPEGRAD_ADBENCH=/work/shared/adbench python benchmarks/grid_gmm.py [ROOT] [--torch]

ROOT: the tapegrad checkout whose replay runs (default: this file's).  ``AB_ROUNDS``
(default 9) rounds a case; ``GRID`` limits the cases, e.g. ``GRID=2x5,64x5``.
"""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

WORKER = r'''
import sys, time, json
root, lib = sys.argv[1], sys.argv[2]
sys.path[:0] = [root, root + "/benchmarks"]
import bench_gmm as B
make = {"replay": B._tapegrad_replay, "jax": B._jax, "torch": B._torch}[lib]
print("up", flush=True)
call = None
for line in sys.stdin:
    words = line.split()
    if words[0] == "load":
        call = None
        call = make(B._load(int(words[1]), int(words[2])))
        t0 = time.perf_counter(); call(); first = time.perf_counter() - t0
        t0 = time.process_time(); call(); once = time.process_time() - t0
        print(json.dumps([first, once]), flush=True)
    else:
        ts = []
        for _ in range(int(words[0])):
            t0 = time.process_time(); call(); ts.append(time.process_time() - t0)
        print(json.dumps(ts), flush=True)
'''


def _ask(p, line):
    p.stdin.write(line + "\n")
    p.stdin.flush()
    return json.loads(p.stdout.readline())


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = args[0] if args else str(Path(__file__).resolve().parents[1])
    rounds = int(os.environ.get("AB_ROUNDS", 9))
    data = Path(os.environ.get("TAPEGRAD_ADBENCH", Path(root).parent / "shared" / "adbench"))
    cases = sorted((int(d), int(K)) for d, K in (
        f.stem[len("gmm_d"):].split("_K") for f in (data / "gmm" / "1k").glob("gmm_d*_K*.txt")))
    cases = [(d, K) for d, K in cases if K <= 100]
    if os.environ.get("GRID"):
        want = {tuple(int(v) for v in c.split("x")) for c in os.environ["GRID"].split(",")}
        cases = [c for c in cases if c in want]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
               XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
    libs = ["replay", "jax"] + (["torch"] if "--torch" in sys.argv else [])
    procs = []
    for lib in libs:
        p = subprocess.Popen([sys.executable, "-c", WORKER, root, lib], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, cwd="/tmp", env=env)
        assert p.stdout.readline().strip() == "up"
        procs.append(p)
    print("| d | K | " + " | ".join(f"{lib} ms" for lib in libs) + " | replay / jax | "
          + " | ".join(f"first call {lib} s" for lib in libs) + " |", flush=True)
    print("|" + "---:|" * (3 + 2 * len(libs)), flush=True)
    for d, K in cases:
        firsts = [_ask(p, f"load {d} {K}") for p in procs]
        calls = [max(1, min(200, int(0.1 / max(once, 1e-6)))) for _, once in firsts]
        times = [[] for _ in procs]
        for r in range(rounds):
            order = range(len(procs)) if r % 2 == 0 else reversed(range(len(procs)))
            for i in order:
                times[i] += _ask(procs[i], str(calls[i]))
        med = [float(np.median(t)) for t in times]
        print(f"| {d} | {K} | " + " | ".join(f"{m * 1e3:.3f}" for m in med)
              + f" | {med[0] / med[1]:.3f} | "
              + " | ".join(f"{f:.2f}" for f, _ in firsts) + " |", flush=True)
    for p in procs:
        p.stdin.close()
        p.wait()


if __name__ == "__main__":
    t0 = time.time()
    main()
    print(f"# {time.time() - t0:.0f} s, load average {os.getloadavg()}", file=sys.stderr)
