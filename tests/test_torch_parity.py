"""Gradients pinned against PyTorch at the edge points where tapegrad used to differ (issue
18): each case's value and gradient, eagerly and by replay (``tg.trace``), equal torch's."""
import math

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn.functional as TF

torch = pytest.importorskip("torch")
F = torch.nn.functional
pytestmark = pytest.mark.oracle

NAN = math.nan


def _lib(x):
    return torch if isinstance(x, torch.Tensor) else tg


def _fn(x):
    return F if isinstance(x, torch.Tensor) else TF


def _target(x, values, dtype=None):
    lib = _lib(x)
    if dtype is None:
        return lib.tensor(values)
    return lib.tensor(values, dtype=lib.float64)


# (id, f(x) -> scalar, for either library, x)
CASES = [
    *[(f"norm_p{p}_at_zero", lambda x, p=p: x.norm(p), [0.0, 1.5, -2.0])
      for p in (0.5, 1.5, 0.25, 1.9)],
    ("norm_p1.5_dim_at_zero", lambda x: x.norm(1.5, dim=1).sum(), [[0.0, 1.0], [0.0, 0.0]]),
    ("cross_entropy_all_ignored",
     lambda x: _fn(x).cross_entropy(x, _target(x, [1, 1]), ignore_index=1),
     [[0.1, 0.2], [0.3, 0.4]]),
    ("nll_loss_all_ignored",
     lambda x: _fn(x).nll_loss(x, _target(x, [2, 2, 2]), ignore_index=2),
     [[-0.1, -0.2, -3.0], [-0.3, -0.4, -1.0], [-1.0, -2.0, -0.5]]),
    ("nll_loss_all_ignored_weighted",
     lambda x: _fn(x).nll_loss(x, _target(x, [0, 0]), weight=_target(x, [1.0, 2.0], 1),
                               ignore_index=0), [[-0.1, -0.2], [-0.3, -0.4]]),
    ("cross_entropy_some_ignored",
     lambda x: _fn(x).cross_entropy(x, _target(x, [1, 0]), ignore_index=1),
     [[0.1, 0.2], [0.3, 0.4]]),
    ("bce_tiny_p_target_1",
     lambda x: _fn(x).binary_cross_entropy(x, _target(x, [1.0, 1.0, 1.0, 1.0], 1)),
     [1e-50, 1e-300, 0.0, 0.5]),
    ("bce_near_1_target_0",
     lambda x: _fn(x).binary_cross_entropy(x, _target(x, [0.0, 0.0, 1.0], 1),
                                            reduction="sum"), [1.0, 1.0 - 1e-13, 1e-13]),
    ("bce_ordinary", lambda x: _fn(x).binary_cross_entropy(
        x, _target(x, [0.0, 1.0, 0.3], 1)), [0.2, 0.7, 0.5]),
    ("div_by_tiny_y", lambda x: (_target(x, [1e-170, 0.0, 1e-300, 3.0], 1) / x).sum(),
     [1e-170, 1e-170, 1e-300, 2.0]),
    ("abs_at_nan", lambda x: x.abs().sum(), [NAN, -1.0, 0.0, 2.0]),
    ("relu_at_nan", lambda x: x.relu().sum(), [NAN, -1.0, 0.0, 2.0]),
]


def _torch(fn, x):
    xt = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    y = fn(xt)
    y.backward()
    return y.item(), xt.grad.numpy()


@pytest.mark.parametrize("name,fn,x", CASES, ids=[c[0] for c in CASES])
def test_eager_and_replay_match_torch(name, fn, x):
    want_v, want_g = _torch(fn, x)
    xg = tg.tensor(x, requires_grad=True)
    y = fn(xg)
    y.backward()
    np.testing.assert_allclose(y.item(), want_v, rtol=1e-14)  # nan where torch's is nan
    np.testing.assert_allclose(xg.grad.numpy(), want_g, rtol=1e-14, atol=0)
    v, g = tg.trace(fn, np.array(x)).value_and_grad(np.array(x))  # replay's rules
    np.testing.assert_allclose(v, want_v, rtol=1e-14)
    np.testing.assert_allclose(g, want_g, rtol=1e-14, atol=0)


def test_pinned_figures():
    """The values the cases above compare, written out (torch 2.13's)."""
    assert _torch(CASES[0][1], CASES[0][2])[1][0] == 0.0  # norm(0.5) at 0: 0, was nan
    bce = [c for c in CASES if c[0] == "bce_tiny_p_target_1"][0]
    g = _torch(bce[1], bce[2])[1]
    assert g[0] == g[1] == g[2] == pytest.approx(-1e12 / 4, rel=1e-7)  # mean over 4
    div = [c for c in CASES if c[0] == "div_by_tiny_y"][0]
    np.testing.assert_allclose(_torch(div[1], div[2])[1], [-1e170, 0.0, -1e300, -0.75])
    assert _torch(CASES[-1][1], CASES[-1][2])[1].tolist() == [1.0, 0.0, 0.0, 1.0]
    assert _torch(CASES[-2][1], CASES[-2][2])[1].tolist() == [0.0, -1.0, 0.0, 1.0]


SECOND = [
    ("relu", lambda lib, x: x.relu()),
    ("relu_chain", lambda lib, x: lib.minimum(x.relu().clamp(0.0, 1.5), x * 0 + 1.0)),
    ("relu_times_x", lambda lib, x: x.relu() * x),
    ("relu_at_nan", lambda lib, x: (x * x).relu()),
]


@pytest.mark.parametrize("name,fn", SECOND, ids=[c[0] for c in SECOND])
def test_create_graph_gradient_of_piecewise_ops_differentiates_again(name, fn):
    """torch: the create_graph gradient of relu requires grad, and its own gradient is
    torch's (0 for the mask's part); a second grad() works."""
    x0 = [0.5, -1.0, 2.0, 0.0]
    out = []
    for lib in (torch, tg):
        x = lib.tensor(x0, dtype=lib.float64, requires_grad=True)
        g, = lib.autograd.grad(fn(lib, x).sum(), x, create_graph=True)
        h, = lib.autograd.grad(g.sum(), x)
        out.append((g.requires_grad, g.detach().numpy().tolist(), h.numpy().tolist()))
    assert out[1] == out[0]
    assert out[0][0] is True


def test_tensor_beyond_int64_raises_as_torch():
    for v in ([2 ** 63], [1, 2 ** 64], -2 ** 63 - 1):
        with pytest.raises(ValueError, match="Overflow when unpacking long long"):
            torch.tensor(v)
        with pytest.raises(ValueError, match="Overflow when unpacking long long"):
            tg.tensor(v)
    assert tg.tensor([2 ** 63 - 1, -2 ** 63]).tolist() == [2 ** 63 - 1, -2 ** 63]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_square_by_pow_is_x_times_x_as_torch(dtype):
    """``x ** 2`` on arrays rounds as x * x (torch's and pow_c_fwd's), bit for bit."""
    x = np.random.default_rng(5).standard_normal(1000).astype(dtype) * 1e3
    got = (tg.tensor(x, requires_grad=True) ** 2).detach().numpy()
    want = (torch.tensor(x) ** 2).numpy()
    assert got.dtype == want.dtype and np.array_equal(got, want)
    assert np.array_equal(got, x * x)
