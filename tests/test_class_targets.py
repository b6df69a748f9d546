"""Class-index targets of cross_entropy and nll_loss (nn/functional.py ``_class_target``):
values and gradients against PyTorch 2.13 for int64 targets in range (the common case: issue
20 tried checking it on the arrays first, ~1% of an MLP step, not measurable, dropped),
ignore_index inside and outside the classes, uint8 and strided targets, in float32 and
float64; targets rewritten between steps, create_graph, and PyTorch's errors."""
import numpy as np
import pytest
import torch

import tapegrad as tg
from tapegrad.nn import functional as F

TOL = {"float32": 1e-5, "float64": 1e-12}


def _both(x, target, dt, op="cross_entropy", **kw):
    """(loss, input gradient) of tapegrad and of PyTorch for logits x and targets ``target``
    (an ndarray, passed to each library as a tensor)."""
    out = []
    for lib, F_ in ((tg, F), (torch, torch.nn.functional)):
        xt = lib.tensor(x.astype(dt), requires_grad=True)
        inp = xt if op == "cross_entropy" else F_.log_softmax(xt, 1)
        loss = getattr(F_, op if op == "cross_entropy" else "nll_loss")(
            inp, lib.tensor(target), **kw)
        loss.backward()
        out.append((loss.item(), xt.grad.numpy()))
    return out


def _close(pair, dt):
    (a, ga), (b, gb) = pair
    assert a == pytest.approx(b, rel=TOL[dt], abs=TOL[dt])
    np.testing.assert_allclose(ga, gb, rtol=TOL[dt], atol=TOL[dt])


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("op", ["cross_entropy", "nll_loss"])
@pytest.mark.parametrize("case", ["in range", "ignore_index in range", "ignore_index absent",
                                  "one class", "uint8", "strided targets"])
def test_values_and_gradients_match_torch(case, op, dt):
    rng = np.random.default_rng(0)
    N, C = 37, 5
    x = rng.standard_normal((N, C))
    t = rng.integers(0, C, N)
    kw = {}
    if case == "ignore_index in range":  # the quick check passes, then finds it present
        kw = {"ignore_index": 2}
    elif case == "ignore_index absent":
        kw = {"ignore_index": C - 1}
        t = rng.integers(0, C - 1, N)
    elif case == "one class":
        x, t = x[:, :1], np.zeros(N, np.int64)
    elif case == "uint8":  # (the whole check: not int64)
        t = t.astype(np.uint8)
    elif case == "strided targets":
        t = rng.integers(0, C, 2 * N)[::2]
    _close(_both(x, t, dt, op, **kw), dt)


def test_sgd_loop_with_targets_changed_between_steps():
    # targets rewritten in place between steps (a reused batch buffer): each step's loss
    # and gradients are those of that step's targets
    rng = np.random.default_rng(1)
    x = rng.standard_normal((16, 4))
    buf = rng.integers(0, 4, 16)
    tt, qt = tg.tensor(buf), torch.tensor(buf)
    wt, wq = tg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    for step in range(3):
        lt, lq = F.cross_entropy(wt * 2.0, tt), torch.nn.functional.cross_entropy(wq * 2.0, qt)
        lt.backward(retain_graph=True)
        lq.backward(retain_graph=True)
        assert lt.item() == pytest.approx(lq.item(), rel=1e-12)
        np.testing.assert_allclose(wt.grad.numpy(), wq.grad.numpy(), rtol=1e-12, atol=1e-14)
        new = rng.integers(0, 4, 16)
        tt[:] = tg.tensor(new)
        qt[:] = torch.tensor(new)


def test_create_graph_through_the_loss():
    rng = np.random.default_rng(2)
    x, t = rng.standard_normal((9, 3)), rng.integers(0, 3, 9)
    grads = []
    for lib, F_ in ((tg, F), (torch, torch.nn.functional)):
        xt = lib.tensor(x, requires_grad=True)
        (g,) = lib.autograd.grad(F_.cross_entropy(xt, lib.tensor(t)), [xt], create_graph=True)
        (g * g).sum().backward()
        grads.append(xt.grad.numpy())
    np.testing.assert_allclose(*grads, rtol=1e-11, atol=1e-14)


@pytest.mark.parametrize("target, error, words", [
    (np.array([0, 5, 1]), IndexError, "Target 5 is out of bounds"),
    (np.array([0, -1, 1]), IndexError, "Target -1 is out of bounds"),
    (np.array([0, 1]), ValueError, "Expected input batch_size (3) to match target batch_size (2)"),
    (np.array([0, 1, 2], np.int32), RuntimeError, "expected target dtype to be Long or Byte"),
    (np.array([[0], [1], [2]]), RuntimeError, "multi-target not supported"),
])
def test_targets_the_quick_check_passes_on_get_pytorchs_errors(target, error, words):
    x = tg.tensor(np.zeros((3, 5)), requires_grad=True)
    with pytest.raises(error) as mine:
        F.cross_entropy(x, tg.tensor(target))
    with pytest.raises(error) as theirs:
        torch.nn.functional.cross_entropy(torch.zeros(3, 5, dtype=torch.float64),
                                          torch.tensor(target))
    assert words in str(mine.value)
    assert words in str(theirs.value) or error is RuntimeError


def test_ignored_target_out_of_range_is_not_an_error():
    # -100 (the default ignore_index) among the targets: the whole check, which lets it pass
    rng = np.random.default_rng(3)
    x, t = rng.standard_normal((6, 4)), np.array([0, -100, 3, 1, -100, 2])
    _close(_both(x, t, "float64"), "float64")
