"""Replay around values Python reads from a trace (round 32): what a guard or a captured
constant compares must tell apart every value f can tell apart.  -0.0 == 0.0 in IEEE
arithmetic, yet f can branch on the sign of a zero (``math.copysign``, ``1 / x``,
``math.atan2``, its ``str``): a trace at 0.0 replayed at -0.0 gave f's answer at 0.0.
Each test compares replay with f run eagerly at the same point."""
import math

import numpy as np
import pytest

import tapegrad as tg


def _eager(f, x):
    xt = tg.tensor(x, requires_grad=True)
    y = f(xt)
    g, = tg.autograd.grad(y, xt)
    return float(y), g.numpy()


def _by_sign(x):  # (item(): a GUARD_EQ row)
    return x[1] * math.copysign(1.0, x[0].item())


def _by_atan2(x):  # (float(t): the same guard)
    return x[1] * math.atan2(float(x[0]), -1.0)


def _by_reciprocal(x):  # (the value read back into the graph)
    return x[1] / tg.tensor(x[0].item())


POS, NEG = np.array([0.0, 2.0]), np.array([-0.0, 2.0])


@pytest.mark.parametrize("f", [_by_sign, _by_atan2, _by_reciprocal])
@pytest.mark.parametrize("first,then", [(POS, NEG), (NEG, POS)])
def test_compile_retraces_at_the_other_zero(f, first, then):
    F = tg.compile(f)
    F(first)
    v, g = _eager(f, then)
    assert float(F(then)) == v
    np.testing.assert_array_equal(F.grad(then), g)
    V, G = F.value_and_grad_batch(np.stack([first, then]))
    assert V.tolist() == [_eager(f, first)[0], v]


@pytest.mark.parametrize("f", [_by_sign, _by_atan2])
def test_trace_refuses_the_other_zero(f):
    T = tg.jit.trace(f, POS)
    with pytest.raises(tg.DivergenceError):
        T.value(NEG)
    V = T.value_batch(np.stack([POS, NEG, POS]), on_divergence="mask")
    assert T.mask.tolist() == [True, False, True]
    assert V[0] == _eager(f, POS)[0] and np.isnan(V[1])


def test_fused_kernel_refuses_the_other_zero():
    T = tg.jit.trace(_by_sign, POS)
    assert T.compile_fused(wait=True) == "fused"
    X = np.stack([POS, NEG] * 4)
    V = T.value_batch(X, on_divergence="mask")
    assert T.mask is not None, "no point diverged"
    assert T.mask.tolist() == [True, False] * 4
    assert (V[::2] == 2.0).all() and np.isnan(V[1::2]).all()


def test_loaded_trace_refuses_the_other_zero(tmp_path):
    tg.jit.trace(_by_sign, POS).save(tmp_path / "t.npz")
    T = tg.jit.load(tmp_path / "t.npz")
    with pytest.raises(tg.DivergenceError):
        T.value(NEG)


SIGN = 0.0
CFG = {"sign": 0.0}
ZEROS = [0.0, 1.0]


def _reads_global(x):
    return (x * math.copysign(1.0, SIGN)).sum()


def _reads_dict(x):
    return (x * math.copysign(1.0, CFG["sign"])).sum()


def _reads_list(x):
    return (x * math.copysign(1.0, ZEROS[0])).sum()


@pytest.mark.parametrize("f,name,set_neg,set_pos", [
    (_reads_global, "SIGN", lambda: globals().__setitem__("SIGN", -0.0),
     lambda: globals().__setitem__("SIGN", 0.0)),
    (_reads_dict, "CFG", lambda: CFG.__setitem__("sign", -0.0),
     lambda: CFG.__setitem__("sign", 0.0)),
    (_reads_list, "ZEROS", lambda: ZEROS.__setitem__(0, -0.0),
     lambda: ZEROS.__setitem__(0, 0.0))])
def test_captured_zero_changing_sign_retraces(f, name, set_neg, set_pos):
    x = np.array([1.0, 2.0])
    F = tg.compile(f)
    try:
        assert float(F(x)) == 3.0
        set_neg()
        assert float(F(x)) == _eager(f, x)[0] == -3.0
        np.testing.assert_array_equal(F.grad(x), [-1.0, -1.0])
        set_pos()
        assert float(F(x)) == 3.0
    finally:
        set_pos()


def test_captured_closure_zero_changing_sign_retraces():
    s = 0.0

    def f(x):
        return (x * math.copysign(1.0, s)).sum()

    F = tg.compile(f)
    x = np.array([1.0, 2.0])
    assert float(F(x)) == 3.0
    s = -0.0  # noqa: F841 (read by f through its cell)
    assert float(F(x)) == -3.0
