"""Values that leave the gradient path while tracing (issue 17, part 2): detach(), .data,
detach_(), no_grad / set_grad_enabled(False) / inference_mode blocks, tensor(t) of a traced
value.  They are recorded (STOP_GRAD rows, ops/control.py) and replay at every point: value
and gradient equal a fresh eager run of f there, or the point is flagged (a guard: retrace,
DivergenceError, mask), or tracing refuses with a clear error; never the traced point's
values silently."""
import contextlib
import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tapegrad as tg
from tapegrad.ops import control
from tapegrad.ops.registry import NAMES, OPS, VJP, no_gradient
from tapegrad.replay import trace
from tapegrad.tensor import EagerOnlyError

POINTS = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 4.0], [-2.0, 0.25, 1.5], [3.0, -0.5, -1.0]])


def eager(f, x):
    """f's value and gradient at x, by a fresh eager run and backward (zeros where f's
    result does not require grad: no gradient flows)."""
    xt = tg.tensor(np.array(x, dtype=float), requires_grad=True)
    y = f(xt)
    if not y.requires_grad:
        return y.item(), np.zeros_like(x)
    y.backward()
    return y.item(), np.asarray(xt.grad)


def assert_replays(f, points=POINTS, trace_at=0):
    """Compiled f (traced at points[trace_at]) equals eager f at every point, one at a time
    and as a batch."""
    c = tg.compile(f)
    c.value_and_grad(points[trace_at])  # the trace
    want = [eager(f, p) for p in points]
    for p, (v, g) in zip(points, want, strict=True):
        got_v, got_g = c.value_and_grad(p)
        np.testing.assert_allclose(got_v, v, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(got_g, g, rtol=1e-12, atol=1e-12)
    V, G = c.value_and_grad_batch(points)
    np.testing.assert_allclose(V, [v for v, _ in want], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(G, np.stack([g for _, g in want]), rtol=1e-12, atol=1e-12)
    return c


# ---- the cases of the issue ----------------------------------------------------------------
def _no_grad_norm(x):
    with tg.no_grad():
        n = x.norm()
    return (x / n).sum()


def _set_grad_enabled_norm(x):
    with tg.set_grad_enabled(False):
        n = x.norm()
    return (x / n).sum()


def _inference_mode_norm(x):
    with tg.inference_mode():
        n = (x * x).sum().sqrt()
    return (x * n.clone()).sum()  # (PyTorch refuses to save the inference tensor itself)


@tg.no_grad()
def _decorated_scale(x):
    return x.abs().max()


def _detach_inplace(x):
    d = x * 1.0
    d.detach_()
    return (x * d.sin()).sum()


CASES = {
    "detach": lambda x: (x / x.detach().norm()).sum(),
    "data": lambda x: (x / x.data.norm()).sum(),
    "detach_": _detach_inplace,
    "no_grad": _no_grad_norm,
    "set_grad_enabled": _set_grad_enabled_norm,
    "inference_mode": _inference_mode_norm,
    "no_grad_decorator": lambda x: (x.exp() / _decorated_scale(x)).sum(),
    "tensor_of_traced": lambda x: (x * tg.tensor(x.tanh())).sum(),
    "as_tensor_of_traced": lambda x: (x * tg.as_tensor(x.tanh())).sum(),  # x itself: grads
    "detach_chain": lambda x: (x * (x.detach() * 3.0).sin() + x.detach().exp()).sum(),
    "where_on_detached": lambda x: tg.where(x.detach() > 0, x * x, -x).sum(),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_off_the_gradient_path_replay_as_eager(name):
    assert_replays(CASES[name])


def test_the_old_behaviour_was_wrong_at_new_points():
    """The pinned cases do depend on the point (a constant detached value would fail)."""
    f = CASES["detach"]
    g = lambda x: (x / np.linalg.norm(POINTS[0])).sum()  # noqa: E731 (detach frozen at 0)
    assert not np.isclose(eager(f, POINTS[1])[0], eager(g, POINTS[1])[0])


def test_enable_grad_inside_no_grad_carries_gradient():
    def f(x):
        with tg.no_grad():
            a = x.sin()
            with tg.enable_grad():
                b = x * x  # gradient flows (enable_grad), a's does not
            c = b * 2.0  # no_grad again: no gradient through c
        return (a * x + b + c).sum()
    assert_replays(f)


def test_grad_mode_seen_inside_f_is_pytorchs():
    seen = []

    def f(x):
        seen.append(tg.is_grad_enabled())
        with tg.no_grad():
            seen.append(tg.is_grad_enabled())
            with tg.enable_grad():
                seen.append(tg.is_grad_enabled())
            seen.append(tg.is_grad_enabled())
        seen.append(tg.is_grad_enabled())
        return (x * x).sum()
    tg.trace(f, [1.0, 2.0])
    assert seen == [True, False, True, False, True]
    assert tg.is_grad_enabled()
    with tg.no_grad():
        assert not tg.is_grad_enabled()
    assert tg.is_grad_enabled()


@pytest.mark.parametrize("start", [True, False], ids=["grad-on", "grad-off"])
def test_f_leaving_grad_mode_changed_runs_eagerly(start):
    """f calls set_grad_enabled as a function (not a context manager) and does not restore
    it: an eager call leaves the caller's grad mode changed, as PyTorch does (checked against
    torch), so a call of the compiled f must too, with f's value; a trace (an array call)
    refuses such an f, naming the fix, and leaves the mode as it was."""
    torch = pytest.importorskip("torch")

    def body(lib, x, mode):
        y = (x * x).sum()
        lib.set_grad_enabled(mode)
        return y * 2.0

    def f(x):
        return body(tg, x, not start)

    def run(call):
        tg.set_grad_enabled(start)
        try:
            y = call()
            return float(y.detach().numpy()), tg.is_grad_enabled(), y.requires_grad
        finally:
            tg.set_grad_enabled(True)
    torch.set_grad_enabled(start)
    try:
        yt = body(torch, torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True),
                  not start)
        want = (float(yt.detach()), torch.is_grad_enabled(), yt.requires_grad)
    finally:
        torch.set_grad_enabled(True)
    assert want == (10.0, not start, False)  # (y * 2.0: with grad off, or y had none)
    assert run(lambda: f(tg.tensor([1.0, 2.0], requires_grad=True))) == want  # eager
    compiled = tg.compile(f)
    for _ in range(3):  # the first call, and the calls after it
        assert run(lambda: compiled(tg.tensor([1.0, 2.0], requires_grad=True))) == want
    with pytest.raises(EagerOnlyError, match="left grad mode") as e:
        trace(f, [1.0, 2.0], grad_mode=start)
    assert "with torch.no_grad()" in str(e.value) and tg.is_grad_enabled()


def test_rows_above_a_stop_are_not_swept():
    """No gradient flows back through a detach or a comparison, so the rows above them are
    not swept (as PyTorch never visits them): sqrt's rule at 0 would give 0 * inf = nan."""
    for f in (lambda x: x.sum() + x.sqrt().detach().sum(),
              lambda x: tg.where(x.sqrt() > 0.5, x, 2.0 * x).sum(),
              lambda x: x.sum() + _no_grad_sqrt(x)):
        points = np.array([[0.0, 1.0], [0.0, 4.0], [1.0, 0.0]])
        assert_replays(f, points)
        assert np.isfinite(tg.compile(f).grad_batch(points)).all()


def _no_grad_sqrt(x):
    with tg.no_grad():
        return x.sqrt().sum()


def test_conversions_of_detached_values_are_guards():
    """.item() / float() of a detached traced value: a GUARD_EQ row (retrace elsewhere)."""
    f = lambda x: x.sin().sum() * x.detach().sum().item()  # noqa: E731
    g = lambda x: x.sin().sum() * float(x.data.max())  # noqa: E731
    # sums 6, 3.5, -0.25, 1.5; maxima 3, 4, 1.5, 3 (the last point's equals the traced one's)
    for fn, mask in ((f, [True, False, False, False]), (g, [True, False, False, True])):
        assert_replays(fn)
        with pytest.raises(tg.DivergenceError):
            tg.compile(fn, on_divergence="raise").grad_batch(POINTS)
        c = tg.compile(fn, on_divergence="mask")
        V, G = c.value_and_grad_batch(POINTS)
        assert c.mask.tolist() == mask
        assert np.isnan(V[~c.mask]).all() and np.isnan(G[~c.mask]).all()
        want = np.array([eager(fn, p)[0] for p in POINTS[c.mask]])
        np.testing.assert_allclose(V[c.mask], want, rtol=1e-12)


def test_a_branch_on_a_detached_value_is_guarded():
    def f(x):
        if x.detach()[0] > 0:
            return (x * x).sum()
        return x.sin().sum()
    c = assert_replays(f)  # POINTS[0][0] > 0, POINTS[2][0] < 0
    assert len(next(iter(c.traces.values()))) == 2  # one trace per branch
    with pytest.raises(tg.DivergenceError, match="guard #0"):
        tg.compile(f, on_divergence="raise").grad_batch(POINTS)
    m = tg.compile(f, on_divergence="mask")
    m.grad_batch(POINTS)
    assert m.mask.tolist() == [True, True, False, True]


def test_branch_on_a_value_computed_under_no_grad_is_guarded():
    def f(x):
        with tg.no_grad():
            big = x.abs().sum() > 4
        return (x * 2.0).sum() if big else (x ** 3).sum()
    assert_replays(f)


@pytest.mark.parametrize("how, fn", [
    ("numpy", lambda x: x.detach().numpy()),
    ("numpy", lambda x: x.data.numpy()),
    ("numpy", lambda x: _under_no_grad(lambda: (x * 2).numpy())),
    ("conversion to a NumPy array", lambda x: np.asarray(x.detach())),
    ("tolist", lambda x: x.detach().tolist()),
    ("Tensor", lambda x: tg.Tensor(x.detach())),
    ("Tensor", lambda x: tg.Tensor(x * 2.0)),
    ("x.data = t", lambda x: setattr(tg.zeros(3), "data", x.detach() * 2)),
])
def test_values_leaving_the_tape_are_refused(how, fn):
    with pytest.raises(RuntimeError, match=rf"tapegrad.trace: {how}.*traced tensor"):
        tg.trace(lambda x: (fn(x), x.sum())[1], [1.0, 2.0, 3.0])


def _under_no_grad(thunk):
    with tg.no_grad():
        return thunk()


def test_tensor_of_a_traced_value_requiring_grad_is_refused():
    with pytest.raises(RuntimeError, match=r"tensor\(t, requires_grad=True\) of a traced"):
        tg.trace(lambda x: tg.tensor(x, requires_grad=True).sum(), [1.0, 2.0])


def test_in_place_under_no_grad_on_gradient_history_is_refused():
    def f(x):
        y = x * 2.0
        with tg.no_grad():
            y.add_(1.0)  # PyTorch: y keeps its history (gradient 2 to x) with new values
        return (y * x).sum()
    with pytest.raises(RuntimeError, match="carries gradient"):
        tg.trace(f, [1.0, 2.0])

    def g(x):
        with tg.no_grad():
            x.mul_(2.0)
        return x.sum()
    with pytest.raises(RuntimeError, match="leaf that requires grad"):
        tg.trace(g, [1.0, 2.0])


def test_in_place_under_no_grad_on_values_without_gradient_replays():
    def f(x):
        with tg.no_grad():
            y = x * 2.0
            y.add_(1.0)
            c = tg.zeros(3)
            c += x
        d = tg.tensor(x)  # a copy
        with tg.no_grad():
            d.mul_(3.0)
        e = x.detach().clone()
        e[0] = 5.0
        return (y * x + c * d + e * x).sum()
    assert_replays(f)


@pytest.mark.parametrize("write", [
    lambda d: d.mul_(3.0),
    lambda d: d.__setitem__(0, 5.0),
    lambda d: _under_no_grad(lambda: d.add_(1.0)),
])
@pytest.mark.parametrize("alias", [lambda x: x.detach(), lambda x: x.data])
def test_in_place_through_a_detached_alias_is_refused(write, alias):
    """Eagerly (and in PyTorch) it writes through to x; replay could not follow that."""
    def f(x):
        write(alias(x))
        return (x * x).sum()
    assert eager(f, [1.0, 2.0])[0] != 5.0  # eagerly x changed (unchanged: 1 + 4)
    with pytest.raises(RuntimeError, match="writes through"):
        tg.trace(f, [1.0, 2.0])


# ---- the row itself ------------------------------------------------------------------------
def test_stop_grad_is_declared_like_the_other_tracing_rows():
    assert OPS[control.STOP_GRAD].node == NAMES[control.STOP_GRAD] == "DetachBackward0"
    assert OPS[control.STOP_GRAD].fwd is control.stop_grad_fwd
    assert OPS[control.STOP_GRAD].rev is None and VJP[control.STOP_GRAD] is no_gradient


def test_tracing_records_detach_as_a_stop_row_and_eager_records_nothing():
    t = tg.trace(lambda x: (x * x.detach()).sum(), [1.0, 2.0])
    assert (t.rows[:, 0] == control.STOP_GRAD).sum() == 1
    assert "DetachBackward0" in t.listing()
    np.testing.assert_allclose(t.grad([3.0, -1.0]), [3.0, -1.0])  # d/dx x * stop(x) = x

    x = tg.tensor([1.0, 2.0], requires_grad=True)
    tape = (x * 1.0)._tok.tape
    before = tape.nrows
    d = x.detach()
    assert not d.requires_grad and d.is_leaf and d.grad_fn is None
    assert tape.nrows == before
    with tg.no_grad():
        assert not (x * 2.0).requires_grad
    assert tape.nrows == before


def test_no_grad_rows_inside_a_trace_are_stopped():
    def f(x):
        with tg.no_grad():
            s = x.sin() * 2.0
        return (s * x).sum()
    t = tg.trace(f, [0.5, 1.0])
    assert (t.rows[:, 0] == control.STOP_GRAD).sum() == 2  # sin's, mul's
    np.testing.assert_allclose(t.grad([1.0, 2.0]), 2.0 * np.sin([1.0, 2.0]))


def test_second_order_through_a_detach():
    """create_graph's vjp of a stop row is nothing (registry.no_gradient): the Hessian of
    sum(sin(x) * stop(x)) is diag(-sin(x) * x)."""
    f = tg.compile(lambda x: (x.sin() * x.detach()).sum())
    x = np.array([0.3, -1.2, 2.0])
    np.testing.assert_allclose(f.hessian(x), np.diag(-np.sin(x) * x), rtol=1e-12, atol=1e-12)


@pytest.mark.oracle
def test_cases_agree_with_torch():
    """The eager reference itself is PyTorch's semantics (value and gradient)."""
    torch = pytest.importorskip("torch")
    x = POINTS[1]
    xt = torch.tensor(x, requires_grad=True)
    y = (xt / xt.detach().norm()).sum()
    y.backward()
    v, g = eager(CASES["detach"], x)
    np.testing.assert_allclose(v, y.item(), rtol=1e-13)
    np.testing.assert_allclose(g, xt.grad.numpy(), rtol=1e-13)
    xt = torch.tensor(x, requires_grad=True)
    with torch.no_grad():
        n = xt.norm()
    ((xt / n).sum()).backward()
    np.testing.assert_allclose(eager(_no_grad_norm, x)[1], xt.grad.numpy(), rtol=1e-13)


# ---- property: random programs mixing the ways off the gradient path -----------------------
def _step(pool, kind, i, j):
    a, b = pool[i % len(pool)], pool[j % len(pool)]
    if kind == "sin":
        return a.sin()
    if kind == "mul":
        return a * b.tanh()
    if kind == "add":
        return a + b
    if kind == "detach":
        return a.detach()
    if kind == "data":
        return a.data * 0.5
    if kind == "no_grad":
        with tg.no_grad():
            return (a * b).cos() + 1.0
    if kind == "tensor":
        return tg.tensor(a).tanh()
    if kind == "where":
        return tg.where(a > b, a, b * 0.5)
    if kind == "branch":  # bool(): a guard on a comparison
        return b.sin() if a.sum() > 0 else b * 2.0
    if kind == "branch_detached":
        return b.cos() if a.detach()[0] > 0.5 else b - 1.0
    if kind == "float_sign":  # float() of a comparison: a guard on its value (0 or 1)
        return b * (1.0 + float(a.detach()[-1] > 0))
    if kind == "item":  # the exact value: flagged at (almost) every other point
        return b * a.data.sum().item()
    raise AssertionError(kind)


KINDS = ("sin", "mul", "add", "detach", "data", "no_grad", "tensor", "where", "branch",
         "branch_detached", "float_sign", "item")
COUNTS = {"programs": 0, "points": 0, "flagged": 0, "retraces": 0}


def _program(prog):
    def f(x):
        pool = [x]
        for kind, i, j in prog:
            pool.append(_step(pool, kind, i, j))
        return pool[-1].sum() + 0.25 * (x * x).sum()  # (always a gradient path to x)
    return f


def _check_program(prog, X):
    f = _program(prog)
    want = [eager(f, p) for p in X]
    V0 = np.array([v for v, _ in want])
    G0 = np.stack([g for _, g in want])
    masked = tg.compile(f, on_divergence="mask")
    V, G = masked.value_and_grad_batch(X)
    ok = np.ones(len(X), bool) if masked.mask is None else masked.mask
    assert ok[0]  # the traced point itself
    np.testing.assert_allclose(V[ok], V0[ok], rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(G[ok], G0[ok], rtol=1e-9, atol=1e-9)
    assert np.isnan(V[~ok]).all()
    retraced = tg.compile(f)  # "retrace": every point right
    V, G = retraced.value_and_grad_batch(X)
    np.testing.assert_allclose(V, V0, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(G, G0, rtol=1e-9, atol=1e-9)
    with pytest.raises(tg.DivergenceError) if not ok.all() else contextlib.nullcontext():
        tg.compile(f, on_divergence="raise").value_and_grad_batch(X)
    COUNTS["programs"] += 1
    COUNTS["points"] += len(X)
    COUNTS["flagged"] += int((~ok).sum())
    COUNTS["retraces"] += len(next(iter(retraced.traces.values()))) - 1


def _programs(max_len):
    step = st.tuples(st.sampled_from(KINDS), st.integers(0, 50), st.integers(0, 50))
    return st.lists(step, min_size=1, max_size=max_len)


def _points(n):
    # below ~1e-6 NumPy's tanh (eager) returns y where libm's (replay) returns y - 1 ulp, and
    # sin(y) == tanh(y) flips a traced comparison of the two (docs/replay.md): such points
    # are 0.0 here (a draw of 2.5e-08 made trace's self-check raise, as it should)
    tiny_as_zero = st.floats(-2.0, 2.0).map(lambda v: v if abs(v) > 1e-6 else 0.0)
    return hnp.arrays(np.float64, (n, 3), elements=tiny_as_zero)


def _property(max_examples, max_len, n):
    @settings(max_examples=max_examples, deadline=None)
    @given(prog=_programs(max_len), X=_points(n))
    def run(prog, X):
        _check_program(prog, X)
    return run


@pytest.fixture(scope="module", autouse=True)
def _report_counts():
    yield
    if COUNTS["programs"]:
        print(f"\nstop-gradient programs: {COUNTS}")


def test_random_programs_replay_as_eager_or_are_flagged():
    _property(150, 6, 6)()


@pytest.mark.slow
def test_random_programs_replay_as_eager_or_are_flagged_long():
    _property(400, 12, 12)()


def test_an_exact_guard_expects_the_value_replay_computes():
    """NumPy's tanh and Numba's differ in the last bit here: item() of the sum guarded on
    NumPy's value flagged the traced point itself (trace raised 'please report')."""
    x = [-0.09910150283190555, 0.3300090069407644, 1.0792812460032764]
    for f in (lambda x: (x * (x * x.tanh()).sum().item()).sum(),
              lambda x: (x * (x * x.tanh()).detach().sum().item()).sum()):
        t = tg.trace(f, x)
        np.testing.assert_allclose(t.value(x), eager(f, x)[0], rtol=1e-12)
        V, G = t.value_and_grad_batch(np.array([x, x]))  # no divergence at the point itself
        np.testing.assert_allclose(G[1], eager(f, x)[1], rtol=1e-12)


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_off_the_gradient_path_survive_save_and_load(name):
    """no_grad's rows pair an op writing a hidden slot with a STOP_GRAD row into the op's
    own, older slot (control._NoGradRows): load refused every such trace ("row 1 writes
    slot 1, which is not a new slot...") until validate ordered the pair."""
    f = CASES[name]
    t = tg.trace(f, POINTS[0])
    buf = io.BytesIO()
    t.save(buf)
    buf.seek(0)
    loaded = tg.jit.load(buf)
    for p in POINTS:
        v, g = loaded.value_and_grad(p)
        want_v, want_g = t.value_and_grad(p)
        assert v == want_v and np.array_equal(g, want_g)


def test_no_grad_ops_of_several_rows_survive_save_and_load():
    """max(dim) and sort under no_grad: one op's several rows each get their pair."""
    def f(x):
        with tg.no_grad():
            m, _ = x.max(dim=0)
            s = x.sort().values
        return m * x.sum() + (s * x).sum()
    x = np.array([3.0, 1.0, 2.0])
    t = tg.trace(f, x)
    buf = io.BytesIO()
    t.save(buf)
    buf.seek(0)
    p = np.array([2.5, 0.5, 1.0])  # (the same order: no guard decides otherwise)
    xt = tg.tensor(p, requires_grad=True)
    f(xt).backward()
    v, g = tg.jit.load(buf).value_and_grad(p)
    assert v == f(tg.tensor(p)).item() and np.array_equal(g, xt.grad.numpy())
