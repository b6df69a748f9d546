"""Bugs of the float32 value arena (tape.py, 793c26c) found in review, pinned as strict
xfails: each fails today and passes once its cause is fixed (then drop the mark)."""
import numpy as np
import pytest

import tapegrad as tg


@pytest.mark.xfail(strict=True, reason=(
    "BUG (autograd/hooks.py _nonleaf_action): a hook on a float32 non-leaf gets its gradient "
    "in the arena's dtype, float64 once a float64 value promoted the arena; PyTorch hands "
    "a hook the tensor's own dtype (float32), as tapegrad does for retain_grad and custom "
    "Functions"))
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


@pytest.mark.xfail(strict=True, reason=(
    "BUG (tape.py push_array: `dt == _F64` is False for a big-endian '>f8' array): a "
    "non-native float64 value joining a float32 arena is rounded to float32 instead of "
    "promoting the arena, so float64 gradients that read it (sin's cos(c)) are off by "
    "~1e-8; a native '<f8' value gives cos(c) exactly"))
def test_big_endian_float64_value_promotes_a_float32_arena():
    x = tg.tensor(np.array([1.0, 2.0], np.float32), requires_grad=True)
    c = tg.tensor(np.array([0.1, 0.7]).astype(">f8"), requires_grad=True)
    out = (x * 2.0).sum() + c.sin().sum()  # x first: the arena is float32 when c joins
    _, gc = tg.autograd.grad(out, [x, c])
    np.testing.assert_allclose(np.asarray(gc, np.float64), np.cos([0.1, 0.7]), rtol=1e-15)
