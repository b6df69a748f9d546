"""Composite programs, written once and run on both tapegrad and PyTorch (``L`` is the
library, ``F`` its functional module): values and gradients of every input agree to 1e-8 in
float64.  Each program mixes many primitives, so a wrong rule or a wrong broadcast/transpose
adjoint anywhere in the chain shows up here even when the op-by-op tests pass."""
import math

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn.functional as tgF

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

_r = np.random.default_rng(3)
CLASSES = _r.integers(0, 4, 16)  # targets for the MLP's (16, 4) logits
ROWS = np.array([0, 3, 3, 7, 11, 2, 2, 9])  # repeated rows: their gradients accumulate


def mlp(L, F, x, w1, b1, w2, b2):
    """Two-layer tanh MLP, mean cross-entropy against class indices."""
    h = F.linear(x, w1, b1).tanh()
    return F.cross_entropy(F.linear(h, w2, b2), L.tensor(CLASSES))


def attention(L, F, q, k, v):
    """Scaled dot-product attention: softmax(q kᵀ / √d) v, a (6, 5) output."""
    d = q.shape[-1]
    return F.softmax(q @ k.T / math.sqrt(d), dim=-1) @ v


def least_squares(L, F, t, y, w):
    """Polynomial least squares on a row subset: the design matrix is built with ``cat``
    of column slices, rows picked by integer indexing (with repeats) and a stepped slice."""
    col = t[:, None]
    design = L.cat([L.ones_like(col), col, col * col, col.sin()], dim=1)
    rows = L.tensor(ROWS)
    r = design[rows] @ w - y[rows]
    every_other = design[::2] @ w - y[::2]
    return (r * r).sum() + 0.5 * (every_other ** 2).mean()


PROGRAMS = {
    "mlp_cross_entropy": (mlp, [(16, 5), (8, 5), (8,), (4, 8), (4,)]),
    "attention": (attention, [(6, 3), (7, 3), (7, 5)]),
    "least_squares_index_cat": (least_squares, [(12,), (12,), (4,)]),
}


def _run(L, F, fn, arrays, seed):
    """Value and gradients of every input of ``fn`` in library ``L`` (a non-scalar output
    is seeded with the fixed cotangent ``seed``)."""
    xs = [L.tensor(a, requires_grad=True) for a in arrays]
    out = fn(L, F, *xs)
    out.backward(L.tensor(seed) if out.dim() else None)
    return out.detach().numpy(), [x.grad.numpy() for x in xs]


@pytest.mark.parametrize("name", PROGRAMS)
def test_matches_torch(name):
    fn, shapes = PROGRAMS[name]
    rng = np.random.default_rng(len(name))
    arrays = [rng.standard_normal(s) for s in shapes]
    out_shape = tuple(fn(torch, torch.nn.functional, *map(torch.tensor, arrays)).shape)
    seed = rng.standard_normal(out_shape)
    value, grads = _run(tg, tgF, fn, arrays, seed)
    ref_value, ref_grads = _run(torch, torch.nn.functional, fn, arrays, seed)
    np.testing.assert_allclose(value, ref_value, rtol=1e-8, atol=1e-8)
    for i, (g, r) in enumerate(zip(grads, ref_grads, strict=True)):
        assert g.dtype == np.float64 and g.shape == r.shape, f"input {i}"
        np.testing.assert_allclose(g, r, rtol=1e-8, atol=1e-8, err_msg=f"input {i}")
        assert np.abs(r).max() > 1e-3, f"input {i}: a vanishing gradient proves nothing"
