"""The reuse of an array leaf's slot for an op's second operand (``y * w`` in a loop, issue
20: one slot a tape) and each case that must take a fresh one (a write between two uses,
requires_grad turned off, a constant, another dtype, broadcasting), with hooks, no_grad,
forward AD, anomaly mode, tracing and threads; gradients against PyTorch.  (Written for a
record() shortcut that measured within noise and was left out: the cases stand for
slot()/Tape.adopt, which serve them.)"""
import threading

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.autograd import forward_ad as fwad
from tapegrad.tape import current_tape

torch = pytest.importorskip("torch")
W = np.array([0.5, -1.25, 2.0, 0.75])
X = np.array([1.5, 0.25, -2.0, 0.5])


def _np(t):
    return np.asarray(t.detach())


def _loop(mod, x, w, steps=6):
    y = x
    for _ in range(steps):
        y = (y * w).sin()  # (tensor-by-tensor, same shape and dtype: record()'s fast path)
    return y.sum()


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_a_leaf_second_operand_in_a_loop_keeps_one_slot_and_torchs_gradients(dtype):
    out = []
    for mod in (tg, torch):
        x = mod.tensor(X.astype(dtype), requires_grad=True)
        w = mod.tensor(W.astype(dtype), requires_grad=True)
        loss = _loop(mod, x, w)
        if mod is tg:
            assert len(current_tape().slots_of(w)) == 1
        loss.backward()
        out.append((loss.item(), _np(x.grad), _np(w.grad)))
    rtol = 1e-12 if dtype == "float64" else 2e-5
    for a, b in zip(out[0], out[1]):
        np.testing.assert_allclose(a, b, rtol=rtol)


def _write(kind, w):
    with tg.no_grad():
        if kind == "inplace":
            w.mul_(2.0)
        elif kind == "detach":
            w.detach().mul_(2.0)
        elif kind == "numpy":
            w.detach().numpy()[:] *= 2.0
        else:  # an optimizer's step, on w's storage
            w.grad = tg.ones(4)
            tg.optim.SGD([w], lr=0.1, momentum=0.5).step()
            w.grad = None


@pytest.mark.parametrize("kind", ["inplace", "detach", "numpy", "optimizer"])
def test_a_write_between_uses_gives_the_second_use_the_values_it_read(kind):
    """x's gradient reads the values of w's second use (its first, an add, saves none:
    PyTorch allows the write), as PyTorch's with a tensor holding those values."""
    x = tg.tensor(X.copy(), requires_grad=True)
    w = tg.tensor(W.copy(), requires_grad=True)
    y1 = x + w
    w1 = np.array(w.tolist())  # (tolist: no NumPy view escapes)
    _write(kind, w)
    w2 = np.array(w.tolist())
    y2 = x * w
    (y1 + y2).sum().backward()
    xt = torch.tensor(X, requires_grad=True)
    wt1, wt2 = torch.tensor(w1, requires_grad=True), torch.tensor(w2, requires_grad=True)
    (xt + wt1 + xt * wt2).sum().backward()
    np.testing.assert_allclose(_np(x.grad), xt.grad.numpy(), rtol=1e-14)
    assert not np.array_equal(w1, w2)


def test_a_leaf_that_stops_requiring_grad_is_a_constant_at_its_next_use():
    out = []
    for mod in (tg, torch):
        x = mod.tensor(X.copy(), requires_grad=True)
        w = mod.tensor(W.copy(), requires_grad=True)
        y1 = x * w
        w.requires_grad_(False)
        y2 = x * w
        (y1 + y2).sum().backward()
        out.append((_np(x.grad), w.grad))
    np.testing.assert_allclose(out[0][0], out[1][0], rtol=1e-14)
    assert out[0][1] is None and out[1][1] is None  # (PyTorch's: no AccumulateGrad then)


def test_a_constant_changed_in_place_between_uses_keeps_each_uses_values():
    x = tg.tensor(X.copy(), requires_grad=True)
    c = tg.tensor(W.copy())
    y1 = x + c
    c.add_(1.0)  # (c requires no grad: not recorded, a write into its storage)
    y2 = x * c
    (y1 + y2).sum().backward()
    xt = torch.tensor(X, requires_grad=True)
    (xt + torch.tensor(W) + xt * torch.tensor(W + 1.0)).sum().backward()
    np.testing.assert_allclose(_np(x.grad), xt.grad.numpy(), rtol=1e-14)


@pytest.mark.parametrize("dx,dw", [("float32", "float64"), ("float64", "float32")])
def test_mixed_dtypes_take_the_general_path(dx, dw):
    out = []
    for mod in (tg, torch):
        x = mod.tensor(X.astype(dx), requires_grad=True)
        w = mod.tensor(W.astype(dw), requires_grad=True)
        loss = _loop(mod, x, w, 3)
        loss.backward()
        out.append((str(loss.dtype).split(".")[-1], _np(x.grad), _np(w.grad)))
    assert out[0][0] == out[1][0]
    np.testing.assert_allclose(out[0][1], out[1][1], rtol=1e-6)
    np.testing.assert_allclose(out[0][2], out[1][2], rtol=1e-6)


def test_broadcasting_takes_the_general_path():
    xs = np.linspace(-1.0, 1.0, 12).reshape(3, 4)
    out = []
    for mod in (tg, torch):
        x = mod.tensor(xs, requires_grad=True)
        w = mod.tensor(W.copy(), requires_grad=True)
        _loop(mod, x, w, 4).backward()
        out.append((_np(x.grad), _np(w.grad)))
    for a, b in zip(out[0], out[1]):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_a_leafs_hook_runs_once_with_the_sum_of_its_uses():
    out = []
    for mod in (tg, torch):
        x = mod.tensor(X.copy(), requires_grad=True)
        w = mod.tensor(W.copy(), requires_grad=True)
        seen = []
        w.register_hook(lambda g: seen.append(_np(g).copy()))
        _loop(mod, x, w).backward()
        out.append(seen)
    assert len(out[0]) == len(out[1]) == 1
    np.testing.assert_allclose(out[0][0], out[1][0], rtol=1e-12)


def test_no_grad_records_nothing():
    x = tg.tensor(X.copy(), requires_grad=True)
    w = tg.tensor(W.copy(), requires_grad=True)
    y = x * w  # (w's slot on this tape)
    rows = current_tape().nrows
    with tg.no_grad():
        z = y * w
    assert not z.requires_grad and z.grad_fn is None
    assert current_tape().nrows == rows
    np.testing.assert_array_equal(_np(z), X * W * W)


def test_forward_ad_through_the_loop_is_torchs():
    tangent = np.array([0.3, -0.7, 1.1, 0.2])
    out = []
    for mod, fw in ((tg, fwad), (torch, torch.autograd.forward_ad)):
        w = mod.tensor(W.copy(), requires_grad=True)
        with fw.dual_level():
            x = fw.make_dual(mod.tensor(X.copy()), mod.tensor(tangent))
            y = x
            for _ in range(4):
                y = (y * w).sin()
            out.append(_np(fw.unpack_dual(y).tangent))
    np.testing.assert_allclose(out[0], out[1], rtol=1e-12)


def test_anomaly_mode_gives_the_same_gradients():
    out = []
    for mod in (tg, torch):
        x = mod.tensor(X.copy(), requires_grad=True)
        w = mod.tensor(W.copy(), requires_grad=True)
        with mod.autograd.detect_anomaly():
            _loop(mod, x, w).backward()
        out.append((_np(x.grad), _np(w.grad)))
    for a, b in zip(out[0], out[1]):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_a_traced_loop_replays_torchs_gradients_at_new_points():
    w = tg.tensor(W.copy(), requires_grad=True)
    f = tg.compile(lambda x: _loop(tg, x, w))
    for x0 in (X, X[::-1].copy() * 0.5):
        g = f.grad(x0)
        xt = torch.tensor(x0, requires_grad=True)
        _loop(torch, xt, torch.tensor(W)).backward()
        np.testing.assert_allclose(np.asarray(g), xt.grad.numpy(), rtol=1e-12)


def test_threads_keep_their_own_tapes_and_sum_into_one_grad():
    w = tg.tensor(W.copy(), requires_grad=True)
    errors = []

    def work():
        try:
            for _ in range(5):
                _loop(tg, tg.tensor(X.copy(), requires_grad=True), w).backward()
        except Exception as e:  # (reported below)
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    wt = torch.tensor(W, requires_grad=True)
    _loop(torch, torch.tensor(X), wt).backward()
    np.testing.assert_allclose(_np(w.grad), 10 * wt.grad.numpy(), rtol=1e-12)


def test_a_leaf_given_new_values_by_data_assignment_is_read_anew():
    """``w.data = ...`` between two uses: the second reads the new array (PyTorch's)."""
    out = []
    for mod in (tg, torch):
        x = mod.tensor(X.copy(), requires_grad=True)
        w = mod.tensor(W.copy(), requires_grad=True)
        y1 = x + w
        w.data = mod.tensor(W * 3.0 - 1.0)
        y2 = x * w
        (y1 + y2).sum().backward()
        out.append((_np(x.grad), _np(w.grad)))
    for a, b in zip(out[0], out[1]):
        np.testing.assert_allclose(a, b, rtol=1e-14)
