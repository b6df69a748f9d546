"""Every op's checks, driven by the spec rows in ``tapegrad.ops.SPECS``: forward against the
NumPy reference, gradient against finite differences, HIPS autograd and PyTorch, the pinned
conventions at kinks, forward replay of the recorded rows, and tape structure.
A new spec row gets every test here with no new code.
"""
import fnmatch
import functools
import math

import numpy as np
import pytest

import tapegrad as tg
from tapegrad._sweep import _forward_replay, _reverse_sweep
from tapegrad.autograd import tangent
from tapegrad.ops import SPECS
from tapegrad.ops.registry import OPS

SWEEPS = ("test_grad_fd", "test_grad_oracle", "test_grad_torch", "test_forward_replay")

# Known bugs: each (test, case) they match is xfail(strict=True) until the bug is fixed.
# (tests, case id patterns, reason, run); run=False where the bug can crash the process.
BUGS = []


def _marks(test, case_id):
    return [pytest.mark.xfail(strict=True, reason=reason, run=run)
            for tests, patterns, reason, run in BUGS
            if test in tests and any(fnmatch.fnmatchcase(case_id, p) for p in patterns)]


def cases(test, where=lambda spec: True):
    """Parametrize ``test`` over every spec row (``where`` it applies) and shape, with the
    marks of known bugs."""
    params = []
    for spec in filter(where, SPECS):
        for shape in spec.shapes:
            case_id = f"{spec.name}-shape{shape}"
            params.append(pytest.param(spec, shape, id=case_id,
                                       marks=_marks(test.__name__, case_id)))
    return pytest.mark.parametrize("spec, shape", params)(test)


pinned = pytest.mark.parametrize("spec, inputs, grads", [
    pytest.param(spec, inputs, grads, id=f"{spec.name}-{inputs}")
    for spec in SPECS for inputs, grads in spec.pinned])


def _out_shape(spec, xs):
    return np.shape(spec.ref(np, *xs))


@cases
def test_forward(spec, shape, rng, draw, leaves):
    xs = draw(spec, shape, rng)
    want = spec.ref(np, *xs)
    for requires_grad in (False, True):
        out = spec.fn(*leaves(xs, requires_grad))
        assert out.dtype == tg.float64
        assert tuple(out.shape) == np.shape(want)
        np.testing.assert_allclose(np.asarray(out), want, rtol=1e-13, atol=1e-15)


@cases
def test_forward_float32(spec, shape, rng, draw, leaves):
    """float32 inputs give a float32 result, to float32 accuracy."""
    xs = draw(spec, shape, rng, np.float32)
    want = spec.ref(np, *[x.astype(np.float64) for x in xs])
    for requires_grad in (False, True):
        out = spec.fn(*leaves(xs, requires_grad))
        assert out.dtype == tg.float32
        assert tuple(out.shape) == np.shape(want)
        np.testing.assert_allclose(np.asarray(out), want, rtol=1e-5, atol=1e-6)


@cases
def test_grad_fd(spec, shape, rng, draw, tg_vjp, fd_dot):
    xs = draw(spec, shape, rng)
    u = rng.standard_normal(_out_shape(spec, xs))
    grads = tg_vjp(spec.fn, xs, u)
    assert len(grads) == spec.arity
    for i, (x, g) in enumerate(zip(xs, grads, strict=True)):
        assert g.shape == x.shape
        v = rng.standard_normal(x.shape)
        assert np.vdot(g, v) == pytest.approx(fd_dot(spec.fn, xs, i, v, u), rel=1e-6, abs=1e-9)


@functools.partial(cases, where=lambda spec: spec.oracle)  # (oracle=False: PyTorch's only)
def test_grad_oracle(spec, shape, rng, draw, tg_vjp, autograd_vjp):
    xs = draw(spec, shape, rng)
    w = rng.standard_normal(_out_shape(spec, xs))
    for got, want in zip(tg_vjp(spec.fn, xs, w), autograd_vjp(spec.ref, xs, w), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


@pytest.mark.oracle
@cases
def test_grad_torch(spec, shape, rng, draw, value, tg_vjp, torch_vjp):
    xs = draw(spec, shape, rng)
    u = rng.standard_normal(_out_shape(spec, xs))
    want_value, want_grads = torch_vjp(spec.fn, xs, u)
    np.testing.assert_allclose(value(spec.fn, xs), want_value, rtol=1e-13, atol=1e-15)
    for got, want in zip(tg_vjp(spec.fn, xs, u), want_grads, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)


@pinned
def test_pinned(spec, inputs, grads):
    xs = [tg.tensor(float(a), requires_grad=True) for a in inputs]
    got = [g.item() for g in tg.autograd.grad(spec.fn(*xs), xs)]
    np.testing.assert_array_equal(got, grads)  # exact; nan matches nan


@pytest.mark.oracle
@pinned
def test_pinned_torch(spec, inputs, grads, torch):
    xs = [torch.tensor(float(a), dtype=torch.float64, requires_grad=True) for a in inputs]
    got = [g.item() for g in torch.autograd.grad(spec.fn(*xs), xs)]
    np.testing.assert_array_equal(got, grads)


def test_forward_replay_rows_name_what_does_not_replay():
    assert {s.name for s in SPECS if not s.replay} == {  # (their notes say why)
        "linear_leaf_bias", "sort", "sort_descending_dim0", "topk", "fmax", "fmin",
        "cummax", "median", "quantile"}


@functools.partial(cases, where=lambda spec: spec.replay)
def test_forward_replay(spec, shape, rng, draw, leaves, value, tg_vjp, tape):
    """Replaying the recorded rows at x2 gives f(x2), and sweeping them gives its gradient
    (every spec row whose forward rule replays)."""
    x1, x2 = draw(spec, shape, rng), draw(spec, shape, rng)
    xs = leaves(x1)
    start, first_slot = tape.nrows, tape.nslots
    out = spec.fn(*xs)
    assert out._gen == tape.gen
    # each use of an array leaf has its own slot (Tape.adopt); a scalar leaf has one
    uses = [[s for s, u in tape.leaves if u is t and s >= first_slot] or [t._slot] for t in xs]
    rows, offs, vals, consts, meta = tape.arrays()
    replayed = vals.copy()
    for slots, x in zip(uses, x2, strict=True):
        for s in slots:
            replayed[offs[s]:offs[s + 1]] = x.ravel()
    bad = np.zeros(1, np.int64)  # guard flags of the one point (w = 1)
    assert _forward_replay(rows, offs, replayed, consts, meta, start, len(rows), 1, bad) == -1
    assert bad[0] == 0
    o = slice(offs[out._slot], offs[out._slot + 1])
    got_value = replayed[o].reshape(out.shape)

    u = np.asarray(rng.standard_normal(out.shape))
    adj = np.zeros_like(replayed)
    adj[o] = u.ravel()
    reach = np.zeros(len(offs) - 1, np.uint8)
    reach[out._slot] = 1
    assert _reverse_sweep(rows, offs, replayed, consts, meta, adj, reach, start, len(rows), 1) == -1
    got_grads = [sum(adj[offs[s]:offs[s + 1]] for s in slots).reshape(t.shape)
                 for slots, t in zip(uses, xs, strict=True)]
    del rows, offs, vals, consts, meta  # the views pin the tape's buffers

    np.testing.assert_allclose(got_value, value(spec.fn, x2), rtol=1e-13, atol=1e-15)
    for got, want in zip(got_grads, tg_vjp(spec.fn, x2, u), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15)


@cases
def test_tangent_sweep(spec, shape, rng, draw, leaves, tg_vjp, tape):
    """Forward mode: the tangent sweep's J v against the reverse rules' J^T u (the dot test
    <u, J v> = <J^T u, v>, to rounding), for every op.  A graph holding an op without a
    tangent rule must make the sweep decline (forward mode then transposes: test_registry
    lists those ops), and jvp still answers."""
    xs = draw(spec, shape, rng)
    ins = leaves(xs)
    first_row = tape.nrows
    out = spec.fn(*ins)
    vs = [rng.standard_normal(np.shape(x)) for x in xs]
    u = rng.standard_normal(tuple(out.shape))
    got = tangent.sweep([out], ins, [v.ravel() for v in vs])
    if got is None:
        rows = tape.arrays()[0][first_row:]
        assert {int(c) & tg.tape.OP_MASK for c in rows[:, 0]} & \
            {c for c, d in OPS.items() if d.tan is None}
        jv = np.asarray(tg.func.jvp(spec.fn, tuple(leaves(xs, False)),
                                    tuple(tg.tensor(v) for v in vs))[1])
    else:
        jv = np.zeros(out.shape) if got[0] is None else got[0].reshape(out.shape)
    want = sum(np.vdot(g, v) for g, v in zip(tg_vjp(spec.fn, xs, u), vs, strict=True))
    assert np.vdot(u, jv) == pytest.approx(want, rel=1e-9, abs=1e-11)


@pytest.mark.parametrize("spec", [pytest.param(s, id=s.name) for s in SPECS])
def test_hvp_forward_over_reverse(spec, rng, draw, leaves, tape):
    """The forward-over-reverse sweep (each op's second-order rule) against reverse over
    reverse, for <u, f(x)> at the last shape of every op; a graph holding an op without a
    second-order rule must make it decline (test_registry lists those ops)."""
    xs = draw(spec, spec.shapes[-1], rng)
    ins = leaves(xs)
    first_row = tape.nrows
    out = spec.fn(*ins)
    loss = (out * tg.tensor(rng.standard_normal(tuple(out.shape)))).sum()
    vs = [rng.standard_normal(np.shape(x)) for x in xs]
    got = tangent.hvp(loss, ins, [v.ravel() for v in vs])
    if got is None:
        rows = tape.arrays()[0][first_row:]
        assert {int(c) & tg.tape.OP_MASK for c in rows[:, 0]} & \
            {c for c, d in OPS.items() if d.curv is None}
        return
    gs = tg.autograd.grad(loss, ins, create_graph=True, allow_unused=True)
    dot = sum((g * tg.tensor(v)).sum() for g, v in zip(gs, vs, strict=True) if g is not None)
    second = getattr(dot, "requires_grad", False)  # (piecewise constant ops: a plain 0)
    want = tg.autograd.grad(dot, ins, allow_unused=True) if second else [None] * len(ins)
    for g, h, g2, h2, x in zip(*got, gs, want, xs, strict=True):
        np.testing.assert_allclose(g, np.zeros(x.size) if g2 is None else
                                   np.ravel(g2.detach()), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(h, np.zeros(x.size) if h2 is None else np.ravel(h2),
                                   rtol=1e-9, atol=1e-9)


def _torch_requires_grad(spec, arrays):
    """Whether PyTorch's result of ``spec.fn`` made under no_grad requires grad (its view
    ops' results do, of an input that does), or None where torch is missing or refuses
    the spec's fn (every spec's fn runs there today)."""
    try:
        import torch
        xs = [torch.tensor(a, requires_grad=True) for a in arrays]
        with torch.no_grad():
            return spec.fn(*xs).requires_grad
    except Exception:  # noqa: BLE001 (fn calls a tapegrad-only name, or torch refuses it)
        return None


@cases
def test_records_rows(spec, shape, rng, draw, leaves, tape):
    """A call on inputs requiring grad appends rows; under no_grad it appends none and the
    result has no history (a view requires grad all the same, as PyTorch's no_grad-made
    views do: compared with torch where the spec's fn runs there)."""
    arrays = draw(spec, shape, rng)
    xs = leaves(arrays)
    before = tape.nrows
    out = spec.fn(*xs)
    assert out.requires_grad
    assert tape.nrows > before
    before = tape.nrows
    with tg.no_grad():
        out_no_grad = spec.fn(*xs)
    assert out_no_grad.grad_fn is None
    theirs = _torch_requires_grad(spec, arrays)
    assert theirs is None or out_no_grad.requires_grad == theirs
    assert tape.nrows == before


def test_zero_adjoint_is_not_skipped():
    """A row whose incoming adjoint is 0 still runs its rule: log's gives 0 / 0 = nan at 0."""
    x = tg.tensor(0.0, requires_grad=True)
    (x.log() * 0).backward()
    assert math.isnan(x.grad.item())


@pytest.mark.oracle
def test_zero_adjoint_is_not_skipped_torch(torch):
    x = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
    (x.log() * 0).backward()
    assert math.isnan(x.grad.item())


@functools.partial(cases, where=lambda spec: spec.replay)
def test_saved_trace_loads(spec, shape, rng, draw, value, tmp_path):
    """Every op's rows pass the layout checks of ``tapegrad.load`` (ops/layout.py): a saved
    trace of it loads and replays as the original does."""
    x1, x2 = draw(spec, shape, rng), draw(spec, shape, rng)
    u = rng.standard_normal(np.shape(value(spec.fn, x1)))
    f = lambda *xs: (spec.fn(*xs) * tg.tensor(u)).sum()  # noqa: E731
    t = tg.trace(f, *x1, argnums=tuple(range(len(x1))))
    t.save(tmp_path / "t.npz")
    back = tg.load(tmp_path / "t.npz")
    want, got = t.value_and_grad(*x2), back.value_and_grad(*x2)
    assert got[0] == want[0] or (np.isnan(got[0]) and np.isnan(want[0]))
    one = len(x1) == 1  # (then the gradient is not a tuple)
    for g, w in zip(*(((v[1],) if one else v[1]) for v in (got, want)), strict=True):
        np.testing.assert_array_equal(g, w)
