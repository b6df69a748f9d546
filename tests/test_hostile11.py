"""Hostile inputs, round 11: save files whose zip members share bytes, bool members holding
other bytes than 0 and 1, and replay against eager where a traced value leaves the float
path: integer and bool values of traced tensors (argmax's, max's indices, comparisons)
went through ops that computed them in NumPy with no row, so replay gave the traced
point's values at every point; a leaf f makes and drops made its trace stale at once.  The
differential fuzz of random programs runs under the ``slow`` marker
(tests/fuzz_replay_diff.py, in a subprocess)."""
import io
import json
import os
import pathlib
import struct
import subprocess
import sys
import zipfile
import zlib

import numpy as np
import pytest
from conftest import eager_value_and_grad, replays_as_eager

import tapegrad as tg
import tapegrad.nn.functional as F
from tapegrad.replay import DivergenceError

DIFF = pathlib.Path(__file__).with_name("fuzz_replay_diff.py")
X0 = np.array([0.3, 1.2, -0.4, 0.9, 2.0, 0.1])
POINTS = [np.array([1.5, 0.5, 1.0, -1.0, 0.0, 3.0]), np.array([-1.0, 0.0, 1.0, 1.0, 0.0, -1.0]),
          np.array([0.7, -1.9, 0.2, -0.3, 1.1, 1.6])]


def _replays_as_eager(f, points=POINTS, x0=X0):
    return replays_as_eager(f, points, x0)


# ---- integer and bool values of traced tensors --------------------------------------------
INT_PATHS = [
    "arg // 2", "arg.div(2, rounding_mode='floor')", "arg.div(2, rounding_mode='trunc')",
    "arg.gcd(tg.tensor([2, 2]))", "arg.lcm(tg.tensor([2, 2]))", "arg.cumprod(0)",
    "tg.bincount(arg, minlength=3)[:2]", "F.one_hot(arg, 3)[:, 1]",
    "arg.diff(prepend=tg.tensor([0]))", "arg.masked_fill(arg > 0, 7)",
    "tg.stack([arg, arg]).sum(0)", "tg.cat([arg, arg])[1:3]", "tg.vstack([arg, arg])[1]",
    "tg.tril(arg.outer(arg))[1]", "tg.diag(arg)[0]",
    "F.embedding(arg, tg.eye(3))[:, 0]",
    "F.cross_entropy(tg.eye(3)[:2], arg, reduction='none')",
    "F.nll_loss(tg.eye(3)[:2], arg, reduction='none')",
    "F.multi_margin_loss(tg.eye(3)[:2], arg, reduction='none')",
    "F.max_pool1d(x[:4].reshape(1, 1, 4), 2, return_indices=True)[1].reshape(2)",
    "F.adaptive_max_pool1d(x[:4].reshape(1, 1, 4), 2, return_indices=True)[1].reshape(2)",
    "(x[:2] > 0.5) + (x[:2] > 0.5)", "x[:2].frexp()[1]", "x[:2].frexp()[0]"]


@pytest.mark.parametrize("expr", INT_PATHS)
def test_integer_and_bool_values_of_a_traced_tensor_replay_or_diverge(expr):
    """Each gave, replayed at a new point, the traced point's integers (F.max_pool1d's
    indices, cat of argmax's, a target of cross_entropy...), or True + True as 2."""
    def f(x):
        arg = x.reshape(2, 3).max(-1)[1]  # noqa: F841 (read by expr)
        return (eval(expr) * x[:2]).sum()
    _replays_as_eager(f)


def test_hardtanh_and_relu6_trace_and_pass_nan_through():
    """``(x > lo) & (x < hi)`` of traced masks was refused while tracing (so F.relu6 could
    not be traced), and eagerly hardtanh(nan) was max_val (PyTorch: nan)."""
    _replays_as_eager(lambda x: F.hardtanh(x).sum() + F.relu6(x * 4.0).sum())
    x = tg.tensor([float("nan"), -2.0, -1.0, 0.5, 1.0, 3.0], requires_grad=True)
    y = F.hardtanh(x)
    y.sum().backward()
    assert np.isnan(y[0].item()) and y[1:].tolist() == [-1.0, -1.0, 0.5, 1.0, 1.0]
    assert x.grad.tolist() == [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]


def test_a_leaf_f_makes_and_drops_does_not_make_its_trace_stale():
    """The private tape held the leaf, so it was watched as a tensor of the caller's; it
    died with the tape, and every call then raised (compile too, at its first call)."""
    def f(x):
        w = tg.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], requires_grad=True)
        return (w * x).sum()
    t = tg.trace(f, X0)
    assert np.array_equal(t.grad(X0), np.arange(1.0, 7.0))
    assert tg.compile(f).value_and_grad(X0)[0] == pytest.approx((np.arange(1.0, 7.0) * X0).sum())
    keep = {}

    def g(x):  # a leaf f keeps is the caller's: written, the trace is stale
        keep["w"] = keep.get("w", tg.ones(6, requires_grad=True))
        return (keep["w"] * x).sum()
    t = tg.trace(g, X0)
    with tg.no_grad():
        keep["w"].mul_(2.0)
    with pytest.raises(RuntimeError, match="one has changed since"):
        t.value(X0)


# ---- save files ----------------------------------------------------------------------------
def _npy_header(n):
    h = io.BytesIO()
    np.lib.format.write_array_header_1_0(h, {"descr": "|u1", "fortran_order": False,
                                             "shape": (n,)})
    return h.getvalue()


def _local(name, data):
    return struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 20, 0, 0, 0, 0, zlib.crc32(data),
                       len(data), len(data), len(name), 0) + name.encode()


def _central(name, data, offset):
    return struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 20, 20, 0, 0, 0, 0,
                       zlib.crc32(data), len(data), len(data), len(name), 0, 0, 0, 0, 0,
                       offset) + name.encode()


def _overlapped(n, payload):
    """A tapegrad.save archive of n uint8 tensors whose stored members nest: each one's
    data holds the next one's local header and data, all ending in the one payload."""
    contents, heads, tail = [None] * n, [None] * n, payload
    for i in reversed(range(n)):
        contents[i] = _npy_header(len(tail)) + tail
        heads[i] = _local(f"tensors/{i}.npy", contents[i])
        tail = heads[i] + contents[i]
    meta = [{"kind": "tensor", "requires_grad": False, "parameter": False, "dtype": "uint8",
             "shape": [len(c) - len(_npy_header(1))]} for c in contents]
    js = json.dumps({"format": "tapegrad.save", "version": 1, "tensors": meta,
                     "root": [{"tensor": i} for i in range(n)]}).encode()
    out = bytearray(_local("tapegrad.json", js) + js)
    cd, at = _central("tapegrad.json", js, 0), len(out)
    out += tail
    for i in range(n):
        cd += _central(f"tensors/{i}.npy", contents[i], at)
        at += len(heads[i]) + len(_npy_header(1))
    start = len(out)
    out += cd + struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, n + 1, n + 1, len(cd), start, 0)
    return bytes(out)


def test_members_sharing_bytes_are_refused():
    """Each member's size was checked against the archive alone: 1 MB of payload loaded as
    50 tensors of 1 MB (the memory grew with the count of directory entries)."""
    blob = _overlapped(8, bytes(4096))
    with zipfile.ZipFile(io.BytesIO(blob)) as z:  # (a valid archive to zipfile)
        assert len(z.read("tensors/0.npy")) > 8 * 30 + 4096
    with pytest.raises(ValueError, match="overlaps the next member"):
        tg.load(io.BytesIO(blob))


def test_a_trace_whose_members_share_bytes_is_refused(tmp_path):
    path = tmp_path / "t.npz"
    tg.trace(lambda x: (x * x).sum(), X0).save(path)
    raw = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        infos = sorted(z.infolist(), key=lambda i: i.header_offset)
    # the second member's directory entry points at the first member's local header
    i = raw.find(b"PK\x01\x02")
    while i >= 0:
        nl = struct.unpack("<H", raw[i + 28:i + 30])[0]
        if raw[i + 46:i + 46 + nl].decode() == infos[1].filename:
            struct.pack_into("<I", raw, i + 42, infos[0].header_offset)
            raw[i + 46:i + 46 + nl] = b"x" * nl  # (zipfile compares the names)
        i = raw.find(b"PK\x01\x02", i + 4)
    path.write_bytes(bytes(raw))
    with pytest.raises(ValueError):
        tg.jit.load(path)


def _save_file(meta, member, version=1):
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w") as w:
        w.writestr("tapegrad.json", json.dumps({"format": "tapegrad.save", "version": version,
                                                "root": {"tensor": 0}, "tensors": [meta]}))
        w.writestr("tensors/0.npy", member)
    b.seek(0)
    return b


def test_bool_members_hold_only_zeros_and_ones_and_the_version_is_the_int_one():
    h = io.BytesIO()
    np.lib.format.write_array_header_1_0(h, {"descr": "|b1", "fortran_order": False,
                                             "shape": (4,)})
    meta = {"kind": "tensor", "requires_grad": False, "parameter": False, "dtype": "bool",
            "shape": [4]}
    with pytest.raises(ValueError, match="bytes other than 0 and 1"):
        tg.load(_save_file(meta, h.getvalue() + b"\x02\x05\x00\x01"))
    assert tg.load(_save_file(meta, h.getvalue() + b"\x01\x01\x00\x01")).tolist() == \
        [True, True, False, True]
    for version in (True, 1.0):
        with pytest.raises(ValueError, match="format version"):
            tg.load(_save_file(meta, h.getvalue() + bytes(4), version))


# ---- the differential fuzz (slow) ----------------------------------------------------------
@pytest.mark.slow
def test_random_programs_replay_as_eager(capsys):
    root = str(DIFF.parent.parent)  # (this checkout's tapegrad, not an installed one)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, str(DIFF), "--start", "0", "--count", "300"],
                          capture_output=True, text=True, timeout=3600, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    stats = json.loads(proc.stdout.strip().splitlines()[-1])
    assert stats["failures"] == [], "\n\n".join(stats["failures"][:5])
    assert stats["cases"].get("ok", 0) > 150
    with capsys.disabled():
        print(f"\nreplay differential fuzz: {stats['cases']}")


@pytest.mark.parametrize("expr", ["m.byte() * 200 + m.byte() * 100", "m.byte() - 2 * m.byte()",
                                  "m.to(tg.int8) * 100 + m.to(tg.int8) * 100",
                                  "m.int() * 2**30 * 4"])
def test_integer_arithmetic_that_would_wrap_diverges(expr):
    """Rows compute in float64: uint8 200 + 100 replayed as 300 where eager wraps to 44."""
    def f(x):
        m = x > 0.5  # noqa: F841 (read by expr)
        return (eval(expr).double() * x).sum()
    t = tg.trace(f, np.array([-0.1, -0.2, -0.3]))
    assert t.value(np.array([-1.0, 0.0, 0.4])) == 0.0
    with pytest.raises(DivergenceError, match="range"):
        t.value(np.array([1.0, 2.0, 0.0]))


@pytest.mark.parametrize("stmt", ["a[0] = 5", "a[a > 0] = 7", "a.copy_(a.flip(0))", "a.zero_()",
                                  "a.fill_(a[1])"])
def test_an_in_place_write_numpy_computes_into_a_traced_integer_tensor_is_refused(stmt):
    """copy_ replayed the traced point's values; a[a > 0] = 7 where nothing was written at
    the traced point was kept as no write; zero_/fill_ raised AttributeError."""
    src = ("def f(x):\n    a = x.reshape(2, 3).max(-1)[1]\n    " + stmt +
           "\n    return (a * x[:2]).sum()\n")
    ns = {"tg": tg}
    exec(src, ns)
    with pytest.raises(RuntimeError, match="in-place op on a traced .*int64 tensor"):
        tg.trace(ns["f"], X0)


@pytest.mark.parametrize("stmt", ["z.copy_(a)", "z[0] = a[1]", "z[tg.tensor([1])] = a[:1]"])
def test_a_traced_integer_written_into_a_constant_tensor_is_guarded(stmt):
    src = ("def f(x):\n    a = x.reshape(2, 3).max(-1)[1]\n    z = tg.zeros(2, dtype=tg.int64)\n"
           "    " + stmt + "\n    return (z * x[:2]).sum()\n")
    ns = {"tg": tg}
    exec(src, ns)
    _replays_as_eager(ns["f"])
