"""Tape structure (ReverseDiff's ScalarTests, scaled up): what one op records, what grad
mode and detach record, fan-out, broadcasting rows, deep chains, tape lifetime, freeing
after backward, failed ops, and one tape per thread.

Counts come from ``tapegrad.tape.current_tape()`` (``nrows``, ``nslots``, the pools);
gradients are checked against exact values or PyTorch.
"""
import ast
import gc
import math
import pathlib
import subprocess
import sys
import threading
import tracemalloc

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.ops import elementwise as ew
from tapegrad.ops.elementwise import MUL_C
from tapegrad.ops.strided import EXPAND
from tapegrad.tape import OP_MASK, current_tape

ROOT = pathlib.Path(__file__).resolve().parents[1]
SECOND_TIME = "Trying to backward through the graph a second time"


def counts(tape):
    """What recording can change: rows, slots, values, consts, meta."""
    return (tape.nrows, tape.nslots, tape.nvals, len(tape.consts), len(tape.meta))


def rows_of(tape):
    """A copy of the recorded rows (a copy: a view would pin the growable buffers)."""
    return tape.arrays()[0].copy()


def opcodes(rows):
    return [int(op) for op in rows[:, 0] & OP_MASK]


@pytest.fixture
def tape():
    """This thread's tape as it is (counts below are deltas, so no gc.collect() first)."""
    return current_tape()


def leaf(data, **kw):
    return tg.tensor(data, requires_grad=True, **kw)


def in_fresh_thread(fn):
    """Run ``fn(tape)`` in a new thread: a fresh tape that no other test left graphs on."""
    out = {}

    def run():
        try:
            out["value"] = fn(current_tape())
        except BaseException as e:  # re-raised in the test's thread
            out["error"] = e

    t = threading.Thread(target=run)
    t.start()
    t.join()
    if "error" in out:
        raise out["error"]
    return out.get("value")



# ---- one primitive, one row ------------------------------------------------------------

UNARY = {
    "neg": lambda x: -x, "abs": lambda x: x.abs(), "exp": lambda x: x.exp(),
    "log": lambda x: x.log(), "log1p": lambda x: x.log1p(), "expm1": lambda x: x.expm1(),
    "sqrt": lambda x: x.sqrt(), "sin": lambda x: x.sin(), "cos": lambda x: x.cos(),
    "tan": lambda x: x.tan(), "tanh": lambda x: x.tanh(), "sigmoid": lambda x: x.sigmoid(),
    "relu": lambda x: x.relu(), "fn_exp": lambda x: tg.exp(x), "fn_sin": lambda x: tg.sin(x),
    "add_c": lambda x: x + 2.5, "radd_c": lambda x: 2.5 + x, "sub_c": lambda x: x - 2.5,
    "rsub_c": lambda x: 2.5 - x, "mul_c": lambda x: x * 2.5, "rmul_c": lambda x: 2.5 * x,
    "div_c": lambda x: x / 2.5, "rdiv_c": lambda x: 2.5 / x, "pow_c": lambda x: x ** 3,
    "rpow_c": lambda x: 2.5 ** x, "int_c": lambda x: x * 2,
    "sum": lambda x: x.sum(), "mean": lambda x: x.mean(),
}
BINARY = {
    "add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y,
    "div": lambda x, y: x / y, "pow": lambda x, y: x ** y, "fn_add": lambda x, y: tg.add(x, y),
}
ARRAY_ONLY = {
    "sum0": lambda x: x.sum(0), "mean1_keep": lambda x: x.mean(1, keepdim=True),
    "reshape": lambda x: x.reshape(3, 2), "view": lambda x: x.view(-1),
    "flatten": lambda x: x.flatten(), "select": lambda x: x[0], "slice": lambda x: x[1:],
    "none_index": lambda x: x[None], "ellipsis": lambda x: x[..., 1],
    "fancy": lambda x: x[[0, 0, 1]], "transpose": lambda x: x.transpose(0, 1),
    "T": lambda x: x.T, "permute": lambda x: x.permute(1, 0),
    "unsqueeze": lambda x: x.unsqueeze(0), "squeeze": lambda x: x.squeeze(1),
    "expand": lambda x: x.expand(4, 2, 3), "to_float32": lambda x: x.float(),
}
X23 = [[0.5, 1.0, 1.5], [0.7, 0.9, 1.3]]


def _prepared(data, n=1):
    """Leaves adopted onto this thread's tape (adoption adds slots, no rows), and a live
    non-leaf that keeps the tape (and so the adoption) from resetting."""
    xs = [leaf(np.asarray(data) + 0.1 * i) for i in range(n)]
    keep = sum(xs[1:], xs[0]) * 1.0
    return xs, keep


@pytest.mark.parametrize("data", [0.75, X23], ids=["scalar", "2x3"])
@pytest.mark.parametrize("name", list(UNARY))
def test_unary_primitive_appends_one_row(name, data, tape):
    (x,), keep = _prepared(data)
    before = tape.nrows
    y = UNARY[name](x)
    assert tape.nrows == before + 1
    assert y.grad_fn is not None


@pytest.mark.parametrize("data", [0.75, X23], ids=["scalar", "2x3"])
@pytest.mark.parametrize("name", list(BINARY))
def test_binary_primitive_appends_one_row(name, data, tape):
    (x, w), keep = _prepared(data, 2)
    before = tape.nrows
    y = BINARY[name](x, w)
    assert tape.nrows == before + 1
    assert y.grad_fn is not None


@pytest.mark.parametrize("name", list(ARRAY_ONLY))
def test_shape_primitive_appends_one_row(name, tape):
    (x,), keep = _prepared(np.reshape(X23, (2, 1, 3)) if name == "squeeze" else X23)
    before = tape.nrows
    y = ARRAY_ONLY[name](x)
    assert tape.nrows == before + 1
    assert y.grad_fn is not None


@pytest.mark.parametrize("op", [lambda x: x * 2.5, lambda x: 2.5 * x], ids=["x*2.5", "2.5*x"])
@pytest.mark.parametrize("data", [0.75, [0.5, 1.5]], ids=["scalar", "vector"])
def test_python_scalar_operand_gets_a_const_not_a_slot(op, data, tape):
    (x,), keep = _prepared(data)
    h = x * 1.0  # a non-leaf: an array leaf would take a fresh slot per use (Tape.adopt)
    before = counts(tape)
    y = op(h)
    after = counts(tape)
    assert after[0] == before[0] + 1  # one row
    assert after[1] == before[1] + 1  # one slot: the output, none for 2.5
    assert after[2] == before[2] + np.size(data)  # values of the output only
    assert after[3] == before[3] + 1  # 2.5 went to the const pool
    row = rows_of(tape)[-1]
    assert int(row[0] & OP_MASK) == MUL_C
    assert tape.consts[int(row[4])] == 2.5
    assert row[3] == -1  # no second operand slot
    y.sum().backward() if y.ndim else y.backward()
    np.testing.assert_array_equal(np.asarray(x.grad), np.full(np.shape(data), 2.5))


# ---- nothing recorded ---------------------------------------------------------------------

def _program(x, w):
    y = (x * w + 2.5).sin() / (1.0 + w.exp())
    z = (y ** 2).sum(0) + x[0].mean() - y.reshape(-1)[1:4].sum()
    return (z * x.T.sum(1)).mean()


@pytest.mark.parametrize("mode", ["no_grad", "inference_mode", "set_grad_enabled(False)",
                                  "no_grad decorator", "inputs without requires_grad"])
def test_nothing_is_recorded(mode, tape):
    x = tg.tensor(X23, requires_grad=mode != "inputs without requires_grad")
    w = tg.tensor([0.3, -0.2, 0.1], requires_grad=mode != "inputs without requires_grad")
    before = counts(tape)
    if mode == "no_grad":
        with tg.no_grad():
            out = _program(x, w)
    elif mode == "inference_mode":
        with tg.inference_mode():
            out = _program(x, w)
    elif mode == "set_grad_enabled(False)":
        with tg.set_grad_enabled(False):
            out = _program(x, w)
    elif mode == "no_grad decorator":
        out = tg.no_grad()(_program)(x, w)
    else:
        out = _program(x, w)
    assert counts(tape) == before
    assert out.requires_grad is False and out.grad_fn is None and out.is_leaf
    assert x.grad is None
    # and the value is the one recording computes
    rec = _program(tg.tensor(X23, requires_grad=True), tg.tensor([0.3, -0.2, 0.1]))
    assert math.isclose(out.item(), rec.item(), rel_tol=1e-15)


def test_comparisons_record_nothing(tape):
    (x,), keep = _prepared(X23)
    before = counts(tape)
    masks = [x > 1.0, x < 1.0, x == 1.0, x != 1.0, x >= x, x <= 0.5]
    assert counts(tape) == before
    assert all(m.requires_grad is False for m in masks)


# ---- detach -------------------------------------------------------------------------------

def test_detach_stops_the_flow(tape, torch):
    def f(lib, x):
        y = x * x
        return y.detach() * x + y  # d/dx = y + 2x, nothing through y.detach()

    x = leaf([3.0, -1.5])
    y = x * x
    before = counts(tape)
    d = y.detach()
    assert counts(tape) == before  # detach records nothing
    assert d.requires_grad is False and d.grad_fn is None
    del y, d
    f(tg, x).sum().backward()
    xt = torch.tensor([3.0, -1.5], dtype=torch.float64, requires_grad=True)
    f(torch, xt).sum().backward()
    np.testing.assert_array_equal(np.asarray(x.grad), [15.0, -0.75])
    np.testing.assert_allclose(np.asarray(x.grad), xt.grad.numpy(), rtol=0, atol=0)


def test_detached_branch_alone_gives_no_grad_path():
    x = leaf(2.0)
    y = (x * 3).detach() * 5
    assert y.requires_grad is False
    with pytest.raises(RuntimeError, match="does not require grad"):
        y.backward()


# ---- fan-out accumulates -------------------------------------------------------------------

@pytest.mark.parametrize("data", [1.25, [[1.0, -2.0], [0.5, 3.0]]], ids=["scalar", "2x2"])
def test_x_times_x_gives_2x(data):
    x = leaf(data)
    y = x * x
    (y.sum() if y.ndim else y).backward()
    np.testing.assert_array_equal(np.asarray(x.grad), 2 * np.asarray(data))


@pytest.mark.parametrize("data", [1.25, [1.0, -2.0, 0.5]], ids=["scalar", "vector"])
def test_x_plus_x_plus_x_gives_3(data):
    x = leaf(data)
    y = x + x + x
    (y.sum() if y.ndim else y).backward()
    np.testing.assert_array_equal(np.asarray(x.grad), np.full(np.shape(data), 3.0))


def test_fan_out_of_an_intermediate_accumulates(torch):
    def f(x):
        u = x.exp()
        return (u * u + u + u.sin() * x).sum()  # u used four times, x twice

    x = leaf([0.3, -0.7, 1.1])
    f(x).backward()
    xt = torch.tensor([0.3, -0.7, 1.1], dtype=torch.float64, requires_grad=True)
    f(xt).backward()
    np.testing.assert_allclose(np.asarray(x.grad), xt.grad.numpy(), rtol=1e-14)


# ---- broadcasting: an explicit EXPAND row ---------------------------------------------------

S_ROWS = {"add": ew.ADD_S, "sub": ew.SUB_S, "mul": ew.MUL_S}
S_BINARY = {"add": lambda p, q: p + q, "sub": lambda p, q: p - q, "mul": lambda p, q: p * q}
BROADCAST = [((2, 3), (3,)), ((2, 1, 3), (4, 1)), ((), (2, 3)), ((3, 1), (1, 4)),
             ((1,), (5,)), ((2, 3), (1, 1, 3))]


@pytest.mark.parametrize("sa, sb", BROADCAST, ids=[f"{a}x{b}" for a, b in BROADCAST])
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
def test_broadcast_records_expand_and_sums_over_broadcast_axes(sa, sb, op, tape, torch):
    rng = np.random.default_rng(len(sa) * 10 + len(sb))
    da, db = rng.uniform(0.5, 2.0, sa), rng.uniform(0.5, 2.0, sb)
    a, b = leaf(da), leaf(db)
    fn = {"add": lambda p, q: p + q, "sub": lambda p, q: p - q,
          "mul": lambda p, q: p * q, "div": lambda p, q: p / q}[op]
    start = tape.nrows
    c = fn(a, b)
    rows = rows_of(tape)[start:]
    n_expand = (np.shape(da) != c.shape) + (np.shape(db) != c.shape)
    # a 0-d or row operand (whose values repeat along the leading dims) is read as it is:
    # MUL_S, ADD_S, SUB_S
    if op != "div" and (not sa or (sa, sb) in [((2, 3), (3,)), ((1,), (5,))]):
        n_expand = 0
        assert opcodes(rows) == [S_ROWS[op]]
    assert opcodes(rows).count(EXPAND) == n_expand
    assert len(rows) == n_expand + 1  # the EXPAND rows first, then the op's own row
    assert opcodes(rows)[-1] != EXPAND
    w = rng.standard_normal(tuple(c.shape))
    (c * tg.tensor(w)).sum().backward()
    at = torch.tensor(da, requires_grad=True)
    bt = torch.tensor(db, requires_grad=True)
    (fn(at, bt) * torch.tensor(w)).sum().backward()
    assert tuple(a.grad.shape) == sa and tuple(b.grad.shape) == sb
    np.testing.assert_allclose(np.asarray(a.grad), at.grad.numpy(), rtol=1e-13)
    np.testing.assert_allclose(np.asarray(b.grad), bt.grad.numpy(), rtol=1e-13)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("op", ["add", "sub", "mul"])
def test_row_operand_second_order_matches_torch(op, dtype, torch):
    """A row operand (a bias (3,) against (4, 3), and (1, 3) against (2, 4, 3)) read as it
    is by ADD_S/SUB_S/MUL_S: first and second derivatives as PyTorch's (create_graph runs
    the rows' vjps, which sum onto the row's own shape)."""
    rng = np.random.default_rng(7)
    tol = 1e-12 if dtype == "float64" else 1e-5
    for sx, sr in (((4, 3), (3,)), ((2, 4, 3), (1, 3))):
        dx, dr = rng.uniform(0.5, 2.0, sx).astype(dtype), rng.uniform(0.5, 2.0, sr).astype(dtype)
        got, want = [], []
        for mod, out in ((tg, got), (torch, want)):
            x = mod.tensor(dx, requires_grad=True)
            r = mod.tensor(dr, requires_grad=True)
            y = S_BINARY[op](x, r)
            if mod is tg:
                last = opcodes(rows_of(current_tape()))[-1]
                assert last == S_ROWS[op]
            gx, gr = mod.autograd.grad((y * y).sum(), (x, r), create_graph=True)
            hx, hr = mod.autograd.grad((gx * gx).sum() + gr.sum(), (x, r))
            out += [np.asarray(t.detach()) for t in (gx, gr, hx, hr)]
        for g, w in zip(got, want, strict=True):
            assert g.shape == w.shape
            np.testing.assert_allclose(g, w, rtol=tol)


def _bits(a):
    """float64 values as their bit patterns, nans as one pattern (a nan's sign is no result)."""
    a = np.asarray(a, np.float64)
    return np.where(np.isnan(a), np.nan, a).view(np.int64)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("op", ["add", "sub", "mul"])
@pytest.mark.parametrize("row_first", [False, True])
def test_a_row_operand_against_a_broadcast_constant(op, dtype, row_first, torch):
    """k-means' points (n, 1, d) minus its centroids (1, K, d): the constant is broadcast to
    out's shape and the centroids are read as they are (one ADD_S/SUB_S/MUL_S row, no
    EXPAND row and no (n, K, d) adjoint of it), in either operand order.  Values and
    gradients equal the EXPAND path's bit for bit (the points requiring grad too: an EXPAND
    row for each, as before SUB_S), nans, infs and signed zeros included, and PyTorch's;
    a min over either dim then ties (repeated centroids)."""
    rng = np.random.default_rng(11)
    pts = np.round(rng.standard_normal((30, 1, 4)), 1)
    cen = np.round(rng.standard_normal((1, 8, 4)), 1)
    cen[0, 4:] = cen[0, :4]  # ties: each point's distances to two copies
    pts[0, 0, :] = [np.inf, -0.0, np.nan, 0.0]
    cen[0, 1, 1] = -0.0
    pts, cen = pts.astype(dtype), cen.astype(dtype)
    fn = S_BINARY[op]
    out = {}
    for form in ("row", "expand", "torch"):
        mod = torch if form == "torch" else tg
        p = mod.tensor(pts, requires_grad=form == "expand")  # (then both get an EXPAND)
        c = mod.tensor(cen, requires_grad=True)
        start = current_tape().nrows
        y = fn(c, p) if row_first else fn(p, c)
        if form != "torch":
            assert opcodes(rows_of(current_tape())[start:]).count(EXPAND) == \
                (0 if form == "row" else 2)
        if form == "row":
            assert opcodes(rows_of(current_tape())[start:]) == [S_ROWS[op]]
        d2 = (y ** 2).sum(-1)
        loss = d2.min(dim=0).values.sum() + d2.nan_to_num(0.0, 1e3, -1e3).min(dim=1).values.sum()
        loss.backward()
        out[form] = (y.detach().numpy(), loss.item(), c.grad.numpy())
    for got, want in zip(out["row"], out["expand"], strict=True):
        np.testing.assert_array_equal(_bits(got), _bits(want))
    y, loss, g = out["row"]
    np.testing.assert_array_equal(_bits(y), _bits(out["torch"][0]))
    tol = 1e-12 if dtype == "float64" else 1e-5
    np.testing.assert_allclose(loss, out["torch"][1], rtol=tol)
    np.testing.assert_allclose(g, out["torch"][2], rtol=tol, atol=tol)


@pytest.mark.parametrize("op", ["add", "sub", "mul"])
def test_a_row_operand_against_a_broadcast_constant_by_finite_differences(op):
    """The same rows' gradients (float64) against central finite differences (gradcheck)."""
    rng = np.random.default_rng(12)
    p = tg.tensor(rng.standard_normal((5, 1, 3)))
    c = tg.tensor(rng.standard_normal((1, 4, 3)), requires_grad=True)
    for f in (lambda c: (S_BINARY[op](p, c) ** 2).sum(-1).amax(1),
              lambda c: (S_BINARY[op](c, p) ** 2).sum(-1).min(dim=0).values):
        assert tg.autograd.gradcheck(f, (c,))


def test_broadcast_against_a_constant_records_only_the_op(tape, torch):
    a = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    keep = a * 1.0  # a live non-leaf: the tape cannot reset between the two counts
    start = tape.nrows
    c = a * tg.tensor([10.0, 20.0, 30.0])  # the constant needs no EXPAND row
    assert tape.nrows == start + 1
    del keep
    c.sum().backward()
    np.testing.assert_array_equal(np.asarray(a.grad), [[10.0, 20.0, 30.0]] * 2)


def test_broadcast_is_hidden_in_next_functions():
    a = leaf([[1.0, 2.0, 3.0]])
    b = leaf([10.0, 20.0, 30.0])
    c = a * b
    (na, _), (nb, _) = c.grad_fn.next_functions
    assert na.variable is a and nb.variable is b


# ---- deep chains ---------------------------------------------------------------------------

def test_tape_bytes_per_row_are_bounded(tape):
    x = leaf(1.0)
    y = x
    n = 10 ** 5
    start = tape.nrows
    for _ in range(n):
        y = y * 1.000001
    assert tape.nrows - start == n
    assert tape.nbytes() / tape.nrows < 100
    half = tape.nbytes()
    for _ in range(n):
        y = y * 1.000001
    # linear growth: twice the rows cost about twice the bytes (no doubling transients kept)
    assert tape.nbytes() / half < 2.3
    assert tape.nbytes() / tape.nrows < 100
    y.backward()
    assert math.isclose(x.grad.item(), 1.000001 ** (2 * n), rel_tol=1e-9)


@pytest.mark.slow
def test_chain_of_a_million_scalar_ops(tape):
    """10^6 recorded ops swept without recursion; the gradient equals a hand loop."""
    x = leaf(0.5)
    y = x
    n = 10 ** 6
    for _ in range(n // 2):
        y = (y * 0.999999).sin()  # two rows per step
    assert tape.nrows >= n
    assert tape.nbytes() / tape.nrows < 100
    y.backward()
    v, g = 0.5, 1.0
    for _ in range(n // 2):
        u = v * 0.999999
        g *= 0.999999 * math.cos(u)
        v = math.sin(u)
    assert math.isclose(y.item(), v, rel_tol=1e-12)
    assert math.isclose(x.grad.item(), g, rel_tol=1e-9)


@pytest.mark.slow
def test_recording_peak_memory_per_op_is_bounded():
    """Peak traced memory while recording 10^5 ops, growth transients included."""
    gc.collect()
    x = leaf(1.0)
    y = x * 1.0
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        n = 10 ** 5
        for _ in range(n):
            y = y * 1.000001
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (peak - base) / n < 100


# ---- tape lifetime ----------------------------------------------------------------------

W0 = [0.5, -0.3, 0.2]
XS = [1.0, 2.0, 3.0]


def _loss(w, xs):
    return ((w * xs).sum() - 1.0) ** 2 + (w * w).mean() + (w[0] * 2.5).sin()


def _traced_growth(step, iters=2000, warm=200):
    """Bytes traced between iteration ``warm`` and the end, and the set of what ``step``
    returned (a set: a list of 2000 results would itself grow the traced memory).
    tracemalloc counts every thread's allocations: the sweep kernels are loaded first, else
    the thread that imports Numba for a fresh process's first backward (_kernels.py) did so
    during the loop, and its megabytes were counted as the loop's when run alone."""
    tg.warmup(replay=False)
    gc.collect()
    tracemalloc.start()
    try:
        seen = set()
        for i in range(iters):
            seen.add(step())
            if i == warm:
                gc.collect()  # a full collection also empties CPython's free lists
                mid = tracemalloc.get_traced_memory()[0]
        gc.collect()
        end = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return end - mid, seen


def _want_grad():
    wt = np.array(W0)
    want = 2 * (wt @ XS - 1.0) * np.array(XS) + 2 * wt / 3
    want[0] += 2.5 * math.cos(2.5 * wt[0])
    return want


def test_training_loop_with_del_resets_the_tape_every_iteration():
    def body(_):
        w = leaf(W0)
        xs = tg.tensor(XS)

        def step():
            tape = current_tape()  # the tape this iteration records on
            loss = _loss(w, xs)
            recorded = tape.nrows
            loss.backward()
            w.grad = None
            del loss
            return recorded, tape.nrows, current_tape().nrows

        growth, seen = _traced_growth(step)
        ((recorded, after, now),) = seen  # the same every iteration
        assert recorded > 0 and after == 0 and now == 0
        assert growth < 32 * 1024  # constant memory: no per-iteration growth
        _loss(w, xs).backward()  # the leaf outlived every reset: still the right gradient
        np.testing.assert_allclose(np.asarray(w.grad), _want_grad(), rtol=1e-14)

    in_fresh_thread(body)


def test_training_loop_runs_in_constant_memory():
    """The issue's loop, verbatim: ``loss = f(w); loss.backward(); w.grad = None``: the
    previous loss is still alive while the next one is recorded."""
    def body(_):
        w = leaf(W0)
        xs = tg.tensor(XS)
        tape = current_tape()
        loss = _loss(w, xs)
        per_iter = tape.nrows
        del loss
        state = {}

        def step():
            state["loss"] = _loss(w, xs)  # the old loss dies after the new one is built
            state["loss"].backward()
            w.grad = None
            return current_tape().nrows

        try:
            growth, seen = _traced_growth(step)
            assert max(seen) <= 2 * per_iter
            assert growth < 32 * 1024
            state["loss"] = _loss(w, xs)
            state["loss"].backward()
            np.testing.assert_allclose(np.asarray(w.grad), _want_grad(), rtol=1e-14)
        finally:
            state.clear()
        assert current_tape().nrows == 0

    in_fresh_thread(body)


LOOP_WITH_A_COLLECTING_THREAD = """
import gc, sys, threading, time, weakref
import numpy as np
import tapegrad as tg
from tapegrad.tape import current_tape
tg.warmup(replay=False)
gc.set_threshold(5, 1, 1)  # collections in the middle of this thread's iterations too
stop = threading.Event()

class Cycle:  # garbage that only a collection frees, whose finalizer lets threads switch
    def __init__(self):
        self.me = self

    def __del__(self):
        time.sleep(0)

def collect():  # another thread collecting most of the time (Numba's loader, a data loader)
    while not stop.is_set():
        for _ in range(100):
            Cycle()
        gc.collect(0)

threading.Thread(target=collect, daemon=True).start()
w = tg.tensor([0.5, -0.3, 0.2], requires_grad=True)
xs = tg.tensor([1.0, 2.0, 3.0])
tapes, seen, grads, most = weakref.WeakSet(), set(), set(), 0
for i in range(3000):
    tape = current_tape()
    tapes.add(tape)
    loss = ((w * xs).sum() - 1.0) ** 2 + (w * w).mean() + (w[0] * 2.5).sin()
    recorded, nbytes = tape.nrows, tape.nbytes()
    loss.backward()
    grads.add(tuple(w.grad.tolist()))
    w.grad = None
    del loss
    seen.add((recorded, nbytes, tape.nrows, current_tape().nrows))
    del tape
    most = max(most, len(tapes))
stop.set()
print(repr((sorted(seen), most, sorted(grads))))
"""


def test_training_loop_resets_its_tape_while_another_thread_collects():
    """In a fresh process (no earlier test's state), with gc thresholds forced low and a
    second thread collecting all the time: every iteration records the same rows, and the
    tape it recorded on is empty once its loss dies, whatever thread is collecting then
    (tape.py ``_collecting``: a process-wide flag skipped the resets of the training thread
    while another thread's collection ran its finalizers, from ~1,500 iterations on in a
    fresh process: Numba's loader); at most two tapes are alive; the gradient is exact."""
    out = subprocess.run([sys.executable, "-c", LOOP_WITH_A_COLLECTING_THREAD], cwd=ROOT,
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    seen, alive, grads = ast.literal_eval(out.stdout.strip().splitlines()[-1])
    ((recorded, nbytes, after, now),) = seen  # the same every iteration
    assert recorded == 11 and nbytes > 0 and after == 0 and now == 0
    assert alive <= 2
    (grad,) = grads
    np.testing.assert_allclose(grad, _want_grad(), rtol=1e-14)


def test_tape_resets_when_the_last_non_leaf_dies():
    def body(tape):
        x = leaf([1.0, 2.0])
        y = x * 2
        z = y.exp()
        assert tape.nrows == 2
        del z
        assert tape.nrows == 2  # y is alive: the tape stays
        del y
        assert tape.nrows == 0 and tape.nslots == 0
        assert current_tape() is tape  # reset in place: its buffers are reused
        y = x * 5  # the leaf is adopted again by the reset tape
        y.sum().backward()
        np.testing.assert_array_equal(np.asarray(x.grad), [5.0, 5.0])

    in_fresh_thread(body)


@pytest.mark.parametrize("adopted", [True, False], ids=["leaf-adopted", "leaf-new"])
def test_a_scalar_unary_op_after_the_collector_dropped_the_tape_records_anew(adopted):
    """The last non-leaf dies in the cycle collector, so the tape resets at the next op's
    Tape.begin, inside the scalar unary path (which writes its output tensor out inline):
    the output must hold the new generation, whether its leaf input was adopted on the old
    one or never used, and differentiate on the reset tape."""
    def body(tape):
        x = tg.tensor(0.7, requires_grad=True)
        w = tg.tensor(0.3, requires_grad=True)
        y = x * 2.0
        if adopted:
            (y * w).item()  # w gets a slot on this generation
        box = [y]
        box.append(box)  # y's only reference is now a cycle
        del y, box
        gen = tape.gen
        gc.collect()  # the token dies in the collector: no reset yet
        assert tape.gen == gen and tape.nslots
        z = w.sin()
        assert tape.gen != gen and z._gen == tape.gen and tape.nrows == 1
        z.backward()
        assert w.grad.item() == math.cos(0.3) and x.grad is None

    in_fresh_thread(body)


def test_a_partial_backward_keeps_the_tape_for_live_non_leaves(torch):
    def body(_):
        x = leaf([1.0, 2.0])
        tape = current_tape()
        y = x * 2
        z = y.exp()
        (y * 3).sum().backward()  # frees y's row and its own, not z's
        # the thread records on a new tape; this one lives as long as y and z do
        assert current_tape() is not tape and tape.retired and tape.nrows == 4
        np.testing.assert_array_equal(np.asarray(x.grad), [6.0, 6.0])
        with pytest.raises(RuntimeError, match=SECOND_TIME):
            z.sum().backward()  # z's path runs through y's freed row
        del z, y
        assert tape.nrows == 0

    in_fresh_thread(body)
    xt = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    yt = xt * 2
    zt = yt.exp()
    (yt * 3).sum().backward()
    with pytest.raises(RuntimeError, match=SECOND_TIME):
        zt.sum().backward()


def test_a_grad_fn_keeps_the_tape_only_while_held():
    def body(tape):
        x = leaf(2.0)
        y = x * x
        node = y.grad_fn
        del y
        assert tape.nrows == 1  # PyTorch: a grad_fn keeps its graph alive
        assert node.name() == "MulBackward0"
        assert node.next_functions[0][0].variable is x
        del node
        gc.collect()
        assert tape.nrows == 0

    in_fresh_thread(body)


def test_printing_a_non_leaf_does_not_pin_the_tape():
    def body(_):
        x = leaf(2.0)
        for _ in range(3):
            tape = current_tape()
            loss = (x * x).sin()
            assert "grad_fn=<SinBackward0>" in repr(loss)
            assert tape.nrows == 2
            del loss
            gc.collect()
            assert tape.nrows == 0

    in_fresh_thread(body)


def test_backward_frees_only_the_swept_subgraph():
    a = leaf(2.0)
    b = leaf(3.0)
    y1 = a * a
    y2 = b * b
    y2.backward()
    y1.backward()  # y1's rows were not swept by y2.backward()
    assert (a.grad.item(), b.grad.item()) == (4.0, 6.0)
    with pytest.raises(RuntimeError, match=SECOND_TIME):
        y2.backward()
    assert b.grad.item() == 6.0  # the failed sweep accumulated nothing


def test_a_shared_subgraph_is_freed_by_the_first_sweep(torch):
    for lib in (tg, torch):
        a = lib.tensor(0.5, dtype=lib.float64, requires_grad=True)
        u = a * a
        y1, y2 = u.sin(), u.cos()
        y1.backward()
        with pytest.raises(RuntimeError, match=SECOND_TIME):
            y2.backward()


def test_a_swept_scalar_non_leaf_used_again_raises_on_backward(torch):
    for lib in (torch, tg):
        a = lib.tensor(2.0, dtype=lib.float64, requires_grad=True)
        b = lib.tensor(5.0, dtype=lib.float64, requires_grad=True)
        y = a * a
        y.backward()  # frees y's graph
        z = y * b
        assert z.grad_fn.name() == "MulBackward0"
        assert "grad_fn=<MulBackward0>" in repr(z)
        with pytest.raises(RuntimeError, match=SECOND_TIME):
            z.backward()


def test_a_swept_array_non_leaf_used_again_raises_on_backward(torch):
    for lib in (torch, tg):
        a = lib.tensor([2.0, 3.0], dtype=lib.float64, requires_grad=True)
        b = lib.tensor([5.0, 1.0], dtype=lib.float64, requires_grad=True)
        y = a * a
        y.sum().backward()
        z = y * b
        assert z.grad_fn.name() == "MulBackward0"
        with pytest.raises(RuntimeError, match=SECOND_TIME):
            z.sum().backward()
        w = (y.detach() * b).sum()  # the values stay usable once detached
        b.grad = None
        w.backward()
        assert b.grad.tolist() == [4.0, 9.0]


def test_a_non_leaf_kept_with_retain_graph_can_be_built_on(torch):
    for lib in (torch, tg):
        a = lib.tensor(2.0, dtype=lib.float64, requires_grad=True)
        y = a * a
        y.backward(retain_graph=True)
        (y * 3).backward()
        assert a.grad.item() == 4.0 + 12.0


def test_autograd_grad_frees_too():
    a = leaf(2.0)
    y = a.exp() * a
    (g,) = tg.autograd.grad(y, a)
    assert math.isclose(g.item(), 3 * math.exp(2.0))
    with pytest.raises(RuntimeError, match=SECOND_TIME):
        tg.autograd.grad(y, a)


def test_retain_graph_allows_repeats_and_accumulates():
    a = leaf([1.0, 2.0])
    y = (a * a * a).sum()
    for _ in range(3):
        y.backward(retain_graph=True)
    np.testing.assert_array_equal(np.asarray(a.grad), 3 * 3 * np.array([1.0, 4.0]))
    (g,) = tg.autograd.grad(y, a, retain_graph=True)
    np.testing.assert_array_equal(np.asarray(g), [3.0, 12.0])
    y.backward()  # the last one, without retain_graph, frees
    np.testing.assert_array_equal(np.asarray(a.grad), 4 * 3 * np.array([1.0, 4.0]))
    with pytest.raises(RuntimeError, match=SECOND_TIME):
        y.backward()


# ---- values on the tape follow the tensor ---------------------------------------------

@pytest.mark.parametrize("how", ["data setter", "numpy view", "scalar data setter"])
def test_changed_leaf_values_are_used_by_later_ops(how, torch):
    for lib in (torch, tg):
        scalar = how.startswith("scalar")
        a = lib.tensor(1.5 if scalar else [1.0, 2.0], dtype=lib.float64, requires_grad=True)
        keep = a * 1.0  # a live non-leaf: the tape (and a's slot) stays
        if how == "numpy view":
            a.detach().numpy()[0] = 10.0
            want = [20.0, 4.0]
        else:
            a.data = lib.tensor(3.0 if scalar else [3.0, 4.0], dtype=lib.float64)
            want = 6.0 if scalar else [6.0, 8.0]
        (a * a).sum().backward()
        assert a.grad.tolist() == want, lib.__name__
        del keep


# ---- a failed op records nothing ------------------------------------------------------

FAILING = {
    "broadcast mismatch (fresh leaves)": lambda: leaf([1.0, 2.0, 3.0]) + leaf([1.0, 2.0]),
    "broadcast mismatch (adopted leaf)": lambda: _ADOPTED[0] * tg.ones(2, 2),
    "reflected broadcast mismatch": lambda: tg.ones(4) / _ADOPTED[0],
    "bad dtype operand": lambda: _ADOPTED[0] * np.array(["a", "b", "c"]),
    "int tensor requiring grad": lambda: _ADOPTED[0] + tg.tensor([1, 2, 3], requires_grad=True),
    "mean of int": lambda: tg.tensor([1, 2, 3]).mean(),
    "reshape": lambda: _ADOPTED[0].reshape(2, 2),
    "index out of range": lambda: _ADOPTED[0][3],
    "dim out of range": lambda: _ADOPTED[0].sum(1),
    "expand": lambda: _ADOPTED[0].expand(2, 4),
}
_ADOPTED = []


@pytest.mark.parametrize("name", list(FAILING))
def test_a_failed_op_leaves_the_tape_unchanged(name, tape):
    x = leaf([1.0, 2.0, 3.0])
    keep = x * 1.0  # x adopted, the tape non-empty
    _ADOPTED[:] = [x]
    try:
        before = counts(tape)
        rows = rows_of(tape)
        with pytest.raises((RuntimeError, TypeError, ValueError, IndexError)):
            FAILING[name]()
        assert counts(tape) == before
        np.testing.assert_array_equal(rows_of(tape), rows)
        keep.sum().backward()  # and the tape still works
        np.testing.assert_array_equal(np.asarray(x.grad), [1.0, 1.0, 1.0])
    finally:
        _ADOPTED.clear()


# ---- one tape per thread ------------------------------------------------------------------

def test_two_threads_record_at_once_with_independent_gradients():
    n = 3000
    barrier = threading.Barrier(2)
    results, errors = {}, []

    def work(k):
        try:
            x = leaf(0.1 * k)
            w = leaf(1.0 + k)
            barrier.wait()
            y = x
            for _ in range(n):  # interleaves with the other thread's recording
                y = (y * 0.999).sin() + w * 1e-4
            tape = current_tape()
            nrows, tp = 0, tape  # the rows of this thread's segments (tape.py _split),
            while tp is not None:  # each linked to the one before by y's LINK row
                nrows += tp.nrows - len(tp.links)
                tp = tp.links[0][0].tape if tp.links else None
            barrier.wait()
            y.backward()
            results[k] = (x.grad.item(), w.grad.item(), y.item(), id(tape), nrows)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for k in (1, 2):
        v, gx, gw = 0.1 * k, 1.0, 0.0
        for _ in range(n):  # hand-written forward and adjoints of the same chain
            c = math.cos(v * 0.999) * 0.999
            gx, gw = gx * c, gw * c + 1e-4
            v = math.sin(v * 0.999) + (1.0 + k) * 1e-4
        got_x, got_w, got_y, _, nrows = results[k]
        assert math.isclose(got_y, v, rel_tol=1e-12)
        assert math.isclose(got_x, gx, rel_tol=1e-9)
        assert math.isclose(got_w, gw, rel_tol=1e-9)
        assert nrows == 4 * n  # only this thread's rows: mul, sin, mul, add per step
    assert results[1][3] != results[2][3]


def test_no_grad_in_one_thread_does_not_affect_another():
    inside, checked = threading.Event(), threading.Event()
    seen = {}

    def a():
        with tg.no_grad():
            inside.set()
            checked.wait(5)
            seen["a"] = (leaf(1.0) * 2).requires_grad

    def b():
        inside.wait(5)
        before = current_tape().nrows
        y = leaf(1.0) * 2
        seen["b"] = (tg.is_grad_enabled(), y.requires_grad, current_tape().nrows - before)
        checked.set()

    ta, tb = threading.Thread(target=a), threading.Thread(target=b)
    ta.start()
    tb.start()
    ta.join()
    tb.join()
    assert seen == {"a": False, "b": (True, True, 1)}
    assert tg.is_grad_enabled()
