"""Replay around a backward inside f, round 36.

autograd.grad(out, x) inside f, while traced, refused with eager's error for an op without
a derivative that its adjoints reached, even off every path to x: PyTorch runs only the
nodes needed for the inputs asked for, so ``z // 2`` beside, asked for x alone, raises
nothing eagerly.  The refusal now counts only the slots whose gradient reaches the inputs
asked for (span.needed_slots), and replay gives eager's value and gradient.
"""
import numpy as np
import pytest
import torch

import tapegrad as tg


def _f(T, x, z, wrt):
    if wrt == "x":  # (z // 2 is off every path to x)
        g, = T.autograd.grad((x * x).sum() + (z // 2.0 * z).sum(), x, create_graph=True)
        return (g * x).sum() + (z * z).sum()
    if wrt == "both":
        gx, gz = T.autograd.grad((x * x).sum() + (z // 2.0 * z).sum(), (x, z),
                                 create_graph=True)
        return (gx * x).sum() + (gz * z).sum()
    q = x // 2.0  # (on the path to x)
    g, = T.autograd.grad((x * x).sum() + (q * x).sum() + (z * z).sum(), x, create_graph=True)
    return (g * x).sum() + (z * z).sum()


def _eager(T, x, z, wrt):
    x, z = (T.tensor(v, requires_grad=True) for v in (x, z))
    out = _f(T, x, z, wrt)
    gx, gz = T.autograd.grad(out, (x, z))
    return out.item(), np.array(gx.tolist()), np.array(gz.tolist())


@pytest.mark.parametrize("wrt", ["x", "both", "through-x"])
def test_inner_grad_refuses_only_where_eager_does(wrt, tmp_path):
    x0, z0 = [0.5, 1.5], [2.5, 3.0]
    try:
        want0 = _eager(torch, x0, z0, wrt)
    except RuntimeError as e:
        with pytest.raises(RuntimeError, match="floor_divide"):
            tg.jit.trace(lambda x, z: _f(tg, x, z, wrt), tg.tensor(x0), tg.tensor(z0),
                         argnums=(0, 1)).grad(tg.tensor(x0), tg.tensor(z0))
        assert "floor_divide" in str(e)
        return
    tr = tg.jit.trace(lambda x, z: _f(tg, x, z, wrt), tg.tensor(x0), tg.tensor(z0),
                      argnums=(0, 1))
    tr.save(tmp_path / "t.npz")
    loaded = tg.jit.load(tmp_path / "t.npz")
    rng = np.random.default_rng(0)
    for x, z in [(x0, z0)] + [(rng.uniform(-2, 2, 2), rng.uniform(-4, 4, 2)) for _ in range(3)]:
        v, gx, gz = _eager(torch, list(x), list(z), wrt)
        for t in (tr, loaded):
            got, (hx, hz) = t.value_and_grad(tg.tensor(x), tg.tensor(z))
            assert np.isclose(float(got), v) and np.allclose(hx, gx) and np.allclose(hz, gz)
    X, Z = rng.uniform(-2, 2, (5, 2)), rng.uniform(-4, 4, (5, 2))
    V, (GX, GZ) = tr.value_and_grad_batch(X, Z)
    for i in range(5):
        v, gx, gz = _eager(torch, list(X[i]), list(Z[i]), wrt)
        assert np.isclose(V[i], v) and np.allclose(GX[i], gx) and np.allclose(GZ[i], gz)
