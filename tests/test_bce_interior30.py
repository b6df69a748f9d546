"""binary_cross_entropy's eager short form (every input inside [eps, 1 - eps]: no clamp,
where or eps term acts) against its whole form, which a batch with one input at an edge
takes: per element the same values, gradients and second derivatives bit for bit, and
PyTorch's to rounding."""
import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn.functional as F

EDGES = [0.0, 1.0, 1e-13, 1.0 - 1e-13]


def _batch(dtype, n=40):
    rng = np.random.default_rng(30)
    x = rng.uniform(1e-6, 1 - 1e-6, n)
    x[:4] = [1e-12, 1 - 1e-9, 0.5, 2e-12]  # (near the edge, still inside: x (1 - x) >= eps)
    t = rng.uniform(0, 1, n)
    t[4:8] = [0.0, 1.0, 0.0, 1.0]
    return x.astype(dtype), t.astype(dtype)


def _run(x, t, w, dtype):
    """Values, both gradients under upstream v, and the second derivative of x's gradient."""
    X = tg.tensor(x, dtype=dtype, requires_grad=True)
    T = tg.tensor(t, dtype=dtype, requires_grad=True)
    W = None if w is None else tg.tensor(w, dtype=dtype)
    loss = F.binary_cross_entropy(X, T, W, reduction="none")
    v = tg.tensor(np.resize(np.linspace(0.5, 2.0, 40), x.size), dtype=dtype)
    gx, gt = tg.autograd.grad(loss, (X, T), v, create_graph=True)
    (hx,) = tg.autograd.grad(gx.sum(), X)
    return [np.asarray(a.detach()) for a in (loss, gx, gt, hx)]


@pytest.mark.parametrize("dtype", [tg.float64, tg.float32])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("edge", EDGES)
def test_short_form_is_the_whole_form_bit_for_bit(dtype, weighted, edge):
    np_dt = np.float64 if dtype is tg.float64 else np.float32
    x, t = _batch(np_dt)
    if np_dt(edge) * (1 - np_dt(edge)) >= np.float32(1e-12):
        pytest.skip("not an edge in this dtype")
    w = np.linspace(0.1, 3.0, x.size).astype(np_dt) if weighted else None
    short = _run(x, t, w, dtype)
    xe, te = np.append(x, np_dt(edge)), np.append(t, np_dt(0.25))
    we = None if w is None else np.append(w, np_dt(1.0))
    whole = _run(xe, te, we, dtype)
    for a, b in zip(short, whole, strict=True):
        np.testing.assert_array_equal(a, b[:-1])


def test_short_form_matches_torch_and_names_its_node(torch_float64):
    torch = torch_float64
    x, t = _batch(np.float64)
    out = []
    for L in (tg, torch):
        X, T = L.tensor(x, requires_grad=True), L.tensor(t, requires_grad=True)
        loss = L.nn.BCELoss()(X, T)
        gx, gt = L.autograd.grad(loss, (X, T))
        out.append((loss.item(), np.asarray(gx), np.asarray(gt), type(loss.grad_fn).__name__))
    np.testing.assert_allclose(out[0][0], out[1][0], rtol=1e-14)
    np.testing.assert_allclose(out[0][1], out[1][1], rtol=1e-11)
    np.testing.assert_allclose(out[0][2], out[1][2], rtol=1e-12)
    assert out[0][3] == out[1][3] == "BinaryCrossEntropyBackward0"


def test_traced_loss_keeps_the_whole_form_at_every_point():
    """A trace made at interior points replays the edges as eager does (a trace does not
    take the short form, which only an eager read of the values may choose)."""
    t = np.array([0.0, 1.0, 1.0, 0.0])
    f = tg.compile(lambda x: F.binary_cross_entropy(x, tg.tensor(t)))
    for x in ([0.3, 0.6, 0.9, 0.2], [0.0, 1.0, 1e-13, 1.0], [0.2, 0.5, 0.7, 1e-13]):
        x = np.array(x)
        X = tg.tensor(x, requires_grad=True)
        want = F.binary_cross_entropy(X, tg.tensor(t))
        (gw,) = tg.autograd.grad(want, X)
        v, g = f.value_and_grad(x)
        assert v == want.item()
        np.testing.assert_array_equal(g, np.asarray(gw))
