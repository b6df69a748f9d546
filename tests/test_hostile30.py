"""Hostile inputs, round 30: replays that were silently not eager's.

- ``remainder``, ``fmod`` and floor division (``//``, ``div(rounding_mode="floor")``) while
  traced recorded ``x - floor(x / y) * y``, off by y (not an ulp) where x / y rounds up to an
  integer: ``2.0 % 0.4`` is 0.3999... eagerly and in PyTorch, 0.0 in every replay and at the
  traced point itself (``compile(f)(tensor)`` returned it); ``-5.9 // 0.1`` replayed -59 for
  -60.  The traced rows now compute the exact fmod (Dekker's product) under a guard that the
  quotient and divisor are in the range where that holds;
- ``embedding(..., max_norm=)`` of a weight f computes renormalised it in NumPy, unguarded:
  replay repeated the traced point's choice of rows to scale (values of the unscaled rows);
- ``trunc``/``fix``/trunc division while traced: trunc(inf) replayed NaN (a 0 * inf
  zero-gradient term) and trunc(-0.3) 0.0;
- ``angle``'s pi-or-0 was a mask of the traced point's signs, a constant of every replay;
- ``linalg.matrix_rank`` and the ``info`` of ``inv_ex``/``cholesky_ex`` were NumPy's from
  the traced matrix's values, unguarded (replay repeated the traced point's rank);
- Bessel and Airy functions and orthogonal polynomials (values only, no derivative) read a
  traced x in NumPy unguarded: replay repeated the traced point's values.
"""
import numpy as np
import pytest
import torch
from conftest import replays_as_eager

import tapegrad as tg
import tapegrad.nn.functional as F
from tapegrad.replay import DivergenceError
from tapegrad.tensor import EagerOnlyError

# quotients on a grid: many round up to an integer (2.0 / 0.4, 0.7 / 0.1 ...)
GRID = np.concatenate([np.arange(-60, 61) * 0.1, np.arange(-30, 31) * 0.7,
                       np.random.default_rng(0).normal(size=40) * 5,
                       [0.0, -0.0, 1e-9, -3e-12, np.inf, -np.inf, np.nan, 1e12]])
DIVISORS = [0.1, 0.3, 0.4, 0.7, -0.4, 3.0, -0.1]


def _ops(lib, x, b):
    """remainder, fmod and floor division of a vector and a number, both ways round."""
    bt = lib.tensor(b, dtype=lib.float64)
    return [lib.remainder(x, b), lib.remainder(bt, x), lib.fmod(x, b), lib.fmod(bt, x),
            lib.div(x, b, rounding_mode="floor"), x % b, b % x]


@pytest.mark.parametrize("b", DIVISORS)
def test_traced_remainder_fmod_floor_are_eagers_bits(b):
    """On main: 23 of 24 (op, divisor) pairs replayed other values on this grid (0.0 for
    2.0 % 0.4; -59 for -5.9 // 0.1)."""
    t = tg.trace(lambda x: tg.cat(_ops(tg, x, b)), np.linspace(0.3, 1.7, len(GRID)))
    got = t.value(GRID)
    want = torch.cat(_ops(torch, torch.tensor(GRID), b)).numpy()
    assert np.array_equal(got, want, equal_nan=True)
    num = ~np.isnan(want)  # (zeros keep their signs: -2.0 % 2 is -0.0)
    assert np.array_equal(np.signbit(got[num]), np.signbit(want[num]))


def test_traced_point_itself_is_eagers():
    """compile(f)(tensor) gave 0.5 for PyTorch's 0.9 (the trace's own value)."""
    x = np.array([1.1, 0.4, -0.6, 2.0])
    f = lambda x: tg.remainder(x, 0.4).sum()  # noqa: E731
    got = tg.compile(f)(tg.tensor(x, requires_grad=True))
    assert got.item() == torch.remainder(torch.tensor(x), 0.4).sum().item()
    assert tg.trace(f, x).value(x) == got.item()


def _weighted(lib):
    w = lib.tensor([0.5, -1.5, 2.0, 0.25], dtype=lib.float64)

    def f(x):
        return ((lib.remainder(x * 3, x.flip(0)) + lib.fmod(x, 0.4) * x
                 + lib.div(x, 0.1, rounding_mode="floor") * x) * w).sum()
    return f


@pytest.mark.parametrize("x", [[1.1, 0.4, -0.6, 2.0], [2.0, -2.0, 0.7, -0.3],
                               [0.3, -0.1, 1.0, 0.1], [5.0, np.inf, -5.0, 0.5]])
def test_value_and_gradient_are_pytorchs(x):
    x = np.array(x)
    xt = torch.tensor(x, requires_grad=True)
    y = _weighted(torch)(xt)
    y.backward()
    t = tg.trace(_weighted(tg), np.array([0.3, -0.7, 1.2, 0.5]))
    c = tg.compile(_weighted(tg))
    for v, g in (t.value_and_grad(x), c.value_and_grad(x)):
        assert np.isclose(v, y.item(), rtol=1e-13, equal_nan=True)
        assert np.allclose(g, xt.grad.numpy(), rtol=1e-13, equal_nan=True)
    if np.isfinite(x).all():  # (its comparison takes no NaN)
        replays_as_eager(_weighted(tg), [x], np.array([0.3, -0.7, 1.2, 0.5]))


def test_out_of_range_quotients_diverge_or_run_eagerly():
    """Quotients of 2**52 or more (or divisors outside the exact range): the traced rows
    cannot give NumPy's exact fmod, so replay diverges there, tracing there is refused, and
    compile(f) called with tensors runs f eagerly."""
    f = lambda x: (tg.remainder(x, 0.4) * x).sum()  # noqa: E731
    far = np.array([1e17, 2.0, -3.0])
    with pytest.raises(DivergenceError):
        tg.trace(f, np.array([1.0, 2.0, 3.0])).value(far)
    with pytest.raises(EagerOnlyError, match="quotient of 2\\*\\*52"):
        tg.trace(f, far)
    got = tg.compile(f)(tg.tensor(far, requires_grad=True)).item()
    xt = torch.tensor(far)
    assert got == (torch.remainder(xt, 0.4) * xt).sum().item()
    with pytest.raises(DivergenceError):  # a subnormal divisor
        tg.trace(lambda x: (0.1 % x).sum(), np.array([1.0, 2.0])).value(np.array([1e-310, 1.0]))


# ---- embedding's max_norm of a weight f computes -----------------------------------------
W = np.arange(12.0).reshape(4, 3) / 5


def _lookup(x):
    return F.embedding(tg.tensor([0, 2]), tg.tensor(W) * x[0], max_norm=1.0).sum()


def test_embedding_max_norm_of_a_traced_weight_is_guarded():
    """On main the trace at x[0] = 0.3 (no row over max_norm) replayed 5.28 at x[0] = 1.1,
    where eager renormalises the rows to 2.38."""
    x0, x = np.array([0.3, 0.0]), np.array([1.1, 0.0])
    want = _lookup(tg.tensor(x)).item()
    assert np.isclose(want, torch.nn.functional.embedding(
        torch.tensor([0, 2]), torch.tensor(W) * 1.1, max_norm=1.0).sum().item(), rtol=1e-12)
    with pytest.raises(DivergenceError):
        tg.trace(_lookup, x0).value(x)
    small = np.array([0.2, 0.0])  # (no row over max_norm: the traced rows hold)
    assert np.isclose(tg.trace(_lookup, x0).value(small), _lookup(tg.tensor(small)).item(),
                      rtol=1e-13)


@pytest.mark.parametrize("f", [lambda x: tg.trunc(x), lambda x: tg.fix(x),
                               lambda x: tg.div(x, 2.0, rounding_mode="trunc"),
                               lambda x: x // 2.0, lambda x: tg.frac(x)])
def test_traced_roundings_keep_infinities_and_zero_signs(f):
    """On main trunc(inf) replayed NaN (its zero-gradient term was 0 * inf) and trunc(-0.3)
    0.0 for -0.0."""
    X = np.array([np.inf, -np.inf, -0.0, 0.0, -0.3, 3.5, np.nan, -7.5])
    got = tg.trace(f, np.arange(1.0, 9.0)).value(X)
    want = f(tg.tensor(X)).numpy()
    assert np.array_equal(got, want, equal_nan=True)
    num = ~np.isnan(want)
    assert np.array_equal(np.signbit(got[num]), np.signbit(want[num]))


# ---- angle of a traced value ------------------------------------------------------------
def test_traced_angle_follows_the_signs():
    """On main angle's pi-or-0 was a mask of the traced point's signs: replay at other signs
    gave the traced point's angles (value 4.40 for eager's 1.26 here), and NaN's gradient
    was 1 (PyTorch's is 0)."""
    f = lambda x: (tg.angle(x) * x).sum() + tg.angle(x).sum()  # noqa: E731
    x0 = np.array([0.3, -0.7, 1.2, 0.5])
    replays_as_eager(f, [np.array([1.1, 0.4, -0.6, 2.0]), np.array([-0.3, 0.2, 0.9, -1.4])], x0)
    X = np.array([np.inf, -np.inf, -0.0, 0.0, -0.3, 3.5, np.nan])
    got = tg.trace(lambda x: tg.angle(x) * 1.0, np.arange(1.0, 8.0)).value(X)
    assert np.array_equal(got, torch.angle(torch.tensor(X)).numpy(), equal_nan=True)
    xt, tt = tg.tensor(X, requires_grad=True), torch.tensor(X, requires_grad=True)
    tg.angle(xt).sum().backward()
    torch.angle(tt).sum().backward()
    assert np.array_equal(xt.grad.numpy(), tt.grad.numpy())


def test_saved_exact_remainder_trace_loads_and_replays_the_same(tmp_path):
    """The exact rows (and their range guard) survive save/load: the loaded trace gives
    PyTorch's bits at new points and diverges where the saved one does."""
    b = 0.4
    t = tg.trace(lambda x: tg.cat(_ops(tg, x, b)), np.linspace(0.3, 1.7, len(GRID)))
    t.save(tmp_path / "rem.npz")
    u = tg.jit.load(tmp_path / "rem.npz")
    want = torch.cat(_ops(torch, torch.tensor(GRID), b)).numpy()
    assert np.array_equal(u.value(GRID), want, equal_nan=True)
    far = GRID.copy()
    far[0] = 1e17
    with pytest.raises(DivergenceError):
        u.value(far)


# ---- linalg results decided in NumPy from a traced matrix ----------------------------------
def _rank(x):
    return x.sum() * tg.linalg.matrix_rank(x.reshape(2, 2))


def _inv_ex_singular(x):
    a = x.reshape(2, 2)
    r = tg.linalg.inv_ex(a)
    return x.sum() * (1.0 + r.info.double().sum())


def _chol_ex(x):
    a = x.reshape(2, 2)
    r = tg.linalg.cholesky_ex(a @ a.T - tg.eye(2, dtype=tg.float64))
    return x.sum() * (1.0 + r.info.double().sum())


@pytest.mark.parametrize("f, x0, x", [
    (_rank, [0.3, -0.7, 1.2, 0.5], [0.5, 0.5, 0.5, 0.5]),
    (_inv_ex_singular, [1.0, 2.0, 2.0, 4.0], [1.0, 2.0, 3.0, 4.0]),
    (_chol_ex, [0.1, 0.2, 0.3, 0.1], [2.0, 0.1, 0.2, 2.0])])
def test_linalg_counts_of_a_traced_matrix_are_guarded(f, x0, x):
    """matrix_rank, and inv_ex's / cholesky_ex's info, are NumPy's from A's values: on main
    replay repeated the traced point's (rank 2 at a rank-1 point: 4.0 for eager's 2.0)."""
    x0, x = np.array(x0), np.array(x)
    want = f(tg.tensor(x)).item()
    assert want != f(tg.tensor(x0)).item() / x0.sum() * x.sum()  # (the count differs there)
    with pytest.raises(DivergenceError):
        tg.trace(f, x0).value(x)
    if f is _rank:  # (at inv_ex's and cholesky_ex's regular points the retrace refuses:
        # inv and cholesky cannot be traced)
        assert tg.compile(f).value_and_grad(x)[0] == want


# ---- special functions without a derivative, of a traced value -----------------------------
@pytest.mark.parametrize("f", [
    lambda x: (tg.special.chebyshev_polynomial_t(x, 3) * x).sum(),
    lambda x: (tg.special.hermite_polynomial_h(x, 2) * x).sum(),
    lambda x: (tg.special.bessel_j0(x) * x).sum(),
    lambda x: (tg.special.airy_ai(x) * x).sum()])
def test_special_values_of_a_traced_value_are_guarded(f):
    """Bessel/Airy functions and orthogonal polynomials are NumPy's values (no derivative, as
    PyTorch's): on main a traced x's were the traced point's at every replay (chebyshev:
    -4.57 for eager's 53.29)."""
    replays_as_eager(f, [np.array([1.1, 0.4, -0.6, 2.0]), np.array([-0.3, -0.2, 0.9, -1.4])],
                     np.array([0.3, -0.7, 1.2, 0.5]))
    with pytest.raises(DivergenceError):
        tg.trace(f, np.array([0.3, -0.7, 1.2, 0.5])).value(np.array([1.1, 0.4, -0.6, 2.0]))
