"""Two bugs of the float32 value arena (tape.py, 793c26c) found in review, fixed: a hook on
a float32 non-leaf of a promoted (float64) graph gets float32, and a big-endian float64
value promotes a float32 arena."""
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
