"""Hostile inputs, round 16.  Holes found (each failed on main): loading a trace replays it
at its traced point to check it, and that replay's work was unbounded: a 9 kB deflated file
of one batched product reusing one block at each of its 10**5 batch offsets (or of many
rows summing one large slot) took minutes to load (155 s for 10**10 multiply-adds), hours
at 10**12; a trace whose product had a need flag (need_a...) cleared on an
operand computed from the inputs loaded, its gradient silently zero there wherever no
grad0 compared it (a vector output, a format-1 file); an empty input or output slot took
any shape with a zero, even one no array can have (every call failed in NumPy); building a
replay plan (every load, save and first batch) scanned every row once per chained broadcast
in Python: 30 s for a trace of 10**4 rows, legitimate or crafted; a 1.5 MB file of 1.3e8 empty
slots (1 GB of 'offs' deflated, within the default max_bytes) took ~9 GB to load."""
import io

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.replay import validate

SUM, BMM = 40, 83  # opcodes (tapegrad/ops/reductions.py, linalg.py)


def _trace_file(rows, sizes, vals0, meta, grad0, compressed=True):
    """A format-2 trace file of one input (slot 0) and a scalar output (the slot the last
    row writes), its checksum recomputed: the arrays a crafted file holds."""
    a = dict(rows=np.array(rows, np.int64), offs=np.cumsum([0, *sizes]).astype(np.int64),
             vals0=np.asarray(vals0, np.float64), consts=np.zeros(0), meta=np.asarray(
                 meta, np.int64), in_slots=np.array([0], np.int64),
             in_shapes=np.array([[sizes[0]] + [-1] * 7], np.int64),
             out_slot=np.int64(rows[-1][1]), argnums=np.array([0], np.int64),
             guards=np.array([], dtype=str), grad0=np.asarray(grad0, np.float64),
             format=np.int64(validate.FORMAT), out_shape=np.zeros(0, np.int64))
    a["digest"] = validate.digest(a)
    buf = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buf, **a)
    return buf.getvalue()


def _products_of_one_block(R, K):
    """sum_r A[0] @ x for R batches whose offsets all name A's first (and only) row: one
    BMM row of R (1, K) @ (K, 1) products, R * K multiply-adds from 2 K + R values."""
    meta = [R, 1, K, 1, 0, 1] + [0] * (2 * R)
    vals0 = np.concatenate([np.ones(K), np.ones(K), np.full(R, float(K)), [float(R) * K]])
    return _trace_file([[BMM, 2, 1, 0, 0], [SUM, 3, 2, -1, -1]], [K, K, R, 1], vals0, meta,
                       np.full(K, float(R)))


def _sums_of_one_slot(R, S):
    """R rows each summing input x of S elements: R * S additions from S + R values."""
    rows = [[SUM, 1 + r, 0, -1, -1] for r in range(R)]
    return _trace_file(rows, [S] + [1] * R, np.concatenate([np.ones(S), np.full(R, float(S))]),
                       [], np.ones(S))


@pytest.mark.parametrize("make", [lambda: _products_of_one_block(40_000, 40_000),
                                  lambda: _sums_of_one_slot(400, 3_000_000)],
                         ids=["products reusing one block", "sums of one slot"])
def test_a_small_file_whose_check_would_take_long_is_refused_before_replaying(make):
    """~1.6e9 and 1.2e9 element operations, over the default max_bytes' 1.07e9 (main: the
    products' file, 9 kB, loaded in 25 s on a loaded machine; at R = K = 10**5, 155 s)."""
    data = make()
    assert len(data) < 400_000
    for load in (tg.jit.load, tg.load):
        with pytest.raises(ValueError, match=r"traced point .* takes about 1\.[26]e\+09 "
                                             r"element operations.*max_bytes=1073741824.*"
                                             "pass a larger max_bytes"):
            load(io.BytesIO(data))


def test_the_work_bound_follows_max_bytes_and_such_files_load_under_a_larger_one():
    # 360,000 multiply-adds from ~160 kB of fields (validate.check_budget counts them all,
    # from the headers, before the work: test_hostile21)
    data = _products_of_one_block(600, 600)
    with pytest.raises(ValueError, match="max_bytes=200000 allows"):
        tg.jit.load(io.BytesIO(data), max_bytes=200_000)
    t = tg.jit.load(io.BytesIO(data), max_bytes=400_000)
    x = np.arange(600.0)  # (sums exact in any order)
    v, g = t.value_and_grad(x)
    assert v == 600 * x.sum() and np.array_equal(g, np.full(600, 600.0))
    data = _sums_of_one_slot(50, 1000)  # 50,000 additions
    # (its 1,050 values' memory is refused first now, VALUE_BYTES each: test_hostile20b)
    with pytest.raises(ValueError, match="trace field 'vals0'.*max_bytes=40000; pass"):
        tg.jit.load(io.BytesIO(data), max_bytes=40_000)
    assert tg.jit.load(io.BytesIO(data), max_bytes=120_000).value(np.full(1000, 3.0)) == 3000


def test_ordinary_traces_load_under_a_small_max_bytes():
    def f(x):
        return (tg.matmul(x.reshape(4, 4), x.reshape(4, 4)).tanh() * x.reshape(4, 4)).sum()
    x = np.linspace(0.1, 1.6, 16)
    buf = io.BytesIO()
    tg.trace(f, x).save(buf)
    t = tg.jit.load(io.BytesIO(buf.getvalue()), max_bytes=1 << 14)
    assert t.value(x * 0.5) == pytest.approx(f(tg.tensor(x * 0.5)).item(), rel=1e-13)


# ---- a product's need flags ----------------------------------------------------------------
W = np.arange(6.0).reshape(2, 3)


def _arrays(f, x):
    buf = io.BytesIO()
    tg.trace(f, x).save(buf)
    buf.seek(0)
    with np.load(buf) as z:
        return {k: z[k].copy() for k in z.files}


NEEDS = {  # f, its product's opcodes, the meta field (after the row's aux) of the flag
    "mv need_b": (lambda x: tg.tensor(W) @ x, (81,), 5),
    "mm need_a": (lambda x: x.reshape(1, 3) @ tg.tensor(W.T), (80, 81, 83), 4),
    "linear need_x": (lambda x: tg.nn.functional.linear(x.reshape(1, 3), tg.tensor(W)),
                      (84, 85), 3),
    "linear need_b (bias)": (lambda x: tg.nn.functional.linear(
        tg.tensor(W[:1]), tg.tensor(W), x[:2]), (85,), 5),
}


@pytest.mark.parametrize("f, codes, field", NEEDS.values(), ids=NEEDS.keys())
@pytest.mark.parametrize("scalar", [False, True], ids=["vector output", "format 1"])
def test_a_cleared_need_flag_on_a_computed_operand_is_refused(f, codes, field, scalar):
    """need_a / need_b (need_x, need_w, need_b) = 0 make the reverse rules skip an operand's
    adjoint: on main a file clearing one loaded and its gradients were silently zero there,
    wherever nothing compared them (a vector output has no grad0; nor has a format-1 file)."""
    x = np.array([1.0, 2.0, 3.0])
    g = (lambda x: f(x).sum()) if scalar else f
    a = _arrays(g, x)
    if scalar:  # (as saved before checksums and grad0)
        for k in ("grad0", "format", "digest", "out_shape"):
            a.pop(k, None)
    r = int(np.nonzero(np.isin(a["rows"][:, 0], codes))[0][0])
    assert a["meta"][a["rows"][r, 4] + field] == 1
    if not scalar:  # (the flag matters: the unaltered file's Jacobian is not zero)
        assert np.abs(tg.jit.load(io.BytesIO(_saved(a))).jacobian(x)).sum() > 0
    a["meta"][a["rows"][r, 4] + field] = 0
    with pytest.raises(ValueError, match=r"need_\w = 0 \(no gradient into slot \d+\), but "
                                         r"slot \d+ is computed from the inputs"):
        tg.jit.load(io.BytesIO(_saved(a, digest=not scalar)))


def _saved(a, digest=True):
    if digest:
        a = dict(a, digest=validate.digest(a))
    buf = io.BytesIO()
    np.savez(buf, **a)
    return buf.getvalue()


def test_products_with_constant_or_detached_operands_still_load():
    def f(x):
        y = x.detach() * 2
        return (tg.tensor(W) @ x).sum() + (tg.tensor(W) @ y).sum() + \
            tg.nn.functional.linear(x.reshape(1, 3), tg.tensor(W), tg.tensor(W[0, :2])).sum()
    x = np.array([1.0, 2.0, 3.0])
    a = _arrays(f, x)
    assert (a["meta"] == 0).any()
    t = tg.jit.load(io.BytesIO(_saved(a)))
    x1 = np.array([0.5, -1.0, 2.0])
    v, g = t.value_and_grad(x1)
    xt = tg.tensor(x1, requires_grad=True)
    y = f(xt)
    y.backward()
    assert v == y.item() and np.array_equal(g, xt.grad.numpy())


# ---- shapes no array can have --------------------------------------------------------------
@pytest.mark.parametrize("in_shape, out_shape, what", [
    ([2**40, 0, 2**40], [0], "trace field 'in_shapes': input 0 declares shape"),
    ([0], [2**40, 2**40, 0], "trace field 'out_shape' declares shape"),
    ([2**31, 0], [0, 2**31], "Jacobian of trace field 'out_shape' by input 0 declares shape"),
])
def test_an_empty_shape_too_large_for_any_array_is_refused(in_shape, out_shape, what):
    """An empty slot matched any shape with a zero (main: the trace loaded, and every call
    failed with NumPy's "array is too big", naming neither the file nor the field)."""
    a = _arrays(lambda x: x * 2 + x.sum(), np.zeros(0))
    a["in_shapes"][0, :len(in_shape)] = in_shape
    a["out_shape"] = np.array(out_shape, np.int64)
    with pytest.raises(ValueError, match=rf"{what} .*, too large for any array"):
        tg.jit.load(io.BytesIO(_saved(a)))
    a["in_shapes"][0, :3] = [3, 0, 5]
    a["out_shape"] = np.array([5, 0], np.int64)
    t = tg.jit.load(io.BytesIO(_saved(a)))
    assert t.value(np.zeros((3, 0, 5))).shape == (5, 0)


# ---- building a replay plan --------------------------------------------------------------
def _chained(K):
    def f(x):  # K chained broadcasts (x - mu_i) * s_i, mu_i and s_i rows of x scaled
        return sum((((x - x[0] * (i + 1.0)) * (x[1] * (i + 2.0))).sum() for i in range(K)),
                   tg.zeros(()))
    return f


def _plan_lines(t):
    """Python lines run in tapegrad/replay/__init__.py building t's plan (a count of steps,
    not a timing)."""
    import sys

    from tapegrad import replay
    n = [0]

    def tracer(frame, event, arg):
        if frame.f_code.co_filename != replay.__file__:
            return None
        if event == "line":
            n[0] += 1
        return tracer
    sys.settrace(tracer)
    try:
        replay._Plan(t)
    finally:
        sys.settrace(None)
    return n[0]


def test_a_plan_takes_steps_linear_in_the_rows_not_quadratic():
    """Chaining broadcasts scanned every row in Python once per candidate: plans (built by
    the traced-point check of every load, and by save) of 10**4 rows took 30 s, 4 * 10**4
    rows about 8 minutes, from a legitimate trace or a small crafted file; now 0.35 s and
    1.8 s.  Counted here in lines run: from K = 40 to 160 (4 times the rows) main's count
    grew 16-fold."""
    x = np.random.default_rng(0).normal(size=(4, 64))
    small, large = (_plan_lines(tg.trace(_chained(K), x)) for K in (40, 160))
    assert large < 6 * small


# ---- memory per slot ------------------------------------------------------------------------
def _empty_slots(n):
    """A trace of (2 x).sum() with n empty constant slots added (8 bytes each in 'offs',
    about a kB per million deflated)."""
    a = _arrays(lambda x: (x * 2).sum(), np.ones(3))
    a["offs"] = np.concatenate([a["offs"], np.full(n, a["offs"][-1])]).astype(np.int64)
    a["digest"] = validate.digest(a)
    buf = io.BytesIO()
    np.savez_compressed(buf, **a)
    return buf.getvalue()


def test_slots_are_counted_against_max_bytes():
    """The checks and the plan take ~70 bytes a slot: a 1.5 MB file of 1.3e8 empty slots
    (1 GB of 'offs', within the default max_bytes) took ~9 GB on main to load."""
    data = _empty_slots(100_000)
    assert len(data) < 10_000
    with pytest.raises(ValueError, match=r"trace field 'offs': its 100003 slots take about "
                                         r"8000240 bytes .*max_bytes=4000000"):
        tg.jit.load(io.BytesIO(data), max_bytes=4_000_000)
    t = tg.jit.load(io.BytesIO(data), max_bytes=9_000_000)
    assert t.value(np.array([1.0, 2.0, 3.5])) == 13.0


def _no_grad_pair_file():
    """A trace whose no_grad op wrote hidden slot 2, copied by STOP_GRAD into slot 1."""
    def f(x):
        with tg.no_grad():
            y = x * 2
        return (x * y).sum()
    a = _arrays(f, np.array([1.0, 2.0, 3.0]))
    stop = int(np.nonzero(a["rows"][:, 1] < a["rows"][:, 2])[0][0])
    assert a["rows"][stop, 2] == a["rows"][stop - 1, 1]  # the pair: op -> h, stop h -> o
    return a, stop


def test_the_no_grad_pair_loads_but_its_slot_cannot_be_written_or_read_before():
    a, stop = _no_grad_pair_file()
    tg.jit.load(io.BytesIO(_saved(a)))  # as traced: loads
    o = int(a["rows"][stop, 1])
    for col in (1, 2):  # the op writes (col 1) or reads (col 2) o before the pair's stop
        b = {k: v.copy() for k, v in a.items()}
        b["rows"][stop - 1, col] = o
        if col == 1:
            b["rows"][stop, 2] = o  # (still a pair: the stop copies what the op wrote)
        with pytest.raises(ValueError, match="trace field 'rows': row"):
            tg.jit.load(io.BytesIO(_saved(b)))
