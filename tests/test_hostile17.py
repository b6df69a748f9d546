"""Hostile inputs, round 17.  Holes found (each failed on main):

- a cat row of empty blocks repeated 2**62 times (``outer`` in its meta; the blocks fill
  0 elements of an empty output, so every size check passed) and a softmax row of groups
  of size 0 (outer * inner = 2**62) made the traced-point replay loop forever: any file
  holding one hung ``load`` (now counted as work: refused under max_bytes);
- the layout checks of guards, comparisons, full sums, views and scalar-operand rows ran
  one row at a time in Python: 10**6 guard rows (a 120 kB deflated file) took 13 s to load
  on main, the 2.68 * 10**7 that 1 GB of 'rows' holds (a 3 MB file) 877 s and 6.2 GB.  Those
  checks now run over all rows at once; the ops still checked one row at a time (their
  meta is of variable length) counted 10**4 element operations a row against max_bytes
  before they ran (all at once too since tests/test_hostile18.py), and every row ``validate.ROW_BYTES`` of memory, counted from the member's .npy
  header before its data is inflated;
- each input (a row of 'in_shapes') and each guard name became a Python object before any
  count was compared: 3 * 10**6 rows of 'in_shapes' (560 kB deflated) took 32 s and 1.2 GB
  to be refused, 2 * 10**7 guard names (80 kB) 20 s and 760 MB to load (now counted from
  the headers: ``validate.INPUT_BYTES``, ``GUARD_BYTES``);
- the fused tier generated its source per arena element and per map entry: a trace of
  (2 x).sum() over 10**6 inputs took ~50 s of Python (holding the GIL) in the compile
  thread, a loaded one of 10**8 hours; an empty batched product or a cat of empty blocks
  wrote code per batch or block, however many the meta claimed.  Arenas over
  ``fused.MAX_VALUES`` and code over ``fused.MAX_PIECES`` stay interpreted.
"""
import io
import pathlib
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tapegrad as tg
from tapegrad.ops import layout
from tapegrad.replay import fused, validate

ROOT = pathlib.Path(__file__).resolve().parent.parent
CAT, SOFTMAX, GUARD = 64, 70, 29  # opcodes (tapegrad/ops/shape.py, nn.py, control.py)


def _arrays(f, x):
    buf = io.BytesIO()
    tg.trace(f, x).save(buf)
    buf.seek(0)
    with np.load(buf) as z:
        return {k: z[k].copy() for k in z.files}


def _saved(a, compressed=False):
    a = dict(a, digest=validate.digest(a))  # (a checksum anyone can recompute)
    buf = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buf, **a)
    return buf.getvalue()


def _load_in_subprocess(data, tmp_path, timeout=120):
    """``tg.load`` of data in a child process (a hang or crash fails the test, not the run):
    what it printed (the error's message, or 'loaded')."""
    path = tmp_path / "trace.npz"
    path.write_bytes(data)
    code = ("import sys, tapegrad as tg\n"
            "try:\n"
            f"    tg.load({str(path)!r})\n"
            "    print('loaded')\n"
            "except ValueError as e:\n"
            "    print(e)\n")
    try:
        proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"load did not finish in {timeout} s")
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


# ---- loops over nothing: counted as work ----------------------------------------------------
def _empty_cat():
    """cat([x[:0], 2 x[:0]]).sum() + x.sum() (recorded as a cat of one operand), its cat's
    outer count 2**62."""
    a = _arrays(lambda x: tg.cat([x[:0], x[:0] * 2]).sum() + x.sum(), np.ones(4))
    k = int(a["rows"][a["rows"][:, 0] == CAT][0, 4])
    a["meta"][k + 1] = 1 << 62
    return a


def _empty_softmax():
    """softmax of a (0, 3) view, its meta [outer, size, inner] = [2**31, 0, 2**31]."""
    a = _arrays(lambda x: x.sum() + tg.softmax(x[:0].reshape(0, 3), dim=1).sum(), np.ones(4))
    k = int(a["rows"][a["rows"][:, 0] == SOFTMAX][0, 4])
    a["meta"][k:k + 3] = [1 << 31, 0, 1 << 31]
    return a


@pytest.mark.parametrize("make", [_empty_cat, _empty_softmax], ids=["cat", "softmax"])
def test_a_row_looping_over_empty_blocks_is_counted_as_work(make, tmp_path):
    """On main the load's traced-point replay ran 2**62 iterations of nothing: it never
    returned."""
    out = _load_in_subprocess(_saved(make()), tmp_path)
    assert "traced point" in out and "4.61e+18 element operations" in out and \
        "max_bytes=1073741824" in out, out


def test_loops_of_empty_blocks_within_the_bound_load_and_replay():
    a = _empty_cat()
    k = int(a["rows"][a["rows"][:, 0] == CAT][0, 4])
    a["meta"][k + 1] = 100_000  # 100,000 empty copies (its one operand's)
    data = _saved(a)
    with pytest.raises(ValueError, match=r"traced point .* about 1e\+05 element operations"
                                         ".*max_bytes=60000 allows"):
        tg.jit.load(io.BytesIO(data), max_bytes=60_000)
    t = tg.jit.load(io.BytesIO(data), max_bytes=300_000)
    assert t.value(np.arange(4.0)) == 6.0
    assert np.array_equal(t.grad(np.arange(4.0)), np.ones(4))


# ---- rows checked one at a time, rows in number ---------------------------------------------
def _repeated(f, x, op, n):
    """The trace of f with the first row of opcode op appended n more times, each writing a
    new slot (its values the first's) or, a guard, none."""
    a = _arrays(f, x)
    rows, offs = a["rows"], a["offs"]
    r = rows[rows[:, 0] == op][0]
    new = np.repeat(r[None], n, axis=0)
    if r[1] >= 0:
        m = int(offs[r[1] + 1] - offs[r[1]])
        new[:, 1] = len(offs) - 1 + np.arange(n)
        a["offs"] = np.concatenate([offs, offs[-1] + m * np.arange(1, n + 1)]).astype(np.int64)
        a["vals0"] = np.concatenate([a["vals0"], np.tile(a["vals0"][offs[r[1]]:offs[r[1] + 1]],
                                                         n)])
    a["rows"] = np.concatenate([rows, new])
    return a


def _guarded(x):
    return (x * 2).sum() if x.sum() > 0 else x.sum()


def _cumsummed(x):
    return x.cumsum(0).sum()


def test_many_rows_count_their_memory_against_max_bytes():
    """500,000 guard rows (60 kB deflated): refused under max_bytes = 5e7 (main loaded it,
    seconds of Python a 10**6 rows)."""
    data = _saved(_repeated(_guarded, np.ones(3), GUARD, 500_000), compressed=True)
    assert len(data) < 100_000
    with pytest.raises(ValueError, match=r"trace field 'rows': its 500005 rows take about "
                                         r"100001000 bytes .*max_bytes=50000000"):
        tg.jit.load(io.BytesIO(data), max_bytes=50_000_000)


def test_many_guard_rows_are_checked_all_at_once_and_load():
    t = tg.jit.load(io.BytesIO(_saved(_repeated(_guarded, np.ones(3), GUARD, 20_000))))
    assert t.value(np.array([1.0, 2.0, 3.0])) == 12.0
    with pytest.raises(Exception, match="guard"):  # (every copy checks the same branch)
        t.value(np.array([-1.0, -2.0, -3.0]))


def test_many_cumsum_rows_load_under_the_default_bound():
    """120,000 cumsums: their checks ran one row at a time here, counted as 1.2e9 element
    operations and refused at the default max_bytes; since tests/test_hostile18.py every
    op's check runs over all rows at once and they load (their memory still counts:
    ``validate.ROW_BYTES`` a row)."""
    a = _repeated(_cumsummed, np.ones(4), 58, 120_000)
    t = tg.jit.load(io.BytesIO(_saved(a, compressed=True)))
    assert t.value(np.arange(4.0)) == 10.0
    with pytest.raises(ValueError, match=r"its 120002 rows take about .*max_bytes=20000000"):
        tg.jit.load(io.BytesIO(_saved(a, compressed=True)), max_bytes=20_000_000)


def _with(field, value):
    a = _arrays(lambda x: (x * 2).sum(), np.ones(3))
    a[field] = value
    return _saved(a, compressed=True)


def test_inputs_and_guard_names_count_against_max_bytes_from_their_headers():
    """Each input (a row of 'in_shapes') and each guard name became Python objects one at a
    time before any count was compared: on main 3 * 10**6 rows of 'in_shapes' (a 560 kB
    file) took 32 s and 1.2 GB to be refused, 2 * 10**7 one-letter guard names (80 kB) 20 s
    and 760 MB to load."""
    data = _with("in_shapes", np.tile(np.array([[3] + [-1] * 7], np.int64), (100_000, 1)))
    with pytest.raises(ValueError, match=r"trace field 'in_slots' and 'in_shapes': its 100000 "
                                         r"inputs take about 409600000 bytes .*max_bytes="
                                         r"100000000"):
        tg.jit.load(io.BytesIO(data), max_bytes=100_000_000)
    data = _with("guards", np.full(200_000, "a", dtype="U1"))
    with pytest.raises(ValueError, match=r"trace field 'guards': its 200000 guards take about "
                                         r"206400000 bytes .*max_bytes=100000000"):
        # (1032 a one-letter name: its str's 4 bytes counted too, tests/test_hostile20.py)
        tg.jit.load(io.BytesIO(data), max_bytes=100_000_000)


def test_a_traced_branch_per_element_still_loads():
    def f(x):
        return sum((x[i] if x[i] > 0 else -x[i]) for i in range(200))
    x = np.linspace(-1.0, 1.0, 200)
    buf = io.BytesIO()
    tg.trace(f, x).save(buf)
    t = tg.jit.load(io.BytesIO(buf.getvalue()))
    assert len(t.guards) == 200 and t.value(x) == pytest.approx(np.abs(x).sum(), rel=1e-14)


# ---- the checks over all rows at once still name the row ------------------------------------
def _mixed(x):
    y = x.reshape(2, 2).reshape(4)
    s, s2 = x.sum(), (x * x).mean()
    if s > 0 and s2 > 0:
        pass
    if (x[0] == 2.0) and (x[1] == 3.0):
        pass
    c = (x > 0.5) * (x > x.flip(0)) * (x < 0.7)
    return (y * s * c + x * s2 * (x > y)).sum()


X = np.array([2.0, 3.0, 0.1, 0.6])


def _nth(a, op, n):
    return int(np.nonzero(a["rows"][:, 0] == op)[0][n])


EDITS = {  # name -> (opcode, which of its rows, edit(arrays, row), message)
    "view name": (61, 1, lambda a, r: a["rows"].__setitem__((r, 4), 999),
                  "view name index 999 is out of range"),
    "guard number": (GUARD, 1, lambda a, r: a["meta"].__setitem__(a["rows"][r, 4] + 1, 4),
                     r"guard number 4 is out of range \(the trace has 4 guards\)"),
    "guard meta": (GUARD, 1, lambda a, r: a["rows"].__setitem__((r, 4), len(a["meta"]) - 1),
                   r"meta reads meta\[42:44\], past the meta pool \(43 entries\)"),
    "guard slot": (GUARD, 1, lambda a, r: a["rows"].__setitem__((r, 2), 0),
                   "a guard reads one element; slot 0 has 4"),
    "cmp kind": (27, 1, lambda a, r: a["rows"].__setitem__((r, 4), 6),
                 "comparison kind 6 is not one of 0..5"),
    "cmp_c kind": (28, 1, lambda a, r: a["meta"].__setitem__(a["rows"][r, 4], 9),
                   "comparison kind 9 is not one of"),
    "cmp_c const": (28, 1, lambda a, r: a["meta"].__setitem__(a["rows"][r, 4] + 1, 99),
                    "const index 99 is out of range"),
}


@pytest.mark.parametrize("op, nth, edit, msg", EDITS.values(), ids=EDITS.keys())
def test_a_bad_field_is_named_with_its_row(op, nth, edit, msg):
    a = _arrays(_mixed, X)
    r = _nth(a, op, nth)
    edit(a, r)
    with pytest.raises(ValueError, match=rf"trace field 'rows': row {r} \(.*{msg}"):
        tg.jit.load(io.BytesIO(_saved(a)))


def test_the_mixed_trace_still_loads_and_replays():
    t = tg.jit.load(io.BytesIO(_saved(_arrays(_mixed, X))))
    assert t.value(X) == pytest.approx(_mixed(tg.tensor(X)).item(), rel=1e-15)


# ---- what the fused tier generates is bounded ----------------------------------------------
def test_a_large_arena_stays_interpreted():
    """(2 x).sum() over 70,000 inputs: the generator wrote and scanned code per element (50 s
    at 10**6 on main, seconds here on main; now refused at once)."""
    t = tg.trace(lambda x: (x * 2).sum(), np.ones(70_000))
    with pytest.raises(fused.Ineligible, match=r"140001 values \(more than 65536\)"):
        fused.generate(t)


def test_code_growing_with_a_rows_data_stays_interpreted():
    """A cat of empty blocks 100,000 times: one copy (a loop) each in the source on main."""
    a = _empty_cat()
    k = int(a["rows"][a["rows"][:, 0] == CAT][0, 4])
    a["meta"][k + 1] = 100_000
    t = tg.jit.load(io.BytesIO(_saved(a)))
    with pytest.raises(fused.Ineligible, match=r"100007 pieces .*more than 65536"):
        fused.generate(t)


def test_small_tapes_still_fuse():
    t = tg.trace(lambda x: tg.cat([x, x * 2])[tg.tensor([0, 3, 5])].sum(), np.ones(3))
    assert "def batch(" in fused.generate(t)


# ---- strided views (x[i]) are checked over all rows at once ------------------------------
def test_a_trace_of_many_element_reads_loads_with_the_default_bounds():
    # 2 x 60,000 x[i] rows: one at a time they counted 1.2e9 element operations of checking
    # against the 1.07e9 max_bytes allows, and a legitimate loop over elements was refused
    n = 60_000

    def f(x):
        s = x[0] * 0
        for i in range(n):
            s = s + x[i % 50] * x[(i + 1) % 50]
        return s
    x = np.linspace(0.0, 1.0, 50)
    buf = io.BytesIO()
    tg.jit.save(tg.trace(f, x), buf)
    buf.seek(0)
    g = tg.jit.load(buf)
    # (each of the 50 neighbour products n / 50 times)
    np.testing.assert_allclose(g.value(x), (x * np.roll(x, -1)).sum() * n / 50, rtol=1e-9)


def _one_row_check(meta, n, target):
    """The map check as load ran it one row at a time (Python ints: exact), a message or
    None: the reference the vectorised check is held to."""
    if len(meta) < 2:
        return "past the meta pool"
    nd, base = meta[:2]
    if not 0 <= nd <= layout.MAX_DIMS:
        return f"has {nd} dims"
    if len(meta) < 2 + 2 * nd:
        return "past the meta pool"
    shape, strides = meta[2:2 + nd], meta[2 + nd:2 + 2 * nd]
    if nd and (min(shape) < 0 or int(np.prod(shape, dtype=object)) != n):
        return f"has shape {shape} for {n} elements"
    if n or not nd:  # (a map of no dims names its one element even over no elements:
        # the reverse sweep's run reads and writes it, test_hostile23)
        lo = base + sum(min(0, (m - 1) * st) for m, st in zip(shape, strides))
        hi = base + sum(max(0, (m - 1) * st) for m, st in zip(shape, strides))
        if lo < 0 or hi >= target:
            return f"strided map at meta[0] reaches elements {lo}..{hi} of a slot of {target}"
    return None


def _map_verdicts(meta, n, target):
    """(the one-row check's message, strided_maps's) for one map at meta[0] (None: ok)."""
    lay = layout.Layout(np.array([n, target]), np.array(meta, np.int64), 0, 0, str)
    lay.op, lay.rows = "any", np.array([0])
    try:
        lay.strided_maps(np.array([0]), np.array([n]), np.array([target]))
        every = None
    except ValueError as e:
        every = str(e)
    return _one_row_check(meta, n, target), every


_FIELD = st.one_of(st.integers(-3, 12), st.sampled_from(
    [2**62, -2**62, 2**63 - 1, -2**63, 2**31, 2**53, -2**53]))


@settings(max_examples=3000, deadline=None)
@given(st.integers(0, 4), _FIELD, st.lists(_FIELD, max_size=8), st.integers(0, 40),
       st.integers(0, 40))
def test_strided_maps_refuse_what_strided_map_refuses(nd, base, rest, n, target):
    # the vectorised check against the one-row check, near int64's ends too (sums that wrap)
    one, every = _map_verdicts([nd, base, *rest], n, target)
    assert (one is None) == (every is None), (one, every)
    if one is not None and "reaches" in one:
        assert every.endswith(one)


def test_many_sums_over_a_dim_are_checked_all_at_once_and_load():
    # 120,000 of them counted 1.2e9 element operations one at a time: refused at the default
    # max_bytes until the reductions' checks ran over all rows at once
    a = _repeated(lambda x: x.reshape(2, 2).sum(0).sum(), np.ones(4), 42, 120_000)
    t = tg.jit.load(io.BytesIO(_saved(a, compressed=True)))
    assert t.value(np.arange(4.0)) == 6.0
    a["meta"] = a["meta"].copy()
    a["meta"][a["rows"][-1, 4] + 1] = 3  # (the map's base past its target; every row's map)
    with pytest.raises(ValueError, match=r"row 1 \(SumBackward1, opcode 42\): strided map at "
                                         r"meta\[0\] reaches elements 3\.\.4 of a slot of 2"):
        tg.jit.load(io.BytesIO(_saved(a, compressed=True)))
