"""Interleaved A/B of whole tests/torch_scripts/ scripts (issue 20: a real PyTorch script runs
in at most PyTorch's time) between two tapegrad checkouts.  One worker per checkout (its root
first on sys.path, one BLAS thread) compiles the script with only its imports changed (as
tests/test_torch_scripts13.py does), runs it three times to warm, then is asked in turn for
CALLS timed runs a round (CPU time each), the order reversed every other round; printed: each
checkout's median of the rounds' medians and the median of the rounds' paired new/old ratios::

    python benchmarks/ab_torch_scripts.py /path/to/old /path/to/new ROUNDS CALLS s106_ s741_...

(a script by the beginning of its name, taken from each checkout's own tests/torch_scripts).
"""
import json
import os
import subprocess
import sys

import numpy as np

WORKER = r'''
import contextlib, functools, io, json, pathlib, re, sys, time, warnings
root, name = sys.argv[1], sys.argv[2]
sys.path[:0] = [root, root + "/tests"]
warnings.filterwarnings("ignore")
import tapegrad
assert tapegrad.__file__.startswith(root), tapegrad.__file__
tapegrad.warmup(float32=True, replay=False)
IMPORTS = [(r"^import torch$", "import tapegrad as torch"),
           (r"^import torch\.(\S+) as (\w+)$", r"import tapegrad.\1 as \2"),
           (r"^from torch(\.\S+)? import ", r"from tapegrad\1 import ")]
path = next(pathlib.Path(root + "/tests/torch_scripts").glob(name + "*.py"))
source = path.read_text()
for a, b in IMPORTS:
    source = re.sub(a, b, source, flags=re.M)
code = compile(source, str(path), "exec")


def step():
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(code, {"__name__": "__main__", "print": functools.partial(print, file=out)})


for _ in range(3):
    step()
print("ready", flush=True)
for line in sys.stdin:
    ts = []
    for _ in range(int(line)):
        t0 = time.process_time()
        step()
        ts.append(time.process_time() - t0)
    print(json.dumps(ts), flush=True)
'''


def main(old, new, rounds, calls, *names):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    for name in names:
        procs = [subprocess.Popen([sys.executable, "-c", WORKER, root, name],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  cwd="/", env=env) for root in (old, new)]
        for p in procs:
            assert p.stdout.readline().strip() == "ready"
        meds = [[], []]
        for r in range(int(rounds)):
            for i in ((0, 1) if r % 2 == 0 else (1, 0)):
                procs[i].stdin.write(f"{calls}\n")
                procs[i].stdin.flush()
                meds[i].append(float(np.median(json.loads(procs[i].stdout.readline()))))
        for p in procs:
            p.stdin.close()
            p.wait()
        a, b = np.array(meds[0]), np.array(meds[1])
        print(f"{name}: old {np.median(a) * 1e3:.2f} ms, new {np.median(b) * 1e3:.2f} ms, "
              f"median paired new/old {np.median(b / a):.3f}", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
