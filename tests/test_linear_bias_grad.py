"""F.linear's bias gradient (ops/linalg.py ``linear_rev``): the column sums of the output's
adjoint, in float64 whatever the dtype, each over the rows in order, added once into the
bias's adjoint (issue 20 tried a faster loop for it: the sweep's was vectorised already).
Pinned bit for bit to that sum (NumPy's sum over the first axis of a C-contiguous float64
array adds the rows in order too), and against PyTorch 2.13, in float32 and float64, for
shapes at the edges (one row or column, odd widths, a non-contiguous input, a bias that is
a strided slice of a leaf), leaves changed in place between steps, retain_graph,
create_graph and batch replay."""
import numpy as np
import pytest
import torch

import tapegrad as tg
from tapegrad.nn import functional as F

SHAPES = [(1, 3, 5), (2, 1, 1), (7, 5, 1), (13, 9, 7), (256, 100, 256), (300, 17, 33)]
TOL = {"float32": 2e-5, "float64": 1e-12}


@pytest.fixture(scope="module", autouse=True)
def compiled():
    tg.warmup(float32=True, replay=False)


def _data(M, K, N, dt, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((M, K)).astype(dt), rng.standard_normal((N, K)).astype(dt),
            rng.standard_normal(N).astype(dt), rng.standard_normal((M, N)).astype(dt))


def _col_sum(G, dt):
    # the rule's sum: float64, the rows in order, rounded once to dt
    return G.astype(np.float64).sum(axis=0).astype(dt)


def _torch_grads(x, w, b, G, act):
    xt, wt, bt = (torch.tensor(a, requires_grad=True) for a in (x, w, b))
    (act(torch.nn.functional.linear(xt, wt, bt)) * torch.tensor(G)).sum().backward()
    return xt.grad.numpy(), wt.grad.numpy(), bt.grad.numpy()


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("M,K,N", SHAPES)
def test_bias_gradient_is_the_ordered_column_sum(M, K, N, dt):
    x, w, b, G = _data(M, K, N, dt)
    xs, ws, bs = (tg.tensor(a, requires_grad=True) for a in (x, w, b))
    (F.linear(xs, ws, bs) * tg.tensor(G)).sum().backward()
    assert bs.grad.dtype == getattr(tg, dt)
    np.testing.assert_array_equal(bs.grad.numpy(), _col_sum(G, dt))
    for mine, theirs in zip((xs, ws, bs), _torch_grads(x, w, b, G, lambda t: t)):
        np.testing.assert_allclose(mine.grad.numpy(), theirs, rtol=TOL[dt],
                                   atol=TOL[dt] * max(1.0, np.abs(theirs).max()))


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_through_tanh_with_non_contiguous_input_and_a_bias_view(dt):
    # the MLP's first layer: the bias's adjoint reached through tanh's rule; x a transposed
    # view, the bias a strided slice of a leaf (its gradient scattered back into the leaf)
    x, w, _, G = _data(64, 10, 12, dt, seed=1)
    big = np.random.default_rng(2).standard_normal(24).astype(dt)
    xt = tg.tensor(np.ascontiguousarray(x.T))
    bl, ws = tg.tensor(big, requires_grad=True), tg.tensor(w, requires_grad=True)
    (F.linear(xt.T, ws, bl[::2]).tanh() * tg.tensor(G)).sum().backward()
    tb = torch.tensor(big, requires_grad=True)
    tw = torch.tensor(w, requires_grad=True)
    (torch.nn.functional.linear(torch.tensor(np.ascontiguousarray(x.T)).T, tw, tb[::2]).tanh()
     * torch.tensor(G)).sum().backward()
    for mine, theirs in ((bl, tb), (ws, tw)):
        np.testing.assert_allclose(mine.grad.numpy(), theirs.grad.numpy(), rtol=TOL[dt],
                                   atol=TOL[dt] * max(1.0, theirs.grad.abs().max().item()))
    assert np.all(bl.grad.numpy()[1::2] == 0)


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_leaves_changed_in_place_between_steps(dt):
    # an SGD loop: each step's gradients are those of the parameters' values at that step
    x, w, b, G = _data(40, 6, 9, dt, seed=3)
    ws, bs = tg.tensor(w, requires_grad=True), tg.tensor(b, requires_grad=True)
    wq, bq = torch.tensor(w, requires_grad=True), torch.tensor(b, requires_grad=True)
    for _ in range(4):
        for p in (ws, bs, wq, bq):
            p.grad = None
        (F.linear(tg.tensor(x), ws, bs).tanh() * tg.tensor(G)).sum().backward()
        (torch.nn.functional.linear(torch.tensor(x), wq, bq).tanh() * torch.tensor(G)).sum() \
            .backward()
        for mine, theirs in ((ws, wq), (bs, bq)):
            np.testing.assert_allclose(mine.grad.numpy(), theirs.grad.numpy(), rtol=TOL[dt],
                                       atol=TOL[dt] * max(1.0, theirs.grad.abs().max().item()))
        with tg.no_grad():
            ws -= 0.1 * ws.grad
            bs -= 0.1 * bs.grad
        with torch.no_grad():
            wq -= 0.1 * wq.grad
            bq -= 0.1 * bq.grad


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_retain_graph_accumulates_and_create_graph_differentiates(dt):
    x, w, b, G = _data(33, 5, 7, dt, seed=4)
    bs = tg.tensor(b, requires_grad=True)
    loss = (F.linear(tg.tensor(x), tg.tensor(w), bs).tanh() * tg.tensor(G)).sum()
    loss.backward(retain_graph=True)
    first = bs.grad.numpy().copy()
    loss.backward()
    np.testing.assert_array_equal(bs.grad.numpy(), first + first)
    # second order: d/db of sum(g_b^2), g_b the bias gradient through tanh
    bs2, bq = tg.tensor(b, requires_grad=True), torch.tensor(b, requires_grad=True)
    for lib, F_, bb in ((tg, F, bs2), (torch, torch.nn.functional, bq)):
        out = (F_.linear(lib.tensor(x), lib.tensor(w), bb).tanh() * lib.tensor(G)).sum()
        (g,) = lib.autograd.grad(out, [bb], create_graph=True)
        (g * g).sum().backward()
    np.testing.assert_allclose(bs2.grad.numpy(), bq.grad.numpy(), rtol=100 * TOL[dt],
                               atol=100 * TOL[dt] * max(1.0, bq.grad.abs().max().item()))


def test_batch_replay_equals_eager_points():
    # batch replay (w points side by side: rows of N w values) sums the same columns (its
    # tanh is libm's, eager's tapegrad's kernel: equal within their last bits)
    rng = np.random.default_rng(5)
    x, w = rng.standard_normal((9, 4)), rng.standard_normal((6, 4))

    def f(b):
        return (F.linear(tg.tensor(x), tg.tensor(w), b).tanh() ** 2).sum()
    B = rng.standard_normal((5, 6))
    traced = tg.compile(f)
    V, Gb = traced.value_and_grad_batch(B)
    for i in range(len(B)):
        bi = tg.tensor(B[i], requires_grad=True)
        v = f(bi)
        v.backward()
        assert V[i] == pytest.approx(v.item(), rel=1e-14)
        np.testing.assert_allclose(Gb[i], bi.grad.numpy(), rtol=1e-13, atol=1e-15)
