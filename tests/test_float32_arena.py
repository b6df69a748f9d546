"""Bugs of float32 graphs found in reviewing the float32 value arena (tape.py, 793c26c),
all fixed: hooks on float32 non-leaves of a promoted (float64) graph get float32, eager
and under create_graph; a big-endian float64 value promotes a float32 arena; a broadcast
operand's gradient is summed in float64; in-place ops on 0-d float32 tensors keep
float32."""
import numpy as np
import pytest

import tapegrad as tg


@pytest.mark.parametrize("shape", [(3,), ()])
def test_hook_on_float32_nonleaf_sees_float32_after_promotion(shape, torch):
    def run(L):
        x = L.tensor(np.full(shape, 0.3, np.float32), requires_grad=True)
        h = x.exp()
        seen = []
        h.register_hook(lambda g: seen.append(str(g.dtype).split(".")[-1]))
        y = L.tensor(np.full(shape, 1.0 / 3.0), requires_grad=True)  # float64: promotes
        (h * y).sum().backward()
        return seen, x.grad

    seen, g = run(tg)
    tseen, tg_ = run(torch)
    assert tseen == ["float32"]
    np.testing.assert_allclose(np.asarray(g), tg_.numpy(), rtol=1e-6)
    assert seen == tseen


def test_big_endian_float64_value_promotes_a_float32_arena():
    x = tg.tensor(np.array([1.0, 2.0], np.float32), requires_grad=True)
    c = tg.tensor(np.array([0.1, 0.7]).astype(">f8"), requires_grad=True)
    out = (x * 2.0).sum() + c.sin().sum()  # x first: the arena is float32 when c joins
    _, gc = tg.autograd.grad(out, [x, c])
    np.testing.assert_allclose(np.asarray(gc, np.float64), np.cos([0.1, 0.7]), rtol=1e-15)


@pytest.mark.parametrize("how", ["broadcast", "linear bias"])
def test_float32_broadcast_gradient_sums_as_accurately_as_torch(how):
    rng = np.random.default_rng(0)
    g = rng.uniform(0.5, 1.5, (250_000, 4)).astype(np.float32)
    if how == "broadcast":  # d/dx sum(x * g) = sum(g)
        x = tg.tensor(np.ones(1, np.float32), requires_grad=True)
        (x * tg.tensor(g.ravel())).sum().backward()
        want = g.astype(np.float64).sum()
    else:  # d/db sum(linear(X, I, b) * g) = g's column sums
        x = tg.tensor(np.zeros(4, np.float32), requires_grad=True)
        out = tg.nn.functional.linear(tg.tensor(np.zeros((250_000, 4), np.float32)),
                                      tg.tensor(np.eye(4, dtype=np.float32)), x)
        (out * tg.tensor(g)).sum().backward()
        want = g.astype(np.float64).sum(0)
    assert x.grad.dtype == tg.float32
    rel = np.max(np.abs(np.asarray(x.grad, np.float64) - want) / want)
    assert rel < 1e-6, rel  # float32 summed pairwise or in float64: ~1e-8


@pytest.mark.parametrize("op", ["mul_", "add_"])
def test_inplace_on_0d_float32_with_0d_float64_keeps_float32(op, torch):
    def run(L):
        x = L.tensor(np.float32(-0.87), requires_grad=True)
        h = x * 1.0
        getattr(h, op)(L.tensor(0.81, dtype=L.float64))
        (gx,) = L.autograd.grad(h * h, [x])
        return h, gx

    (h, gx), (th, tgx) = run(tg), run(torch)
    assert str(th.dtype) == "torch.float32"
    np.testing.assert_allclose(np.asarray(gx), tgx.numpy(), rtol=1e-6)
    assert h.dtype == tg.float32


def test_hook_under_create_graph_sees_float32_after_promotion(torch):
    def run(L):
        x = L.tensor(np.array([0.3, 0.6], np.float32), requires_grad=True)
        c = L.tensor(0.62, dtype=L.float64, requires_grad=True)  # promotes the arena
        h = x.relu() * c
        seen = []
        h.register_hook(lambda g: seen.append(str(g.dtype).split(".")[-1]) or g * 2)
        (g,) = L.autograd.grad((h * h).sum(), [x], create_graph=True)
        (gg,) = L.autograd.grad(g.sum(), [x])
        return seen, g, gg

    (seen, g, gg), (tseen, tg_, tgg) = run(tg), run(torch)
    assert tseen == ["float32", "float32"]  # the second grad goes through h again
    np.testing.assert_allclose(np.asarray(g.detach()), tg_.detach().numpy(), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(gg), tgg.numpy(), rtol=1e-6)
    assert seen == tseen


def test_float32_graphs_stay_float32_through_where_numbers_and_second_order():
    """tg.where with a Python number, and create_graph through relu (a comparison mask),
    keep a float32 graph's arena float32 (a float64 constant would sweep it in float64)."""
    from tapegrad.tape import current_tape
    x = tg.tensor(np.array([-1.0, 2.0, 3.0], np.float32), requires_grad=True)
    y = tg.where(x > 0, x, 0.0)
    assert y.dtype == tg.float32 and current_tape().dtype == np.float32
    (g,) = tg.autograd.grad((x.relu() ** 3).sum(), [x], create_graph=True)
    assert g.dtype == tg.float32 and current_tape().dtype == np.float32
    g.sum().backward()
    np.testing.assert_array_equal(np.asarray(x.grad), [0.0, 12.0, 18.0])  # 6 x
    del y
