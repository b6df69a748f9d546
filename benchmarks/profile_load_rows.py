"""CPU time and peak RSS of tapegrad.load on crafted trace files of many rows.

A small trace's rows repeated (each copy writing new slots, its values copied, the
checksum recomputed, as an attacker would) compress to a tiny file.  Three shapes:
``plain``: N rows x * x that nothing reads (no fold looks at them); ``sqsum``: N pairs
x * x then a sum over a dim (every pair a fold candidate of ``_fold_squares``); ``wide``:
N sums of one 10**4-element input (each row reads 10**4 times what it writes: the
kernels' own work estimates count outputs, so on a cold cache such rows ran interpreted,
tests/test_hostile22.py).  Each load runs in its own process; CPU time (process_time),
not wall time (a loaded machine).

    PYTHONPATH=. python benchmarks/profile_load_rows.py 100000 1000000
"""
import io
import os
import subprocess
import sys
import tempfile

import numpy as np

import tapegrad as tg
from tapegrad.replay import validate

_LOAD = """
import resource, sys, time
import tapegrad as tg
t = time.process_time()
try:
    tg.load(sys.argv[1]); res = "ok"
except Exception as e:
    res = type(e).__name__
t = time.process_time() - t
print(t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, res)
"""


def _arrays(f, x):
    buf = io.BytesIO()
    tg.trace(f, x).save(buf)
    buf.seek(0)
    with np.load(buf) as z:
        return {k: z[k].copy() for k in z.files if k != "digest"}


def crafted(kind, n):
    """The bytes of a trace file of about n extra rows of shape ``kind``."""
    if kind == "plain":
        a, blk = _arrays(lambda x: (x * x).sum(), np.ones(3)), slice(0, 1)
    elif kind == "wide":
        a, blk = _arrays(lambda x: x.sum(), np.ones(10**4)), slice(0, 1)
    else:
        a = _arrays(lambda x: (x * x).sum(0).sum(), np.ones((2, 3)))
        blk, n = slice(0, 2), n // 2  # [MUL s, x, x], [SUM_DIM o, s]
    rows, offs, v = a["rows"], a["offs"], a["vals0"]
    b = rows[blk]
    k = len(b)
    new = np.tile(b, (n, 1))
    first = len(offs) - 1 + k * np.arange(n)  # each copy writes new slots
    for j in range(k):
        new[j::k, 1] = first + j
        if j:  # (the pair's sum reads its own product)
            new[j::k, 2] = first + j - 1
    sz = np.diff(offs)[b[:, 1]]
    vals = np.concatenate([v[offs[s]:offs[s + 1]] for s in b[:, 1]])
    a["rows"] = np.concatenate([rows, new])
    a["offs"] = np.concatenate([offs, offs[-1] + np.cumsum(np.tile(sz, n))])
    a["vals0"] = np.concatenate([v, np.tile(vals, n)])
    out = io.BytesIO()
    np.savez_compressed(out, **a, digest=validate.digest(a))
    return out.getvalue()


def main(ns):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as d:
        for kind in ("plain", "sqsum", "wide"):
            for n in ns:
                p = os.path.join(d, f"{kind}{n}.npz")
                with open(p, "wb") as fh:
                    fh.write(crafted(kind, n))
                times = []
                for _ in range(3):
                    r = subprocess.run([sys.executable, "-c", _LOAD, p], cwd=root,
                                       capture_output=True, text=True)
                    t, rss, res = r.stdout.split()
                    times.append(float(t))
                print(f"{kind:5} rows {n:>8}  file {os.path.getsize(p):>9} B  "
                      f"cpu median {sorted(times)[1]:.2f} s  peak {rss} MB  {res}")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [100000, 1000000])
