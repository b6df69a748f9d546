"""Hostile inputs, round 20.  Holes found (each failed on main):

- a trace's guard names: one name of 2.5 * 10**8 characters (a 1 MB deflated file, within
  the default max_bytes: the header's estimate counted the member's 4 bytes a character
  only) took 2.4 GB and 21 s to load.  A name has at most ``validate.GUARD_CHARS``
  characters (a path and a line; ``Traced.save`` and pickling shorten a longer one),
  refused from the member's header before it is inflated, and each name counts its
  member's bytes and its str's;
- every member of a saved trace was inflated into a bytes object, copied into a bytearray,
  and copied again by the checksum (``tobytes``): loading took three times the member's
  size, beyond ``max_bytes`` (tapegrad.save files: the bytes, a copy, the Tensor's copy).
  Members are read in chunks into their arrays, the checksum reads them in place;
- a STOP_GRAD pair (no_grad while tracing) writes its slot o after slots numbered above
  it; a cat (meta operands) or where (aux condition) row before the pair could read o, as
  only the rows' columns were checked: replay read the arena before anything wrote it
  (1.75e-301 at the traced point instead of 10.0, elsewhere whatever a previous call left);
- the replay plan's folds scanned the rows between each add and the sum of its square:
  N adds made first and their squares summed last (an ordinary loop, or a 1.2 MB file of
  48,000 rows) took N**2 (60 s to load); the rows scanned are bounded now;
- the zip directory check read and counted each candidate directory on its own: 2,978
  end records in a file's last 64 kB, each declaring an 8 MB directory, read 24 GB (44 s
  for an 8 MB file); counted in one pass now.

tests/fuzz_trace_combos.py (slow here, JIT off) draws edits that pass the checks one by
one, recomputes vals0 as a careful attacker would, and replays every way.
"""
import io
import json
import os
import pathlib
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.replay import validate


def _arrays(f, *x):
    buf = io.BytesIO()
    tg.trace(f, *x).save(buf)
    buf.seek(0)
    with np.load(buf) as z:
        return {k: z[k].copy() for k in z.files}


def _saved(a, compressed=True):
    a = dict(a, digest=validate.digest(a))  # (a checksum anyone can recompute)
    buf = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buf, **a)
    return buf.getvalue()


def _branch(x):
    return x.sum() if x[0] > 0 else -x.sum()


X2 = np.array([1.0, -2.0])


# ---- guard names ---------------------------------------------------------------------------
def test_a_guard_name_longer_than_any_path_is_refused_before_it_is_inflated():
    """On main a name of 10**7 characters (40 MB, a 40 kB file) loaded; 2.5 * 10**8 (1 GB)
    loaded too, in 2.4 GB."""
    a = _arrays(_branch, X2)
    a["guards"] = np.array(["a" * 10**7], dtype="<U10000000")
    data = _saved(a)
    assert len(data) < 100_000
    with pytest.raises(ValueError, match=r"'guards' holds names of up to 10000000 characters; "
                                         r"a guard's name has at most 8192"):
        tg.load(io.BytesIO(data))


def test_a_long_guard_name_is_shortened_when_saved_and_loads_back():
    """A guard's name is "<how> at <file>:<line>": code compiled under a long file name
    makes a long one, which save keeps the end of (a loaded trace can then be loaded)."""
    name = "/" + "d" * 20_000 + "/f.py"
    env = {"tg": tg}
    exec(compile("def f(x):\n    return x.sum() if x[0] > 0 else -x.sum()\n", name, "exec"), env)
    t = tg.trace(env["f"], X2)
    assert len(t.guards[0]) > validate.GUARD_CHARS
    buf = io.BytesIO()
    t.save(buf)
    buf.seek(0)
    back = tg.load(buf)
    (g,) = back.guards
    assert len(g) == validate.GUARD_CHARS and g.startswith("...") and g.endswith("/f.py:2")
    assert back.value(np.array([3.0, 1.0])) == 4.0
    with pytest.raises(tg.replay.DivergenceError, match=r"/f\.py:2"):
        back.value(np.array([-3.0, 1.0]))
    import pickle
    assert len(pickle.loads(pickle.dumps(t)).guards[0]) == validate.GUARD_CHARS


# ---- the memory a load takes ---------------------------------------------------------------
def _guards(n, c, char="a"):
    a = _arrays(_branch, X2)
    a["guards"] = np.full(n, char * c, dtype=f"<U{c}")
    return a


def _consts(n):
    a = _arrays(_branch, X2)
    a["consts"] = np.concatenate([a["consts"], np.zeros(n)])  # (no row reads them)
    return a


@pytest.mark.parametrize("make", [lambda: _guards(900, 8000),
                                  lambda: _guards(300, 8000, "\U0001F600"),
                                  lambda: _guards(40_000, 100), lambda: _consts(3_500_000)],
                         ids=["ascii names", "astral names", "many names", "consts"])
def test_a_file_loads_within_max_bytes_or_is_refused(make):
    """tracemalloc's peak while loading (NumPy's buffers included): on main a member took
    three times its size (inflated, copied, copied again by the checksum), the guard names
    their member's size again as strings."""
    bound = 40 << 20
    data = _saved(make())
    assert len(data) < 1 << 20
    tracemalloc.start()
    try:
        try:
            tg.load(io.BytesIO(data), max_bytes=bound)
        except ValueError as e:
            assert "max_bytes" in str(e)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= bound, f"{peak / 2**20:.1f} MB"


# ---- a STOP_GRAD pair's slot read through aux or meta before it is written -------------------
CAT, WHERE, MUL_C, STOP_GRAD, MUL, SUM = 64, 103, 7, 32, 3, 40  # opcodes


def _read_before_stop(reader):
    """Slots 0 x, 1 o, 2 r, 3 h, 4 x * r, 5 the sum: row 0 (``reader``) makes r from o
    before rows 1-2 (h = 2 x under no_grad: the pair of ops/control.py _NoGradRows) write
    o; the rows' columns name o nowhere before row 2, only row 0's meta (a cat of o) or aux
    (where(o, x, x)).  vals0 as the rows compute them from o's recorded 2 x."""
    a = _arrays(_branch, X2)  # (for its other fields)
    x = X2
    first = [CAT, 2, 0, -1, 0] if reader == "cat" else [WHERE, 2, 0, 0, 1]
    rows = np.array([first, [MUL_C, 3, 0, -1, 0], [STOP_GRAD, 1, 3, -1, -1], [MUL, 4, 0, 2, -1],
                     [SUM, 5, 4, -1, -1]], np.int64)
    r = 2 * x if reader == "cat" else x  # (a cat of o; where(o != 0, x, x))
    vals0 = np.concatenate([x, 2 * x, r, 2 * x, x * r, [(x * r).sum()]])
    a.pop("grad0")  # (optional: a vector output's trace has none; the rows' reverse read
    # the arena's memory in the sweep load compares it with)
    return dict(a, rows=rows, offs=np.array([0, 2, 4, 6, 8, 10, 11], np.int64),
                meta=np.array([1, 1, 1, 2], np.int64), consts=np.array([2.0]), vals0=vals0,
                out_slot=np.int64(5), guards=np.zeros(0, "<U1"))


@pytest.mark.parametrize("reader", ["cat", "where"])
def test_a_row_reading_a_stopped_slot_before_it_is_written_is_refused(reader):
    """On main the cat's trace loaded and read the arena before anything wrote o: its value
    at its own traced point was 1.75e-301 (not 10.0), at others whatever a previous call
    left there."""
    data = _saved(_read_before_stop(reader), compressed=False)
    with pytest.raises(ValueError, match=r"row 0 reads slot 1 through its aux or the meta pool "
                                         r"before row 2 \(a STOP_GRAD\) writes it"):
        tg.load(io.BytesIO(data))


def test_a_stopped_slot_read_after_it_is_written_still_loads():
    """The same rows with the reader after the pair (its slot renumbered): a trace tapegrad
    makes, which loads and replays."""
    def f(x):
        with tg.no_grad():
            y = x * 2.0
        return (x * tg.cat([y])).sum() + tg.where(y > 3.0, x, -x).sum()
    buf = io.BytesIO()
    tg.trace(f, X2).save(buf)
    t = tg.load(io.BytesIO(buf.getvalue()))
    for x in (X2, np.array([3.0, 0.5])):
        assert t.value(x) == pytest.approx(f(tg.tensor(x)).item())


# ---- the replay plan's folds: rows looked at, bounded -----------------------------------------
def _adds_then_squares(n):
    """n sums y_i = X[i] + X[n - 1 - i] made first, their squares summed over a dim last:
    each SQSUM fold of add i looks at every row between the add and its sum."""
    def f(x):
        X = x.reshape(n, 2, 2)
        ys = [X[i] + X[n - 1 - i] for i in range(n)]
        tot = 0.0
        for y in ys:
            tot = tot + (y * y).sum(1)
        return tot.sum()
    return f


def test_folding_a_plan_looks_at_a_bounded_number_of_rows(monkeypatch):
    """On main each fold scanned the rows between the add and its sum: 2,000 of them
    looked at 10**7 rows, 8,000 (a 1.2 MB deflated file, or this ordinary loop) took 60 s
    to load; now the rows looked at are at most ``replay.SCAN_PER_ROW`` a row (the rest of
    the adds are left unfolded: the same values)."""
    from tapegrad import replay
    n = 2000
    f, x = _adds_then_squares(n), np.linspace(-1.0, 1.0, 4 * n)
    t = tg.trace(f, x)
    seen = [0]
    opaque = replay._opaque

    def counted(codes):  # (called once by each scan, with the rows it looks at)
        seen[0] += len(codes)
        return opaque(codes)
    monkeypatch.setattr(replay, "_opaque", counted)
    t._make_plan()
    assert 0 < seen[0] <= 64 * len(t.rows) + (1 << 20)
    xt = tg.tensor(x + 0.1, requires_grad=True)
    y = f(xt)
    y.backward()
    v, g = t.value_and_grad(x + 0.1)
    assert v == pytest.approx(y.item(), rel=1e-12) and np.allclose(g, xt.grad.numpy(), rtol=1e-12)


def test_a_deflated_tensor_of_a_save_file_loads_within_max_bytes():
    """tapegrad.save's reader took each member's bytes, then a copy, then the Tensor's own
    copy: three times the member (on main a 30 MB tensor took 86 MB).  Now the array read
    and the Tensor's copy of it (tensor.py copies what it is given)."""
    import zipfile
    buf = io.BytesIO()
    tg.save({"w": tg.zeros(3_750_000)}, buf)
    src = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            z.writestr(info.filename, src.read(info))
    data = out.getvalue()
    assert len(data) < 1 << 20
    bound = 40 << 20
    tracemalloc.start()
    try:
        back = tg.load(io.BytesIO(data), max_bytes=bound)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert back["w"].shape == (3_750_000,) and not back["w"].numpy().any()
    assert peak <= 2 * 30_000_000 + (2 << 20), f"{peak / 2**20:.1f} MB"


# ---- the zip directory check: bytes read, bounded ----------------------------------------------
class _Counted(io.BytesIO):
    def __init__(self, data):
        super().__init__(data)
        self.bytes_read = 0

    def read(self, n=-1):
        out = super().read(n)
        self.bytes_read += len(out)
        return out


def _end_records(junk):
    """``junk`` bytes, then as many zip end records as the last 64 kB hold, each declaring a
    directory of ``junk - 100`` bytes and a comment reaching exactly to the file's end (so a
    strict reader may pick any of them)."""
    import struct
    n = (1 << 16) // 22
    return b"\0" * junk + b"".join(
        b"PK\x05\x06" + struct.pack("<4H2LH", 0, 0, 1, 1, junk - 100, 0, 22 * (n - i - 1))
        for i in range(n))


def test_candidate_directories_are_counted_in_one_pass():
    """On main each of the 2,978 candidate directories was read and counted on its own: an
    8 MB file read 24 GB (44 s) before zipfile refused it; here a 1 MB one read 3 GB."""
    f = _Counted(_end_records(1 << 20))
    with pytest.raises(ValueError, match="neither a tapegrad.save file nor a tapegrad trace"):
        tg.load(f)
    assert f.bytes_read <= 4 * len(f.getvalue())


# ---- combinations of edits that pass the checks one by one ------------------------------------
@pytest.mark.slow
def test_combined_edits_that_load_replay_in_bounds_every_way():
    """tests/fuzz_trace_combos.py without the JIT (an out-of-bounds index raises): rows
    sharing meta, operands retargeted, shapes and strides changed together, rows swapped,
    vals0 recomputed so the traced point's check passes; every replay path, fused too."""
    script = pathlib.Path(__file__).with_name("fuzz_trace_combos.py")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.run([sys.executable, str(script), "--seed", "1", "--cases", "25",
                           "--fused", "--only", "_gmm", "_scal", "_scalvec", "_mixed"],
                          capture_output=True, text=True, timeout=1800, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    stats = json.loads(proc.stdout.strip().splitlines()[-1])
    assert stats["loaded"] > 0 and stats["failures"] == [], stats["failures"][:5]


def test_a_save_files_structure_is_bounded_by_max_bytes_before_it_is_inflated():
    """On main a deflated tapegrad.json of 10 MB (spaces: a 10 kB file) was inflated before
    its parse cost was compared with max_bytes = 1 MB."""
    import zipfile
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("tapegrad.json", '{"format": "tapegrad.save", "version": 1, "root": 1,'
                   ' "tensors": []' + " " * 10_000_000 + "}")
    data = out.getvalue()
    assert tg.load(io.BytesIO(data)) == 1
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=r"tapegrad.json is 10000067 bytes, more than "
                                             r"max_bytes=1000000"):
            tg.load(io.BytesIO(data), max_bytes=1_000_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000
