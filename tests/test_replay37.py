"""Replay around detach()/.data writes, round 37.

An in-place op on the detach() or .data of a tensor without history in f (one f makes, or
a leaf that requires grad: ``w = ones(4, requires_grad=True); w.data.copy_(x)``) writes
traced values into that tensor, which shares their memory, as PyTorch's does.  Replay held
the tensor constant at the traced point's values: value and gradient silently wrong at
every other point, by trace, compile, batches and a saved trace alike.  Such a write is
refused now (EagerOnlyError: compile(f) called with tensors runs f eagerly), as the same
write into a traced tensor's detach() was; a write of constants stays replayed.
"""
import numpy as np
import pytest
import torch

import tapegrad as tg
from tapegrad.tensor import EagerOnlyError


def _leaf(T):
    return T.ones(4, requires_grad=True)


def _data_copy(T, x):
    w = _leaf(T)
    w.data.copy_(x.detach())
    return (w * x).sum()


def _data_copy_traced(T, x):
    w = _leaf(T)
    w.data.copy_(x)
    return (w * w * x).sum()


def _detach_copy(T, x):
    w = _leaf(T)
    w.detach().copy_(x.detach())
    return (w * x).sum()


def _detach_of_detach_mul(T, x):
    w = _leaf(T)
    w.detach().detach().mul_(x.detach())
    return (w * x).sum()


def _const_detach_copy(T, x):
    c = T.ones(4)
    c.detach().copy_(x)
    return (c * x).sum()


def _const_data_mul(T, x):
    c = T.ones(4)
    c.data.mul_(x)
    return (c * x).sum()


def _parameter_data_copy(T, x):
    w = T.nn.Parameter(T.ones(4))
    w.data.copy_(x)
    return (w * x).sum()


def _detach_view_copy(T, x):
    w = _leaf(T)
    w.detach()[1:3].copy_(x[:2])
    return (w * x).sum()


def _data_view_copy(T, x):
    w = T.ones(2, 2, requires_grad=True)
    w.data[0].copy_(x[:2])
    return (w.reshape(-1) * x).sum()


def _data_setitem(T, x):
    w = _leaf(T)
    w.data[1] = x[0]
    return (w * x).sum()


def _data_constant_write(T, x):  # (constants only: the same at every point, replayed)
    w = _leaf(T)
    w.data.fill_(3.0)
    w.detach()[0] = -2.0
    return (w * x).sum()


def _detach_used(T, x):
    w = _leaf(T)
    w.data.copy_(x)
    return (w.detach() * x).sum()


PROGRAMS = [_data_copy, _data_copy_traced, _detach_copy, _detach_of_detach_mul,
            _const_detach_copy, _const_data_mul, _parameter_data_copy, _detach_view_copy,
            _data_view_copy, _data_setitem, _data_constant_write, _detach_used]
X0 = np.array([0.5, -1.25, 0.75, 2.0])
POINTS = [np.array([1.5, 0.25, -0.5, -1.0]), np.array([-0.75, 2.5, 1.25, 0.1])]


def _torch(f, x):
    xt = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    torch.set_default_dtype(torch.float64)  # (f's ones(4), as tapegrad's)
    try:
        out = f(torch, xt)
    finally:
        torch.set_default_dtype(torch.float32)
    g, = torch.autograd.grad(out, xt)
    return out.item(), g.numpy()


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_replay_is_eagers_or_refuses(f, tmp_path):
    try:
        tr = tg.jit.trace(lambda x: f(tg, x), tg.tensor(X0))
    except EagerOnlyError as e:
        assert "detach() or .data of a tensor without history" in str(e)
        assert f is not _data_constant_write
        with pytest.raises(EagerOnlyError, match="without history"):
            tg.compile(lambda x: f(tg, x)).value_and_grad(X0)
    else:
        tr.save(tmp_path / "t.npz")
        loaded = tg.jit.load(tmp_path / "t.npz")
        for x in POINTS:
            v, g = _torch(f, x)
            for t in (tr, loaded):
                got, grad = t.value_and_grad(x)
                assert np.isclose(float(got), v) and np.allclose(grad, g)
        V, G = tr.value_and_grad_batch(np.array(POINTS))
        assert np.allclose(V, [_torch(f, x)[0] for x in POINTS])
        assert np.allclose(G, [_torch(f, x)[1] for x in POINTS])
    # called with tensors, compile(f) answers as eager does (eagerly, where it refuses)
    c = tg.compile(lambda x: f(tg, x))
    for x in POINTS:
        v, g = _torch(f, x)
        xt = tg.tensor(x, requires_grad=True)
        out = c(xt)
        got, = tg.autograd.grad(out, xt)
        assert np.isclose(float(out), v) and np.allclose(got.numpy(), g)


# ---- eagerly: an in-place op on a detach() of a tensor without history ------------------
# tapegrad refused the backward of ``c.detach().mul_(x)`` ("modified by an inplace
# operation") where PyTorch answers: the write into c logged the op's own row, which read
# the detach's old values as ``self`` (PyTorch keeps a copy of them), as a row that saved c
def _detach_mul_then_both(T, x):
    c = T.ones(4)
    d = c.detach()
    d.mul_(x)
    return (d * x).sum() + (c * x).sum()


def _detach_mul(T, x):
    c = T.ones(4)
    c.detach().mul_(x)
    return (c * x).sum()


def _detach_mul_twice(T, x):
    c = T.ones(4)
    d = c.detach()
    d.mul_(x)
    d.mul_(x)
    return (d * x).sum() + (c * x).sum()


def _two_detaches(T, x):
    c = T.ones(4)
    d, e = c.detach(), c.detach()
    d.mul_(x)
    e.mul_(x)
    return (d * x).sum() + (c * x).sum()


def _saved_before(T, x):  # (c saved by c * x, then changed: both refuse)
    c = T.ones(4)
    y = c * x
    c.detach().mul_(x)
    return y.sum()


def _operand_shares_memory(T, x):  # (c saved as an operand of the op itself: both refuse)
    c = T.ones(4)
    c.detach().addcmul_(c.detach(), x)
    return (c * x).sum()


def _detach_saved_before(T, x):
    c = T.ones(4)
    d = c.detach()
    z = d * x
    d.mul_(x)
    return z.sum() + d.sum()


@pytest.mark.parametrize("f", [_detach_mul_then_both, _detach_mul, _detach_mul_twice,
                               _two_detaches, _saved_before, _operand_shares_memory,
                               _detach_saved_before], ids=lambda f: f.__name__)
def test_eager_in_place_on_a_detach_answers_or_refuses_as_pytorch(f):
    x0 = np.array([0.5, -1.0, 2.0, 0.3])
    try:
        want = _torch(f, x0)
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e)
        x = tg.tensor(x0, requires_grad=True)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            tg.autograd.grad(f(tg, x), x)
        return
    x = tg.tensor(x0, requires_grad=True)
    out = f(tg, x)
    got, = tg.autograd.grad(out, x)
    assert np.isclose(float(out), want[0]) and np.allclose(got.numpy(), want[1])
