"""Issue 22's torch functions and Tensor methods (ops/arithmetic.py, scans.py, stats.py,
search.py, combine.py, fused.py, inplace_more.py, nn/distance.py, typeinfo.py...) against
PyTorch: values (with their dtypes and shapes), gradients, edge values and error messages.
The differentiable ones also have spec rows (tests/test_ops.py runs those)."""
import math
import warnings

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn.functional as TF

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

INF, NAN = math.inf, math.nan
_DTYPES = {torch.float64: tg.float64, torch.float32: tg.float32, torch.int64: tg.int64,
           torch.int32: tg.int32, torch.bool: tg.bool}


def _leaves(lib, arrays, grad):
    out = []
    for a in arrays:
        a = np.asarray(a)
        rg = grad and a.dtype.kind == "f"
        out.append(tg.tensor(a, requires_grad=rg) if lib is tg else
                   torch.tensor(a, requires_grad=rg))
    return out


def _flat(y):
    return [t for t in (y if isinstance(y, (tuple, list)) else (y,))]


def check(fn, *arrays, grad=True, rtol=1e-12, atol=1e-14, seed=0):
    """fn(lib, *tensors) with lib tapegrad and torch: equal values, dtypes and shapes, and
    (``grad``) equal gradients of a random projection of every float output."""
    xs, xts = _leaves(tg, arrays, grad), _leaves(torch, arrays, grad)
    ys, yts = _flat(fn(tg, *xs)), _flat(fn(torch, *xts))
    assert len(ys) == len(yts)
    for y, yt in zip(ys, yts, strict=True):
        assert y.dtype == _DTYPES[yt.dtype], (y.dtype, yt.dtype)
        assert tuple(y.shape) == tuple(yt.shape)
        np.testing.assert_allclose(np.asarray(y.detach()), yt.detach().numpy(), rtol=rtol,
                                   atol=atol)
    if not grad:
        return
    rng = np.random.default_rng(seed)
    pairs = [(y, yt) for y, yt in zip(ys, yts, strict=True) if yt.requires_grad]
    ins = [(x, xt) for x, xt in zip(xs, xts, strict=True) if xt.requires_grad]
    if not pairs or not ins:
        return
    us = [rng.standard_normal(tuple(yt.shape)) for _, yt in pairs]
    loss = sum((y * tg.tensor(u)).sum() for (y, _), u in zip(pairs, us, strict=True))
    loss_t = sum((yt * torch.tensor(u)).sum() for (_, yt), u in zip(pairs, us, strict=True))
    gs = tg.autograd.grad(loss, [x for x, _ in ins], allow_unused=True)
    gts = torch.autograd.grad(loss_t, [xt for _, xt in ins], allow_unused=True)
    for g, gt in zip(gs, gts, strict=True):
        if gt is None:
            assert g is None or not np.asarray(g).any()
            continue
        np.testing.assert_allclose(np.asarray(g), gt.numpy(), rtol=rtol, atol=atol)


def raises_like(fn, *arrays, exc=RuntimeError, match=None):
    """Both libraries raise ``exc``, and tapegrad's message holds ``match`` (a phrase of
    PyTorch's, checked there too)."""
    xs, xts = _leaves(tg, arrays, False), _leaves(torch, arrays, False)
    with pytest.raises(exc, match=match):
        fn(tg, *xs)
    with pytest.raises(exc, match=match):
        fn(torch, *xts)


R = np.random.default_rng(7)
A = R.standard_normal((3, 4))
B = R.standard_normal((3, 4))
POS = R.uniform(0.5, 2.0, (3, 4))


# ---- arithmetic ---------------------------------------------------------------------------
EDGY = np.array([5.3, -5.3, 7.0, -7.0, 0.0, -0.0, 1e-300, 3.0, INF, NAN])
DIVS = np.array([3.0, 3.0, -2.5, -2.5, 2.0, 2.0, 0.7, 0.0, 2.0, 1.0])


@pytest.mark.parametrize("op", ["remainder", "fmod"])
def test_remainder_fmod_values_and_gradients(op):
    check(lambda L, a, b: getattr(L, op)(a, b), EDGY, DIVS)
    check(lambda L, a, b: getattr(L, op)(a, b), A * 10, POS)
    check(lambda L, a: getattr(L, op)(a, 0.7), A * 10)
    check(lambda L, a: getattr(L, op)(a, -2), A * 10)
    check(lambda L, a, b: getattr(a, op)(b), np.array([7, -7, 5]), np.array([3, 3, -2]))


def test_mod_and_floordiv_operators():
    check(lambda L, a: a % 3, np.array([5, -5, 0]))
    check(lambda L, a: a % 2.5, A * 10)
    check(lambda L, a: 7.5 % a, POS, grad=False)  # (PyTorch: no derivative of number % x)
    check(lambda L, a: a // 2, np.array([5, -5, 0]))
    check(lambda L, a: 7 // a, np.array([2, -3]))
    check(lambda L, a: L.floor_divide(a, 0.3), A, grad=False)
    raises_like(lambda L, a: a % 0, np.array([5]), match="ZeroDivisionError")


def test_exact_remainder_values_in_a_recorded_graph():
    """The recorded composite carries NumPy's exactly rounded value (5.3 % 0.1)."""
    x = tg.tensor([5.3, 100.7, -3.3], requires_grad=True)
    xt = torch.tensor([5.3, 100.7, -3.3], dtype=torch.float64)
    assert np.array_equal(np.asarray((x % 0.1).detach()), (xt % 0.1).numpy())


def test_rounding_family():
    for name in ("trunc", "fix", "frac"):
        check(lambda L, a: getattr(L, name)(a), np.array([-2.5, 2.5, -0.5, 3.0, INF, -INF, NAN]))
        check(lambda L, a: getattr(a, name)(), A * 5)
    check(lambda L, a: a.trunc(), np.array([3, -4]))


def test_float_power_heaviside():
    check(lambda L, a, b: L.float_power(a, b), np.array([0.0, 2.0, -2.0, 1.5]),
          np.array([2.0, 0.5, 3.0, -1.0]))
    check(lambda L, a: L.float_power(a, 2), np.array([1.0, 2.0], np.float32))
    check(lambda L, a: L.float_power(2.0, a), A)
    check(lambda L, a, b: L.heaviside(a, b), np.array([-1.0, 0.0, 2.0]), np.array([0.5]),
          grad=False)
    raises_like(lambda L, a, b: L.heaviside(a, b), np.array([1.0]), np.array([1]),
                match="different dtypes")


def test_nan_to_num():
    v = np.array([NAN, INF, -INF, 1.0, -2.0])
    check(lambda L, a: L.nan_to_num(a), v)
    check(lambda L, a: a.nan_to_num(nan=1.5, posinf=9.0, neginf=-9.0), v)
    check(lambda L, a: a.nan_to_num(), v.astype(np.float32))
    check(lambda L, a: a.nan_to_num(), np.array([1, 2]))


def test_fmax_fmin_hypot_logaddexp():
    a = np.array([1.0, NAN, 2.0, 1.0, NAN, -INF])
    b = np.array([NAN, 1.0, 2.0, 3.0, NAN, 0.0])
    check(lambda L, x, y: L.fmax(x, y), a, b)
    check(lambda L, x, y: L.fmin(x, y), a, b)
    check(lambda L, x, y: L.hypot(x, y), np.array([0.0, 3.0, 1e200, 1e-200, INF]),
          np.array([0.0, 4.0, 1e200, 3e-200, 1.0]))
    check(lambda L, x, y: L.hypot(x, y), A, B)
    for op in ("logaddexp", "logaddexp2"):
        check(lambda L, x, y: getattr(L, op)(x, y), np.array([0.0, 1.0, -INF, INF, INF, 800.0]),
              np.array([0.0, 2.0, -INF, INF, 1.0, -800.0]), grad=False)
        # (gradients at a tie of infinities: PyTorch's are nan, tapegrad's 1 and 0)
        check(lambda L, x, y: getattr(L, op)(x, y), np.array([0.0, 1.0, INF, 800.0]),
              np.array([0.0, 2.0, 1.0, -800.0]))
        check(lambda L, x, y: getattr(x, op)(y), A, B)


def test_xlogy_edges():
    x = np.array([0.0, 0.0, 1.0, NAN, 0.0, 0.0, 2.0])
    y = np.array([0.0, 1.0, 0.0, 1.0, NAN, 2.0, -1.0])
    check(lambda L, a, b: L.xlogy(a, b), x, y)
    check(lambda L, a: L.xlogy(a, 3.0), x)
    check(lambda L, a: L.xlogy(2.0, a), POS)


def test_lerp_addcmul_addcdiv():
    check(lambda L, a, b: L.lerp(a, b, 0.25), A, B)
    check(lambda L, a, b: a.lerp(b, 0.75), A, B)
    check(lambda L, a, b, w: L.lerp(a, b, w), A, B, R.uniform(-1, 2, (3, 4)))
    check(lambda L, a, b, c: L.addcmul(a, b, c, value=-0.5), A, B, POS)
    check(lambda L, a, b, c: a.addcdiv(b, c, value=2), A, B, POS)
    check(lambda L, a, b, c: L.addcdiv(a, b, c), A, B, POS)


def test_one_line_spellings():
    for name in ("reciprocal", "rsqrt", "deg2rad", "rad2deg", "exp2", "sinc", "logit",
                 "absolute", "negative", "positive", "signbit", "isposinf", "isneginf",
                 "isreal"):
        check(lambda L, a: getattr(L, name)(a), POS)
        check(lambda L, a: getattr(a, name)(), np.array([-1.0, 0.5, INF, -INF, NAN]))
    for name in ("subtract", "multiply", "true_divide"):
        check(lambda L, a, b: getattr(L, name)(a, b), A, POS)


# ---- scans --------------------------------------------------------------------------------
def test_cumprod_with_zeros_matches_torch():
    x = np.array([[2.0, 0.0, 3.0, 0.0, 4.0], [1.5, -2.0, 0.5, 3.0, 0.0]])
    check(lambda L, a: a.cumprod(1), x)
    check(lambda L, a: L.cumprod(a, 0), A)
    check(lambda L, a: L.cumprod(a, 0), np.array([2, 3, 4]))
    check(lambda L, a: L.cumprod(a, 0, dtype=L.float64), np.array([2, 3, 4]))


def test_cummax_cummin_indices():
    x = np.array([[1.0, 3.0, 3.0, 2.0, 3.0, 1.0], [1.0, NAN, 2.0, 0.0, NAN, 5.0]])
    for op in ("cummax", "cummin"):
        check(lambda L, a: getattr(L, op)(a, 1), x)
        check(lambda L, a: getattr(a, op)(0), A)
        check(lambda L, a: getattr(L, op)(a, 0), np.array([3, 1, 2, 1]))


def test_logcumsumexp_diff():
    check(lambda L, a: L.logcumsumexp(a, 1), A)
    check(lambda L, a: a.logcumsumexp(0), np.array([-1000.0, 0.0, 800.0, -INF]))
    check(lambda L, a: L.diff(a), A)
    check(lambda L, a: a.diff(n=2, dim=0), A)
    check(lambda L, a, p, q: L.diff(a, dim=1, prepend=p, append=q), A, B[:, :1], B[:, 1:3])
    check(lambda L, a: L.diff(a), np.array([True, False, False, True]))
    check(lambda L, a: L.diff(a, n=3), np.array([1, 4, 9, 16, 25]))


# ---- statistics ---------------------------------------------------------------------------
TIES = np.array([[1.0, 3.0, 3.0, 2.0, 3.0, 1.0], [4.0, 0.5, 2.0, 2.0, 9.0, 7.0]])


def test_nansum_nanmean_count_nonzero():
    x = np.array([[1.0, NAN, 3.0], [NAN, NAN, 2.0]])
    check(lambda L, a: L.nansum(a), x)
    check(lambda L, a: a.nansum(1), x)
    # (the gradient at a NaN: 0 here, as nansum's; PyTorch's nanmean gives nan there)
    check(lambda L, a: L.nanmean(a, 0, keepdim=True), x, grad=False)
    check(lambda L, a: a.nanmean(), x, grad=False)
    check(lambda L, a: L.nanmean(a, 1), A)
    check(lambda L, a: L.count_nonzero(a), np.array([[0.0, 1.0], [2.0, 0.0]]))
    check(lambda L, a: a.count_nonzero(dim=0), np.array([[0.0, 1.0], [2.0, 0.0]]))
    check(lambda L, a: L.count_nonzero(a, (0, 1)), np.array([[0, 1], [2, 0]]))


def test_median_kthvalue_mode():
    check(lambda L, a: a.median(), A)
    check(lambda L, a: L.median(a, 1), A)
    check(lambda L, a: a.median(0, keepdim=True), A)
    check(lambda L, a: L.median(a), np.array([1.0, NAN, 2.0]))
    check(lambda L, a: L.median(a, 0), np.array([1.0, NAN, 2.0]))
    check(lambda L, a: L.nanmedian(a), np.array([1.0, NAN, 2.0, 0.0]))
    check(lambda L, a: L.nanmedian(a, 1), np.array([[1.0, NAN, 2.0, 0.0], [NAN, 3.0, 1.0, 4.0]]))
    check(lambda L, a: L.kthvalue(a, 2, 1), A)
    check(lambda L, a: a.kthvalue(3, 0, keepdim=True), A)
    check(lambda L, a: L.mode(a, 1), TIES)
    check(lambda L, a: a.mode(0), np.array([[1, 2], [1, 3], [2, 3]]))


@pytest.mark.parametrize("how", ["linear", "lower", "higher", "midpoint", "nearest"])
def test_quantile_interpolations(how):
    check(lambda L, a: L.quantile(a, 0.3, interpolation=how), A)
    check(lambda L, a: a.quantile(L.tensor([0.1, 0.5, 0.9], dtype=L.float64), dim=1,
                                  interpolation=how), A)
    check(lambda L, a: a.quantile(0.25, dim=0, keepdim=True, interpolation=how), A)
    check(lambda L, a: a.quantile(L.tensor([0.5, 0.75], dtype=L.float64), dim=1, keepdim=True,
                                  interpolation=how), A)


def test_quantile_nan_and_nanquantile():
    x = np.array([[1.0, NAN, 3.0, 0.0], [NAN, 2.0, NAN, 5.0], [4.0, 2.0, 1.0, 3.0]])
    check(lambda L, a: L.quantile(a, 0.4, dim=1), x)
    check(lambda L, a: L.nanquantile(a, 0.4, dim=1), x)
    check(lambda L, a: a.nanquantile(L.tensor([0.0, 1.0], dtype=L.float64)), x)
    # an all-NaN row: NaN (which NaN gets the gradient depends on sort's order of ties)
    x[1] = NAN
    check(lambda L, a: L.nanquantile(a, 0.4, dim=1), x, grad=False)


def test_quantile_errors():
    raises_like(lambda L, a: L.quantile(a, 1.5), A,
                match=r"q must be in the range \[0, 1\] but got 1.5")
    raises_like(lambda L, a: L.quantile(a, 0.5, interpolation="cubic"), A,
                match="interpolation must be one of")
    raises_like(lambda L, a: L.quantile(a, 0.5), np.array([1, 2]),
                match="input tensor must be either float or double dtype")


def test_std_mean_var_mean_aminmax():
    check(lambda L, a: L.std_mean(a), A)
    check(lambda L, a: L.var_mean(a, 1, keepdim=True), A)
    check(lambda L, a: L.var_mean(a, 0, correction=0), A)
    check(lambda L, a: L.std_mean(a, dim=1, unbiased=False), A)
    check(lambda L, a: L.aminmax(a, dim=1), A)
    mm = tg.aminmax(tg.tensor(A))
    assert (float(mm.min), float(mm.max)) == (A.min(), A.max())


def test_histc_trapezoid_dist_renorm():
    check(lambda L, a: L.histc(a, bins=5), A, grad=False)
    check(lambda L, a: a.histc(bins=4, min=-1, max=1), A, grad=False)
    check(lambda L, a: L.trapezoid(a), A)
    check(lambda L, a: L.trapz(a, dim=0), A)
    check(lambda L, a, x: L.trapezoid(a, x), A, np.sort(R.standard_normal(4)))
    check(lambda L, a: L.trapezoid(a, dx=0.5), A)
    check(lambda L, a: L.cumulative_trapezoid(a), A)
    check(lambda L, a, x: L.cumulative_trapezoid(a, x, dim=1), A, np.arange(4.0) ** 2)
    check(lambda L, a, b: L.dist(a, b), A, B)
    check(lambda L, a, b: a.dist(b, p=1), A, B)
    check(lambda L, a, b: L.dist(a, b, INF), A, B)
    check(lambda L, a: L.renorm(a, 2, 0, 1.0), A)
    check(lambda L, a: a.renorm(1, 1, 2.0), A)


# ---- searching ---------------------------------------------------------------------------
def test_nonzero_argwhere_masked_select():
    x = np.array([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]])
    check(lambda L, a: L.nonzero(a), x)
    check(lambda L, a: a.nonzero(as_tuple=True), x)
    check(lambda L, a: L.argwhere(a), x)
    check(lambda L, a: a.nonzero(), np.array(3.0))
    check(lambda L, a, m: L.masked_select(a, m), A, A > 0)
    check(lambda L, a, m: a.masked_select(m), A, (A > 0)[0])
    raises_like(lambda L, a, m: L.masked_select(a, m), A, (A > 0).astype(np.int64),
                match="expected BoolTensor for mask")


def test_searchsorted_bucketize():
    seq = np.array([1.0, 2.0, 2.0, 5.0])
    vals = np.array([[0.0, 2.0, 6.0], [2.0, 1.0, 5.0]])
    check(lambda L, s, v: L.searchsorted(s, v), seq, vals)
    check(lambda L, s, v: L.searchsorted(s, v, right=True), seq, vals)
    check(lambda L, s, v: L.searchsorted(s, v, side="right", out_int32=True), seq, vals)
    check(lambda L, s, v: L.searchsorted(s, v), np.sort(A, 1), B[:, :2])
    check(lambda L, s: L.searchsorted(s, L.tensor(2.0, dtype=L.float64)), seq)
    check(lambda L, v, b: L.bucketize(v, b), vals, seq)
    check(lambda L, v, b: L.bucketize(v, b, right=True), vals, seq)
    raises_like(lambda L, v, b: L.bucketize(v, b), vals, vals,
                match="boundaries tensor must be 1 dimension")


def test_unique_family():
    x = np.array([3, 1, 2, 3, 1, 1])
    check(lambda L, a: L.unique(a), x)
    check(lambda L, a: a.unique(return_inverse=True, return_counts=True), x)
    check(lambda L, a: L.unique(a, dim=0), np.array([[1, 2], [0, 1], [1, 2]]))
    check(lambda L, a: L.unique(a, return_inverse=True, dim=1),
          np.array([[1, 2, 1], [0, 1, 0]]))
    check(lambda L, a: L.unique(a), np.array([2.5, -1.0, 2.5]), grad=False)
    check(lambda L, a: L.unique_consecutive(a, return_inverse=True, return_counts=True),
          np.array([1, 1, 2, 2, 3, 1, 1, 2]))
    check(lambda L, a: L.unique_consecutive(a, dim=0), np.array([[1, 2], [1, 2], [0, 0]]))


def test_isin_bincount():
    check(lambda L, a, b: L.isin(a, b), np.array([1, 2, 3, 4]), np.array([2, 4, 6]))
    check(lambda L, a, b: L.isin(a, b, invert=True), np.array([1, 2, 3]), np.array([2]))
    check(lambda L, a: L.isin(a, 2), np.array([1, 2, 3]))
    check(lambda L, a: L.bincount(a), np.array([0, 1, 1, 3]))
    check(lambda L, a: a.bincount(minlength=6), np.array([0, 1, 1, 3]))
    check(lambda L, a, w: L.bincount(a, w), np.array([0, 1, 1, 3]), np.array([0.5, 1, 2, 4]),
          grad=False)
    raises_like(lambda L, a: L.bincount(a), np.array([0, -1]),
                match="bincount only supports 1-d non-negative integral inputs")


# ---- shape composites ----------------------------------------------------------------------
def test_stacking():
    v, w = np.arange(3.0), np.arange(3.0) + 10
    for op in ("hstack", "vstack", "row_stack", "dstack", "column_stack"):
        check(lambda L, a, b: getattr(L, op)([a, b]), v, w)
        check(lambda L, a, b: getattr(L, op)((a, b)), A, B)
    check(lambda L, a, b: L.column_stack([a, b]), np.array(1.0), np.array(2.0))
    for op in ("atleast_1d", "atleast_2d", "atleast_3d"):
        for x in (np.array(2.0), v, A, A[None]):
            check(lambda L, a: getattr(L, op)(a), x)
        check(lambda L, a, b: getattr(L, op)(a, b), v, A)
        check(lambda L, a, b: getattr(L, op)([a, b]), v, A)
    raises_like(lambda L: L.hstack([]), match="expects a non-empty TensorList")


def test_splitting():
    x = R.standard_normal((7, 6))
    check(lambda L, a: L.tensor_split(a, 3), x)
    check(lambda L, a: a.tensor_split([1, 4, 10], dim=1), x)
    check(lambda L, a: a.tensor_split([-2, 3], 0), x)
    check(lambda L, a: L.tensor_split(a, L.tensor([2, 5]), 0), x)
    check(lambda L, a: L.hsplit(a, 3), x)
    check(lambda L, a: a.vsplit([2, 3]), x)
    check(lambda L, a: L.dsplit(a, 2), x.reshape(7, 3, 2))
    raises_like(lambda L, a: L.hsplit(a, 4), x, match="is not divisible by the split_size")


def test_grids():
    a, b, c = np.arange(3.0), np.arange(2.0) + 5, np.array([7.0, 8.0, 9.0, 10.0])
    check(lambda L, x, y: L.meshgrid(x, y, indexing="ij"), a, b)
    check(lambda L, x, y, z: L.meshgrid(x, y, z, indexing="xy"), a, b, c)
    check(lambda L, x, y: L.meshgrid([x, y], indexing="xy"), a, b)
    check(lambda L, x, y: L.cartesian_prod(x, y), a, b)
    check(lambda L, x: L.cartesian_prod(x), a)
    check(lambda L, x: L.combinations(x), c)
    check(lambda L, x: L.combinations(x, 3, with_replacement=True), a)
    for kwargs in ({}, {"N": 4}, {"increasing": True}, {"N": 1}):
        check(lambda L, x: L.vander(x, **kwargs), a + 0.5, grad=False)
        check(lambda L, x: L.vander(x, **kwargs), np.array([1, 2, 3]))
    with pytest.warns(UserWarning):  # (PyTorch warns without indexing=; tapegrad does not)
        torch.meshgrid(torch.tensor([1.0]), torch.tensor([2.0]))


def test_vander_gradient():
    # torch.vander's own backward fails (an in-place cumprod); check against its formula
    x = tg.tensor([0.5, -1.5, 2.0], requires_grad=True)
    g, = tg.autograd.grad(tg.vander(x, 4).sum(), x)
    xv = np.asarray(x.detach())
    np.testing.assert_allclose(np.asarray(g), 1 + 2 * xv + 3 * xv ** 2, rtol=1e-14)


def test_take_take_along_dim_repeat_interleave():
    idx = np.array([[0, 5], [11, -1]])
    check(lambda L, a, i: L.take(a, i), A, idx)
    check(lambda L, a, i: a.take_along_dim(i), A, np.array([0, 7, 11]))
    check(lambda L, a, i: L.take_along_dim(a, i, 1), A, np.argsort(A, 1)[:, :2])
    check(lambda L, a, i: L.take_along_dim(a, i, 0), A, np.array([[2, 0, 1, 1]]))
    check(lambda L, a: a.repeat_interleave(2), A)
    check(lambda L, a: L.repeat_interleave(a, 3, dim=1), A)
    check(lambda L, a, r: a.repeat_interleave(r, dim=0), A, np.array([1, 0, 2]))
    check(lambda L, r: L.repeat_interleave(r), np.array([2, 0, 3]))
    check(lambda L, a: a.repeat_interleave(L.tensor(2), 0), A)
    raises_like(lambda L, a, r: a.repeat_interleave(r, 0), A, np.array([1, 2]),
                match="repeats must have the same size as input along dim")


def test_scatter_family():
    base = R.standard_normal((3, 5))
    src = R.standard_normal((2, 5))
    idx = np.array([[0, 1, 2, 0, 0], [2, 0, 0, 1, 2]])
    check(lambda L, a, s, i: a.scatter(0, i, s), base, src, idx)
    check(lambda L, a, i: L.scatter(a, 1, i, 1.5), base, idx[:, :2])
    # (src larger than index: PyTorch's own backward refuses its gradient's shape)
    check(lambda L, a, s, i: a.scatter(1, i, s), base, src, idx[:, :3], grad=False)
    dup = np.array([[0, 1, 2, 0, 0], [0, 1, 1, 1, 2]])
    check(lambda L, a, s, i: L.scatter_add(a, 0, i, s), base, src, dup)
    check(lambda L, a, s, i: a.scatter_add(1, i, s), base, src, dup[:, :2], grad=False)
    with pytest.warns(UserWarning):  # (deprecated in PyTorch, which has no derivative of it)
        check(lambda L, a, s, i: a.scatter(0, i, s, reduce="add"), base, src, dup, grad=False)
    check(lambda L, a, s: a.index_add(0, L.tensor([2, 0, 2]), s), base, R.standard_normal((3, 5)))
    check(lambda L, a, s: L.index_add(a, 1, L.tensor([4, 0]), s, alpha=-2.0), base,
          R.standard_normal((3, 2)))
    check(lambda L, a, s: a.index_copy(0, L.tensor([2, 0]), s), base, src)
    check(lambda L, a: a.index_fill(1, L.tensor([1, 3]), -7.0), base)
    check(lambda L, a: a.scatter(0, L.tensor([[1, 0]]), L.tensor([[5, 6]])), np.zeros((2, 2),
          np.int64))
    raises_like(lambda L, a: a.scatter(0, L.tensor([[3]]), 1.0), base, match="out of bounds")


def test_scatter_reduce_argument_warns_as_pytorch():
    """tapegrad's own warning, at every call: the family's check above no longer hangs on
    PyTorch's, which it gives once a process (a test file run before in the same worker
    took it)."""
    a, s = tg.zeros(3, 5), tg.ones(2, 5)
    i = tg.tensor([[0, 1, 2, 0, 0], [0, 1, 1, 1, 2]])
    for _ in range(2):
        with pytest.warns(UserWarning, match="The reduce argument of torch.scatter with Tensor "
                          "src is deprecated"):
            a.scatter(0, i, s, reduce="add")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a.scatter(0, i, 1.5, reduce="add")  # (a number: no warning, as PyTorch's)


def test_scatter_in_place_and_optimizer_spellings():
    for lib in (tg, torch):
        x = lib.zeros(3, 4, dtype=lib.float64)
        x.scatter_(1, lib.tensor([[0], [1], [3]]), 1.0)
        x.index_add_(0, lib.tensor([0, 0]), lib.ones(2, 4, dtype=lib.float64))
        x.masked_fill_(x > 1.5, -1.0)
        m = lib.zeros(4, dtype=lib.float64)
        g = lib.tensor([0.1, 0.2, -0.3, 0.4], dtype=lib.float64)
        m.mul_(0.9).addcmul_(g, g, value=0.1)
        p = lib.tensor([1.0, 2.0, 3.0, 4.0], dtype=lib.float64, requires_grad=True)
        with lib.no_grad():
            p.addcdiv_(g, m.sqrt() + 1e-8, value=-0.01)
            p.lerp_(lib.ones(4, dtype=lib.float64), 0.5)
        y = p * 1.0
        y.exp_()
        y.sum().backward()
        if lib is tg:
            got = [np.asarray(t.detach()) for t in (x, m, p, p.grad)]
        else:
            want = [t.detach().numpy() for t in (x, m, p, p.grad)]
    for a, b in zip(got, want, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-13)


def test_spellings():
    check(lambda L, a: L.ravel(a), A)
    check(lambda L, a: a.unflatten(1, (2, 2)), A)
    check(lambda L, a: a.unflatten(-1, (-1, 1)), A)
    check(lambda L, a, b: L.broadcast_tensors(a, b), A[:1], B[:, :1])
    assert tuple(tg.broadcast_shapes((3, 1), (4,), 1)) == tuple(
        torch.broadcast_shapes((3, 1), (4,), 1))
    for k in range(-1, 5):
        check(lambda L, a: L.rot90(a, k), A)
        check(lambda L, a: a.rot90(k, [1, 0]), A)
    check(lambda L, a: L.fliplr(a), A)
    check(lambda L, a: a.flipud(), A)
    check(lambda L, a, b: a.expand_as(b), A[:1], B)
    x = tg.tensor(A)
    assert tg.numel(x) == x.numel() == x.nelement() == 12
    assert tg.is_floating_point(x) and not tg.is_floating_point(tg.tensor([1]))
    assert not tg.is_complex(x) and not x.is_complex()


# ---- addmm and friends ----------------------------------------------------------------------
def test_blas_spellings():
    M, m1, m2 = R.standard_normal((3, 2)), R.standard_normal((3, 4)), R.standard_normal((4, 2))
    check(lambda L, c, a, b: L.addmm(c, a, b), M, m1, m2)
    check(lambda L, c, a, b: c.addmm(a, b, beta=0.5, alpha=-2), M, m1, m2)
    check(lambda L, c, a, b: L.addmm(c, a, b, beta=0), np.full((3, 2), NAN), m1, m2)
    check(lambda L, c, a, b: L.addmm(c, a, b), M[:1], m1, m2)
    check(lambda L, c, a, v: L.addmv(c, a, v, alpha=3), M[:, 0], m1, m2[:, 0])
    check(lambda L, c, a, b: L.addr(c, a, b, beta=2), R.standard_normal((3, 4)), m1[:, 0],
          m2[:, 0].repeat(2)[:4])
    b1, b2 = R.standard_normal((2, 3, 4)), R.standard_normal((2, 4, 2))
    check(lambda L, c, a, b: L.baddbmm(c, a, b, beta=0.5), R.standard_normal((2, 3, 2)), b1, b2)
    check(lambda L, c, a, b: c.addbmm(a, b, alpha=0.25), M, b1, b2)
    raises_like(lambda L, c, a, b: L.addmm(c, a, b), M, m1, m1)


# ---- distances -----------------------------------------------------------------------------
def test_distances():
    for lib_f in (lambda L: TF if L is tg else torch.nn.functional, lambda L: L):
        check(lambda L, a, b: lib_f(L).cosine_similarity(a, b), A, B)
        check(lambda L, a, b: lib_f(L).cosine_similarity(a, b, dim=0, eps=1e-3), A * 1e-4, B)
        check(lambda L, a, b: lib_f(L).cosine_similarity(a, b), A, B[:1])
        check(lambda L, a, b: lib_f(L).pairwise_distance(a, b), A, B)
        check(lambda L, a, b: lib_f(L).pairwise_distance(a, b, p=1, keepdim=True), A, B)
        check(lambda L, a: lib_f(L).pdist(a), A)
        check(lambda L, a: lib_f(L).pdist(a, p=3), A)
    check(lambda L, a, b: L.cosine_similarity(a, b), np.zeros((1, 3)), B[:1, :3])


# ---- dtypes, printing, threads, random ----------------------------------------------------
def test_dtype_questions():
    for dt, dtt in ((tg.float32, torch.float32), (tg.float64, torch.float64)):
        f, ft = tg.finfo(dt), torch.finfo(dtt)
        assert (f.eps, f.max, f.min, f.tiny, f.bits, f.resolution) == (
            ft.eps, ft.max, ft.min, ft.tiny, ft.bits, ft.resolution)
    assert tg.finfo().eps == torch.finfo(torch.float64).eps  # (tapegrad's default dtype)
    for dt, dtt in ((tg.int64, torch.int64), (tg.int32, torch.int32)):
        assert (tg.iinfo(dt).max, tg.iinfo(dt).min, tg.iinfo(dt).bits) == (
            torch.iinfo(dtt).max, torch.iinfo(dtt).min, torch.iinfo(dtt).bits)
    pairs = [(tg.int64, tg.float32), (tg.bool, tg.int32), (tg.int32, tg.int64),
             (tg.float32, tg.float64), (tg.bool, tg.bool)]
    tmap = {tg.int64: torch.int64, tg.float32: torch.float32, tg.bool: torch.bool,
            tg.int32: torch.int32, tg.float64: torch.float64}
    for a, b in pairs:
        assert tmap[tg.promote_types(a, b)] == torch.promote_types(tmap[a], tmap[b])
        assert tg.can_cast(a, b) == torch.can_cast(tmap[a], tmap[b])
        assert tg.can_cast(b, a) == torch.can_cast(tmap[b], tmap[a])
    assert tg.result_type(tg.tensor([1, 2]), 1.0) == tg.float64  # (the default float dtype)
    assert tg.result_type(tg.tensor([1.0], dtype=tg.float32), 2) == tg.float32
    assert tg.result_type(tg.tensor([1, 2]), tg.tensor(1.0)) == tg.float64


def test_set_printoptions():
    x = tg.tensor([1.23456789, 2.0])
    try:
        tg.set_printoptions(precision=2)
        assert repr(x) == "tensor([1.23, 2.00])"
        tg.set_printoptions(sci_mode=True)
        assert repr(x) == "tensor([1.23e+00, 2.00e+00])"  # (PyTorch's: precision stays)
        tg.set_printoptions(threshold=5, edgeitems=2)
        assert "..." in repr(tg.arange(10.0))
    finally:
        tg.set_printoptions(profile="default")
    assert repr(x) == "tensor([1.2346, 2.0000])"


def test_threads_and_random_helpers():
    n = tg.get_num_threads()
    assert n >= 1
    tg.set_num_threads(1)
    assert tg.get_num_threads() == 1
    tg.set_num_threads(n)
    with pytest.raises(RuntimeError):
        tg.set_num_threads(0)
    s = tg.seed()
    assert tg.initial_seed() == s
    tg.manual_seed(5)
    assert tg.initial_seed() == 5
    check(lambda L: L.logspace(-1, 2, 4, dtype=L.float64), grad=False)
    check(lambda L: L.logspace(0, 3, 4, base=2.0, dtype=L.float64), grad=False)
    r = tg.randint_like(tg.zeros(2, 3), 3, 7)
    assert r.shape == (2, 3) and r.dtype == tg.float64 and set(np.unique(r)) <= {3, 4, 5, 6}
    p = tg.poisson(tg.full((1000,), 4.0))
    assert p.dtype == tg.float64 and abs(float(p.mean()) - 4.0) < 0.5
    assert (np.asarray(p) == np.round(np.asarray(p))).all()
    with pytest.raises(RuntimeError, match="invalid Poisson rate"):
        tg.poisson(tg.tensor([-1.0]))


def test_nothing_left_on_the_tape_when_an_op_raises():
    x = tg.tensor(A, requires_grad=True)
    y = x * 1.0
    tape = y._tok.tape
    before = tape.nrows
    for bad in (lambda: y.quantile(2.0), lambda: y.scatter(0, tg.tensor([[9]]), 1.0),
                lambda: y.repeat_interleave(tg.tensor([1, 2]), 0),
                lambda: tg.masked_select(y, tg.tensor(A > 0).long()),
                lambda: y.index_add(0, tg.tensor([0]), tg.ones(2, 4)),
                lambda: tg.hsplit(y, 3)):
        with pytest.raises((RuntimeError, IndexError)):
            bad()
        assert tape.nrows == before


@pytest.mark.parametrize("values", [[1e300, 1e-300], [1e308, 5e-324, 1.0], [-1e308, 1e-320]])
def test_repr_of_values_spanning_the_float_range_is_pytorchs_without_warnings(
        values, torch_float64):
    """The sci-mode ratio of the magnitudes overflows to inf (as PyTorch's): no
    RuntimeWarning printed to the user."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert repr(tg.tensor(values)) == repr(torch_float64.tensor(values))
