"""Hostile inputs, round 28: values that left a traced f without a guard or a draw counted.

- ``complex(t)`` (which ``cmath``'s functions call) read a traced value as float() does, but
  recorded no guard: the traced point's number was a constant of every replay;
- the default generator set back to a state f saved (``get_rng_state`` ...
  ``set_rng_state``, ``fork_rng``) after drawing hid the draws from the trace's comparison
  of the generators: replay gave the draws of the trace's own state at every call, not
  eager's (which draws from the caller's state);
- a ``SobolEngine`` made outside f gives the next points at each call (and one scrambled
  from OS entropy another scramble): replay repeated the traced call's points;
- values f computes read as NumPy values, unguarded, by ops deciding from them:
  ``masked_fill`` by a value that records (the mask's values at the traced point), a boolean
  attention mask and the query rows a mask leaves no key, ``multilabel_margin_loss``'s
  targets, ``embedding_bag``'s indices, ``grid_sample``'s cells, ends and reflections of a
  grid that requires grad, and the range checks of ``binary_cross_entropy`` and
  ``gaussian_nll_loss`` (replay gave a loss where eager raises).  Each now follows the
  point (a recorded op) or is guarded (``tensor.host_values``): replayed as eager, or the
  trace diverges.
"""
import cmath

import numpy as np
import pytest
import torch
from conftest import eager_value_and_grad, replays_as_eager

import tapegrad as tg
from tapegrad.replay import DivergenceError

X0 = np.array([0.3, -0.7, 1.2, 0.5])
POINTS = [np.array([1.1, 0.4, -0.6, 2.0]), np.array([-0.3, -0.2, 0.9, -1.4]), X0 * 2]


# ---- complex() of a traced value ------------------------------------------------------------
def _by_complex(x):  # (of a tapegrad or a torch tensor)
    return (x * complex(x.sum()).real + x * abs(cmath.sqrt(x[0] + 10.0))).sum()


def test_complex_of_a_traced_value_is_guarded():
    """On main both replays gave the traced point's complex(x.sum()) at every point (value
    3.77 for eager's 8.41 at the first point, silently)."""
    f = _by_complex
    replays_as_eager(f, POINTS, X0)
    t = tg.trace(f, X0)
    with pytest.raises(DivergenceError):
        t.value_and_grad(POINTS[0])


@pytest.mark.filterwarnings("ignore:Converting a tensor with requires_grad")
def test_complex_of_a_value_eagerly_is_pytorchs():
    for x in [X0] + POINTS:
        v, g = eager_value_and_grad(_by_complex, x)
        xt = torch.tensor(x, requires_grad=True)
        y = _by_complex(xt)
        y.backward()
        assert np.isclose(v, y.item(), rtol=1e-12) and np.allclose(g, xt.grad.numpy())


# ---- draws hidden by putting the default generator's state back -----------------------------
def _restores_by_hand(x):
    st = tg.get_rng_state()
    r = tg.rand(4)
    tg.set_rng_state(st)
    return (x * r).sum()


def _forks(x):
    with tg.random.fork_rng():
        r = tg.randn(4)
    return (x * r).sum()


@pytest.mark.parametrize("f", [_restores_by_hand, _forks])
def test_draws_then_the_saved_state_put_back_are_refused(f):
    """On main the trace froze a draw from its own sentinel state: even at the traced point
    its value was not eager's, and every replay repeated it."""
    tg.manual_seed(3)
    want = eager_value_and_grad(f, X0)
    assert np.allclose(eager_value_and_grad(f, X0)[0], want[0])  # (eagerly the same each call)
    with pytest.raises(RuntimeError, match="drew random numbers"):
        tg.trace(f, X0)
    c = tg.compile(f)
    with pytest.raises(RuntimeError, match="drew random numbers"):
        c.value_and_grad(X0)
    # called with tensors, f runs eagerly, from the caller's state (the trace put it back)
    x = tg.tensor(X0, requires_grad=True)
    y = c(x)
    y.backward()
    assert np.isclose(y.item(), want[0]) and np.allclose(x.grad.numpy(), want[1])


def test_pytorchs_fork_rng_gives_the_same_draws_at_each_call_too():
    """What eager tapegrad does above is PyTorch's: fork_rng's draws repeat at each call."""
    torch.manual_seed(3)

    def f(x):
        with torch.random.fork_rng():
            r = torch.randn(4, dtype=torch.float64)
        return (x * r).sum()
    a, b = f(torch.tensor(X0)), f(torch.tensor(X0))
    assert a.item() == b.item()
    assert eager_value_and_grad(_forks, X0)[0] == eager_value_and_grad(_forks, X0)[0]


def test_saving_and_putting_back_a_state_without_a_draw_still_traces():
    def f(x):
        st = tg.get_rng_state()
        tg.set_rng_state(st)
        with tg.random.fork_rng():
            y = x * 2.0
        return (y * x).sum()
    replays_as_eager(f, POINTS, X0)


def test_a_generator_made_in_f_and_not_drawn_from_still_traces():
    def f(x):
        tg.Generator().manual_seed(5)
        return (x * x).sum()
    replays_as_eager(f, POINTS, X0)


# ---- SobolEngine ---------------------------------------------------------------------------
@pytest.mark.parametrize("scramble", [False, True])
def test_points_of_a_sobol_engine_from_outside_are_refused(scramble):
    """On main the trace replayed the traced call's point at every call, where eager takes
    the next one (value 1.04 for eager's 0.0 at the traced point on a second call)."""
    eng = tg.quasirandom.SobolEngine(4, scramble=scramble, seed=7)
    ref = tg.quasirandom.SobolEngine(4, scramble=scramble, seed=7)

    def f(x):
        return (x * eng.draw(1)[0].double()).sum()
    with pytest.raises(RuntimeError, match="drew random numbers"):
        tg.trace(f, X0)
    assert eng.num_generated == 0  # (put back)
    c = tg.compile(f)
    for x in [X0] + POINTS:  # f runs eagerly: the next point at each call, as eng's own
        want = (tg.tensor(x) * ref.draw(1)[0].double()).sum().item()
        assert np.isclose(c(tg.tensor(x)).item(), want)


def test_a_sobol_engine_scrambled_from_entropy_in_f_is_refused():
    def f(x):
        return (x * tg.quasirandom.SobolEngine(4, scramble=True).draw(1)[0].double()).sum()
    with pytest.raises(RuntimeError, match="drew random numbers"):
        tg.trace(f, X0)


@pytest.mark.parametrize("scramble", [False, True])
def test_a_sobol_engine_of_fixed_points_made_in_f_still_traces(scramble):
    def f(x):
        eng = tg.quasirandom.SobolEngine(4, scramble=scramble, seed=11)
        eng.fast_forward(3)
        return (x * eng.draw(2).double().sum(0)).sum()
    replays_as_eager(f, POINTS, X0)


# ---- masks of values f computes ---------------------------------------------------------
MASKED = [
    lambda x: x.masked_fill(x > 0, x.sum()).sum(),
    lambda x: (x.masked_fill(x > 0, x.max().detach()) * x).sum(),
    lambda x: (x.detach().masked_fill(x > 0, x.sum()) * x).sum(),
]


@pytest.mark.parametrize("f", MASKED)
def test_masked_fill_by_a_value_that_records_follows_a_traced_mask(f):
    """A value that requires grad (or records while traced: a detach of a traced value) took
    a path that multiplied it by the mask's values at the traced point, a constant: at a
    point whose mask had another count of trues, value and gradient were wrong (-4.9 for
    eager's -2.9)."""
    replays_as_eager(f, POINTS, X0)
    for x in [X0] + POINTS:  # (eagerly PyTorch's)
        v, g = eager_value_and_grad(f, x)
        xt = torch.tensor(x, requires_grad=True)
        y = f(xt)
        y.backward()
        assert np.isclose(v, y.item()) and np.allclose(g, xt.grad.numpy())


def _attention(lib, x, how):
    F = lib.nn.functional
    q = x.reshape(1, 2, 2)
    if how == "float":
        m = lib.where(q > 0, 0.0, float("-inf")).to(q.dtype)
    else:  # (a query row of no positive entry keeps no key)
        m = q > 0
    return F.scaled_dot_product_attention(q, q, q, attn_mask=m).sum()


@pytest.mark.parametrize("how", ["float", "bool rows"])
def test_attention_masks_of_values_f_computes_replay_or_diverge(how):
    """A boolean attn_mask was read as NumPy values (the traced point's, a constant of
    replay), and which query rows a mask leaves no key was decided from its values
    unguarded: NaN where eager gives 0 for such a row."""
    pts = [np.array([-0.3, -0.2, 0.9, -1.4]), np.array([0.5, 0.4, 0.3, 0.2]),
           np.array([0.2, -0.5, 0.7, 0.1])]
    x0 = np.array([0.3, 0.7, 1.2, 0.5])
    f = lambda x: _attention(tg, x, how)  # noqa: E731
    replays_as_eager(f, pts, x0)
    for x in [x0] + pts:
        v, g = eager_value_and_grad(f, x)
        xt = torch.tensor(x, requires_grad=True)
        y = _attention(torch, xt, how)
        y.backward()
        assert np.isclose(v, y.item()) and np.allclose(g, xt.grad.numpy())


def test_multi_head_attention_by_a_boolean_mask_f_computes():
    mha = tg.nn.MultiheadAttention(2, 1, dtype=tg.float64)

    def f(x):
        q = x.reshape(2, 2)
        return mha(q, q, q, attn_mask=q > 0)[0].sum()  # (True: left out)
    # (each row keeps a key: a row that keeps none is NaN, eagerly and in PyTorch)
    pts = [np.array([-1.1, 0.4, 0.6, -2.0]), np.array([-0.3, -0.2, -0.9, -1.4]),
           np.array([0.6, -1.4, -2.4, 1.0])]
    replays_as_eager(f, pts, np.array([0.3, -0.7, -1.2, 0.5]))


# ---- indices and cells read from values f computes, in nn ----------------------------------
def _labels(x):
    m = x.reshape(2, 2)
    t = tg.stack([m.argmax(-1), -tg.ones(2, dtype=tg.int64)], 1)
    return tg.nn.functional.multilabel_margin_loss(m, t)


def _bags(x):
    w = tg.tensor([[1.0, 2.0], [3.0, 4.0]])
    return tg.nn.functional.embedding_bag((x > 0).long(), w, tg.tensor([0, 2])).sum() + \
        (x * x).sum()


@pytest.mark.parametrize("f", [_labels, _bags])
def test_targets_and_bags_of_values_f_computes_replay_or_diverge(f):
    """Their values were read as NumPy's (the traced point's, constants of replay): 0.975 for
    eager's 0.075, 11.0 for eager's 7.0."""
    replays_as_eager(f, POINTS, X0)


GRIDS = [(mode, pad, corners) for mode in ("bilinear", "nearest", "bicubic")
         for pad in ("zeros", "border", "reflection") for corners in (False, True)]


def _sampled(lib, x, mode, pad, corners):
    img = lib.arange(9.0, dtype=lib.float64).reshape(1, 1, 3, 3).sin()
    grid = (x.reshape(1, 2, 1, 2) * 1.7).tanh() * 1.3  # (some beyond [-1, 1])
    out = lib.nn.functional.grid_sample(img * x.sum(), grid, mode=mode, padding_mode=pad,
                                        align_corners=corners)
    return (out * out).sum()


@pytest.mark.parametrize("mode, pad, corners", GRIDS)
def test_grid_sample_of_a_grid_f_computes_replays_or_diverges(mode, pad, corners):
    """The cells (floor), the ends (clipping) and the reflections of a grid that requires
    grad were read from its values at the traced point: replay sampled the traced cells at
    every point (5.85 for eager's 1.47)."""
    f = lambda x: _sampled(tg, x, mode, pad, corners)  # noqa: E731
    replays_as_eager(f, POINTS, X0)
    if mode != "bicubic" or pad == "zeros":  # (PyTorch's gradient of a padded bicubic tap
        # differs in where it is taken: tapegrad pads the tap, not the coordinate)
        for x in POINTS[:2]:
            v, g = eager_value_and_grad(f, x)
            xt = torch.tensor(x, requires_grad=True)
            y = _sampled(torch, xt, mode, pad, corners)
            y.backward()
            assert np.isclose(v, y.item(), rtol=1e-9)
            if mode != "nearest":
                assert np.allclose(g, xt.grad.numpy(), rtol=1e-7, atol=1e-9)


def _bce(x):
    return tg.nn.functional.binary_cross_entropy(x.sigmoid() * 1.2 - 0.1, tg.full((4,), 0.5))


def _gaussian(x):
    return tg.nn.functional.gaussian_nll_loss(x, tg.zeros(4), x * 1.0 + 1.0)


@pytest.mark.parametrize("f, error", [(_bce, "between 0 and 1"), (_gaussian, "negative")])
def test_a_loss_refusing_values_f_computes_diverges_where_eager_raises(f, error):
    """The range checks read the values unguarded: a trace made where they pass replayed,
    where eager raises, the loss of values out of range (25.4, gradient 7e9)."""
    bad = np.array([3.0, -4.0, 1.2, 0.5])
    with pytest.raises((RuntimeError, ValueError), match=error):
        eager_value_and_grad(f, bad)
    t, c = tg.trace(f, X0), tg.compile(f)
    c.value_and_grad(X0)
    with pytest.raises(DivergenceError):
        t.value_and_grad(bad)
    with pytest.raises((RuntimeError, ValueError), match=error):  # (retraced: eager's error)
        c.value_and_grad(bad)
    replays_as_eager(f, [X0 * 0.5, X0 - 0.2], X0)  # (in range: replays)
