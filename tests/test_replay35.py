"""Replay against eager, round 35: ops without a derivative.

An op with no derivative (``x // 0.3``, ``heaviside``, ``unique``'s values) makes a value
that eagerly requires grad when its input does, and a backward reaching it raises
PyTorch's error ("derivative for aten::floor_divide is not implemented").  While tracing
every computed value requires grad, so a trace could not tell where eager would refuse: it
recorded the result as a constant (or a zero-gradient composite), and every replay of the
gradient (one point, a batch, a Jacobian, a saved and loaded or pickled trace, compile(f)
called with tensors) gave a gradient through the other factors.  The trace now notes each
such value with the inputs eager would have requiring grad (not past a detach, a no_grad
block, a comparison, an integer result, an input outside argnums), and a gradient whose
sweep reaches a noted value raises eager's error; values replay as before.
"""
import pickle
import re

import numpy as np
import pytest
import torch

import tapegrad as tg

X = np.array([0.3, -0.7, 1.1])
PTS = np.stack([X, X + 1, -X, np.zeros(3)])


def _fd(T, x):
    return (x // 0.3 * x).sum()


def _fd_scaled(T, x):
    q = (x * 2) // 0.3
    return (q.sin() * x).sum() + x.sum()


def _heaviside(T, x):
    return (T.heaviside(x, T.tensor(0.5, dtype=T.float64)) * x).sum()


def _fd_detached(T, x):
    return ((x // 0.3).detach() * x).sum()


def _fd_no_grad(T, x):
    with T.no_grad():
        q = x // 0.3
    return (q * x).sum()


def _fd_of_a_mask(T, x):  # (a comparison's result requires no grad eagerly)
    return (((x > 0).double() // 0.3) * x).sum()


def _fd_of_detached(T, x):
    return ((x.detach() // 0.3) * x).sum()


def _fd_set_grad(T, x):
    with T.set_grad_enabled(False):
        q = (x + 1) // 0.5
    return (q * x * x).sum()


def _fd_unused(T, x):  # (eager's backward never reaches it)
    q = x // 0.3
    return (x * x).sum() + 0 * q.detach().sum()


def _fd_of_argmax(T, x):  # (an integer result: no grad)
    return ((x.argmax() // 2) * x).sum()


def _heaviside_then_fd(T, x):  # (eager's backward meets the later one first:
    # tests/fuzz_replay_noderiv35.py --start 27 --count 1 gave heaviside's error)
    return ((T.heaviside(x.floor(), T.tensor(0.5, dtype=T.float64)) // 0.3) * x).sum()


def _scatter_add(T, x):  # (scatter's reduce= has no derivative: a constant while traced)
    return (T.zeros(3, dtype=T.float64).scatter(0, T.tensor([0, 1, 1]), x, reduce="add")
            * x).sum()


def _bincount(T, x):
    return (T.bincount(T.tensor([0, 1, 2]), weights=x) * x).sum()


REFUSED = [_fd, _fd_scaled, _heaviside, _heaviside_then_fd, _scatter_add, _bincount]
ANSWERED = [_fd_detached, _fd_no_grad, _fd_of_a_mask, _fd_of_detached, _fd_set_grad, _fd_unused,
            _fd_of_argmax]


def _eager(T, f, x):
    xt = T.tensor(x, requires_grad=True)
    y = f(T, xt)
    try:
        y.backward()
    except (RuntimeError, NotImplementedError) as e:
        return float(y.detach()), e
    return float(y.detach()), xt.grad.numpy().copy()


def _paths(f, tmp_path):
    t = tg.jit.trace(lambda x: f(tg, x), X)
    t.save(tmp_path / "t.npz")
    return {"traced": t, "loaded": tg.jit.load(tmp_path / "t.npz"),
            "pickled": pickle.loads(pickle.dumps(t)), "compiled": tg.compile(lambda x: f(tg, x))}


def _grads(r):
    """Every gradient path of a trace or a compiled f, at PTS."""
    yield "grad", lambda: r.grad(PTS[0])
    yield "value_and_grad", lambda: r.value_and_grad(PTS[1])[1]
    yield "grad_batch", lambda: r.grad_batch(PTS[:1])
    yield "jacobian", lambda: r.jacobian(PTS[0])
    yield "vjp_batch", lambda: r.vjp_batch(PTS[:1], v=np.ones((1,)))[1]


@pytest.mark.parametrize("f", REFUSED)
def test_gradient_through_an_op_without_derivative_is_refused_as_eagerly(f, tmp_path):
    v, err = _eager(tg, f, X)
    vt, errt = _eager(torch, f, X)
    assert isinstance(err, RuntimeError) and str(err) == str(errt)  # (the oracle)
    for kind, r in _paths(f, tmp_path).items():
        for what, call in _grads(r):
            with pytest.raises(RuntimeError, match="^" + str(errt) + "$"):
                call()
        # values replay as before (heaviside's a constant guarded at the traced point)
        want = np.array([_eager(torch, f, x)[0] for x in PTS])
        V = r.value_batch(PTS, **({} if kind == "compiled" else {"on_divergence": "mask"}))
        ok = np.ones(len(PTS), bool) if kind == "compiled" or r.mask is None else r.mask
        assert ok[0]
        np.testing.assert_allclose(V[ok], want[ok], rtol=1e-14)
    xt = tg.tensor(X, requires_grad=True)
    y = tg.compile(lambda x: f(tg, x))(xt)
    assert float(y.detach()) == pytest.approx(vt, rel=1e-15)
    with pytest.raises(RuntimeError, match=str(errt)):
        y.backward()


def test_unique_values_refuse_with_eagers_not_implemented_error():
    def f(T, x):
        return (T.unique(x * 0 + 1.5) * x).sum()
    _, errt = _eager(torch, f, X)
    _, err = _eager(tg, f, X)
    assert type(err) is type(errt) is NotImplementedError
    t = tg.jit.trace(lambda x: f(tg, x), X)
    with pytest.raises(NotImplementedError, match=str(err)):
        t.grad(X)


@pytest.mark.parametrize("f", ANSWERED)
def test_op_without_derivative_off_the_gradient_path_replays_eagers_gradient(f, tmp_path):
    want = [_eager(torch, f, x) for x in PTS]
    for x, (v, g) in zip(PTS, want):
        assert not isinstance(g, Exception), g
        vt, gt = _eager(tg, f, x)
        assert vt == pytest.approx(v, rel=1e-15)
        np.testing.assert_allclose(gt, g, rtol=1e-15)
    for kind, r in _paths(f, tmp_path).items():
        kw = {} if kind == "compiled" else {"on_divergence": "mask"}
        V, G = r.value_and_grad_batch(PTS, **kw)
        ok = np.ones(len(PTS), bool) if kind == "compiled" or r.mask is None else r.mask
        assert ok[0]
        np.testing.assert_allclose(V[ok], np.array([v for v, _ in want])[ok], rtol=1e-14)
        np.testing.assert_allclose(G[ok], np.stack([g for _, g in want])[ok], rtol=1e-14)


def test_op_without_derivative_on_an_input_outside_argnums_is_not_refused():
    """grad by argnums (torch.func.grad's): w is not differentiated, so w // 0.3 has no
    node on the way to x; with both differentiated, eager's refusal."""
    def g(T, x, w):
        return (x * (w // 0.3)).sum()
    t = tg.jit.trace(lambda x, w: g(tg, x, w), X, X + 1, argnums=0)
    want = torch.func.grad(lambda x, w: g(torch, x, w))(torch.tensor(X), torch.tensor(X + 1))
    np.testing.assert_array_equal(t.grad(X, X + 1), want.numpy())
    t2 = tg.jit.trace(lambda x, w: g(tg, x, w), X, X + 1, argnums=(0, 1))
    with pytest.raises(RuntimeError, match="derivative for aten::floor_divide"):
        t2.grad(X, X + 1)


@pytest.mark.parametrize("entry", ["5", "5 RuntimeError", "x RuntimeError: m",
                                   "1000000 RuntimeError: m", "1 SystemExit: m", "1 RuntimeError: "
                                   + "m" * 300, "-1 RuntimeError: m", "\u00b2 RuntimeError: m"])
def test_loaded_no_derivative_field_is_checked(entry, tmp_path):
    t = tg.jit.trace(lambda x: _fd(tg, x), X)
    t.save(tmp_path / "t.npz")
    z = dict(np.load(tmp_path / "t.npz"))
    z["no_derivative"] = np.array([entry])
    z["digest"] = tg.replay.validate.digest(z)
    np.savez(tmp_path / "bad.npz", **z)
    with pytest.raises(ValueError, match="trace field 'no_derivative'"):
        tg.jit.load(tmp_path / "bad.npz")


@pytest.mark.parametrize("reduce", ["add", "multiply"])
def test_scatter_reduce_result_is_guarded_at_its_point(reduce):
    """scatter's reduce= result is a constant of the rows (no replay rule); its operands
    were read without a guard, so replay gave the traced point's sums at every point
    (a value off by 1.9 at a new point, with no word).  Now a point where they differ
    diverges: compile(f) traces again and gives eager's value."""
    def f(T, x):
        src = x * 2
        return (T.ones(3, dtype=T.float64).scatter(0, T.tensor([0, 1, 1]), src,
                                                    reduce=reduce) * x).sum()
    C = tg.compile(lambda x: f(tg, x))
    t = tg.jit.trace(lambda x: f(tg, x), X)
    for x in PTS:
        want = float(f(torch, torch.tensor(x)))
        assert float(C(x)) == pytest.approx(want, rel=1e-14)
        try:
            assert t.value(x) == pytest.approx(want, rel=1e-14)
        except tg.DivergenceError:
            assert not np.array_equal(x, X)


@pytest.mark.parametrize("notes", [[5], [None], "1 RuntimeError: m", {"1": "x"}, [b"1 x"],
                                   ["1 RuntimeError: m"] * 10**6])
def test_unpickled_no_derivative_field_is_checked(notes):
    t = tg.jit.trace(lambda x: _fd(tg, x), X)
    d = t.__getstate__()
    d["no_derivative"] = notes
    with pytest.raises(ValueError, match="trace field 'no_derivative'"):
        tg.replay.Traced.__new__(tg.replay.Traced).__setstate__(d)


def _inner_grad(T, x):
    g, = T.autograd.grad((x // 0.3 * x).sum(), x, create_graph=True)
    return (g * x).sum()


def _inner_grad_plain(T, x):
    g, = T.autograd.grad((x // 0.3 * x).sum(), x)
    return (g * x).sum()


def _inner_grad_scatter(T, x):  # (the noted value is a constant's copy, which no row joins
    # to x: tests/fuzz_replay_noderiv35.py --start 9 --count 1)
    v = T.ones(3, dtype=T.float64).scatter(0, T.tensor([0, 2, 2]), x, reduce="multiply")
    g, = T.autograd.grad((v * x).sum(), x, create_graph=True)
    return (g * x).sum()


def _inner_grad_unique(T, x):  # (autograd.grad's sweep skipped the constant unique gave:
    # no row joins it to x; tests/fuzz_replay_noderiv35.py --start 1125 --count 1)
    v = T.unique(x.floor()).sum() + x
    g, = T.autograd.grad((v * x).sum(), x, create_graph=True)
    return (g * x).sum()


def _inner_backward_of_a_mask(T, x):  # (no node: eager answers)
    y = x * 1.0
    g, = T.autograd.grad((((x > 0).double() // 0.3) * y).sum(), y)
    return (g * x).sum()


@pytest.mark.parametrize("f", [_inner_grad, _inner_grad_plain, _inner_grad_scatter,
                               _inner_grad_unique])
def test_backward_inside_f_through_an_op_without_derivative_is_refused_as_eagerly(f):
    """autograd.grad inside f records its adjoints while traced: it went through x // 0.3
    as a zero and the trace gave a value where eager f raises."""
    with pytest.raises((RuntimeError, NotImplementedError)) as want:
        f(torch, torch.tensor(X, requires_grad=True))
    msg = "^" + re.escape(str(want.value)) + "$"
    with pytest.raises(want.type, match=msg):
        f(tg, tg.tensor(X, requires_grad=True))
    with pytest.raises(want.type, match=msg):
        tg.jit.trace(lambda x: f(tg, x), X)
    with pytest.raises(want.type, match=msg):
        tg.compile(lambda x: f(tg, x))(X)


def test_backward_inside_f_off_the_gradient_path_answers():
    f = _inner_backward_of_a_mask
    for x in PTS:
        want = float(f(torch, torch.tensor(x, requires_grad=True)))
        assert float(tg.compile(lambda x: f(tg, x))(x)) == pytest.approx(want, rel=1e-14)
