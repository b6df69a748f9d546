"""The replay plan's aliases (``replay._Plan``), built over all view rows at once.

A plan makes each VIEW, GATHER, STRIDED or EXPAND row copying a contiguous run of its input
an alias of that run.  It asked ``_contiguous_from`` one row at a time and resolved the
aliases' starts in a Python loop: ~10**5 Python calls for a trace of a loop of views, most of
a long trace's plan.  ``_contiguous_rows`` and ``_resolve_aliases`` do both in NumPy; here
every field of the plan is held to the one built by the per-row code they replaced (the
resolution loop written out below, ``_contiguous_from`` still replay's own), on recorded traces, loaded (and mutated, yet loadable) files, and random rows.
"""
import importlib.util
import io
import pathlib
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tapegrad as tg
import tapegrad.nn.functional as F
from tapegrad import replay
from tapegrad.ops.registry import meta_at, meta_list
from tapegrad.ops.shape import GATHER, VIEW
from tapegrad.ops.strided import EXPAND, STRIDED


# ---- the per-row code the plan ran ---------------------------------------------------
# (the per-row check itself stays in replay, where the NumPy path falls back to it)
_contiguous_from = replay._contiguous_from


def _contiguous_rows_by_row(rows, meta, size):
    hit, j = np.zeros(len(rows), bool), np.zeros(len(rows), np.int64)
    for i, (op, o, _, _, k) in enumerate(rows.tolist()):
        jj = _contiguous_from(op, meta, k, int(size[o]))
        hit[i], j[i] = jj is not None, 0 if jj is None else jj
    return hit, j


def _resolve_by_row(outs, alias, start):
    for o in outs.tolist():  # in row order: a slice of a slice is resolved
        start[o] += start[alias[o]]


def _double_by_row(meta_slots, meta, ks):
    for k in ks:
        meta[meta_slots(meta, int(k))] *= 2


def _positions_by_row(meta_slots, meta, ks):
    return np.array([p for k in ks.tolist() for p in meta_slots(meta, int(k))], np.int64)


BY_ROW = {"_contiguous_rows": _contiguous_rows_by_row, "_resolve_aliases": _resolve_by_row,
          "_double_meta_slots": _double_by_row, "_meta_positions": _positions_by_row,
          "_written_once": lambda outs: len(np.unique(outs)) == len(outs),
          "_codes": np.unique}


def _same_plans(t, monkeypatch):
    """Plans of t (folded and not) built by the vectorised code (NumPy from 8 rows on, and
    from 0) and the per-row code: every field the same, dtype and all."""
    for fold, few in ((True, 8), (False, 8), (True, 0)):
        with monkeypatch.context() as m:
            m.setattr(replay, "_FEW", few)
            new = replay._Plan(t, fold)
        with monkeypatch.context() as m:
            for name, f in BY_ROW.items():
                m.setattr(replay, name, f)
            old = replay._Plan(t, fold)
        assert vars(new).keys() == vars(old).keys()
        for name, v in vars(old).items():
            w = vars(new)[name]
            if isinstance(v, np.ndarray):
                assert w.dtype == v.dtype and np.array_equal(w, v, equal_nan=True), name
            else:
                assert w == v, name


# ---- recorded traces ------------------------------------------------------------------
def _loop(x):  # views of views in a loop: x[i], slices, reshapes, a contiguous gather
    acc, A = x[0] * 0, x[:4].reshape(2, 2)
    for i in range(30):
        B = A @ A
        c = tg.cat([x[i % 5:i % 5 + 2], B[0]])
        acc = acc + tg.softmax(c[:3], dim=0)[0] + c.cumsum(0)[1] + B[1, 1]
        acc = acc + x[[1, 2, 3]].sum() * x[[3, 1]].sum() + x[2:8][1:5][::2].sum()
    return acc


def _views(x):  # strided maps: transposes, steps, expands of size-1 dims, empty slices
    W = x[:12].reshape(3, 4)
    e = W[:, :1].expand(3, 1) + W[1:2].expand(1, 4).sum() + x[:0].sum()
    return (W.t()[1:3] * W.t()[:2]).sum() + e.sum() + W[2].reshape(1, 4, 1).sum() + \
        W.unsqueeze(0).expand(2, 3, 4)[1, 1:, 2:].sum() + W.flatten()[5:9].prod()


def _broadcasts(x):  # folded expands and squares (GMM's shapes), chained broadcasts
    X, mu = x[:12].reshape(4, 3), x[12:18].reshape(2, 3)
    d = X.reshape(1, 4, 3).expand(2, 4, 3) - mu.reshape(2, 1, 3).expand(2, 4, 3)
    q = x[18:20].exp().reshape(2, 1, 1) * d + d
    return (q * q).sum((1, 2)).logsumexp(0) + (d * d).sum(2).sum()


_fuzz = importlib.util.spec_from_file_location(
    "fuzz_traces", pathlib.Path(__file__).with_name("fuzz_traces.py"))
fuzz = importlib.util.module_from_spec(_fuzz)
_fuzz.loader.exec_module(fuzz)

TRACES = [(_loop, [np.linspace(0.1, 1.0, 10)], (0,)),
          (_views, [np.linspace(-1.0, 1.3, 12)], (0,)),
          (_broadcasts, [np.linspace(-0.7, 0.9, 20)], (0,))] + fuzz.TRACES


@pytest.mark.parametrize("f, xs, argnums", TRACES, ids=[f.__name__ for f, *_ in TRACES])
def test_a_plan_is_the_per_row_codes(f, xs, argnums, monkeypatch):
    t = tg.trace(f, *xs, argnums=argnums)
    assert np.isin(t.rows[:, 0], (VIEW, GATHER, STRIDED, EXPAND)).any()
    _same_plans(t, monkeypatch)
    buf = io.BytesIO()
    t.save(buf)
    buf.seek(0)
    _same_plans(tg.load(buf), monkeypatch)


def test_mutated_files_that_load_have_the_per_row_codes_plans(monkeypatch, tmp_path):
    rng, loaded = np.random.default_rng(19), 0
    for f, xs, argnums in TRACES:
        t = tg.trace(f, *xs, argnums=argnums)
        t.save(tmp_path / "t.npz")
        z = fuzz.arrays_of(tmp_path / "t.npz")
        for _ in range(40):
            kind, case = fuzz.mutate(rng, z, len(z["offs"]) - 1)
            try:
                if isinstance(case, bytes):
                    u = tg.load(io.BytesIO(case))
                else:
                    if "digest" in case:  # (re-signed, as an attacker would)
                        case["digest"] = fuzz.digest(case)
                    (tmp_path / "m.npz").unlink(missing_ok=True)
                    np.savez(tmp_path / "m.npz", **case)
                    u = tg.load(tmp_path / "m.npz")
            except ValueError:
                continue
            loaded += 1
            _same_plans(u, monkeypatch)
    assert loaded > 20  # (the unmutated fields' cases, at least)


# ---- random rows: every branch, hostile windows included -------------------------------
_HOSTILE = st.sampled_from([-2**63, -2**62, -5, -1, 0, 1, 2, 3, 4, 7, 2**31, 2**32,
                            2**62, 2**63 - 1])


@st.composite
def _rows_and_meta(draw):
    """View, gather, strided and expand rows over a meta pool of small and hostile values;
    the rows' dim counts often shared (the NumPy groups) and their windows in the pool."""
    meta = np.array(draw(st.lists(st.one_of(st.integers(-3, 6), _HOSTILE), min_size=1,
                                  max_size=60)), np.int64)
    nrows = draw(st.integers(1, 40))
    size = np.array(draw(st.lists(st.one_of(st.integers(0, 8), _HOSTILE.filter(
        lambda v: v >= 0)), min_size=nrows, max_size=nrows)), np.int64)
    ops = draw(st.lists(st.sampled_from([VIEW, GATHER, STRIDED, EXPAND]), min_size=nrows,
                        max_size=nrows))
    ks = draw(st.lists(st.integers(-2, len(meta) + 1), min_size=nrows, max_size=nrows))
    rows = np.array([[op, o, -1, -1, k] for o, (op, k) in enumerate(zip(ops, ks))], np.int64)
    return rows, meta, size


@settings(max_examples=1000, deadline=None)
@given(_rows_and_meta(), st.sampled_from([1, 2, 8]))
def test_random_rows_find_the_runs_the_per_row_code_finds(case, group):
    rows, meta, size = case
    was, replay._FEW = replay._FEW, group  # (1: every dim count in NumPy)
    try:
        try:
            want = _contiguous_rows_by_row(rows, meta, size)
        except (IndexError, OverflowError):  # (a window past the pool, or past int64:
            with pytest.raises((IndexError, OverflowError)):  # refused by load, unplanned)
                replay._contiguous_rows(rows, meta, size)
            return
        got = replay._contiguous_rows(rows, meta, size)
    finally:
        replay._FEW = was
    assert np.array_equal(got[0], want[0])
    assert np.array_equal(got[1][want[0]], want[1][want[0]])


def test_a_map_whose_sizes_overflow_int64_is_no_run():
    # 2**32 * 2**32 * 5 wraps to 5 in int64 (NumPy's prod, as the per-row code had it) but
    # the strides stepping by the exact products do not match the wrapped ones
    meta = np.array([3, 0, 2**32, 2**32, 5, 0, 5, 1] * 8, np.int64)
    rows = np.array([[EXPAND, 0, -1, -1, 8 * i] for i in range(8)], np.int64)
    hit, _ = replay._contiguous_rows(rows, meta, np.array([5], np.int64))
    assert not hit.any() and not _contiguous_rows_by_row(rows, meta, np.array([5]))[0].any()


@st.composite
def _aliases(draw):
    """Aliased slots (in row order) each naming a slot: own, aliased earlier (a chain),
    aliased later or itself (its start as it is then)."""
    n = draw(st.integers(1, 30))
    alias = np.full(n, -1, np.int64)
    outs = np.array(draw(st.permutations(range(n)))[:draw(st.integers(0, n))], np.int64)
    for o in outs.tolist():
        alias[o] = draw(st.integers(0, n - 1))
    start = np.array(draw(st.lists(st.one_of(st.integers(-9, 9), _HOSTILE), min_size=n,
                                   max_size=n)), np.int64)
    return outs, alias, start


@settings(max_examples=1500, deadline=None)
@given(_aliases(), st.sampled_from([0, 8]))
def test_random_aliases_resolve_as_one_at_a_time(case, few):
    outs, alias, start = case
    want, got = start.copy(), start.copy()
    was, replay._FEW = replay._FEW, few  # (0: NumPy whatever the count)
    try:
        with warnings.catch_warnings():  # (int64 scalars wrapping: the loop warns, NumPy
            warnings.simplefilter("ignore")  # not; _resolve_aliases loops below _FEW)
            _resolve_by_row(outs, alias, want)
            replay._resolve_aliases(outs, alias, got)
    finally:
        replay._FEW = was
    assert np.array_equal(got, want)


@pytest.mark.parametrize("few", [0, 128])
def test_a_chain_of_slices_resolves_to_absolute_starts(few, monkeypatch):
    # slot 0 own at 10; 1 = 0[2:], 2 = 1[3:], 3 = 2[1:]: 12, 15, 16
    monkeypatch.setattr(replay, "_FEW", few)
    alias = np.array([-1, 0, 1, 2], np.int64)
    start = np.array([10, 2, 3, 1], np.int64)
    replay._resolve_aliases(np.array([1, 2, 3]), alias, start)
    assert start.tolist() == [10, 12, 15, 16]


def test_a_long_trace_of_views_plans_as_the_per_row_code(monkeypatch):
    def f(x):
        acc = x[0]
        for i in range(2000):
            acc = acc + x[i % 7:i % 7 + 3][1:][0] * x.reshape(2, 4)[i % 2, 1:][i % 3]
        return acc
    t = tg.trace(f, np.linspace(0.1, 1.0, 8))
    _same_plans(t, monkeypatch)
    assert len(replay._Plan(t).fwd) < len(t.rows) / 2  # (the views: aliases, no rows)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.integers(-3, 12), min_size=1, max_size=40),
       st.lists(st.integers(-4, 40), max_size=30), st.sampled_from([0, 8]),
       st.sampled_from([meta_list(), meta_list(1, 3), meta_at(6), meta_at(0, 2)]))
def test_meta_slots_are_doubled_and_read_as_row_by_row(meta, ks, few, meta_slots):
    """Cat's operands and linear's bias (slot numbers in the meta pool) at once: windows
    shared by rows, counts among them, negative positions (refused by load) as the loop."""
    meta, ks = np.array(meta, np.int64), np.array(ks, np.int64)
    was, replay._FEW = replay._FEW, few
    try:
        try:
            want = _positions_by_row(meta_slots, meta, ks)
            doubled = meta.copy()
            _double_by_row(meta_slots, doubled, ks)
        except IndexError:
            with pytest.raises(IndexError):
                replay._double_meta_slots(meta_slots, meta.copy(), ks)
            return
        got = meta.copy()
        replay._double_meta_slots(meta_slots, got, ks)
        assert np.array_equal(replay._meta_positions(meta_slots, meta, ks), want)
        assert np.array_equal(got, doubled)
    finally:
        replay._FEW = was
