"""Replay against eager, round 34.

- The default dtype (``set_default_dtype``) is state every f reads: ``tensor(0.1)``,
  ``ones(3)``, ``arange(3.0)`` inside f make float32 constants under a float32 default.  A
  compiled f traced under one default kept its trace after a switch to the other, and
  replayed the old constants (0.1 as float64 where eager multiplies by float32's
  0.100000001...); a ``Traced`` replayed them without a word.  torch.compile guards the
  default dtype; now a compiled f traces again and a ``Traced`` raises, as for any other
  state f reads that moved.  Compared with f run eagerly, and with PyTorch.
"""
import numpy as np
import pytest
import torch

import tapegrad as tg

X = np.array([0.3, -0.7, 1.1])


def _eager(f, x):
    xt = tg.tensor(x, requires_grad=True)
    y = f(tg, xt)
    g, = tg.autograd.grad(y, xt)
    return float(y), g.numpy()


def _torch(f, x):
    xt = torch.tensor(x, requires_grad=True)
    y = f(torch, xt)
    y.backward()
    return float(y), xt.grad.numpy()


def _scalar(T, x):
    return (x * T.tensor(0.1)).sum()


def _ones(T, x):
    return (x * (T.ones(3) / 3)).sum()


def _arange(T, x):
    return (x * (T.arange(3.0) * 0.1)).sum() + (x * T.tensor([0.1, 0.2, 0.3])).sum()


def _full(T, x):
    return (x * T.full((3,), 1 / 3)).sum() + x.sum() * T.linspace(0, 1, 7)[1]


@pytest.fixture
def restore_default():
    yield
    tg.set_default_dtype(tg.float64)
    torch.set_default_dtype(torch.float32)


@pytest.mark.parametrize("f", [_scalar, _ones, _arange, _full])
@pytest.mark.parametrize("first", ["float64", "float32"])
def test_default_dtype_switched_between_calls(f, first, restore_default):
    C = tg.compile(lambda x: f(tg, x))
    T = tg.jit.trace(lambda x: f(tg, x), X) if first == "float64" else None
    for dt in [first, "float32" if first == "float64" else "float64", first]:
        tg.set_default_dtype(getattr(tg, dt))
        torch.set_default_dtype(getattr(torch, dt))
        v, g = _eager(f, X)
        vt, gt = _torch(f, X)
        assert v == vt  # (the oracle: f eagerly is PyTorch's, bit for bit)
        np.testing.assert_array_equal(g, gt)
        assert float(C(X)) == v
        np.testing.assert_array_equal(C.grad(X), g)
        V, G = C.value_and_grad_batch(np.stack([X, 2 * X]))
        assert V.tolist() == [v, _eager(f, 2 * X)[0]]
        np.testing.assert_array_equal(G[0], g)
        if T is not None and dt != first:
            with pytest.raises(RuntimeError, match="trace f again"):
                T.value(X)
        elif T is not None:
            assert float(T.value(X)) == v


def test_default_dtype_unchanged_keeps_one_trace(restore_default):
    C = tg.compile(lambda x: _scalar(tg, x))
    C(X)
    tg.set_default_dtype(tg.float64)  # (set to what it was: no change)
    C(X)
    C.grad(X)
    assert sum(len(ts) for ts in C.traces.values()) == 1
