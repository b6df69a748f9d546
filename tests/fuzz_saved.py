"""Save-file fuzzer: mutated ``tapegrad.save`` files (the JSON structure, the tensor entries'
fields, the ``.npy`` members, the zip archive) must load or raise ``ValueError``, and what
loads must be usable: printed, summed, differentiated, written in place through its
views, saved and loaded again.  Nothing may raise another exception, crash or run away.
By hand (a memory rlimit, every case logged before it runs, to name a killer):

    NUMBA_DISABLE_JIT=1 python tests/fuzz_saved.py --cases 3000 --seed 1

It prints one JSON line: cases, how they ended (``loaded``, ``errors`` by their first
words) and ``failures``: another exception from load, or one from using what loaded that
is not a RuntimeError/ValueError/TypeError of the op's own (torch's refusals: an in-place
write to a view of a leaf that requires grad, say).
"""
import argparse
import collections
import copy
import io
import json
import os
import resource
import sys
import zipfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tapegrad as tg  # noqa: E402  (this checkout's, not an installed one)
from tapegrad.ops import views  # noqa: E402

HOSTILE_INTS = [-1, 0, 1, 2, 3, 5, 7, 63, 64, 65, 2**31, 2**32 + 1, 2**62, 2**63 - 1, 2**63,
                2**64, -2**63, 10**30]


def _bases():
    """Objects whose files are mutated: every dtype, views (offsets, strides, a base the
    object does not hold), aliases, parameters, state dicts, nesting, numbers."""
    x = tg.arange(24.0).reshape(4, 6)
    w = tg.nn.Parameter(tg.ones(3, 2))
    lin = tg.nn.Linear(3, 2)
    c = tg.tensor([1.0 + 2.0j, -0.5j])
    out = [
        {"x": x, "row": x[1], "col": x[:, 2], "t": x.t(), "sl": x[1:3, ::2]},
        [x[2:, 1:], x.reshape(-1)[3:9]],  # (x's views whose base the file holds by itself)
        {"w": w, "d": w.detach(), "i": tg.arange(5), "b": tg.tensor([True, False])},
        lin.state_dict(),
        {"f32": tg.ones(2, 3, dtype=tg.float32), "f16": tg.zeros(2, dtype=tg.float16),
         "u8": tg.arange(4, dtype=tg.uint8), "i32": tg.arange(3, dtype=tg.int32)},
        {"c": c, "e": tg.zeros(0, 3), "s": tg.tensor(2.5, requires_grad=True)},
        (np.arange(4.0), np.float32(1.5), tg.float32, tg.Size([2, 3]), float("nan"), None),
    ]
    return out


def _paths(node, at=()):
    """Every (path, value) in a JSON tree."""
    yield at, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, at + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, at + (i,))


def _set(tree, path, value):
    for k in path[:-1]:
        tree = tree[k]
    if value is _DROP:
        del tree[path[-1]]
    else:
        tree[path[-1]] = value


_DROP = object()


def _hostile_value(rng, old):
    r = rng.random()
    if isinstance(old, bool) or r < 0.1:
        return [True, False, None, "x", 1.5, [], {}][rng.integers(7)]
    if isinstance(old, int):
        return [old + 1, old - 1, -old, HOSTILE_INTS[rng.integers(len(HOSTILE_INTS))]][
            rng.integers(4)]
    if isinstance(old, str):
        return ["float64", "complex128", "int64", "bool", "float16", "uint64", "object",
                "tensor", "ndarray", "scalar", "", "tensors/0.npy"][rng.integers(12)]
    if isinstance(old, list):
        if old and r < 0.5:
            return old[:-1] if r < 0.3 else old + [old[-1]]
        return [HOSTILE_INTS[rng.integers(len(HOSTILE_INTS))] for _ in range(len(old))]
    if isinstance(old, dict):
        return {}
    return HOSTILE_INTS[rng.integers(len(HOSTILE_INTS))]


def _members(blob):
    with zipfile.ZipFile(io.BytesIO(blob)) as z:
        return {i.filename: z.read(i) for i in z.infolist()}


def _zip(members, method=zipfile.ZIP_STORED):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in members:
            z.writestr(name, data)
    return buf.getvalue()


def mutate(rng, blob):
    """One hostile change of a saved file: (kind, new bytes)."""
    m = _members(blob)
    header = json.loads(m["tapegrad.json"])
    kind = ["field", "field", "field", "entry", "npy", "zip", "bytes", "layout"][rng.integers(8)]
    if kind == "layout":
        return kind, relaid(rng, m, header)
    if kind in ("field", "entry"):
        for _ in range(1 + rng.integers(3)):
            if kind == "entry" and header["tensors"]:  # a view / alias link added or moved
                e = header["tensors"][rng.integers(len(header["tensors"]))]
                n = len(header["tensors"])
                key = ["view_of", "same_as", "offset", "stride", "requires_grad", "kind",
                       "parameter"][rng.integers(7)]
                e[key] = {"view_of": int(rng.integers(-1, n + 1)),
                          "same_as": int(rng.integers(-1, n + 1)),
                          "offset": int(HOSTILE_INTS[rng.integers(len(HOSTILE_INTS))]),
                          "stride": [int(rng.choice([0, 1, 2, 6, -1, 2**40]))
                                     for _ in e.get("shape", [])],
                          "requires_grad": True, "kind": "tensor", "parameter": True}[key]
                if key == "view_of":
                    e.setdefault("offset", 0)
                    e.setdefault("stride", [1] * len(e.get("shape", [])))
            else:
                paths = list(_paths(header))[1:]
                path, old = paths[rng.integers(len(paths))]
                _set(header, path, _DROP if rng.random() < 0.1 and path[-1] not in (
                    "format", "version") else _hostile_value(rng, old))
        m["tapegrad.json"] = json.dumps(header).encode()
        return kind, _zip(m.items())
    if kind == "npy":  # a member's .npy header: another dtype, shape or order
        names = [n for n in m if n.startswith("tensors/")]
        if not names:
            return kind, blob
        name = names[rng.integers(len(names))]
        a = np.load(io.BytesIO(m[name]), allow_pickle=False)
        r = rng.integers(6)
        if r == 5:  # the header's shape text: negative, huge or more dims
            raw = m[name]
            text = repr(a.shape).encode()
            new = [b"(-1,)", b"(-%d, -1)" % a.size, b"(%d,)" % 2**62, b"(1, " * 70 + b")",
                   b"(0, %d)" % 2**63][rng.integers(5)]
            m[name] = raw.replace(b"'shape': " + text, b"'shape': " + new, 1)
            return kind, _zip(m.items())
        if r == 0:
            a = a.astype([np.float32, np.int64, np.uint8, np.complex64, np.float16][
                rng.integers(5)])
        elif r == 1:
            a = a.reshape(-1)[: max(a.size - 1, 0)]
        elif r == 2:
            a = np.asfortranarray(a.reshape(a.shape[::-1])) if a.ndim > 1 else a[None]
        elif r == 3:
            a = np.concatenate([a.reshape(-1), a.reshape(-1)])
        else:
            buf = io.BytesIO()
            np.lib.format.write_array(buf, a)
            raw = bytearray(buf.getvalue())
            raw[rng.integers(len(raw))] ^= 1 << rng.integers(8)
            m[name] = bytes(raw)
            return kind, _zip(m.items())
        buf = io.BytesIO()
        np.lib.format.write_array(buf, a)
        m[name] = buf.getvalue()
        return kind, _zip(m.items())
    if kind == "zip":
        items = list(m.items())
        r = rng.integers(5)
        if r == 0 and len(items) > 1:  # a member twice
            items.append(items[rng.integers(len(items))])
        elif r == 1:  # a member dropped
            items.pop(rng.integers(len(items)))
        elif r == 2:  # another member swapped in under a name
            i, j = rng.integers(len(items), size=2)
            items[i] = (items[i][0], items[j][1])
        elif r == 3:
            items.append(("data.pkl", b"\x80\x04N."))
        else:
            return kind, _zip(items, zipfile.ZIP_DEFLATED)
        return kind, _zip(items)
    raw = bytearray(blob)
    if rng.random() < 0.3:  # a directory entry's field: version, flags, method, CRC, sizes,
        # name length, local header offset (zip64 and data descriptors by their flags)
        p = raw.find(b"PK\x01\x02")
        hits = []
        while p >= 0:
            hits.append(p)
            p = raw.find(b"PK\x01\x02", p + 4)
        p = hits[rng.integers(len(hits))]
        at, width = [(6, 2), (8, 2), (10, 2), (16, 4), (20, 4), (24, 4), (28, 2), (42, 4)][
            rng.integers(8)]
        value = int(rng.choice([0, 1, 8, 0xFF, 0xFFFF, 0xFFFFFFFF, len(raw), 2**31]))
        raw[p + at:p + at + width] = (value % (1 << 8 * width)).to_bytes(width, "little")
        return kind, bytes(raw)
    if rng.random() < 0.5:
        return kind, bytes(raw[: rng.integers(len(raw))])
    for _ in range(1 + rng.integers(4)):
        raw[rng.integers(len(raw))] = rng.integers(256)
    return kind, bytes(raw)


def relaid(rng, m, header):
    """An entry re-pointed as a view of another tensor entry at a drawn layout (strides of
    0, 1, 2, 3, the base's size; overlapping ones too), its values rewritten to the base's
    there (so the values check passes, as a careful attacker makes it)."""
    ents = header["tensors"]
    bases = [j for j, e in enumerate(ents) if e.get("kind") == "tensor" and "view_of" not in e
             and "same_as" not in e and e.get("dtype") in ("float64", "float32", "int64")
             and np.prod(e.get("shape", [0])) > 0]
    if not bases:
        return _zip(m.items())
    j = bases[rng.integers(len(bases))]
    i = int(rng.integers(len(ents)))
    if i == j or ents[i].get("kind") != "tensor":
        i = len(ents)  # (a new entry, held by the root beside the object)
        ents.append({"kind": "tensor", "requires_grad": False, "parameter": False})
        header["root"] = {"tuple": [header["root"], {"tensor": i}]}
    base = np.load(io.BytesIO(m[f"tensors/{j}.npy"]), allow_pickle=False).reshape(-1)
    nd = int(rng.integers(1, 4))
    shape = [int(rng.integers(1, 4)) for _ in range(nd)]
    stride = [int(rng.choice([0, 1, 2, 3, base.size])) for _ in range(nd)]
    span = sum((n - 1) * st for n, st in zip(shape, stride))
    if span >= base.size:
        return _zip(m.items())
    offset = int(rng.integers(0, base.size - span))
    vals = np.lib.stride_tricks.as_strided(base[offset:], shape,
                                           [st * base.itemsize for st in stride]).copy()
    ents[i] = {k: v for k, v in ents[i].items() if k not in ("same_as",)}
    ents[i].update(dtype=ents[j]["dtype"], shape=shape, view_of=j, offset=offset,
                   stride=stride, kind="tensor", parameter=False)
    buf = io.BytesIO()
    np.lib.format.write_array(buf, vals)
    m[f"tensors/{i}.npy"] = buf.getvalue()
    m["tapegrad.json"] = json.dumps(header).encode()
    return _zip(m.items())


def views_one_to_one(obj, depth=0):
    """What loaded holds no view naming an element of its base twice (an in-place op on
    one wrote each element's last write into the base, where PyTorch refuses it)."""
    if depth > 50:
        return True
    if isinstance(obj, dict):
        return all(views_one_to_one(v, depth + 1) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return all(views_one_to_one(v, depth + 1) for v in obj)
    vb = views.of(obj) if isinstance(obj, tg.Tensor) else None
    if vb is None:
        return True
    pos = views.positions(vb).reshape(-1)
    return len(np.unique(pos)) == pos.size


def use(obj, depth=0):
    """Use what loaded: print it, sum it, differentiate, write through views, save it."""
    if depth > 50:
        return
    if isinstance(obj, dict):
        for v in list(obj.values()):
            use(v, depth + 1)
        return
    if isinstance(obj, (list, tuple)):
        for v in obj:
            use(v, depth + 1)
        return
    if not isinstance(obj, tg.Tensor) and type(obj).__name__ != "ComplexTensor":
        repr(obj)
        return
    repr(obj)
    for op in (lambda t: t.sum(), lambda t: (t * 2).abs().sum() if t.dtype != tg.bool else
               t.sum(), lambda t: t.clone().reshape(-1), lambda t: t.numpy().tolist()):
        try:
            op(obj)
        except (RuntimeError, ValueError, TypeError):
            pass
    if getattr(obj, "requires_grad", False):
        try:
            s = (obj * obj).sum()
            s = s.abs() if "complex" in str(s.dtype) else s
            s.backward()
        except (RuntimeError, ValueError, TypeError):
            pass
    elif obj.dtype in (tg.float64, tg.float32):
        try:
            obj.add_(1.0)
            obj.mul_(2.0)
        except (RuntimeError, ValueError, TypeError):
            pass


def run(cases, seed, log=None):
    rng = np.random.default_rng(seed)
    stats = {"cases": 0, "loaded": 0, "errors": 0, "by_kind": collections.Counter(),
             "by_error": collections.Counter(), "failures": []}
    blobs = []
    for obj in _bases():
        buf = io.BytesIO()
        tg.save(obj, buf)
        blobs.append(buf.getvalue())
    for c in range(cases):
        kind, data = mutate(rng, blobs[c % len(blobs)])
        stats["cases"] += 1
        stats["by_kind"][kind] += 1
        if log:
            with open(log, "a") as fh:
                fh.write(f"{c} {kind}\n")
        try:
            obj = tg.load(io.BytesIO(data), max_bytes=1 << 24)
        except ValueError as e:
            stats["errors"] += 1
            stats["by_error"][" ".join(str(e).split()[:8])[:80]] += 1
            continue
        except Exception as e:  # noqa: BLE001 (every other ending is a failure)
            stats["failures"].append(f"case {c} ({kind}) load: {type(e).__name__}: {e}"[:400])
            continue
        stats["loaded"] += 1
        if not views_one_to_one(obj):
            stats["failures"].append(f"case {c} ({kind}): a view names an element twice")
        try:
            use(copy.copy(obj))
            buf = io.BytesIO()
            tg.save(obj, buf)
            buf.seek(0)
            tg.load(buf, weights_only=False)
        except Exception as e:  # noqa: BLE001
            stats["failures"].append(f"case {c} ({kind}) use: {type(e).__name__}: {e}"[:400])
    stats["by_kind"] = dict(stats["by_kind"])
    stats["by_error"] = dict(stats["by_error"].most_common(15))
    return stats


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log")
    ap.add_argument("--mem-gib", type=float, default=4.0)
    a = ap.parse_args()
    limit = int(a.mem_gib * (1 << 30))
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    print(json.dumps(run(a.cases, a.seed, a.log)))


if __name__ == "__main__":
    sys.exit(main())
