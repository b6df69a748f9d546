"""Replay around state f reads from outside and in-place ops it cannot record (round 33).

- A tensor of more than 4,096 numbers that f reads through something it computes of it
  (``W[:3]``, ``W.sum()``, ``W.mean().item()``): the derived constant dies with the call, so
  no watch saw ``W.mul_(2)`` after the trace, and the captured name compared identity only:
  replay gave the old values' answer.  Compared with f run eagerly at the same point.
- ``compile(f)`` called with tensors, for an f whose in-place op replay cannot follow (a
  write through ``detach()``/``.data``, an in-place op under no_grad on a tensor with
  gradient history): docs/replay.md says it runs f eagerly, as torch.compile breaks its
  graph; it raised.  Compared with PyTorch.
"""
import numpy as np
import pytest
import torch

import tapegrad as tg

X = np.array([0.3, -0.7, 1.1])


def _eager(f, x):
    xt = tg.tensor(x, requires_grad=True)
    y = f(xt)
    g, = tg.autograd.grad(y, xt)
    return float(y), g.numpy()


READS = {
    "view": lambda W: lambda x: (x * W[:3]).sum(),
    "arithmetic": lambda W: lambda x: (x * (W[:3] * 2)).sum(),
    "sum": lambda W: lambda x: (x * W.sum()).sum(),
    "item": lambda W: lambda x: (x * W.mean().item()).sum(),
    "reshape": lambda W: lambda x: (x * W.reshape(-1, 1)[:3, 0]).sum(),
    "no_grad": lambda W: lambda x: (x * tg.no_grad()(lambda: W[:3] + 0)()).sum(),
}
WRITES = {
    "mul_": lambda W: W.mul_(2),
    "setitem": lambda W: W.__setitem__(1, 5.0),
    "data": lambda W: setattr(W, "data", tg.full((W.numel(),), 3.0, dtype=tg.float64)),
    "numpy": lambda W: W.numpy().__setitem__(0, -4.0),
}


@pytest.mark.parametrize("n", [3, 5000])
@pytest.mark.parametrize("write", WRITES)
@pytest.mark.parametrize("read", READS)
def test_outside_tensor_written_after_the_trace_is_seen_at_any_size(read, write, n):
    W = tg.ones(n, dtype=tg.float64)
    if write == "numpy":
        W.numpy()  # (its memory handed to NumPy before the trace)
    f = READS[read](W)
    C, T = tg.compile(f), tg.jit.trace(f, X)
    C(X)
    WRITES[write](W)
    v, g = _eager(f, X)
    assert float(C(X)) == v
    np.testing.assert_array_equal(C.grad(X), g)
    V, G = C.value_and_grad_batch(np.stack([X, 2 * X]))
    assert V.tolist() == [v, _eager(f, 2 * X)[0]]
    with pytest.raises(RuntimeError, match="trace f again"):
        T.value(X)


def test_large_outside_tensor_unchanged_keeps_its_trace():
    W = tg.ones(5000, dtype=tg.float64)
    other = tg.zeros(3)
    f = READS["sum"](W)
    C = tg.compile(f)
    C(X)
    other.add_(1)  # (a write into another tensor: W's digest is compared, and holds)
    assert float(C(X)) == _eager(f, X)[0]
    assert sum(len(ts) for ts in C.traces.values()) == 1


def test_large_outside_tensor_made_to_require_grad_runs_eagerly():
    W = tg.ones(5000, dtype=tg.float64)
    f = READS["sum"](W)
    C = tg.compile(f)
    C(X)
    W.requires_grad_(True)
    xt = tg.tensor(X, requires_grad=True)
    C(xt).backward()
    Wt, xr = torch.ones(5000, dtype=torch.float64, requires_grad=True), torch.tensor(X)
    (xr * Wt.sum()).sum().backward()
    np.testing.assert_allclose(W.grad.numpy(), Wt.grad.numpy(), rtol=1e-15)


def _detach_write(T, x):
    y = x * 2
    y.detach().add_(1)  # (writes y's memory)
    return (y * 3).sum()


def _data_write(T, x):
    y = x * 2
    y.data.mul_(3)
    return (y * y).sum()


def _no_grad_write(T, x):
    y = x.clone()
    with T.no_grad():
        y.mul_(2)
    return (y * y).sum()


def _no_grad_view_write(T, x):
    y = x * 1
    with T.no_grad():
        y[1:].add_(x[:2] * 3)
    return (y * x).sum()


def _set_grad_enabled_write(T, x):
    y = x * 2
    with T.set_grad_enabled(False):
        y.clamp_(max=1.5)
    return (y * x).sum()


@pytest.mark.parametrize("f", [_detach_write, _data_write, _no_grad_write,
                               _no_grad_view_write, _set_grad_enabled_write])
def test_compile_called_with_tensors_runs_unrecordable_in_place_eagerly(f):
    C = tg.compile(lambda x: f(tg, x))
    for x in (X, -2 * X):
        xt = tg.tensor(x, requires_grad=True)
        y = C(xt)
        y.backward()
        xr = torch.tensor(x, requires_grad=True)
        yr = f(torch, xr)
        yr.backward()
        assert float(y.detach()) == pytest.approx(float(yr.detach()), rel=1e-15)
        np.testing.assert_allclose(xt.grad.numpy(), xr.grad.numpy(), rtol=1e-15)
    with pytest.raises(RuntimeError, match="tapegrad.trace"):
        C(X)  # (called with arrays: there is no eager answer to give, as before)


class _Cfg:
    scale = 2.0


CFG = _Cfg()
CFG.shift = 1.0


def _by_getattr(x):
    return (x * getattr(CFG, "shift")).sum()


def _by_getattr_default(x):
    return (x * getattr(_Cfg, "scale", 0.0)).sum()


def _by_vars(x):
    return (x * vars(CFG)["shift"]).sum()


def _by_dict(x):
    return (x * CFG.__dict__["shift"]).sum()


@pytest.mark.parametrize("f", [_by_getattr, _by_getattr_default, _by_vars, _by_dict])
def test_attribute_read_by_its_name_in_a_string_is_watched(f):
    """``getattr(cfg, "shift")`` reads cfg.shift as ``cfg.shift`` does (it was not looked at:
    a LOAD_ATTR names the attributes watched, getattr's a string constant)."""
    C, T = tg.compile(f), tg.jit.trace(f, X)
    C(X)
    try:
        CFG.shift, _Cfg.scale = 5.0, 7.0
        assert float(C(X)) == _eager(f, X)[0]
        with pytest.raises(RuntimeError, match="trace f again"):
            T.value(X)
    finally:
        CFG.shift, _Cfg.scale = 1.0, 2.0


@pytest.mark.parametrize("n", [3, 5000])
def test_complex_tensor_f_reads_from_outside_is_watched(n):
    """A complex tensor has no ``_data`` (two real parts): its snapshot raised ComplexPart,
    so compile(f) of an f naming one failed (n = 3), or it was compared by identity only."""
    Z = tg.complex(tg.ones(n, dtype=tg.float64), tg.zeros(n, dtype=tg.float64))

    def f(x):
        return (x * Z.real[:3]).sum()
    C = tg.compile(f)
    assert float(C(X)) == _eager(f, X)[0]
    Z.real.mul_(2)
    assert float(C(X)) == _eager(f, X)[0]


def _saved_detach_then_written(T, x):
    h = x * 1.5
    s = x.sum() * 0.1
    v1 = h.detach().requires_grad_() * s  # (mul saves the detached h; the alias dies here)
    h.fill_(0.25)
    return (h * 1.0).sum() + (v1 * 3.0).sum()


def _saved_detach_of_view_then_written(T, x):
    h = x * 1.5
    s = x.sum() * 0.1
    v0 = h[0]
    v1 = v0.detach().requires_grad_() * s
    with T.enable_grad():
        v0.fill_(0.25)
    return (h * 1.0).sum() + (v1 * 3.0).sum()


def _saved_data_then_written(T, x):
    h = x * 1.5
    v1 = h.data.requires_grad_() * x.sum()
    h.mul_(2)
    return (h * v1).sum()


@pytest.mark.parametrize("f", [_saved_detach_then_written, _saved_detach_of_view_then_written])
def test_detached_alias_saved_then_its_source_written_is_refused_as_eagerly(f):
    """A detach() shares its source's memory and version: written in place after an op
    saved the detach, backward is refused (PyTorch's "modified by an inplace operation").
    A trace followed only a detach still alive: one dropped at once replayed the old
    values' gradient."""
    X2 = np.arange(12.0).reshape(3, 4) / 10
    xr = torch.tensor(X2, requires_grad=True)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        f(torch, xr).backward()
    xt = tg.tensor(X2, requires_grad=True)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        f(tg, xt).backward()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        tg.jit.trace(lambda x: f(tg, x), X2)
    C = tg.compile(lambda x: f(tg, x))
    xt = tg.tensor(X2, requires_grad=True)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        C(xt).backward()  # (run eagerly: eager's error)


def test_data_alias_saved_then_its_source_written_is_not_replayed_with_old_values():
    """``.data`` shares memory but not the version: PyTorch's backward then reads the new
    values.  The trace gave the old values' gradient (half of eager's); now it is refused
    (replay holds copies), and compile(f) called with tensors runs f eagerly."""
    f = _saved_data_then_written
    X2 = np.arange(12.0).reshape(3, 4) / 10
    xr = torch.tensor(X2, requires_grad=True)
    f(torch, xr).backward()
    with pytest.raises(RuntimeError):
        tg.jit.trace(lambda x: f(tg, x), X2)
    xt = tg.tensor(X2, requires_grad=True)
    tg.compile(lambda x: f(tg, x))(xt).backward()
    np.testing.assert_allclose(xt.grad.numpy(), xr.grad.numpy(), rtol=1e-14)


def _split_of_data_written(T, x):  # (tests/fuzz_replay_views25.py --start 734155)
    h = x * 1.5
    with T.no_grad():
        v0 = h.reshape(-1)
    v1 = v0.data
    v3 = v1.split_with_sizes([1, v1.shape[0] - 1], 0)[1]
    v4 = v1.split_with_sizes([1, v1.shape[0] - 1], 0)[1]
    with T.enable_grad():
        v3.add_(v4.sum() * 0.1)
    return (h * 1.0).sum() + (v0 * 2.0).sum() + (v3 * 5.0).sum() + (v4 * 6.0).sum()


def test_split_piece_refusal_resting_on_requires_grad_runs_eagerly():
    """PyTorch refuses an in-place change of a split's piece that requires grad; a piece of
    a ``.data`` requires none, and eager changes it.  While traced every value requires
    grad: the trace raised that refusal (a RuntimeError), and compile(f) called with tensors
    raised it too.  Now it is an EagerOnlyError, so that call runs f eagerly."""
    X2 = np.arange(12.0).reshape(3, 4) / 10
    xr = torch.tensor(X2, requires_grad=True)
    yr = _split_of_data_written(torch, xr)
    yr.backward()
    C = tg.compile(lambda x: _split_of_data_written(tg, x))
    xt = tg.tensor(X2, requires_grad=True)
    y = C(xt)
    y.backward()
    assert float(y.detach()) == pytest.approx(float(yr.detach()), rel=1e-14)
    np.testing.assert_allclose(xt.grad.numpy(), xr.grad.numpy(), rtol=1e-14)
