"""Every op's checks, driven by the spec rows in ``tapegrad.ops.SPECS``: forward against the
NumPy reference, gradient against finite differences, HIPS autograd and PyTorch, the pinned
conventions at kinks, forward replay of the recorded rows, and tape structure.
A new spec row gets every test here with no new code.
"""
import math

import numpy as np
import pytest

import tapegrad as tg
from tapegrad._sweep import _forward_replay, _reverse_sweep
from tapegrad.ops import SPECS

# Known bugs, by case id: each case is xfail(strict=True) in every test until it is fixed.
BUGS = {}


def _case(spec, shape):
    cid = f"{spec.name}-shape{shape}"
    marks = [pytest.mark.xfail(strict=True, reason=BUGS[cid])] if cid in BUGS else []
    return pytest.param(spec, shape, id=cid, marks=marks)


CASES = [_case(spec, shape) for spec in SPECS for shape in spec.shapes]
PINNED = [pytest.param(spec, inputs, grads, id=f"{spec.name}-{inputs}")
          for spec in SPECS for inputs, grads in spec.pinned]
cases = pytest.mark.parametrize("spec, shape", CASES)
pinned = pytest.mark.parametrize("spec, inputs, grads", PINNED)


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

    xs32 = [x.astype(np.float32) for x in xs]
    want32 = spec.ref(np, *[x.astype(np.float64) for x in xs32])
    for requires_grad in (False, True):
        out = spec.fn(*leaves(xs32, requires_grad))
        assert out.dtype == tg.float32
        np.testing.assert_allclose(np.asarray(out), want32, rtol=1e-5, atol=1e-6)


@cases
def test_grad_fd(spec, shape, rng, draw, tg_vjp, fd_dot):
    xs = draw(spec, shape, rng)
    u = rng.standard_normal(_out_shape(spec, xs))
    grads = tg_vjp(spec.fn, xs, u)
    assert len(grads) == spec.arity
    for i, (x, g) in enumerate(zip(xs, grads)):
        assert g.shape == x.shape
        v = rng.standard_normal(x.shape)
        assert np.vdot(g, v) == pytest.approx(fd_dot(spec.fn, xs, i, v, u), rel=1e-6, abs=1e-9)


@cases
def test_grad_oracle(spec, shape, rng, draw, tg_vjp, autograd_vjp):
    if not spec.oracle:
        pytest.skip(f"{spec.name}: no HIPS autograd oracle (spec row oracle=False)")
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


@cases
def test_forward_replay(spec, shape, rng, draw, leaves, value, tg_vjp, tape):
    """Replaying the recorded rows at x2 gives f(x2), and sweeping them gives its gradient."""
    if not spec.replay:
        pytest.skip(f"{spec.name}: its forward rule does not replay (spec row replay=False)")
    x1, x2 = draw(spec, shape, rng), draw(spec, shape, rng)
    xs = leaves(x1)
    start = tape.nrows
    out = spec.fn(*xs)
    rows, offs, vals, consts, meta = tape.arrays()
    replayed = vals.copy()
    for t, x in zip(xs, x2):
        replayed[offs[t._slot]:offs[t._slot + 1]] = x.ravel()
    assert _forward_replay(rows, offs, replayed, consts, meta, start, len(rows)) == -1
    o = slice(offs[out._slot], offs[out._slot + 1])
    got_value = replayed[o].reshape(out.shape)

    u = rng.standard_normal(out.shape)
    adj = np.zeros_like(replayed)
    adj[o] = u.ravel()
    reach = np.zeros(len(offs) - 1, np.uint8)
    reach[out._slot] = 1
    assert _reverse_sweep(rows, offs, replayed, consts, meta, adj, reach, start, len(rows)) == -1
    got_grads = [adj[offs[t._slot]:offs[t._slot + 1]].reshape(t.shape) for t in xs]
    del rows, offs, vals, consts, meta  # the views pin the tape's buffers

    np.testing.assert_allclose(got_value, value(spec.fn, x2), rtol=1e-13, atol=1e-15)
    for got, want in zip(got_grads, tg_vjp(spec.fn, x2, u), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15)


@cases
def test_records_rows(spec, shape, rng, draw, leaves, tape):
    """A call on inputs requiring grad appends rows; under no_grad it appends none."""
    xs = leaves(draw(spec, shape, rng))
    before = tape.nrows
    out = spec.fn(*xs)
    assert out.requires_grad
    assert tape.nrows > before
    before = tape.nrows
    with tg.no_grad():
        out_no_grad = spec.fn(*xs)
    assert not out_no_grad.requires_grad
    assert tape.nrows == before


def test_zero_adjoint_is_not_skipped():
    """A row whose incoming adjoint is 0 still runs its rule: 0 * (1/0) gives nan, as PyTorch."""
    x = tg.tensor(0.0, requires_grad=True)
    (x.log() * 0).backward()
    assert math.isnan(x.grad.item())


@pytest.mark.oracle
def test_zero_adjoint_is_not_skipped_torch(torch):
    x = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
    (x.log() * 0).backward()
    assert math.isnan(x.grad.item())
