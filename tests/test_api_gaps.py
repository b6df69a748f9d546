"""PyTorch names that scripts run with ``import tapegrad as torch`` reach for (compat.py,
ops/aliases.py, the in-place spellings of inplace_more._method), against torch: values,
dtypes, gradients (through the in-place ops too), version counters, errors; the random
fills statistically; and the table of names tapegrad refuses, with the reason."""
import re
import warnings

import numpy as np
import pytest
from test_torch_api_misc import check, raises_like

import tapegrad as tg
from tapegrad import compat

torch = pytest.importorskip("torch")
pytestmark = [pytest.mark.oracle,
              pytest.mark.filterwarnings("ignore:index_reduce\\(\\) is in beta"),
              pytest.mark.filterwarnings("ignore:reduction. 'mean' divides"),
              pytest.mark.filterwarnings("ignore:at..(frobenius|nuclear)_norm is deprecated")]

R = np.random.default_rng(11)
U = lambda *s: R.uniform(0.2, 0.9, s)  # noqa: E731 (a domain every unary op accepts)
B = lambda *s: R.uniform(1.2, 3.0, s)  # noqa: E731 (acosh, mvlgamma)
I = lambda *s: R.integers(1, 40, s)  # noqa: E731, E741


def _t(lib, a, grad):
    return lib.tensor(a, requires_grad=grad and np.asarray(a).dtype.kind == "f")


# name: (self's array, [other arrays], (lib, others) -> (args, kwargs))
_NONE = ([], lambda L, o: ((), {}))
INPLACE = {
    **{n: (U(3, 4), *_NONE) for n in (
        "erf_ erfc_ erfinv_ lgamma_ digamma_ sinh_ cosh_ tan_ asin_ acos_ atan_ asinh_ atanh_ "
        "arcsin_ arccos_ arctan_ arcsinh_ arctanh_ log2_ log10_ exp2_ sinc_ i0_ sgn_ fix_ "
        "deg2rad_ rad2deg_ negative_ absolute_ logical_not_ tril_").split()},
    "acosh_": (B(3, 4), *_NONE), "arccosh_": (B(3, 4), *_NONE),
    "triu_": (U(3, 4), [], lambda L, o: ((1,), {})),
    "cumsum_": (U(3, 4), [], lambda L, o: ((1,), {})),
    "cumprod_": (U(3, 4), [], lambda L, o: ((0,), {})),
    "polygamma_": (U(3, 4), [], lambda L, o: ((1,), {})),
    "mvlgamma_": (B(3, 4), [], lambda L, o: ((2,), {})),
    "renorm_": (U(3, 4), [], lambda L, o: ((2, 0, 1.0), {})),
    "float_power_": (U(3, 4), [], lambda L, o: ((2.5,), {})),
    **{n: (U(3, 4), [U(3, 4)], lambda L, o: ((o[0],), {})) for n in (
        "lt_ le_ gt_ ge_ eq_ ne_ less_ less_equal_ greater_ greater_equal_ not_equal_ atan2_ "
        "arctan2_ heaviside_ logical_and_ logical_or_ logical_xor_ floor_divide_ "
        "true_divide_ multiply_ divide_").split()},
    "subtract_": (U(3, 4), [U(3, 4)], lambda L, o: ((o[0],), {"alpha": 2})),
    "div_": (U(3, 4), [U(3, 4)], lambda L, o: ((o[0],), {"rounding_mode": "trunc"})),
    "ldexp_": (U(3, 4), [I(3, 4) % 5], lambda L, o: ((o[0],), {})),
    "addmm_": (U(3, 4), [U(3, 2), U(2, 4)], lambda L, o: (o, {"beta": 0.5, "alpha": 2})),
    "addbmm_": (U(3, 4), [U(5, 3, 2), U(5, 2, 4)], lambda L, o: (o, {})),
    "baddbmm_": (U(5, 3, 4), [U(5, 3, 2), U(5, 2, 4)], lambda L, o: (o, {"alpha": 0.5})),
    "addmv_": (U(3), [U(3, 4), U(4)], lambda L, o: (o, {})),
    "addr_": (U(3, 4), [U(3), U(4)], lambda L, o: (o, {})),
    "put_": (U(3, 4), [U(3)], lambda L, o: ((L.tensor([0, 5, -1]), o[0]), {})),
    "masked_scatter_": (U(3, 4), [U(12)],
                        lambda L, o: ((L.tensor(np.arange(12).reshape(3, 4) % 3 == 0), o[0]),
                                      {})),
    "index_reduce_": (U(3, 4), [U(3, 4)],
                      lambda L, o: ((0, L.tensor([2, 0, 2]), o[0], "amax"), {})),
    "swapaxes_": (U(3, 4), [], lambda L, o: ((0, 1), {})),
    "swapdims_": (U(3, 4), [], lambda L, o: ((1, 0), {})),
}
INT_INPLACE = {n: (I(3, 4), [I(3, 4)], lambda L, o: ((o[0],), {})) for n in (
    "gcd_ lcm_ bitwise_and_ bitwise_or_ bitwise_xor_").split()}
INT_INPLACE["bitwise_not_"] = (I(3, 4), *_NONE)
INT_INPLACE["bitwise_left_shift_"] = (I(3, 4), [I(3, 4) % 4], lambda L, o: ((o[0],), {}))
INT_INPLACE["bitwise_right_shift_"] = INT_INPLACE["bitwise_left_shift_"]


def _run_inplace(lib, name, case, grad, inplace=True):
    a, others, argf = case
    x = _t(lib, a, grad)
    os_ = [_t(lib, o, grad) for o in others]
    y = x * 1 if grad else x.clone()
    v = y._version
    args, kwargs = argf(lib, os_)
    if inplace:
        out = getattr(y, name)(*args, **kwargs)
        assert out is y
        assert y._version > v
    else:  # torch's in-place op has no derivative: its out-of-place one, in y's dtype
        y = getattr(y, name[:-1])(*args, **kwargs).to(x.dtype)
    grads = []
    if grad:
        w = lib.tensor(np.linspace(-1.0, 2.0, y.numel()).reshape(tuple(y.shape)))
        if y.requires_grad:
            (y * w).sum().backward()
        grads = [np.zeros(tuple(t.shape)) if t.grad is None or (
            lib is torch and t.grad._is_zerotensor()) else np.array(t.grad.tolist())
            for t in (x, *os_) if t.requires_grad]
    return y, grads


# torch's backward refuses these in place ("derivative for ... is not implemented", or a
# result without history): their gradients are compared with torch's out-of-place op
NO_TORCH_INPLACE_GRAD = set(
    "acosh_ arccosh_ asinh_ arcsinh_ atanh_ arctanh_ floor_divide_ heaviside_ lt_ le_ gt_ "
    "ge_ eq_ ne_ less_ less_equal_ greater_ greater_equal_ not_equal_ logical_and_ "
    "logical_or_ logical_xor_ logical_not_ sgn_".split())
NO_DERIVATIVE = {"floor_divide_", "heaviside_"}  # (both raise on backward: test_parity32.py)


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace_values_grads_versions(name):
    grad = name not in NO_DERIVATIVE
    y, gs = _run_inplace(tg, name, INPLACE[name], grad)
    yt, gts = _run_inplace(torch, name, INPLACE[name], grad,
                           inplace=name not in NO_TORCH_INPLACE_GRAD)
    np.testing.assert_allclose(np.asarray(y.detach()), yt.detach().numpy(), rtol=1e-10,
                               atol=1e-12)
    assert str(y.dtype) == str(yt.dtype)
    assert len(gs) == len(gts)
    for g, gt in zip(gs, gts, strict=True):
        np.testing.assert_allclose(g, gt, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", sorted(INT_INPLACE))
def test_inplace_integer_ops(name):
    y, _ = _run_inplace(tg, name, INT_INPLACE[name], False)
    yt, _ = _run_inplace(torch, name, INT_INPLACE[name], False)
    np.testing.assert_array_equal(np.asarray(y), yt.numpy())


# (torch lets logical_*_ change a leaf that requires grad: they have no derivative; tapegrad
# refuses them as every other in-place op on such a leaf)
@pytest.mark.parametrize("name", sorted(set(INPLACE) - {
    "swapaxes_", "swapdims_", "logical_and_", "logical_or_", "logical_xor_", "logical_not_"}))
def test_inplace_on_leaf_refused_as_torch(name):
    a, others, argf = INPLACE[name]
    msg = "a leaf Variable that requires grad is being used in an in-place operation."
    for lib in (tg, torch):
        x = lib.tensor(a, requires_grad=True)
        args, kwargs = argf(lib, [lib.tensor(o) for o in others])
        with pytest.raises(RuntimeError, match=re.escape(msg)):
            getattr(x, name)(*args, **kwargs)
    assert x.grad is None


def test_inplace_errors_as_torch():
    raises_like(lambda L, x: x.float().float_power_(2), U(3), match="float_power_ has dtype")
    raises_like(lambda L, x: x.gcd_(x), U(3), exc=NotImplementedError, match='"gcd_cpu"')
    for lib in (tg, torch):
        x = lib.tensor(U(3), requires_grad=True)
        with pytest.raises(RuntimeError, match="cannot resize variables that require grad"):
            x.resize_(2)


def test_dtype_mismatches_refused_as_torch():
    f32 = lambda L: L.ones(3, 4, dtype=L.float32)  # noqa: E731
    raises_like(lambda L: f32(L).put_(L.tensor([0]), L.ones(1, dtype=L.float64)),
                match=r"put_\(\): self and source expected to have the same dtype, but got "
                      r"self.dtype = Float and source.dtype = Double")
    raises_like(lambda L: f32(L).masked_scatter_(L.ones(3, 4) > 0, L.ones(12,
                                                                         dtype=L.float64)),
                match="masked_scatter: expected self and source to have same dtypes but "
                      "gotFloat and Double")
    raises_like(lambda L: f32(L).index_reduce_(0, L.tensor([0]), L.ones(1, 4,
                                                                      dtype=L.float64),
                                              "amax"),
                match=r"index_reduce_\(\): self \(Float\) and source \(Double\) must have "
                      "the same scalar type")


def test_top_level_inplace_spellings():
    for name in ("acos_", "sinh_", "erf_", "log2_", "fix_", "deg2rad_", "i0_"):
        a = U(4)
        x, xt = tg.tensor(a), torch.tensor(a)
        assert getattr(tg, name)(x) is x
        getattr(torch, name)(xt)
        np.testing.assert_allclose(np.asarray(x), xt.numpy(), rtol=1e-12)


def test_comparison_inplace_keeps_zero_gradient_history():
    x = tg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.gt_(3.0)
    assert y.requires_grad and y.tolist() == [0.0, 1.0, 1.0]
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]


# ---- aliases and small composites ---------------------------------------------------------
A34, A4 = R.standard_normal((3, 4)), R.standard_normal(4)
CHECKS = {
    "greater": (lambda L, a, b: L.greater(a, b), A34, A4),
    "less_equal": (lambda L, a, b: a.less_equal(b), A34, A4),
    "not_equal": (lambda L, a, b: L.not_equal(a, b), A34, A34),
    "sgn": (lambda L, a: L.sgn(a) * a, A34),
    "div_floor": (lambda L, a, b: L.div(a, b, rounding_mode="floor"), A34, A4),
    "divide_trunc": (lambda L, a, b: L.divide(a, b, rounding_mode="trunc"), A34, A4),
    "div_int_trunc": (lambda L, a, b: L.div(a, b, rounding_mode="trunc"),
                      np.array([-7, 7, -8, 9]), np.array([2, -2, 3, 4])),
    "inner": (lambda L, a, b: L.inner(a, b), A34, R.standard_normal((2, 5, 4))),
    "inner_0d": (lambda L, a, b: L.inner(a, b), A34, np.array(2.5)),
    "vdot": (lambda L, a, b: L.vdot(a, b), A4, A4 + 1),
    "msort": (lambda L, a: L.msort(a), A34),
    "msort_method": (lambda L, a: a.msort(), A34),
    "diagflat": (lambda L, a: L.diagflat(a, 1), R.standard_normal((2, 2))),
    "frexp": (lambda L, a: L.frexp(a), A34 * 10),
    "ldexp": (lambda L, a, b: L.ldexp(a, b), A34, np.array([0, 1, 2, 3])),
    "ldexp_negative": (lambda L, a, b: L.ldexp(a, b).detach(), A34, np.array([0, -1, 2, -3])),
    "gcd": (lambda L, a, b: L.gcd(a, b), I(5), I(5)),
    "lcm": (lambda L, a, b: L.lcm(a, b), I(5), I(5)),
    "bitwise": (lambda L, a, b: (L.bitwise_and(a, b), L.bitwise_or(a, b), L.bitwise_xor(a, b),
                                 L.bitwise_not(a), L.bitwise_left_shift(a, b % 5),
                                 L.bitwise_right_shift(a, b % 5)), I(6), I(6)),
    "nextafter": (lambda L, a, b: L.nextafter(a.detach(), b.detach()), A4, -A4),
    "rsub": (lambda L, a, b: L.rsub(a, b, alpha=3), A34, A4),
    "rsub_scalar": (lambda L, a: L.rsub(a, 2.0), A34),
    "select_scatter": (lambda L, a, b: L.select_scatter(a, b, 1, -1), A34, A4[:3]),
    "slice_scatter": (lambda L, a, b: L.slice_scatter(a, b, 1, 1, 4, 2), A34,
                      R.standard_normal((3, 2))),
    "diagonal_scatter": (lambda L, a, b: L.diagonal_scatter(a, b, 1), A34, A4[:3]),
    "put": (lambda L, a, b: a.put(L.tensor([[1, -2], [3, 0]]), b), A34,
            R.standard_normal((2, 2))),
    "put_accumulate": (lambda L, a, b: a.put(L.tensor([1, 1, 3]), b, accumulate=True), A34,
                       A4[:3]),
    "masked_scatter": (lambda L, a, b: L.masked_scatter(a, a > 0, b), A34,
                       R.standard_normal(14)),
    "masked_scatter_bcast": (lambda L, a, b: a.masked_scatter(L.tensor([True, False, True,
                                                                        False]), b), A34,
                             R.standard_normal(6)),
    "index_reduce_prod": (lambda L, a, b: a.index_reduce(1, L.tensor([0, 2, 0]), b, "prod"),
                          A34, R.standard_normal((3, 3))),
    "index_reduce_mean": (lambda L, a, b: a.index_reduce(0, L.tensor([1, 1]), b, "mean",
                                                         include_self=False), A34,
                          R.standard_normal((2, 4))),
    "as_strided": (lambda L, a: L.as_strided(a, (3, 3), (1, 2), 1), A34),
    "as_strided_method": (lambda L, a: a.as_strided((4, 2), (3, 1)), A34),
    "split_with_sizes": (lambda L, a: L.split_with_sizes(a, [1, 3], 1), A34),
    "unsafe_split": (lambda L, a: L.unsafe_split(a, 2, 1), A34),
    "unsafe_chunk": (lambda L, a: a.unsafe_chunk(3, 0), A34),
    "sum_to_size": (lambda L, a: a.expand(2, 3, 4).sum_to_size(3, 1), A34),
    "conj_real": (lambda L, a: (L.conj(a), a.conj(), a.resolve_conj(), a.resolve_neg(),
                                a.real, L.real(a), L.conj_physical(a)), A34),
    "angle": (lambda L, a: L.angle(a), np.array([-1.0, 0.0, 2.0, -np.inf, np.inf])),
    "hardshrink": (lambda L, a: (a.hardshrink(0.3), L.hardshrink(a)), A34),
    "prelu": (lambda L, a, w: (a.prelu(w), L.prelu(a, w)), R.standard_normal((2, 3, 4)),
              np.array([0.1, 0.2, 0.3])),
    "fill": (lambda L, a, v: L.fill(a, v), A34, np.array(1.5)),
    "narrow_copy": (lambda L, a: a.narrow_copy(1, 1, 2), A34),
    "cholesky_inverse": (lambda L, a: L.cholesky_inverse(L.linalg.cholesky(a @ a.mT + L.eye(3,
                         dtype=a.dtype))), R.standard_normal((3, 3))),
}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_alias_against_torch(name):
    fn, *arrays = CHECKS[name]
    check(fn, *arrays, rtol=1e-10, atol=1e-12)


def test_questions_about_real_dense_tensors():
    a = U(3, 4)
    for x, xt in ((tg.tensor(a, dtype=tg.float32), torch.tensor(a, dtype=torch.float32)),
                  (tg.tensor([1, 2], dtype=tg.uint8), torch.tensor([1, 2], dtype=torch.uint8)),
                  (tg.tensor(True), torch.tensor(True)),
                  (tg.tensor(2.0), torch.tensor(2.0, dtype=torch.float64))):
        for attr in ("nbytes", "itemsize", "is_sparse", "is_quantized", "is_meta", "name",
                     "is_nested", "is_mkldnn"):
            assert getattr(x, attr) == getattr(xt, attr), attr
        for method in ("is_signed", "is_conj", "is_neg", "storage_offset", "get_device",
                       "is_pinned"):
            assert getattr(x, method)() == getattr(xt, method)(), method
        assert tg.is_signed(x) == torch.is_signed(xt)
        assert x.real is x and x.pin_memory() is x and x.to_dense() is x
    y = tg.tensor(a)
    assert y.data_ptr() == y.detach().data_ptr() != tg.tensor(a).data_ptr()
    assert tg.is_same_size(y, tg.zeros(3, 4)) and not y.is_same_size(tg.zeros(4, 3))
    for lib, t in ((tg, tg.tensor(a)), (torch, torch.tensor(a))):
        with pytest.raises(RuntimeError, match="imag is not implemented for tensors with "
                                               "non-complex dtypes."):
            t.imag  # noqa: B018
        with pytest.raises(RuntimeError, match="imag is not implemented"):
            lib.imag(t)


def test_new_and_resize():
    x = tg.tensor([1.0, 2.0, 3.0], dtype=tg.float32)
    assert x.new(2, 3).shape == (2, 3) and x.new(2, 3).dtype == tg.float32
    assert x.new([4, 5]).tolist() == [4.0, 5.0] and x.new().shape == (0,)
    assert x.new(tg.Size([2])).shape == (2,)
    assert x.new_empty_strided((2, 2), (2, 1)).shape == (2, 2)
    xt = torch.tensor([1.0, 2.0, 3.0])
    x.resize_(2)
    xt.resize_(2)
    assert x.tolist() == xt.tolist() and x._version == 1
    x.resize_(2, 2)
    assert x.shape == (2, 2) and x.reshape(-1)[:2].tolist() == [1.0, 2.0]
    x.resize_as_(tg.zeros(3))
    assert x.shape == (3,)


@pytest.mark.parametrize("shape,wrap", [((3, 3), False), ((7, 3), False), ((7, 3), True),
                                        ((3, 5), False), ((3, 3, 3), False)])
def test_fill_diagonal_(shape, wrap):
    x, xt = tg.zeros(*shape), torch.zeros(*shape, dtype=torch.float64)
    assert x.fill_diagonal_(2.5, wrap) is x
    xt.fill_diagonal_(2.5, wrap)
    np.testing.assert_array_equal(np.asarray(x), xt.numpy())


# ---- top-level functions ------------------------------------------------------------------
X = R.standard_normal((2, 3, 5))
W3 = R.standard_normal(3)
TOP = {
    "conv1d": (lambda L, x, w: L.conv1d(x, w, None, 1, 1), X, R.standard_normal((4, 3, 3))),
    "conv_transpose1d": (lambda L, x, w: L.conv_transpose1d(x, w, None, 2), X,
                         R.standard_normal((3, 2, 3))),
    "dropout_eval": (lambda L, x: L.dropout(x, 0.5, False), X),
    "feature_alpha_dropout_eval": (lambda L, x: L.feature_alpha_dropout(x, 0.5, False), X),
    "batch_norm": (lambda L, x, w, b: L.batch_norm(x, w, b, L.zeros(3, dtype=x.dtype),
                                                   L.ones(3, dtype=x.dtype), True, 0.1, 1e-5,
                                                   False), X, W3, W3 + 1),
    "instance_norm": (lambda L, x, w, b: L.instance_norm(x, w, b, None, None, True, 0.1, 1e-5,
                                                         False), X, W3, W3 + 1),
    "layer_norm": (lambda L, x, w: L.layer_norm(x, (5,), w, None, 1e-5), X,
                   R.standard_normal(5)),
    "group_norm": (lambda L, x, w: L.group_norm(x, 3, w, None), X, W3),
    "embedding": (lambda L, w: L.embedding(w, L.tensor([[0, 2], [1, 2]])),
                  R.standard_normal((3, 4))),
    "embedding_pad": (lambda L, w: L.embedding(w, L.tensor([0, 2, 1]), 2),
                      R.standard_normal((3, 4))),
    "pixel_shuffle": (lambda L, x: L.pixel_shuffle(x, 2), R.standard_normal((1, 8, 2, 3))),
    "max_pool1d": (lambda L, x: L.max_pool1d(x, 2), X),
    "max_pool2d": (lambda L, x: L.max_pool2d(x, 2), R.standard_normal((1, 2, 4, 4))),
    "avg_pool1d": (lambda L, x: L.avg_pool1d(x, 3, 1, 1), X),
    "adaptive_avg_pool1d": (lambda L, x: L.adaptive_avg_pool1d(x, 2), X),
    "adaptive_max_pool1d": (lambda L, x: L.adaptive_max_pool1d(x, 2), X),
    "threshold": (lambda L, x: L.threshold(x, 0.1, -1.0), X),
    "selu_celu": (lambda L, x: (L.selu(x), L.celu(x, 0.5)), X),
    "rrelu_eval": (lambda L, x: L.rrelu(x, 0.1, 0.3, False), X),
    "bilinear": (lambda L, a, b, w: L.bilinear(a, b, w, None), R.standard_normal((2, 3)),
                 R.standard_normal((2, 4)), R.standard_normal((5, 3, 4))),
    "kl_div": (lambda L, a, b: (L.kl_div(a, b), L.kl_div(a, b, 2),
                                L.kl_div(a, b, 1, log_target=True)),
               -U(3, 4), U(3, 4)),
    "bce_with_logits": (lambda L, a, b: L.binary_cross_entropy_with_logits(
        a, b, L.tensor(np.arange(4.0)), L.tensor([0.5, 1.0, 2.0, 3.0]), 2), A34, U(3, 4)),
    "cosine_embedding_loss": (lambda L, a, b: L.cosine_embedding_loss(
        a, b, L.tensor([1.0, -1.0, 1.0], dtype=a.dtype), 0.1, 0), A34, A34[::-1].copy()),
    "hinge_embedding_loss": (lambda L, a: (L.hinge_embedding_loss(
        a, L.tensor([1.0, -1.0, 1.0, -1.0], dtype=a.dtype), 0.5, 1),
        L.hinge_embedding_loss(a, L.tensor([1.0, -1.0, 1.0, -1.0], dtype=a.dtype))), A34),
    "loss_defaults_none": (lambda L, a, b: (L.binary_cross_entropy_with_logits(a, b),
                                            L.triplet_margin_loss(a, b, -a)), A34, U(3, 4)),
    "margin_ranking_loss": (lambda L, a, b: L.margin_ranking_loss(
        a, b, L.tensor([1.0, -1.0, 1.0, 1.0], dtype=a.dtype), 0.1, 2), A4, A4[::-1].copy()),
    "triplet_margin_loss": (lambda L, a, b, c: L.triplet_margin_loss(a, b, c, 1.0, 2, 1e-6,
                                                                     False, 1), A34, U(3, 4),
                            -A34),
    "poisson_nll_loss": (lambda L, a, b: L.poisson_nll_loss(a, b, True, False, 1e-8, 1), A34,
                         U(3, 4)),
    "constant_pad_nd": (lambda L, x: L.constant_pad_nd(x, (1, 2), 0.5), A34),
    "scalar_tensor": (lambda L: L.scalar_tensor(3, dtype=L.float64),),
    "unravel_index": (lambda L: L.unravel_index(L.tensor([0, 5, 11, 12, -1]), (3, 4)),),
    "asarray": (lambda L: L.asarray([[1, 2], [3, 4]], dtype=L.float64),),
}


@pytest.mark.parametrize("name", sorted(TOP))
def test_top_level_against_torch(name):
    fn, *arrays = TOP[name]
    check(fn, *arrays, rtol=1e-10, atol=1e-12)


def test_asarray_shares_and_copies():
    x = tg.tensor([1.0, 2.0])
    assert tg.asarray(x) is x and tg.asarray(x, copy=True) is not x
    a = np.array([1.0, 2.0])
    t = tg.asarray(a, copy=False)
    a[0] = 5.0
    assert t.tolist() == [5.0, 2.0]
    assert tg.asarray([1.0], requires_grad=True).requires_grad


def test_range_is_inclusive_and_deprecated():
    for args in ((0, 3), (1, 2, 0.5), (3, 0, -1)):
        with pytest.warns(UserWarning, match="range is deprecated"):
            r = tg.range(*args)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rt = torch.range(*args, dtype=torch.float64)
        np.testing.assert_allclose(np.asarray(r), rt.numpy())


@pytest.mark.parametrize("name", ["hann_window", "hamming_window", "blackman_window",
                                  "bartlett_window", "kaiser_window"])
@pytest.mark.parametrize("n", [0, 1, 2, 5, 8])
@pytest.mark.parametrize("periodic", [True, False])
def test_windows(name, n, periodic):
    w = getattr(tg, name)(n, periodic)
    wt = getattr(torch, name)(n, periodic, dtype=torch.float64)
    assert w.dtype == tg.float64 and tuple(w.shape) == tuple(wt.shape)
    np.testing.assert_allclose(np.asarray(w), wt.numpy(), rtol=1e-9, atol=1e-12)


def test_window_arguments():
    np.testing.assert_allclose(np.asarray(tg.kaiser_window(6, False, 5.0)),
                               torch.kaiser_window(6, False, 5.0, dtype=torch.float64).numpy(),
                               rtol=1e-9)
    np.testing.assert_allclose(np.asarray(tg.hamming_window(6, True, 0.5, 0.5)),
                               torch.hamming_window(6, True, 0.5, 0.5,
                                                    dtype=torch.float64).numpy(), atol=1e-12)
    assert tg.hann_window(4, dtype=tg.float32).dtype == tg.float32


# ---- random fills -------------------------------------------------------------------------
N = 200_000


def _draw(method, *args, dtype=tg.float64):
    tg.manual_seed(3)
    a = getattr(tg.empty(N, dtype=dtype), method)(*args)
    tg.manual_seed(3)
    b = getattr(tg.empty(N, dtype=dtype), method)(*args)
    assert a.dtype == dtype and a.shape == (N,)
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b))  # seeded: reproducible
    return np.asarray(a, np.float64)


def _se(var):
    return 5 * np.sqrt(var / N)  # 5 standard errors of a mean


def test_bernoulli_fills():
    v = _draw("bernoulli_", 0.3)
    assert set(np.unique(v)) == {0.0, 1.0} and abs(v.mean() - 0.3) < _se(0.21)
    p = tg.full((N,), 0.8)
    assert abs(float(p.bernoulli().mean()) - 0.8) < _se(0.16)
    assert abs(float(tg.empty(N).bernoulli_(p).mean()) - 0.8) < _se(0.16)


def test_exponential_log_normal_cauchy_geometric():
    v = _draw("exponential_", 2.0)
    assert v.min() >= 0 and abs(v.mean() - 0.5) < _se(0.25)
    v = _draw("log_normal_", 0.5, 0.25)
    assert abs(np.log(v).mean() - 0.5) < _se(0.0625) and abs(np.log(v).std() - 0.25) < 0.01
    v = _draw("cauchy_", 1.0, 2.0)
    assert abs(np.median(v) - 1.0) < 0.05 and abs(np.percentile(v, 75) - 3.0) < 0.1
    v = _draw("geometric_", 0.25)
    assert v.min() == 1 and abs(v.mean() - 4.0) < _se(12.0)
    w = tg.empty(N, dtype=tg.float32).exponential_()
    assert w.dtype == tg.float32 and abs(float(w.mean()) - 1.0) < _se(1.0)


def test_random_():
    v = _draw("random_", 3, 7, dtype=tg.int64)
    assert set(np.unique(v)) == {3, 4, 5, 6}
    v = _draw("random_", 5, dtype=tg.int32)
    assert set(np.unique(v)) == {0, 1, 2, 3, 4}
    v = _draw("random_", dtype=tg.uint8)
    assert v.min() >= 0 and v.max() == 255
    v = _draw("random_")
    assert v.max() > 2 ** 40 and (v == np.floor(v)).all()
    assert set(np.unique(np.asarray(tg.empty(100, dtype=tg.bool).random_()))) == {False, True}


def test_random_fills_follow_torch_rules():
    for lib in (tg, torch):
        x = lib.zeros(4, requires_grad=True)
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
            x.exponential_()
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.uniform_()
    y.cauchy_()
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]
    with pytest.raises(RuntimeError, match="expects p to be in"):
        tg.empty(3).geometric_(1.5)
    g = tg.Generator().manual_seed(5)
    a = tg.empty(5).exponential_(generator=g).tolist()
    assert a == tg.empty(5).exponential_(generator=tg.Generator().manual_seed(5)).tolist()


def test_multinomial_method():
    tg.manual_seed(0)
    s = tg.tensor([0.0, 1.0, 3.0]).multinomial(N, replacement=True)
    counts = np.bincount(np.asarray(s), minlength=3) / N
    np.testing.assert_allclose(counts, [0.0, 0.25, 0.75], atol=0.01)


# ---- names refused, and why ---------------------------------------------------------------
@pytest.mark.parametrize("name", ["quantize_per_tensor", "set_autocast_enabled",
                                  "q_per_channel_axis", "fbgemm_linear_fp16_weight"])
def test_unsupported_module_names_say_why(name):
    assert hasattr(torch, name)
    with pytest.raises(AttributeError, match=rf"no attribute '{name}': tapegrad does not "
                                             "support"):
        getattr(tg, name)
    assert not hasattr(tg, name)


@pytest.mark.parametrize("name", ["q_scale", "share_memory_", "output_nr", "map2_"])
def test_unsupported_tensor_names_say_why(name):
    assert hasattr(torch.Tensor, name)
    x = tg.ones(2)
    with pytest.raises(AttributeError, match=rf"'Tensor' object has no attribute '{name}': "
                                             "tapegrad does not support"):
        getattr(x, name)
    assert not hasattr(x, name)


def test_unknown_names_keep_the_plain_error():
    with pytest.raises(AttributeError, match=r"^module 'tapegrad' has no attribute 'nope'$"):
        tg.nope  # noqa: B018
    with pytest.raises(AttributeError, match=r"'Tensor' object has no attribute 'nope'"):
        tg.ones(1).nope  # noqa: B018
    assert getattr(tg.ones(1), "_nope", None) is None
    with pytest.raises(AttributeError, match=r"type object 'Tensor' has no attribute "
                                             r"'q_scale': tapegrad does not support quantized"):
        tg.Tensor.q_scale  # noqa: B018


def test_unsupported_table_names_nothing_tapegrad_has():
    """No name in the table exists (a name added later must leave the table), and every
    name in it is one of PyTorch's."""
    for name in compat.UNSUPPORTED:
        assert name not in vars(tg) and not hasattr(tg.Tensor, name), name
        refused = vars(tg.Tensor).get(name)
        assert refused is None or isinstance(refused, compat._Refused), name
        assert hasattr(torch, name) or hasattr(torch.Tensor, name), name


# ---- more top-level functions -------------------------------------------------------------
COORDS = np.cumsum(R.uniform(0.1, 1.0, 5))
MORE = {
    "gradient": (lambda L, a: L.gradient(a), R.standard_normal((4, 5))),
    "gradient_spacing": (lambda L, a: L.gradient(a, spacing=[0.5, 2.0], edge_order=2),
                         R.standard_normal((4, 5))),
    "gradient_coords": (lambda L, a: L.gradient(a, spacing=(L.tensor(COORDS),), dim=1,
                                                edge_order=2), R.standard_normal((3, 5))),
    "gradient_int": (lambda L: L.gradient(L.tensor([1, 4, 9, 16]), spacing=2.0)[0].double(),),
    "copies": (lambda L, a: (L.diagonal_copy(a), L.permute_copy(a, (1, 0)),
                             *L.unbind_copy(a, 1), L.slice_copy(a, 1, 1, 4, 2),
                             L.view_copy(a, (4, 3)), L.transpose_copy(a, 0, 1),
                             L.expand_copy(a[:1], (2, 4)), L.t_copy(a), L.narrow_copy(a, 1, 0, 2),
                             L.select_copy(a, 0, 1), *L.split_copy(a, 2, 1),
                             L.unsqueeze_copy(a, 0), L.squeeze_copy(a[:1]),
                             L.detach_copy(a.detach()), L.alias_copy(a), L.unfold_copy(a, 1, 2, 1),
                             *L.split_with_sizes_copy(a, [1, 3], 1),
                             L.as_strided_copy(a, (2, 2), (1, 4), 1)), A34),
    "convolution": (lambda L, x, w: L.convolution(x, w, None, [1], [1], [1], False, [0], 1),
                    X, R.standard_normal((4, 3, 3))),
    "convolution_transposed": (lambda L, x, w: L.convolution(x, w, None, [2], [0], [1], True,
                                                             [1], 1), X,
                               R.standard_normal((3, 2, 3))),
    "nonzero_static": (lambda L: (L.nonzero_static(L.tensor([[0, 1], [2, 0]]), size=3),
                                  L.tensor([0.0, 1.0]).nonzero_static(size=1)),),
    "norms": (lambda L, a: (L.frobenius_norm(a, (0, 1)), L.frobenius_norm(a, (1,), True),
                            L.nuclear_norm(a)), A34),
    "adjoint": (lambda L, a: L.adjoint(a), A34),
    "dropout_eval_inplace": (lambda L, a: L.dropout_(a.detach().clone(), 0.5, False), A34),
}


@pytest.mark.parametrize("name", sorted(MORE))
def test_more_top_level_against_torch(name):
    fn, *arrays = MORE[name]
    check(fn, *arrays, rtol=1e-10, atol=1e-12)


def test_as_strided_scatter():
    """Values against torch; gradients against finite differences (torch 2.13's gradient
    for input is gy at the scattered positions, where the output does not depend on input:
    it is the complement that is right)."""
    check(lambda L, a, b: L.as_strided_scatter(a, b, (2, 2), (1, 4), 1).detach(), A34,
          R.standard_normal((2, 2)), grad=False)
    a = tg.tensor(A34, requires_grad=True)
    b = tg.tensor(R.standard_normal((2, 2)), requires_grad=True)
    assert tg.autograd.gradcheck(lambda a, b: tg.as_strided_scatter(a, b, (2, 2), (1, 4), 1),
                                 (a, b))
    out = tg.as_strided_scatter(a, b, (2, 2), (1, 4), 1)
    out.sum().backward()
    assert np.asarray(a.grad).reshape(-1).tolist() == [1, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1]


def test_gradient_errors_as_torch():
    raises_like(lambda L, a: L.gradient(a, edge_order=2), U(2), match=r"at least edge_order\+1")
    raises_like(lambda L, a: L.gradient(a, edge_order=3), U(5), match="edge_order=1 and")


def test_top_level_inplace_names_are_torchs():
    names = [n for n in dir(torch) if n.endswith("_") and not n.startswith("_") and
             hasattr(torch.Tensor, n) and n not in compat.UNSUPPORTED]
    for name in names:
        assert callable(getattr(tg, name)), name
    x, xt = tg.arange(12.0).reshape(3, 4), torch.arange(12.0).reshape(3, 4)
    tg.as_strided_(x, (2, 2), (1, 4))
    torch.as_strided_(xt, (2, 2), (1, 4))
    assert x.tolist() == xt.tolist()
    y = tg.tensor(U(3))
    assert tg.addmv_(y, tg.ones(3, 2), tg.ones(2)) is y


def test_layouts_memory_formats_generators():
    x = tg.ones(2, 3)
    assert x.layout is tg.strided and repr(tg.strided) == "torch.strided"
    assert isinstance(tg.strided, tg.layout) and isinstance(tg.channels_last, tg.memory_format)
    for fmt in (tg.contiguous_format, tg.channels_last, tg.preserve_format):
        assert x.contiguous(memory_format=fmt) is x
    assert tg.empty_strided((2, 3), (3, 1)).shape == (2, 3)
    assert tg.empty_permuted((2, 3), (1, 0)).shape == (2, 3)
    assert x.dim_order() == torch.ones(2, 3).dim_order() and x.is_nonzero is not None
    assert tg.get_device(x) == -1 and not x.is_distributed() and not tg.is_distributed(x)
    tg.default_generator.manual_seed(4)
    a = tg.rand(3).tolist()
    tg.manual_seed(4)
    assert tg.rand(3).tolist() == a


def test_legacy_switches():
    try:
        tg.set_default_tensor_type(tg.FloatTensor)
        assert tg.get_default_dtype() == tg.float32 and tg.tensor([1.0]).dtype == tg.float32
        tg.set_default_tensor_type("torch.DoubleTensor")
        assert tg.get_default_dtype() == tg.float64
        with pytest.raises(TypeError, match="only floating-point types"):
            tg.set_default_tensor_type(tg.LongTensor)
    finally:
        tg.set_default_dtype(tg.float64)
    try:
        for mode in (1, 2, 0, "warn"):
            tg.set_deterministic_debug_mode(mode)
            torch.set_deterministic_debug_mode(mode)
            assert tg.get_deterministic_debug_mode() == torch.get_deterministic_debug_mode()
            assert (tg.is_deterministic_algorithms_warn_only_enabled() ==
                    torch.is_deterministic_algorithms_warn_only_enabled())
    finally:
        tg.set_deterministic_debug_mode(0)
        torch.set_deterministic_debug_mode(0)
    tg.set_warn_always(True)
    assert tg.is_warn_always_enabled()
    tg.set_warn_always(False)
    assert tg.set_flush_denormal(True) is False and tg.is_vulkan_available() is False
    assert tg.is_anomaly_check_nan_enabled() == torch.is_anomaly_check_nan_enabled()


def test_frombuffer_shares_memory():
    buf = bytearray(np.arange(4, dtype=np.float32).tobytes())
    t = tg.frombuffer(buf, dtype=tg.float32, count=3, offset=4)
    assert t.tolist() == [1.0, 2.0, 3.0] and t.dtype == tg.float32
    buf[4:8] = np.float32(7.0).tobytes()
    assert t.tolist()[0] == 7.0


def test_binomial():
    tg.manual_seed(1)
    d = np.asarray(tg.binomial(tg.full((N,), 10.0), tg.full((N,), 0.3)))
    assert d.dtype == np.float64 and d.min() >= 0 and d.max() <= 10
    assert abs(d.mean() - 3.0) < _se(2.1)


def test_jit_script_runs_eagerly():
    """torch.jit's spellings as PyTorch runs them with PYTORCH_JIT=0: the code itself."""
    class Scale(tg.nn.Module):
        factor: tg.jit.Final[float]

        def __init__(self):
            super().__init__()
            self.factor = 2.0

        @tg.jit.ignore
        def helper(self, x):
            return x + 1

        @tg.jit.unused
        def unused(self, x):
            return x

        def forward(self, x):
            return self.helper(x) * tg.jit.annotate(float, self.factor)

    m = tg.jit.script(Scale())
    assert m(tg.ones(2)).tolist() == [4.0, 4.0]

    @tg.jit.script
    def f(x):
        return x * 3

    assert f(tg.ones(1)).tolist() == [3.0]
    assert not tg.jit.is_scripting() and not tg.jit.is_tracing()
    assert tg.jit.ignore(drop=True)(f) is f and tg.jit.export(f) is f
