"""Trace-file fuzzer: mutated saved traces must load and replay exactly as the original, or
raise a clear ValueError, never crash or read out of bounds.  Run by tests/test_load.py in
a subprocess (so that a segfault is counted, not fatal), or by hand:

    python tests/fuzz_traces.py --cases 3000 --seed 1

Run it with NUMBA_DISABLE_JIT=1 (as .ci/run does: the kernels run as Python, and NumPy
raises IndexError) or with NUMBA_BOUNDSCHECK=1 and a fresh NUMBA_CACHE_DIR (the compiled
kernels, checked: a compile of their own) so that any out-of-bounds access inside a kernel
raises IndexError, which is counted a failure.

Each case takes a valid trace (several functions: guards, matmul, linear, cat, gathers,
strided views, reductions, softmax, nll, a detach...), changes it, saves it, loads it, and replays
value and gradient (``Traced.run``: every input's gradient, whatever the argnums) at three
points.  The changes: one field element set to a hostile value (slot counts, +-1, 10^9,
2^62, -2^63, nan, inf...); two to four such changes at once; a field cast to another dtype
(int32, int16, uint64, float32, an object array) or reshaped, truncated or extended; a
member dropped, added or renamed; the file's bytes truncated or flipped; one element
changed in a file without checksum and grad0 (format 1), where the reverse sweep's fields
are not replayed at load.  It prints one
JSON line: cases, and how they ended: ``exact`` (the original results, bit for bit),
``errors`` (ValueError, by its first words), and ``failures`` (anything else: another
exception, a different result).
"""
import argparse
import collections
import io
import json
import os
import sys
import tempfile
import zipfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tapegrad as tg  # noqa: E402  (this checkout's, not an installed one)
import tapegrad.nn.functional as F

from tapegrad.replay.validate import digest

FIELDS = ("rows", "offs", "vals0", "consts", "meta", "in_slots", "in_shapes", "out_slot",
          "argnums", "guards", "grad0", "format", "digest")


def _scalar(x):
    y = x[0]
    for _ in range(6):
        y = y * x[1] + (y.sin() if x[0] > 0 else y.cos()) * 0.5  # a guard
    return y


def _vector(x):
    W, v = x.reshape(3, 4), x[:4]
    h = W @ v + F.linear(W, W[:2], x[:2]).sum(1)  # MV, ADDMM
    parts = tg.cat([h, x[1:4], x[[2, 0, 1]]])  # CAT, STRIDED, GATHER
    s = parts.reshape(1, -1).expand(2, -1).sum(0)  # EXPAND, SUM_DIM
    m = W.max(1).values.sum() + W.logsumexp(0).sum() + W.cumsum(1).mean()
    g = tg.where(v > 0.1, v.clamp(-1.0, 1.0), v.exp())  # CMP_C, WHERE, CLAMP
    return (s.softmax(0) * s).sum() + m + g.norm() + W.var(0).sum() + tg.stack([v, v]).prod()


def _classes(x, y):
    logits = (x.reshape(2, 3) * y).tanh()
    return F.cross_entropy(logits, tg.tensor([2, 0])) + (logits @ logits.t()).diagonal().sum()


def _equal(x):
    # float() of a traced bool: a guard; a detach: a STOP_GRAD row
    return x.sum() * float(x[0] > 0.5) + (x * x).mean() / x.detach().norm()


TRACES = [(_scalar, [np.array([0.7, 0.9])], (0,)),
          (_vector, [np.linspace(-0.9, 1.2, 12)], (0,)),
          (_classes, [np.linspace(0.2, 1.4, 6), np.array(0.8)], (0, 1)),
          (_equal, [np.array([0.8, -0.3, 0.4])], (0,))]


def arrays_of(path):
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k].copy() for k in z.files}


ALL_PATHS = False  # (--all-paths: every entry point, not only Traced.run)


def results(t, X):
    """Values and every input's gradient at the points X, or the exception; with
    ``ALL_PATHS`` also the one-point path (the lowered program of replay/lower.py), the
    Jacobian, vjp and jvp batches and the value batch, diverging points masked (NaN)."""
    V, G, bad = t.run(np.ascontiguousarray(X), grad=True)
    out = [V.copy(), G.copy(), bad.copy()]
    if not ALL_PATHS:
        return tuple(out)
    Xs = [X[:, t._cols[j]:t._cols[j + 1]].reshape(len(X), *s)
          for j, s in enumerate(t.in_shapes)]
    for b in range(len(X)):
        try:
            v, g = t.value_and_grad(*[x[b].copy() for x in Xs])
            out += [np.asarray(v, float).ravel()] + [np.asarray(a, float).ravel() for a in
                                                     (g if isinstance(g, tuple) else (g,))]
            out.append(np.asarray(t.value(*[x[b].copy() for x in Xs]), float).ravel())
        except tg.replay.DivergenceError as e:
            if not str(e).isprintable():  # (a loaded guard's name, passed on as it was)
                raise RuntimeError(f"DivergenceError message not printable: {ascii(e)}") \
                    from None
            out.append(np.array([np.nan]))
    for r in (t.jacobian_batch(*Xs, on_divergence="mask"),
              t.vjp_batch(*Xs, v=np.ones((len(X), *t.out_shape)), on_divergence="mask"),
              t.jvp_batch(*Xs, v=tuple(np.ones_like(Xs[j]) for j in t.argnums),
                          on_divergence="mask"),
              t.value_batch(*Xs, on_divergence="mask")):
        for a in (r if isinstance(r, tuple) else (r,)):
            for b in (a if isinstance(a, tuple) else (a,)):
                out.append(np.asarray(b, float).copy())
    return tuple(out)


def same(a, b):
    return all(x.shape == y.shape and np.array_equal(x, y, equal_nan=True)
               for x, y in zip(a, b, strict=True))


def hostile_int(rng, n):
    """Values that break an index into something of size n."""
    return int(rng.choice([-2**63, -2**31, -2, -1, 0, 1, 2, n - 1, n, n + 1, 2 * n + 7,
                           10**9, 2**31, 2**62, 2**63 - 1, int(rng.integers(-5, 3 * n + 5))]))


def hostile_float(rng):
    return float(rng.choice([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e308, -1e-308, 2.0,
                             float(rng.standard_normal())]))


def poke(rng, a, limit):
    """One element of array a set to a hostile value (a copy)."""
    a = np.array(a)
    if a.size == 0:
        return np.append(a.ravel(), hostile_int(rng, limit)).astype(a.dtype) \
            if a.dtype.kind == "i" else a
    i = int(rng.integers(a.size))
    flat = a.reshape(-1)
    if a.dtype.kind == "f":
        flat[i] = hostile_float(rng)
    elif a.dtype.kind == "i":
        flat[i] = hostile_int(rng, limit)
    elif a.dtype.kind == "U":  # (a guard's name: lone surrogates and control codes too,
        # which messages quoting it must not pass on to a terminal)
        flat[i] = str(rng.choice(["x" * int(rng.integers(0, 40)), "\ud800", "a\udfff.py:1",
                                  "b\n\x1b[2J\x00", "\u200e\ufeff"]))
    return a


def mutate(rng, z, nslots):
    """A mutated copy of a trace's arrays (dict), or raw bytes for file-level cases."""
    z = {k: np.array(v) for k, v in z.items()}
    kind = rng.choice(["one", "one", "one", "one", "multi", "multi", "dtype", "shape",
                       "member", "bytes", "bare"])
    limits = {"rows": nslots, "offs": len(z["vals0"]), "meta": max(len(z["meta"]), nslots),
              "in_slots": nslots, "in_shapes": 8, "out_slot": nslots, "argnums": 3}
    if kind == "bare":  # a format-1 file: no checksum, and no grad0 to compare, so the
        for name in ("grad0", "format", "digest"):  # fields only the reverse sweep reads
            z.pop(name, None)  # (a product's need flags...) reach the replay unchecked
        kind = "one"
        bare = True
    else:
        bare = False
    if kind in ("one", "multi"):
        for _ in range(1 if kind == "one" else int(rng.integers(2, 5))):
            name = str(rng.choice(FIELDS[:10] + ("grad0",)))
            if name in z:
                z[name] = poke(rng, z[name], limits.get(name, nslots))
        return "bare" if bare else kind, z
    name = str(rng.choice([f for f in FIELDS if f in z]))
    a = z[name]
    if kind == "dtype":
        to = rng.choice(["int32", "int16", "uint64", "float32", "float64", "int64", "object",
                         "bool"])
        if a.dtype.kind != "U":
            z[name] = a.astype(to) if to != "object" else a.astype(object)
    elif kind == "shape":
        how = rng.choice(["truncate", "extend", "column", "2d", "0d", "empty"])
        flat = a.reshape(-1)
        if how == "truncate" and a.ndim and len(a):
            z[name] = flat[:int(rng.integers(flat.size))].copy() if a.ndim == 1 else \
                a[:int(rng.integers(len(a)))].copy()
        elif how == "extend":
            z[name] = np.concatenate([a, a[:1]]) if a.ndim > 1 else \
                np.concatenate([flat, flat[:1] if flat.size else np.ones(1, a.dtype)])
        elif how == "column" and a.ndim == 2:
            z[name] = a[:, :-1].copy() if rng.random() < 0.5 else \
                np.concatenate([a, a[:, :1]], axis=1)
        elif how == "2d":
            z[name] = a.reshape(1, -1)
        elif how == "0d" and a.size:
            z[name] = flat[0].copy()
        else:
            z[name] = a[:0] if a.ndim else a
    elif kind == "member":
        how = rng.choice(["drop", "add", "rename"])
        if how == "drop":
            z.pop(name)
        elif how == "add":
            z["extra"] = np.zeros(3)
        else:
            z[name + "_"] = z.pop(name)
    else:  # bytes: the saved file itself, truncated or with a byte changed
        buf = io.BytesIO()
        np.savez(buf, **z)
        raw = bytearray(buf.getvalue())
        if rng.random() < 0.5:
            raw = raw[:int(rng.integers(len(raw)))]
        else:
            raw[int(rng.integers(len(raw)))] ^= 1 << int(rng.integers(8))
        return "bytes", bytes(raw)
    return str(kind), z


def run(cases, seed, log=None, resign=True):
    rng = np.random.default_rng(seed)
    stats = {"cases": 0, "exact": 0, "errors": 0, "altered": [], "resign": resign,
             "by_kind": collections.Counter(), "by_error": collections.Counter(),
             "failures": []}
    tmp = tempfile.mkdtemp()
    bases = []
    for f, args, argnums in TRACES:
        t = tg.trace(f, *args, argnums=argnums)
        path = os.path.join(tmp, f"{f.__name__}.npz")
        t.save(path)
        x0 = np.concatenate([np.ravel(a) for a in args])
        X = np.stack([x0, x0 + 0.01 * rng.standard_normal(x0.shape),
                      x0 + 0.3 * rng.standard_normal(x0.shape)])
        bases.append((f.__name__, arrays_of(path), X, results(tg.load(path), X),
                      len(t.offs) - 1))
    path = os.path.join(tmp, "case.npz")
    for c in range(cases):
        name, z, X, want, nslots = bases[c % len(bases)]
        kind, m = mutate(rng, z, nslots)
        stats["cases"] += 1
        stats["by_kind"][kind] += 1
        if log:
            with open(log, "a") as fh:
                fh.write(f"{c} {name} {kind}\n")
        try:
            if isinstance(m, bytes):
                with open(path, "wb") as fh:
                    fh.write(m)
            else:
                if resign and "digest" in m and "digest" in z:  # as an attacker would
                    m["digest"] = digest(m)
                np.savez(path, **m)
            got = results(tg.load(path, max_bytes=1 << 24), X)
        except ValueError as e:
            if isinstance(e, UnicodeError) or not str(e).isprintable():
                stats["failures"].append(f"case {c} ({name}, {kind}): {type(e).__name__}: "
                                         f"{ascii(e)}")
                continue
            stats["errors"] += 1
            stats["by_error"][" ".join(str(e).split()[:3])] += 1
            continue
        except Exception as e:  # noqa: BLE001 (every other ending is a failure)
            stats["failures"].append(f"case {c} ({name}, {kind}): {type(e).__name__}: {e}")
            continue
        if same(got, want):
            stats["exact"] += 1
        else:
            changed = {k for k in m if k not in z or not np.array_equal(m[k], z[k])} \
                if isinstance(m, dict) else {"bytes"}
            # with the checksum recomputed, an edit that keeps the trace well formed and
            # consistent at its traced point (a comparison's threshold moved, say) is another
            # function: load cannot tell; without it, nothing may load differently
            # (a format-1 file has no checksum: an edit of it is another function too)
            (stats["altered"] if resign or kind == "bare" else stats["failures"]).append(
                f"case {c} ({name}, {kind}, changed {sorted(changed)}): loaded, and replays "
                "differently from the original")
    stats["by_kind"] = dict(stats["by_kind"])
    stats["by_error"] = dict(stats["by_error"].most_common(12))
    return stats


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log")
    ap.add_argument("--keep-checksum", action="store_true",
                    help="do not recompute the checksum of an edited file (damage, naive edits)")
    ap.add_argument("--all-paths", action="store_true",
                    help="replay every entry point (one point, Jacobian, vjp, jvp, values); "
                    "under the JIT warm the kernel cache first (python -m tapegrad.warmup): "
                    "a kernel still compiling runs interpreted, last bits apart")
    a = ap.parse_args()
    global ALL_PATHS
    ALL_PATHS = a.all_paths
    print(json.dumps(run(a.cases, a.seed, a.log, resign=not a.keep_checksum)))


if __name__ == "__main__":
    sys.exit(main())
