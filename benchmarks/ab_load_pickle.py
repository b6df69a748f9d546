"""Paired A/B of ``tapegrad.load(weights_only=True)`` on a file that needs its pickle (an
optimizer-like state with sets, complex numbers and bytes: 140 kB, 50,000 opcodes), two
trees' tapegrad in a worker each, asked in turn for CALLS loads a round (CPU time each),
the order reversed every other round; the figure is the median (and IQR) of the rounds'
ratios of medians, new/old (ab_paired.py's ``paired``)::

    python benchmarks/ab_load_pickle.py /work/main . 21 5
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ab_paired import paired  # noqa: E402

WORKER = r'''
import io, json, sys, time
import tapegrad as tg
state = {i: {"step": i, "lr": 0.1 * i, "betas": (0.9, 0.999), "name": f"p{i}"}
         for i in range(3000)}
obj = {"opt": {"state": state}, "tags": {f"t{i}" for i in range(2000)},
       "c": [complex(i, 1) for i in range(500)], "b": b"x" * 100,
       "w": [tg.ones(3) for _ in range(20)]}
buf = io.BytesIO()
tg.save(obj, buf)
data = buf.getvalue()
assert tg.load(io.BytesIO(data))["opt"]["state"][7]["name"] == "p7"
for line in sys.stdin:
    out = []
    for _ in range(int(line)):
        b = io.BytesIO(data)
        t = time.process_time()
        tg.load(b)
        out.append(time.process_time() - t)
    print(json.dumps(out), flush=True)
'''


def main(old, new, rounds, calls):
    procs = [subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, cwd="/",
                              env=dict(os.environ, PYTHONPATH=os.path.abspath(root)))
             for root in (old, new)]
    med, q1, q3 = paired(procs, int(rounds), int(calls))
    print(f"load(weights_only) of a pickle: paired new/old median {med:.3f} (IQR {q1:.3f}-"
          f"{q3:.3f}, {rounds} rounds of {calls})")


if __name__ == "__main__":
    main(*sys.argv[1:])
