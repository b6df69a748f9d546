"""Hostile inputs, round 18.

- Cat, stack, gather, scatter, put, nll, matmul (mm, mv, dot, bmm), linear, addmm, softmax,
  log_softmax and cumsum rows were checked one at a time in Python, each counted as 10**4
  element operations of the load's work bound: a legitimate trace of ~10**5 of them was
  refused under the default max_bytes, and a hostile one took seconds to check.  Their
  checks run over all rows at once now (NumPy; a variable-length window of the meta pool,
  a cat's operands or a product's offsets, read in chunks and counted against the bound
  before it is read), exact near int64's ends; hypothesis holds each to the one-row check
  it replaced, written out here.  A legitimate trace of 250,000 such rows loads (on main:
  refused, "2.5e+09 element operations");
- 10,000 empty products (M = N = 0) of 100,000 batches each, all naming one window of
  offsets in the meta pool (a 30 kB file), hung load on main (each row's window became a
  list of Python ints: 2 * 10**9 of them; read in NumPy they took 90 s); the entries such
  windows name are now counted against the work bound before any is read
  (``layout.READ`` operations each, those named again by another row ``layout.REREAD``);
- Traced.__setstate__ checked a pickled tape's fields without max_bytes: a 1 kB pickle of a
  cat of 2**62 empty blocks hung pickle.loads and tapegrad.load(weights_only=False) on
  main.  Unpickling applies tapegrad.load's max_bytes (validate.UNPICKLE_MAX_BYTES; the
  default under pickle.loads);
- two cat (or addmm) rows naming one meta window loaded on main: the replay plan doubles
  the slot numbers held there in place once per row, so the second read slot 4 s, past
  the plan's offsets (IndexError without Numba's JIT, out-of-bounds reads with it; the
  traced-point check replays the rows, not the plan, so it passed).  A meta entry holding
  a slot number is now one row's, read by no other row's check.
"""
import io

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tapegrad as tg
from tapegrad.ops import layout
from tapegrad.ops.linalg import BMM, MM
from tapegrad.ops.registry import OPS
from tapegrad.replay import validate
from tests.test_hostile17 import _arrays, _saved

GATHER, SCATTER, PUT, CAT, STACK, NLL = 63, 68, 71, 64, 65, 69
CUMSUM, LOG_SOFTMAX, SOFTMAX, LINEAR, ADDMM = 58, 59, 70, 84, 85


# ---- the one-row checks the vectorised ones replaced (Python ints: exact) -------------------
class _Refused(Exception):
    pass


class _Row:
    """The one-row Layout methods the checks were written with."""

    def __init__(self, size, meta, computed):
        self.size, self.meta, self.computed = [int(v) for v in size], meta, computed
        self.work = 0

    def window(self, k, n):
        if n < 0 or k < 0 or k + n > len(self.meta):
            raise _Refused("window")
        return self.meta[k:k + n]

    def ints(self, values, lo=0):
        if any(v < lo for v in values):
            raise _Refused("ints")

    def slot_of(self, s):
        if not 0 <= s < len(self.size):
            raise _Refused("slot")
        return self.size[s]

    def indices(self, k, n, target):
        idx = self.window(k, n)
        if n and (min(idx) < 0 or max(idx) >= target):
            raise _Refused("index")

    def needs_grad(self, needs, slots):
        if any(not need and self.computed[s] for need, s in zip(needs, slots)):
            raise _Refused("need")


def _cat(lay, o, a, b, k):
    n, outer = lay.window(k, 2)
    lay.ints((n, outer))
    fields = lay.window(k + 2, 2 * n)
    for s, m in zip(fields[:n], fields[n:]):
        if m < 0 or outer * m > lay.slot_of(s) or s >= o:
            raise _Refused("operand")
    if outer * sum(fields[n:]) != lay.slot_of(o):
        raise _Refused("fill")
    lay.work += outer * n
    for s in (a, b):
        if s != -1:
            lay.slot_of(s)


def _cumsum(lay, o, a, b, k):
    inner, size = lay.window(k, 2)
    n = lay.slot_of(a)
    lay.ints((inner, size), lo=1 if n else 0)  # (zeros over no elements: test_hostile23)
    if lay.slot_of(o) != n or n % max(inner * size, 1):
        raise _Refused("tile")


def _softmax(lay, o, a, b, k):
    outer, size, inner = dims = lay.window(k, 3)
    lay.ints(dims)
    na, no = lay.slot_of(a), lay.slot_of(o)
    if outer * size * inner != na or na != no:
        raise _Refused("dims")
    lay.work += outer * inner


def _matmul(lay, o, a, b, k):
    nb, M, K, N, need_a, need_b = head = lay.window(k, 6)
    lay.ints(head[:4])
    na, nb_, no = lay.slot_of(a), lay.slot_of(b), lay.slot_of(o)
    lay.needs_grad((need_a, need_b), (a, b))
    if nb * M * N != no:
        raise _Refused("out")
    offsets = lay.window(k + 6, 2 * nb)
    for oa, ob in zip(offsets[0::2], offsets[1::2]):
        if oa < 0 or ob < 0 or oa + M * K > na or ob + K * N > nb_:
            raise _Refused("offsets")
    lay.work += nb * (M * K * N + 1)  # (on main nb * M * K * N: empty products loop too)


def _linear(bias):
    def check(lay, o, a, b, k):
        M, K, N, need_x, need_w, need_b, sb = head = lay.window(k, 7)
        lay.ints(head[:3])
        no, na, nw = lay.slot_of(o), lay.slot_of(a), lay.slot_of(b)
        lay.needs_grad((need_x, need_w), (a, b))
        if no != M * N or na != M * K or nw != N * K:
            raise _Refused("sizes")
        if not bias and sb != -1:
            raise _Refused("bias")
        if bias and (lay.slot_of(sb) != N or sb >= o):
            raise _Refused("bias")
        if bias:
            lay.needs_grad((need_b,), (sb,))
        lay.work += M * K * N
    return check


def _gather(lay, o, a, b, k):
    name = lay.window(k, 1)[0]
    if not 0 <= name < len(tg.ops.strided.VIEW_NAMES):
        raise _Refused("name")
    lay.indices(k + 1, lay.slot_of(o), lay.slot_of(a))


def _scatter(lay, o, a, b, k):
    lay.indices(k + 1, lay.slot_of(a), lay.slot_of(o))


def _put(lay, o, a, b, k):
    n = lay.slot_of(o)
    if lay.slot_of(a) != n:
        raise _Refused("in0")
    m = lay.window(k, 1)[0]
    lay.indices(k + 1, m, n)
    lay.indices(k + 1 + m, m, lay.slot_of(b))
    pos = lay.meta[k + 1:k + 1 + m]
    if any(q < p for p, q in zip(pos, pos[1:])):
        raise _Refused("order")
    lay.work += m  # (not counted on main)


def _nll(lay, o, a, b, k):
    n = lay.window(k, 3)[0]
    lay.ints([n])
    if lay.slot_of(o) != 1:
        raise _Refused("loss")
    lay.indices(k + 3, n, lay.slot_of(a))
    lay.work += n  # (not counted on main)


ONE_ROW = {CAT: _cat, STACK: _cat, CUMSUM: _cumsum, SOFTMAX: _softmax, LOG_SOFTMAX: _softmax,
           MM: _matmul, BMM: _matmul, LINEAR: _linear(False), ADDMM: _linear(True),
           GATHER: _gather, SCATTER: _scatter, PUT: _put, NLL: _nll}


def _verdicts(op, size, meta, computed, rows):
    """(the one-row checks' verdict, the op's check's) over rows of (o, a, b, k): None if
    accepted, else the message; and both works."""
    ref = _Row(size, meta, computed)
    try:
        for o, a, b, k in rows:  # (what validate.check_rows checks of every row first)
            if not (-1 <= o < len(size) and 0 <= a < len(size) and -1 <= b < len(size)):
                raise _Refused("slots")
        for o, a, b, k in rows:
            ONE_ROW[op](ref, o, a, b, k)
        one = None
    except _Refused as e:
        one = str(e)
    lay = layout.Layout(np.array(size, np.int64), np.array(meta, np.int64), 0, 0, str,
                        np.array(computed, bool))
    lay.op, lay.rows = op, np.arange(len(rows))
    R = np.array([[op, *r] for r in rows], np.int64).reshape(-1, 5)
    try:
        lay.slots(R[:, 1], "out", optional=True)
        lay.slots(R[:, 2], "in0")
        lay.slots(R[:, 3], "in1", optional=True)
        OPS[op].check(lay, R)
        every = None
    except ValueError as e:
        every = str(e)
    return one, every, ref.work, lay.work


_EDGE = st.sampled_from([2**62, -2**62, 2**63 - 1, -2**63, 2**31, 2**32 + 1, 2**53, 3 * 2**61])
_FIELD = st.one_of(st.integers(-2, 7), _EDGE)


@st.composite
def _layout(draw):
    """A valid row of an op (slot sizes, meta, its (o, a, b, k)), as recording makes one."""
    op = draw(st.sampled_from(sorted(ONE_ROW)))
    d = st.integers(0, 3)
    if op in (CAT, STACK):
        n, outer = draw(d), draw(d)
        m = [draw(d) for _ in range(n)]
        size = [outer * v + draw(d) for v in m] + [outer * sum(m)]
        return op, size, [n, outer, *range(n), *m], (n, 0 if n else -1, -1, 0)
    if op == CUMSUM:
        inner, sz = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        n = inner * sz * draw(d)
        return op, [n, n], [inner, sz], (1, 0, -1, 0)
    if op in (SOFTMAX, LOG_SOFTMAX):
        dims = [draw(d) for _ in range(3)]
        n = int(np.prod(dims))
        return op, [n, n], dims, (1, 0, -1, 0)
    if op in (MM, BMM):
        nb, M, K, N = (draw(d) for _ in range(4))
        na, nb_ = M * K + draw(d), K * N + draw(d)
        offs = [v for _ in range(nb) for v in (draw(st.integers(0, na - M * K)),
                                                 draw(st.integers(0, nb_ - K * N)))]
        return op, [na, nb_, nb * M * N], [nb, M, K, N, 1, 1, *offs], (2, 0, 1, 0)
    if op in (LINEAR, ADDMM):
        M, K, N = (draw(d) for _ in range(3))
        return op, [M * K, N * K, N, M * N], [M, K, N, 1, 1, 1, 2 if op == ADDMM else -1], \
            (3, 0, 1, 0)
    if op in (GATHER, SCATTER, NLL):
        n_in, n = draw(st.integers(1, 4)), draw(d)
        if op == NLL:
            return op, [n_in, 1], [n, 1, 0, *(draw(st.integers(0, n_in - 1)) for _ in range(n))], \
                (1, 0, -1, 0)
        idx = [draw(st.integers(0, n_in - 1)) for _ in range(n)]
        return op, ([n_in, n] if op == GATHER else [n, n_in]), [0, *idx], (1, 0, -1, 0)
    n, nv, m = draw(st.integers(1, 4)), draw(st.integers(1, 3)), draw(d)  # PUT
    pos = sorted(draw(st.integers(0, n - 1)) for _ in range(m))
    return op, [n, nv, n], [m, *pos, *(draw(st.integers(0, nv - 1)) for _ in range(m))], \
        (2, 0, 1, 0)


@st.composite
def _case(draw):
    """A valid row, moved to meta[k], repeated, and with up to 3 fields (of the meta, the slot
    sizes or the row) replaced by small numbers or int64's ends."""
    op, size, meta, (o, a, b, k) = draw(_layout())
    pad = draw(st.integers(0, 2))
    meta = [draw(_FIELD) for _ in range(pad)] + meta + [draw(_FIELD)
                                                        for _ in range(draw(st.integers(0, 2)))]
    rows = [[o, a, b, k + pad] for _ in range(draw(st.integers(1, 3)))]
    for _ in range(draw(st.integers(0, 3))):
        v, where = draw(_FIELD), draw(st.sampled_from(["meta", "size", "row"]))
        if where == "meta" and meta:
            meta[draw(st.integers(0, len(meta) - 1))] = v
        elif where == "size":
            size[draw(st.integers(0, len(size) - 1))] = abs(v) % 9  # (a slot's size)
        else:
            rows[draw(st.integers(0, len(rows) - 1))][draw(st.integers(0, 3))] = v
    computed = draw(st.lists(st.booleans(), min_size=len(size), max_size=len(size)))
    return op, size, meta, computed, rows


@settings(max_examples=2500, deadline=None)
@given(_case())
def test_the_checks_over_all_rows_refuse_what_the_one_row_checks_refused(case):
    one, every, work1, work = _verdicts(*case)
    assert (one is None) == (every is None), (one, every)
    if one is None:
        assert work == float(work1)


def _valid_case(op, size, meta, rows, computed=None):
    return _verdicts(op, size, meta, [False] * len(size) if computed is None else computed,
                     rows)


@pytest.mark.parametrize("case", [
    # cat: 2 blocks of (1, 2) into 6 = 2 * 3 (outer 2)
    (CAT, [2, 4, 6], [2, 2, 0, 1, 1, 2], [(2, 0, 1, 0)]),
    (CUMSUM, [6, 6], [1, 3], [(1, 0, -1, 0)]),
    (SOFTMAX, [6, 6], [2, 3, 1], [(1, 0, -1, 0)]),
    (MM, [4, 6, 2, 2], [2, 1, 2, 1, 1, 1, 0, 0, 2, 3], [(3, 0, 1, 0)]),
    (LINEAR, [6, 9, 6], [2, 3, 3, 1, 1, 0, -1], [(2, 0, 1, 0)]),
    (ADDMM, [6, 9, 3, 6], [2, 3, 3, 1, 1, 1, 2], [(3, 0, 1, 0)]),
    (GATHER, [5, 3], [0, 4, 0, 2], [(1, 0, -1, 0)]),
    (SCATTER, [3, 5], [0, 4, 0, 2], [(1, 0, -1, 0)]),
    (PUT, [4, 2, 4], [2, 1, 3, 0, 1], [(2, 0, 1, 0)]),
    (NLL, [4, 1], [2, 1, 0, 3, 0], [(1, 0, -1, 0)]),
], ids=lambda c: str(c[0]))
def test_recorded_layouts_pass_both_checks_and_near_int64s_ends_fail_both(case):
    """A valid row of each op passes both; each of its meta fields set to an int64 end (or a
    value whose product with another wraps to the right size) fails both."""
    op, size, meta, rows = case
    assert _valid_case(op, size, meta, rows)[:2] == (None, None)
    for j in range(len(meta)):
        for v in (2**63 - 1, -2**63, 2**62, 2**61 + 3, 2**64 // 3 + 1):
            bad = list(meta)
            bad[j] = v
            one, every, *_ = _valid_case(op, size, bad, rows)
            assert (one is None) == (every is None), (j, v, one, every)


def test_a_product_that_wraps_to_the_slots_size_is_refused():
    # 2**32 * 2**32 * 6 wraps to 0 in int64 and (2**62 + 1) * 4 to 4: neither is an empty
    # output's or a 4-element one's size
    _, every, *_ = _valid_case(SOFTMAX, [0, 0], [2**32, 2**32, 6], [(1, 0, -1, 0)])
    assert "outer, size, inner = [4294967296, 4294967296, 6] for in0 of 0" in every
    _, every, *_ = _valid_case(CUMSUM, [4, 4], [2**62 + 1, 4], [(1, 0, -1, 0)])
    assert "do not tile in0 of 4 elements" in every
    # one product of (2**32, 1) @ (1, 2**32): 2**64 elements, 0 once wrapped
    one, every, *_ = _valid_case(MM, [2**32, 2**32, 0], [1, 2**32, 1, 2**32, 1, 1, 0, 0],
                                 [(2, 0, 1, 0)])
    assert one is not None and "1 products of (4294967296, 1) @ (1, 4294967296) for an " \
        "output of 0" in every


# ---- a legitimate trace of many such rows loads -------------------------------------------
def _repeated(a, ops, n):
    """Trace arrays a with the first row of each opcode in ops appended n more times, each
    writing a new slot (its values the first's); a cat or addmm copy with a copy of its
    meta window (slot numbers there are each one row's)."""
    rows, offs, vals0, meta = [a["rows"]], list(a["offs"]), [a["vals0"]], a["meta"]
    top = int(a["offs"][-1])
    for op in ops:
        r = a["rows"][a["rows"][:, 0] == op][0]
        m = int(a["offs"][r[1] + 1] - a["offs"][r[1]])
        new = np.repeat(r[None], n, axis=0)
        new[:, 1] = len(offs) - 1 + np.arange(n)
        if op in (CAT, ADDMM):
            w = meta[r[4]:r[4] + (2 + 2 * meta[r[4]] if op == CAT else 7)]
            new[:, 4] = len(meta) + len(w) * np.arange(n)
            meta = np.concatenate([meta, np.tile(w, n)])
        offs.extend((top + m * np.arange(1, n + 1)).tolist())
        top += m * n
        vals0.append(np.tile(a["vals0"][a["offs"][r[1]]:a["offs"][r[1] + 1]], n))
        rows.append(new)
    return dict(a, rows=np.concatenate(rows), offs=np.array(offs, np.int64),
                vals0=np.concatenate(vals0), meta=meta)


def _many(x):
    A = x[:4].reshape(2, 2)
    return ((A @ A).sum() + tg.cat([x[:2], x[2:4]])[1] + tg.softmax(x[:3], dim=0)[0] +
            x[:3].cumsum(0)[2] + x[tg.tensor([0, 2, 2])].sum() +
            tg.nn.functional.linear(A, A, x[:2]).sum())


def test_a_trace_of_250k_rows_checked_at_once_loads_under_the_default_bound():
    """On main its 250,000 matmul, cat, softmax, cumsum, gather and addmm rows counted
    2.5e9 element operations one at a time: refused under max_bytes = 2**30."""
    x = np.linspace(0.1, 1.0, 6)
    a = _repeated(_arrays(_many, x), (MM, CAT, SOFTMAX, CUMSUM, GATHER, ADDMM), 41_667)
    assert len(a["rows"]) > 250_000
    t = tg.jit.load(io.BytesIO(_saved(a, compressed=True)))
    assert t.value(x) == pytest.approx(_many(tg.tensor(x)).item(), rel=1e-14)


def test_a_bad_row_among_many_is_named():
    x = np.linspace(0.1, 1.0, 6)
    a = _repeated(_arrays(_many, x), (CAT,), 1000)
    r = int(np.nonzero(a["rows"][:, 0] == CAT)[0][-1])
    a["rows"][r, 4] = len(a["meta"]) - 1  # (its [n, outer] past the meta pool)
    with pytest.raises(ValueError, match=rf"row {r} \(CatBackward0, opcode 64\): meta reads "
                                         rf"meta\[{len(a['meta']) - 1}:"):
        tg.jit.load(io.BytesIO(_saved(a)))


def _empty_products(nb, n):
    """(A @ A).sum() and n empty products (M = N = 0) of nb batches each, all naming one
    window of 2 nb offsets in the meta pool."""
    a = _arrays(lambda x: (x.reshape(2, 2) @ x.reshape(2, 2)).sum(), np.ones(4))
    r = a["rows"][a["rows"][:, 0] == MM][0]
    k = len(a["meta"])
    a["meta"] = np.concatenate([a["meta"], [nb, 0, 2, 0, 1, 1], np.zeros(2 * nb, np.int64)])
    new = np.repeat(r[None], n, axis=0)
    new[:, 1], new[:, 4] = len(a["offs"]) - 1 + np.arange(n), k
    a["offs"] = np.concatenate([a["offs"], np.full(n, a["offs"][-1])])
    a["rows"] = np.concatenate([a["rows"], new])
    return a


def test_many_rows_naming_one_long_window_are_counted_before_it_is_read():
    """10,000 empty products of 100,000 batches each, all naming one window of offsets (a
    30 kB file): on main each row's window became a list of 200,000 Python ints, 2 * 10**9
    of them (minutes).  Read in NumPy, ~50 ns an entry, it took 90 s: entries count
    ``layout.READ`` operations each, those named again ``layout.REREAD``, refused before any
    is read."""
    data = _saved(_empty_products(100_000, 10_000), compressed=True)
    assert len(data) < 100_000
    with pytest.raises(ValueError, match=r"checking the batch offsets its rows name in the "
                                         r"meta pool \(8 operations an entry, 64 for each of "
                                         r"the 2e\+09 named again by another row\) takes about "
                                         r"1\.44e\+11 element operations.*max_bytes=1073741824"):
        tg.jit.load(io.BytesIO(data))
    t = tg.jit.load(io.BytesIO(_saved(_empty_products(100_000, 10))))  # (1.8e6 again)
    assert t.value(np.arange(4.0)) == 22.0
    with pytest.raises(ValueError, match=r"named again .* max_bytes=100000000"):
        tg.jit.load(io.BytesIO(_saved(_empty_products(100_000, 10))), max_bytes=100_000_000)


# ---- a pickled tape is checked as a saved one is ------------------------------------------
def _empty_cat_traced():
    """A Traced of cat([x[:0], 2 x[:0]]).sum() + x.sum(), its cat's outer count 2**62 (the
    blocks fill 0 elements of an empty output: test_hostile17's hang, now in a pickle)."""
    t = tg.trace(lambda x: tg.cat([x[:0], x[:0] * 2]).sum() + x.sum(), np.ones(4))
    k = int(t.rows[t.rows[:, 0] == CAT][0, 4])
    t.meta = t.meta.copy()
    t.meta[k + 1] = 1 << 62
    return t


def _in_subprocess(code, timeout=120):
    import subprocess
    import sys
    try:
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=timeout, cwd=str(__import__("pathlib").Path(
                                  __file__).resolve().parent.parent))
    except subprocess.TimeoutExpired:
        pytest.fail(f"did not finish in {timeout} s")
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def test_unpickling_a_tape_applies_the_loads_bounds(tmp_path):
    """On main Traced.__setstate__ checked the fields without max_bytes: pickle.loads of
    this 1 kB pickle, or tapegrad.load(weights_only=False) of a save of it, never returned
    (the traced-point replay looped 2**62 times)."""
    import pickle
    path = tmp_path / "t.pkl"
    path.write_bytes(pickle.dumps(_empty_cat_traced()))
    out = _in_subprocess("import pickle\ntry:\n"
                         f"    pickle.loads(open({str(path)!r}, 'rb').read())\n"
                         "    print('loaded')\nexcept ValueError as e:\n    print(e)\n")
    assert "traced point" in out and "4.61e+18 element operations" in out and \
        "max_bytes=1073741824" in out, out
    buf = io.BytesIO()
    tg.save({"tape": _empty_cat_traced()}, buf)
    with pytest.raises(ValueError, match=r"traced point .*max_bytes=5000000 allows"):
        tg.load(io.BytesIO(buf.getvalue()), weights_only=False, max_bytes=5_000_000)


def test_a_pickled_tape_under_a_bound_too_small_is_refused_and_a_good_one_loads():
    import pickle
    t = tg.trace(lambda x: tg.cat([x, x * 2]).sum() + (x.reshape(40, 50) @ x.reshape(50, 40)).sum(),
                 np.arange(2000.0))
    x = np.linspace(0, 1, 2000)
    back = pickle.loads(pickle.dumps(t))
    assert back.value(x) == t.value(x)
    buf = io.BytesIO()
    tg.save([t], buf)
    # (its 13,603 values are refused first now: test_hostile20b)
    with pytest.raises(ValueError, match=r"trace field 'vals0': .*max_bytes=8000; pass a larg"):
        tg.load(io.BytesIO(buf.getvalue()), weights_only=False, max_bytes=8000)
    back, = tg.load(io.BytesIO(buf.getvalue()), weights_only=False)
    assert back.value(x) == t.value(x)
    bound = validate.UNPICKLE_MAX_BYTES.set(8000)
    try:
        with pytest.raises(ValueError, match=r"max_bytes=8000"):
            pickle.loads(pickle.dumps(t))
    finally:
        validate.UNPICKLE_MAX_BYTES.reset(bound)


def test_a_pickled_tape_with_a_field_out_of_range_is_refused():
    import pickle
    t = tg.trace(lambda x: x[tg.tensor([0, 3])].sum(), np.arange(4.0))
    k = int(t.rows[t.rows[:, 0] == GATHER][0, 4])
    t.meta = t.meta.copy()
    t.meta[k + 2] = 4  # (an index past in0's 4 elements)
    with pytest.raises(ValueError, match=r"IndexBackward0|GatherBackward0|an index in meta"):
        pickle.loads(pickle.dumps(t))


# ---- meta entries the replay plan rewrites are each one row's --------------------------------
def _chain(x):
    z = x * 2
    for _ in range(6):
        z = z * 1.5
    return z


def _shared(op):
    """Two rows of op (cat, addmm) naming one meta window: the plan renumbers the slot numbers
    it holds (x2) once per row, so the second row read slot 4 s, past the plan's offsets."""
    def f(x):
        w = _chain(x)
        if op == CAT:
            return tg.cat([w, w]) + tg.cat([w, w]) * 2
        W = w.reshape(2, 2)
        b = w[:2] * 1.0
        return tg.nn.functional.linear(W, W, b).reshape(4) + tg.nn.functional.linear(W, W, b) \
            .reshape(4)
    x = np.arange(1.0, 5.0)
    a = _arrays(f, x)
    rows = a["rows"][a["rows"][:, 0] == op]
    assert len(rows) == 2
    a["rows"][np.nonzero(a["rows"][:, 0] == op)[0][1], 4] = rows[0, 4]
    return a, f, x


@pytest.mark.parametrize("op", [CAT, ADDMM], ids=["cat", "addmm"])
def test_rows_sharing_slot_numbers_in_the_meta_pool_are_refused(op):
    """On main this loaded (the traced point replays the rows, not the plan) and its jacobian
    read past the plan's slot offsets (IndexError without Numba's JIT, garbage with it)."""
    a, f, x = _shared(op)
    with pytest.raises(ValueError, match=r"trace field 'meta': entry \d+ holds a slot number "
                                         r".* named by more than one row"):
        tg.jit.load(io.BytesIO(_saved(a)))


def test_rows_with_their_own_windows_still_load():
    for op in (CAT, ADDMM):
        a, f, x = _shared(op)
        a = _arrays(f, x)  # (as recorded)
        t = tg.jit.load(io.BytesIO(_saved(a)))
        np.testing.assert_allclose(t.jacobian(x), tg.trace(f, x).jacobian(x), rtol=1e-12)
