"""max/min with a dim beside PyTorch: the values are those at the returned indices (one
argmax/argmin pass and a gather, ops/reductions.py ``_extreme_at``), so a tie of 0.0 and -0.0
returns the sign at the first index, a nan the first nan, for every dtype, dim and keepdim;
the gradient goes to that index alone, at k-means' shapes ((1000, 100) by dim 0 and 1, issue
20) and with ties, in float64 and float32."""

import numpy as np
import pytest

import tapegrad as tg

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(25)
ARRAYS = {
    "random": RNG.standard_normal((60, 40)),
    "signed zeros": np.array([[0.0, -0.0, 1.0], [-0.0, 0.0, -1.0], [-0.0, -0.0, 0.0]]),
    "nans": np.array([[np.nan, 1.0, np.nan], [2.0, 2.0, 1.0], [3.0, -np.inf, np.nan]]),
    "ints": RNG.integers(0, 3, (4, 5)),
    "bools": RNG.integers(0, 2, (3, 4)).astype(bool),
    "3-d ties": RNG.integers(-2, 2, (3, 4, 5)).astype(np.float64),
    "1-d": np.array([1.0, -0.0, 0.0, -1.0, -1.0]),
    "float32": RNG.standard_normal((5, 6)).astype(np.float32),
}


@pytest.mark.parametrize("name", ARRAYS)
@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("keepdim", [False, True])
def test_values_and_indices_are_torchs(name, op, keepdim):
    a = ARRAYS[name]
    for dim in range(-a.ndim, a.ndim):
        got = getattr(tg.tensor(a), op)(dim=dim, keepdim=keepdim)
        want = getattr(torch.tensor(a), op)(dim=dim, keepdim=keepdim)
        v, w = got.values.numpy(), want.values.numpy()
        assert v.dtype == w.dtype and v.shape == w.shape
        np.testing.assert_array_equal(got.indices.numpy(), want.indices.numpy())
        if v.dtype.kind == "f":
            np.testing.assert_array_equal(np.signbit(v), np.signbit(w))  # (-0.0 vs 0.0)
        np.testing.assert_array_equal(v, w)


def test_a_noncontiguous_input():
    a = RNG.standard_normal((7, 9))[:, ::2].T  # (5, 7), strided
    got, want = tg.tensor(a).min(dim=1), torch.tensor(a).min(dim=1)
    np.testing.assert_array_equal(got.values.numpy(), want.values.numpy())
    np.testing.assert_array_equal(got.indices.numpy(), want.indices.numpy())


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("op", ["min", "max", "amin", "amax"])
def test_kmeans_gradient_is_torchs(dtype, dim, ties, op):
    """k-means' objective ((1000, 16) points, 100 centroids) reduced by min (max, amin,
    amax) over either dim: loss and gradient as torch's (with ties: rounded coordinates,
    repeated centroids, so rows of d2 tie: by dim 1 the gradient goes to the first copy
    only, or is shared evenly by amin/amax).  The points minus the centroids is one SUB_S
    row (elementwise.py: no EXPAND of the centroids)."""
    rng = np.random.default_rng(3)
    pts, cen = rng.standard_normal((1000, 16)), rng.standard_normal((100, 16))
    if ties:
        pts, cen = np.round(pts), np.round(cen)
        cen[50:] = cen[:50]
    pts, cen = pts.astype(dtype), cen.astype(dtype)
    out = []
    for mod in (tg, torch):
        p, c = mod.tensor(pts), mod.tensor(cen, requires_grad=True)
        d2 = ((p[:, None, :] - c[None, :, :]) ** 2).sum(-1)
        r = getattr(d2, op)(dim=dim)
        loss = (r if op.startswith("a") else r.values).sum()
        loss.backward()
        out.append((loss.item(), c.grad.numpy()))
    (loss, g), (loss_t, g_t) = out
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    assert loss == pytest.approx(loss_t, rel=rtol)
    np.testing.assert_allclose(g, g_t, rtol=rtol, atol=rtol * np.abs(g_t).max())
    if ties and dim == 1 and op in ("min", "max"):  # each tie goes to the first copy
        assert not g[50:].any() and not g_t[50:].any()
    elif ties and dim == 1:  # shared evenly by the two copies
        np.testing.assert_array_equal(g[50:], g[:50])


@pytest.mark.parametrize("op", ["max", "min"])
def test_a_tie_of_signed_zeros_gives_the_first_index_the_gradient(op):
    a = np.array([[0.0, -0.0, -0.0], [-0.0, 0.0, 0.0]])
    grads = []
    for mod in (tg, torch):
        x = mod.tensor(a, requires_grad=True)
        r = getattr(x, op)(dim=1)
        (r.values * mod.tensor([2.0, 3.0])).sum().backward()
        grads.append(x.grad.numpy())
    np.testing.assert_array_equal(*grads)
