"""Hostile inputs, round 21: one counted memory total for a trace, and saved views.

- A trace's fields were bounded each on its own (values, slots, rows, inputs, guards;
  the compressed members' bytes together), so a file could pass every bound and still
  exceed max_bytes by combining them, or by a field no bound knew: meta (the plan copies
  it: 1 GB of it took 2.1 GB under the default max_bytes), argnums (a 1.4 MB file of
  1.2 * 10**8 argnums became Python ints and a message quoting all of them: 7 GB and 47 s
  to be refused).  ``validate.check_budget`` now sums every member's cost
  (``validate.ENTRY_BYTES`` an entry) from the headers, before any data is inflated;
  ``Traced.__setstate__`` counts the same fields.
- A saved view entry could load as a tensor of a dtype that cannot require grad (torch's
  RuntimeError from the Tensor constructor), as a complex Tensor (tapegrad's complex
  tensors are another class: its first op raised ComplexPart's error), or with a stride of
  2**62 on a dim of one element (OverflowError from NumPy).
"""
import io
import json
import os
import pickle
import subprocess
import sys
import textwrap
import tracemalloc
import zipfile

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.replay import validate

JIT_OFF = os.environ.get("NUMBA_DISABLE_JIT") == "1"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _f(x):
    return (x * x).sum() + (x[1:] * 2.0).sum()


def _arrays(f=_f, x=np.ones(3)):
    buf = io.BytesIO()
    tg.trace(f, x).save(buf)
    buf.seek(0)
    with np.load(buf) as z:
        return {k: z[k].copy() for k in z.files if k != "digest"}


def _file(a):
    """The arrays as a deflated trace, its checksum recomputed (as an attacker would)."""
    out = io.BytesIO()
    np.savez_compressed(out, **a, digest=validate.digest(a))
    return out.getvalue()


def _total(a):
    """The budget of arrays ``a`` (what read_npz counts from their headers)."""
    heads = {n: (v.shape, v.dtype) for n, v in a.items()}
    heads["digest"] = ((32,), np.dtype(np.uint8))
    return sum(validate.budget(validate.entries(heads)).values())


def test_unused_meta_counts_toward_max_bytes():
    a = _arrays()
    n = 10**6
    a["meta"] = np.concatenate([a["meta"], np.zeros(n, np.int64)])  # (no row reads it)
    data = _file(a)
    max_bytes = 12 * n  # (main: its 8 n bytes fit, and nothing else counted it)
    assert len(data) < n // 10
    tracemalloc.start()
    try:
        with pytest.raises(ValueError) as e:
            tg.load(io.BytesIO(data), max_bytes=max_bytes)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    msg = str(e.value)
    assert "trace: its fields take about" in msg and "'meta' " in msg
    assert f"more than max_bytes={max_bytes}; pass a larger max_bytes" in msg
    assert peak < 2 * n  # (refused from the headers: meta's 8 n bytes never inflated)
    t = tg.load(io.BytesIO(data), max_bytes=_total(a))  # (the total allows it)
    assert np.isclose(t.value(np.array([1.0, 2.0, 3.0])), 14 + 10)


def test_fields_within_their_own_bounds_add_up():
    """Values, rows, meta and consts each well within max_bytes, together over it."""
    a = _arrays()
    nv = 20_000  # a slot of unread values: 56 nv bytes
    a["vals0"] = np.concatenate([a["vals0"], np.zeros(nv)])
    a["offs"] = np.concatenate([a["offs"], [a["offs"][-1] + nv]])
    a["meta"] = np.concatenate([a["meta"], np.zeros(40_000, np.int64)])
    a["consts"] = np.concatenate([a["consts"], np.zeros(60_000)])
    data = _file(a)
    total = _total(a)
    max_bytes = total - 1000
    assert all(validate.ENTRY_BYTES[n] * len(a[n]) < 0.6 * max_bytes
               for n in ("vals0", "meta", "consts"))
    with pytest.raises(ValueError, match=r"trace: its fields take about \d+ bytes together"):
        tg.load(io.BytesIO(data), max_bytes=max_bytes)
    t = tg.load(io.BytesIO(data), max_bytes=total)
    assert np.allclose(t.grad(np.array([1.0, 2.0, 3.0])), [2.0, 6.0, 8.0])


@pytest.mark.parametrize("field", ["argnums", "out_shape"])
def test_long_small_fields_are_counted_and_not_quoted(field):
    a = _arrays()
    n = 200_000
    a[field] = np.full(n, 1000, np.int64)
    data = _file(a)
    max_bytes = 1 << 23  # (main: their 1.6 MB fit, refused later, quoting every entry)
    with pytest.raises(ValueError) as e:
        tg.load(io.BytesIO(data), max_bytes=max_bytes)
    assert len(str(e.value)) < 1000
    assert f"'{field}' {validate.OTHER_BYTES * n}" in str(e.value)
    with pytest.raises(ValueError) as e:  # (allowed their memory: refused for what they hold)
        tg.load(io.BytesIO(data), max_bytes=1 << 26)
    assert f"trace field '{field}'" in str(e.value) and len(str(e.value)) < 1000


def test_unpickled_trace_counts_its_fields():
    t = tg.trace(_f, np.ones(3))
    d = t.__getstate__()
    d["argnums"] = (0,) * 100_000
    token = validate.UNPICKLE_MAX_BYTES.set(1 << 20)
    try:
        blob = pickle.dumps(d)
        u = tg.replay.Traced.__new__(tg.replay.Traced)
        with pytest.raises(ValueError, match="'argnums' 6400000"):
            u.__setstate__(pickle.loads(blob))
    finally:
        validate.UNPICKLE_MAX_BYTES.reset(token)
    u = tg.replay.Traced.__new__(tg.replay.Traced)
    with pytest.raises(ValueError) as e:  # (under the default bound: its contents)
        u.__setstate__(pickle.loads(blob))
    assert "trace field 'argnums' must be distinct" in str(e.value)
    assert len(str(e.value)) < 1000


_PEAK = textwrap.dedent("""
    import io, sys, tracemalloc
    import numpy as np
    import tapegrad as tg
    def hwm():
        return next(int(l.split()[1]) * 1024 for l in open("/proc/self/status")
                    if l.startswith("VmHWM"))
    tg.load(sys.argv[1]).grad(np.ones(3))  # (the kernels compiled or read from the cache)
    data, max_bytes = open(sys.argv[2], "rb").read(), int(sys.argv[3])
    before = hwm()
    tracemalloc.start()
    tg.load(io.BytesIO(data), max_bytes=max_bytes)
    print(tracemalloc.get_traced_memory()[1], hwm() - before)
""")


def test_load_of_every_field_within_max_bytes(tmp_path):
    """A file of every counted field at once (values, meta, consts, guards) loads within
    the max_bytes its budget asks: VmHWM (JIT) or tracemalloc (JIT off)."""
    a = _arrays()
    (tmp_path / "small").write_bytes(_file(dict(a)))
    k = 1 if JIT_OFF else 6
    nv = k * 10**6
    a["vals0"] = np.concatenate([a["vals0"], np.zeros(nv)])
    a["offs"] = np.concatenate([a["offs"], [a["offs"][-1] + nv]])
    a["meta"] = np.concatenate([a["meta"], np.zeros(4 * nv, np.int64)])
    a["consts"] = np.concatenate([a["consts"], np.zeros(4 * nv)])
    (tmp_path / "big").write_bytes(_file(a))
    max_bytes = _total(a)
    r = subprocess.run([sys.executable, "-c", _PEAK, str(tmp_path / "small"),
                        str(tmp_path / "big"), str(max_bytes)],
                       capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    traced, rss = map(int, r.stdout.split()[-2:])
    assert traced <= max_bytes
    if not JIT_OFF:
        assert rss <= max_bytes


# ---- tapegrad.save files: view entries ----------------------------------------------------
def _save_file(metas, root, arrays):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("tapegrad.json", json.dumps({"format": "tapegrad.save", "version": 1,
                                                "root": root, "tensors": metas}))
        for i, x in enumerate(arrays):
            with z.open(f"tensors/{i}.npy", "w") as m:
                np.lib.format.write_array(m, x, allow_pickle=False)
    buf.seek(0)
    return buf


def _entry(dtype, shape, **kw):
    return {"kind": "tensor", "dtype": dtype, "shape": list(shape), "requires_grad": False,
            "parameter": False, **kw}


def _view_file(dtype, base, view, **kw):
    return _save_file([_entry(dtype, base.shape), _entry(dtype, view.shape, view_of=0, **kw)],
                      [{"tensor": 1}, {"tensor": 0}], [base, view])


def test_saved_view_and_alias_of_ints_cannot_require_grad():
    b = np.arange(6)
    with pytest.raises(ValueError, match="tensor 1 of dtype int64 cannot require grad"):
        tg.load(_view_file("int64", b, b[::2].copy(), offset=0, stride=[2],
                           requires_grad=True))
    f = _save_file([_entry("int64", [6]), _entry("int64", [6], same_as=0, requires_grad=True)],
                   [{"tensor": 1}], [b, b])
    with pytest.raises(ValueError, match="tensor 1 of dtype int64 cannot require grad"):
        tg.load(f)
    x, y = tg.load(_view_file("float64", b * 1.0, b[::2] * 1.0, offset=0, stride=[2],
                              requires_grad=True))  # (a float one may)
    assert x.requires_grad and x.tolist() == [0.0, 2.0, 4.0]


def test_saved_view_of_complex_is_refused():
    b = np.arange(3) + 1j
    with pytest.raises(ValueError, match="names no tensor entry of its dtype as its base"):
        tg.load(_view_file("complex128", b, b[1:].copy(), offset=1, stride=[1]))
    z = tg.load(_save_file([_entry("complex128", [3])], {"tensor": 0}, [b]))  # (not a view)
    assert np.array_equal((z * 2).detach().numpy(), 2 * b)


@pytest.mark.parametrize("view,offset,stride", [
    (np.array([[5.0]]), 5, [2**62, 2**62]),  # (dims of one element: never stepped)
    (np.zeros((0, 3)), 2**62, [2**62, 1]),  # (an empty view)
    (np.zeros((0, 3)), 0, [7, 1]),
    (np.array([5.0]), 7, [1])])
def test_saved_view_layout_within_its_base(view, offset, stride):
    with pytest.raises(ValueError, match="offset or stride beyond its base's 6 elements"):
        tg.load(_view_file("float64", np.arange(6.0), view, offset=offset, stride=stride))


def test_saved_views_of_empty_and_single_element_bases_still_load():
    x = tg.zeros(0, 4)
    y = tg.arange(6.0).reshape(2, 3)
    buf = io.BytesIO()
    tg.save([x, x[:, 1:], y, y[1:, 2:], y[1, None]], buf)
    buf.seek(0)
    x2, v, y2, w, u = tg.load(buf)
    assert v.shape == (0, 3) and w.tolist() == [[5.0]] and u.tolist() == [[3.0, 4.0, 5.0]]
    w.add_(1.0)
    assert y2.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 6.0]]


# ---- .npy headers ---------------------------------------------------------------------------
def _npy_with_open_bracket():
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.zeros(3))
    raw = bytearray(buf.getvalue())
    raw[raw.index(b")")] = ord("x")  # ('shape': (3,x, }: NumPy's tokenize gives TokenError)
    return bytes(raw)


def test_a_npy_header_numpy_cannot_tokenize_is_a_load_error():
    """Found by tests/fuzz_saved.py (a flipped byte): tokenize.TokenError from NumPy's
    header parser came out of load, of both formats."""
    f = io.BytesIO()
    with zipfile.ZipFile(f, "w") as z:
        z.writestr("tapegrad.json", json.dumps({"format": "tapegrad.save", "version": 1,
                                                "root": {"tensor": 0},
                                                "tensors": [_entry("float64", [3])]}))
        z.writestr("tensors/0.npy", _npy_with_open_bracket())
    f.seek(0)
    with pytest.raises(ValueError, match=r"member tensors/0\.npy is not a \.npy array \(the "
                                         r"\.npy header is not readable \(TokenError"):
        tg.load(f)
    buf = io.BytesIO()
    tg.trace(_f, np.ones(3)).save(buf)
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z:
        members = {i.filename: z.read(i) for i in z.infolist()}
    members["consts.npy"] = _npy_with_open_bracket()
    f = io.BytesIO()
    with zipfile.ZipFile(f, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    f.seek(0)
    with pytest.raises(ValueError, match=r"trace field 'consts': not a \.npy array \(the "
                                         r"\.npy header is not readable \(TokenError"):
        tg.load(f)


def test_a_member_needing_a_newer_zip_version_is_a_load_error():
    """Found by tests/fuzz_saved.py: zipfile's NotImplementedError ("zip file version
    18.4") from the directory's parse came out of tapegrad.load."""
    buf = io.BytesIO()
    tg.save({"w": tg.ones(2)}, buf)
    raw = bytearray(buf.getvalue())
    p = raw.index(b"PK\x01\x02")
    raw[p + 6] = 184  # (the first entry's "version needed to extract")
    with pytest.raises(ValueError, match=r"neither a tapegrad.save file nor a tapegrad trace "
                                         r"\(not a zip archive: zip file version 18\.4\)"):
        tg.load(io.BytesIO(bytes(raw)))


# ---- a deflate stream longer than its member says -------------------------------------------
def _declared(blob, name, size):
    """``blob`` with member ``name``'s uncompressed size set to ``size`` in its local header
    and the directory (its deflate stream left as it is)."""
    b = bytearray(blob)
    for sig, at, name_len, name_at in ((b"PK\x03\x04", 22, 26, 30), (b"PK\x01\x02", 24, 28, 46)):
        p = b.find(sig)
        while p >= 0:
            n = int.from_bytes(b[p + name_len:p + name_len + 2], "little")
            if bytes(b[p + name_at:p + name_at + n]) == name.encode():
                b[p + at:p + at + 4] = size.to_bytes(4, "little")
            p = b.find(sig, p + 4)
    return bytes(b)


def test_a_deflate_stream_is_inflated_no_further_than_its_declared_size():
    """A member declaring the bytes of 3 values whose stream inflates to 100 MB: zipfile
    inflates what the member declares (the size max_bytes counted), then finds the CRC
    wrong; nothing near 100 MB is ever held (the bomb's bound is its declared size)."""
    head = io.BytesIO()
    np.lib.format.write_array(head, np.zeros(3))
    small = head.getvalue()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("tapegrad.json", json.dumps({"format": "tapegrad.save", "version": 1,
                                                "root": {"tensor": 0},
                                                "tensors": [_entry("float64", [3])]}))
        z.writestr("tensors/0.npy", small + bytes(100 << 20))
    data = _declared(buf.getvalue(), "tensors/0.npy", len(small))
    assert len(data) < 200_000
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="Bad CRC-32 for file 'tensors/0.npy'"):
            tg.load(io.BytesIO(data))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


def test_a_saved_size_holds_int64s():
    """torch.Size holds int64s: a Size of 2**70 loaded, and tg.zeros of it failed with
    NumPy's "Maximum allowed dimension exceeded"."""
    for bad in ([2**70], [3, -2**63 - 1]):
        with pytest.raises(ValueError, match="a Size holds non-integers or integers beyond "
                                             "int64"):
            tg.load(_save_file([], {"size": bad}, []))
    assert tg.load(_save_file([], {"size": [2**63 - 1, 0]}, [])) == tg.Size([2**63 - 1, 0])


def test_a_negative_size_in_a_npy_header_is_refused_before_its_data():
    """NumPy's header reader takes shape (-n, -5): n rows' bytes (their product) that the
    memory budget counted as no rows; refused from the header now, with the field named
    (main: NumPy's reshape error, "can only specify one unknown dimension", after reading)."""
    n = 10**6
    buf = io.BytesIO()
    tg.trace(_f, np.ones(3)).save(buf)
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z:
        members = {i.filename: z.read(i) for i in z.infolist()}
    head = io.BytesIO()
    np.lib.format.write_array(head, np.zeros((n, 5), np.int64))
    raw = head.getvalue()
    members["rows.npy"] = raw.replace(f"'shape': ({n}, 5)".encode(),
                                      f"'shape': (-{n}, -5)".encode())
    f = io.BytesIO()
    with zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    f.seek(0)
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=r"trace field 'rows' declares shape "
                                             rf"\(-{n}, -5\), with a negative size"):
            tg.load(f)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * n  # (its 40 n bytes never inflated)


def test_fuzz_saved_files():
    """tests/fuzz_saved.py in a subprocess (a crash is counted, not fatal): mutated
    tapegrad.save files load and can be used, or raise ValueError."""
    r = subprocess.run([sys.executable, "-W", "ignore", os.path.join(ROOT, "tests",
                                                                     "fuzz_saved.py"),
                        "--cases", "400", "--seed", "5"],
                       capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    stats = json.loads(r.stdout.strip().splitlines()[-1])
    assert stats["cases"] == 400 and stats["loaded"] > 20 and stats["errors"] > 200
    assert stats["failures"] == []


@pytest.mark.parametrize("flag", [0x20, 0x40])
def test_zip_flags_zipfile_cannot_read_are_a_load_error(flag):
    """Found by tests/fuzz_saved.py: a directory entry flagged as patched data (bit 5) or
    strongly encrypted (bit 6) raised zipfile's NotImplementedError from tapegrad.load."""
    buf = io.BytesIO()
    tg.save({"w": tg.ones(2)}, buf)
    raw = bytearray(buf.getvalue())
    p = raw.index(b"PK\x01\x02")
    raw[p + 8] |= flag
    with pytest.raises(ValueError, match=rf"member tapegrad.json has zip flags {flag:#06x}: "
                                         "patched data or strong encryption"):
        tg.load(io.BytesIO(bytes(raw)))
    buf = io.BytesIO()
    tg.trace(_f, np.ones(3)).save(buf)
    raw = bytearray(buf.getvalue())
    raw[raw.index(b"PK\x01\x02") + 8] |= flag
    with pytest.raises(ValueError, match=f"has zip flags {flag:#06x}"):
        tg.load(io.BytesIO(bytes(raw)))
