"""Byte mutations of the pickle member of ``tapegrad.save`` files (objects the JSON tree
cannot hold: sets, complex numbers, bytes, Counters, devices, Sizes, dtypes, Parameters),
loaded with ``weights_only=True``: each must load, or raise ValueError, UnpicklingError,
RuntimeError, or an allowed call's own TypeError (``Counter`` of an unhashable item), with
a memory rlimit (an allocation the file names, not the bytes it holds, is a MemoryError);
and the pickle charged whole (``serialization._weights_only``) and counted opcode by opcode
must give one outcome.  By hand:

    python tests/fuzz_saved_pickle.py --cases 3000 --seed 1

It prints one JSON line: cases, how they ended, and failures (another exception, or the
two paths apart).
"""
import argparse
import collections
import io
import json
import os
import resource
import sys
import zipfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tapegrad as tg  # noqa: E402  (this checkout's, not an installed one)
from tapegrad import serialization as S  # noqa: E402

ALLOWED = (ValueError, RuntimeError, TypeError)  # (UnpicklingError: WeightsOnlyError)


def _bases():
    objs = [{"s": {1, 2, 3}, "c": complex(1, 2), "b": b"abc", "w": tg.ones(3),
             "n": tg.Size([2, 3])},
            collections.OrderedDict(a=tg.arange(4.0), b=collections.Counter("hello"),
                                    d=tg.float32),
            [frozenset({"x"}), bytearray(b"xy"), tg.device("cpu"), tg.nn.Parameter(tg.ones(2))],
            {"t": (tg.zeros(2, 2), {1.5}), "l": [set(), {None}]}]
    out = []
    for o in objs:
        b = io.BytesIO()
        tg.save(o, b)
        out.append(b.getvalue())
    return out


def _with_pickle(data, pkl):
    zin, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for i in zin.infolist():
            z.writestr(i.filename, pkl if i.filename == "data.pkl" else zin.read(i))
    return out.getvalue()


def _outcome(data, counted):
    whole = S._SafeUnpickler.uncounted
    if counted:  # (every opcode charged: the table of the counted path)
        S._SafeUnpickler.uncounted = S._SafeUnpickler.dispatch
    try:
        return "loaded", repr(tg.load(io.BytesIO(data)))[:200]
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, e
    finally:
        S._SafeUnpickler.uncounted = whole


def _mutated(rng, pkl):
    pkl = bytearray(pkl)
    kind = int(rng.integers(4))
    for _ in range(int(rng.integers(1, 4))):
        at = int(rng.integers(2, max(len(pkl), 3)))
        if kind == 0 and len(pkl) > 3:
            pkl[min(at, len(pkl) - 1)] = int(rng.integers(256))
        elif kind == 1 and len(pkl) > 1:
            pkl = pkl[:int(rng.integers(1, len(pkl)))]
        elif kind == 2:
            pkl[at:at] = rng.integers(0, 256, int(rng.integers(1, 9))).astype(np.uint8).tobytes()
        else:
            other = int(rng.integers(2, max(len(pkl), 3)))
            pkl[at:at] = pkl[min(at, other):max(at, other)][:20]
    return bytes(pkl)


def run(cases, seed):
    rng = np.random.default_rng(seed)
    bases = _bases()
    stats, failures = collections.Counter(), []
    for case in range(cases):
        data = bases[int(rng.integers(len(bases)))]
        pkl = _mutated(rng, zipfile.ZipFile(io.BytesIO(data)).read("data.pkl"))
        file = _with_pickle(data, pkl)
        a, b = _outcome(file, False), _outcome(file, True)
        stats[a[0]] += 1
        if a[0] != "loaded" and not isinstance(a[1], ALLOWED):
            failures.append(f"case {case}: {a[0]}: {str(a[1])[:200]} ({pkl[:80]!r}...)")
        elif a[0] != b[0] or a[0] == "loaded" and a[1] != b[1]:
            failures.append(f"case {case}: charged whole {a[0]}, counted {b[0]}")
    return {"cases": cases, "ended": dict(stats), "failures": failures}


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mem-gib", type=float, default=4.0)
    a = ap.parse_args()
    lim = int(a.mem_gib * (1 << 30))
    resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
    print(json.dumps(run(a.cases, a.seed)))
