"""The gaps scripts s120-s159 (tests/torch_scripts/, run by test_torch_scripts13.py) found,
each against PyTorch: the node names composite ops show in ``grad_fn`` (PyTorch's one node
per op, numbered per overload), the distributions' cdf/icdf (Laplace.icdf, LogNormal's,
support checks with PyTorch's message) and reprs."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


def _args(L):
    x = L.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)
    v = L.tensor([3.0, 1.0, 4.0, 1.5], requires_grad=True)
    return x, v, L.tensor([0, 2, 0, 1])


NODES = {  # op -> f(L, x, v, i): PyTorch shows one node, named here, whatever tapegrad composes
    "cumprod": lambda L, x, v, i: v.cumprod(0),
    "logcumsumexp": lambda L, x, v, i: v.logcumsumexp(0),
    "cummax": lambda L, x, v, i: v.cummax(0).values,
    "cummin": lambda L, x, v, i: L.cummin(x, 1)[0],
    "scatter_add": lambda L, x, v, i: L.zeros(3).scatter_add(0, i, v),
    "scatter": lambda L, x, v, i: L.zeros(3).scatter(0, i[:2], v[:2]),
    "scatter_value": lambda L, x, v, i: v.scatter(0, i[:1], 2.0),
    "index_add": lambda L, x, v, i: L.zeros(3).index_add(0, i, v),
    "index_put": lambda L, x, v, i: L.zeros(3).index_put((i[:2],), v[:2]),
    "masked_scatter": lambda L, x, v, i: x.masked_scatter(x > 0, L.ones(6)),
    "take": lambda L, x, v, i: L.take(x, i),
    "trapezoid_dx": lambda L, x, v, i: L.trapezoid(v, dx=0.5),
    "trapezoid_x": lambda L, x, v, i: L.trapezoid(v, L.arange(4.0)),
    "rot90": lambda L, x, v, i: L.rot90(x),
    "block_diag": lambda L, x, v, i: L.block_diag(x, v.unsqueeze(0)),
    "tril": lambda L, x, v, i: x.tril(),
    "triu": lambda L, x, v, i: L.triu(x, 1),
    "lerp": lambda L, x, v, i: L.lerp(v, v * 2, 0.3),
    "lerp_tensor": lambda L, x, v, i: L.lerp(v, v * 2, v),
    "addcmul": lambda L, x, v, i: L.addcmul(v, v, v, value=2),
    "addcdiv": lambda L, x, v, i: v.addcdiv(v, v + 10),
    "addmm": lambda L, x, v, i: L.addmm(L.ones(2, 2), x, x.T),
    "addmv": lambda L, x, v, i: L.addmv(L.ones(2), x, v[:3]),
    "addr": lambda L, x, v, i: L.addr(L.ones(2, 3), v[:2], v[:3]),
    "baddbmm": lambda L, x, v, i: L.baddbmm(L.ones(1, 2, 2), x.unsqueeze(0), x.T.unsqueeze(0)),
    "clamp_tensor": lambda L, x, v, i: L.clamp(v, min=L.zeros(4)),
    "nan_to_num": lambda L, x, v, i: L.nan_to_num(v),
    "cdist": lambda L, x, v, i: L.cdist(x, x),
    "dist": lambda L, x, v, i: L.dist(v, v * 2),
    "pdist": lambda L, x, v, i: L.pdist(x),
    "xlogy": lambda L, x, v, i: L.xlogy(v, v),
    "xlogy_number_other": lambda L, x, v, i: L.xlogy(v, 2.0),
    "xlogy_number_input": lambda L, x, v, i: L.xlogy(2.0, v),
    "xlog1py": lambda L, x, v, i: L.special.xlog1py(v, v),
    "logit": lambda L, x, v, i: L.logit(v / 10),
    "sinc": lambda L, x, v, i: L.sinc(v),
    "hypot": lambda L, x, v, i: L.hypot(v, v),
    "fmod_number": lambda L, x, v, i: L.fmod(v, 1.5),
    "fmod_tensor": lambda L, x, v, i: L.fmod(v, v + 1),
    "remainder_number": lambda L, x, v, i: L.remainder(v, 1.5),
    "remainder_tensor": lambda L, x, v, i: v % (v + 1),
    "copysign_number": lambda L, x, v, i: L.copysign(v, -1.0),
    "copysign_tensor": lambda L, x, v, i: L.copysign(v, -v),
    "frac": lambda L, x, v, i: v.frac(),
    "rsqrt": lambda L, x, v, i: v.rsqrt(),
    "exp2": lambda L, x, v, i: L.exp2(v),
    "logaddexp": lambda L, x, v, i: L.logaddexp(v, v),
    "logaddexp2": lambda L, x, v, i: L.logaddexp2(v, v),
    "sgn": lambda L, x, v, i: v.sgn(),
    "mvlgamma": lambda L, x, v, i: L.mvlgamma(v + 3, 2),
    "special_round": lambda L, x, v, i: L.special.round(v),
    "median": lambda L, x, v, i: v.median(),
    "nanmedian": lambda L, x, v, i: x.nanmedian(),
    "cholesky_solve": lambda L, x, v, i: L.cholesky_solve(L.ones(2, 1), L.linalg.cholesky(x @ x.T)),
    "cholesky_inverse": lambda L, x, v, i: L.cholesky_inverse(L.linalg.cholesky(x @ x.T)),
    "matrix_exp": lambda L, x, v, i: L.linalg.matrix_exp(x @ x.T),
    "cross": lambda L, x, v, i: L.linalg.cross(x, x.flip(0)),
    "trace": lambda L, x, v, i: L.trace(x @ x.T),
    "diag_embed": lambda L, x, v, i: L.diag_embed(x),
    "diagflat": lambda L, x, v, i: L.diagflat(v),
    "renorm": lambda L, x, v, i: x.renorm(2, 0, 1.0),
    "unfold": lambda L, x, v, i: x.unfold(1, 2, 1),
    "select_scatter": lambda L, x, v, i: L.select_scatter(x, v[:3], 0, 1),
    "slice_scatter": lambda L, x, v, i: L.slice_scatter(v, v[:2] * 2, 0, 1, 3),
    "diagonal_scatter": lambda L, x, v, i: L.diagonal_scatter(x, v[:2]),
    "max_unpool2d": lambda L, x, v, i: L.nn.functional.max_unpool2d(
        *L.nn.functional.max_pool2d(x.reshape(1, 1, 2, 3), (1, 3), return_indices=True), (1, 3)),
    "soft_cross_entropy": lambda L, x, v, i: L.nn.functional.cross_entropy(
        x, L.tensor([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]]), label_smoothing=0.1),
}


@pytest.mark.parametrize("op", sorted(NODES))
def test_composite_op_shows_pytorchs_node(torch_float64, op):
    """print(y) shows ``grad_fn=<...>``: a composite shows PyTorch's one node (numbered by
    overload: a number or a tensor operand), leading to the op's inputs; its values and
    gradients are those it had."""
    torch = torch_float64
    got, want = NODES[op](tg, *_args(tg)), NODES[op](torch, *_args(torch))
    assert got.grad_fn.name() == want.grad_fn.name()
    assert type(got.grad_fn).__name__ == type(want.grad_fn).__name__
    assert repr(got) == repr(want)
    (gx, gv), (tx, tv) = _args(tg)[:2], _args(torch)[:2]
    for L, (a, b) in ((tg, (gx, gv)), (torch, (tx, tv))):
        y = NODES[op](L, a, b, L.tensor([0, 2, 0, 1]))
        (y * L.arange(float(y.numel())).reshape(y.shape)).sum().backward()
    for ours, theirs in ((gx, tx), (gv, tv)):
        if theirs.grad is None:
            assert ours.grad is None or not np.asarray(ours.grad).any()
        else:
            np.testing.assert_allclose(np.asarray(ours.grad), theirs.grad.numpy(force=True),
                                       rtol=1e-10,
                                       atol=1e-12)


def test_named_node_leads_to_the_ops_inputs(torch_float64):
    """The node's next_functions lead to the op's tensor inputs, None for one that takes no
    gradient (clamp's absent bound), nothing for a number operand."""
    torch = torch_float64
    kinds = []
    for L in (tg, torch):
        x, v, i = _args(L)
        ys = (L.addmm(L.ones(2, 2), x, x.T), L.lerp(v, v * 2, 0.3), L.xlogy(2.0, v),
              L.cumprod(v, 0), L.clamp(v, min=L.zeros(4)), L.fmod(v, 1.5))
        kinds.append([[type(f).__name__ if f is not None else None
                       for f, _ in y.grad_fn.next_functions] for y in ys])
    assert kinds[0] == kinds[1]


# ---- distributions: cdf/icdf and support checks ---------------------------------------------
CDFS = {
    "Laplace": lambda D, a, b: D.Laplace(a, b),
    "LogNormal": lambda D, a, b: D.LogNormal(a, b),
    "Normal": lambda D, a, b: D.Normal(a, b),
    "Cauchy": lambda D, a, b: D.Cauchy(a, b),
}


@pytest.mark.parametrize("name", sorted(CDFS))
def test_cdf_icdf_values_and_gradients_match_torch(torch_float64, name):
    """icdf(cdf(x)) round-trips; both and their parameter gradients agree with PyTorch and
    with central differences (Laplace.icdf and LogNormal's cdf/icdf were missing)."""
    torch = torch_float64
    probs = np.array([0.05, 0.3, 0.5, 0.8, 0.99])
    xs = np.array([0.2, 0.9, 1.7, 3.0])
    results = []
    for L in (tg, torch):
        a = L.tensor(0.4, requires_grad=True)
        b = L.tensor(1.3, requires_grad=True)
        d = CDFS[name](L.distributions, a, b)
        q = d.icdf(L.tensor(probs))
        c = d.cdf(L.tensor(xs))
        np.testing.assert_allclose(np.asarray(d.cdf(q).detach()), probs, rtol=1e-12)
        (q.sum() + (c * c).sum()).backward()
        results.append([np.asarray(t.detach()) for t in (q, c, a.grad, b.grad)])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-11, atol=1e-13)

    def total(a, b):
        d = CDFS[name](tg.distributions, tg.tensor(a), tg.tensor(b))
        return float((d.icdf(tg.tensor(probs)).sum() + (d.cdf(tg.tensor(xs)) ** 2).sum()))
    h = 1e-6
    fd = [(total(0.4 + h, 1.3) - total(0.4 - h, 1.3)) / (2 * h),
          (total(0.4, 1.3 + h) - total(0.4, 1.3 - h)) / (2 * h)]
    np.testing.assert_allclose([results[0][2], results[0][3]], fd, rtol=1e-6)


SUPPORT_ERRORS = [
    lambda L: L.distributions.Exponential(L.tensor(1.5)).cdf(L.tensor(-1.0)),
    lambda L: L.distributions.Laplace(0.0, 1.0).cdf(L.tensor([float("nan")])),
    lambda L: L.distributions.HalfNormal(1.0).cdf(L.tensor(-1.0)),
    lambda L: L.distributions.HalfCauchy(2.0).cdf(L.tensor([1.0, -1.0])),
    lambda L: L.distributions.Cauchy(0.0, 1.0).cdf(L.tensor(float("nan"))),
    lambda L: L.distributions.Normal(0.0, 1.0).cdf(L.tensor(float("nan"))),
    lambda L: L.distributions.Uniform(0.0, 1.0).cdf(L.tensor([2.0, 0.5])),
    lambda L: L.distributions.Uniform(0.0, 1.0).log_prob(L.tensor(1.5)),
    lambda L: L.distributions.LogNormal(1.0, 2.5).cdf(L.tensor(-0.3)),
    lambda L: L.distributions.Pareto(L.tensor(1.0), L.tensor(2.5)).cdf(L.tensor(0.3)),
    lambda L: L.distributions.TransformedDistribution(
        L.distributions.Exponential(L.tensor(2.0)),
        [L.distributions.transforms.AffineTransform(1.0, 1.0)]).cdf(L.tensor(0.5)),
]


@pytest.mark.parametrize("k", range(len(SUPPORT_ERRORS)))
def test_cdf_checks_the_support_as_torch(torch_float64, raises_as_torch, k):
    """PyTorch's cdfs validate their value (a TransformedDistribution's, on its base): a
    value outside the support raises ValueError with PyTorch's message (a 0-d value shown
    as a number, as ``f"{tensor}"`` shows it)."""
    raises_as_torch(SUPPORT_ERRORS[k])


def test_uniform_support_is_closed_as_torchs(torch_float64):
    """Uniform's support is PyTorch's Interval: log_prob(high) is -inf, not an error."""
    torch = torch_float64
    for L in (tg, torch):
        d = L.distributions.Uniform(0.0, 2.0)
        assert repr(d.support) == "Interval(lower_bound=0.0, upper_bound=2.0)"
        assert float(d.log_prob(L.tensor(2.0))) == -np.inf
        assert float(d.cdf(L.tensor(2.0))) == 1.0


def test_transformed_families_print_as_torch(torch_float64):
    """PyTorch's HalfNormal, HalfCauchy and LogNormal are TransformedDistributions whose
    parameters are properties: repr shows none."""
    torch = torch_float64
    for make in (lambda L: L.distributions.HalfNormal(2.0),
                 lambda L: L.distributions.HalfCauchy(L.ones(2)),
                 lambda L: L.distributions.LogNormal(0.0, 0.5),
                 lambda L: L.distributions.Normal(0.0, 0.5)):
        assert repr(make(tg)) == repr(make(torch))


# ---- error messages users print ----------------------------------------------------------------
@pytest.mark.parametrize("target", ["float64", "float32"])
def test_cross_entropy_float_target_of_index_shape_names_dtype_as_torch(torch_float64,
                                                                      raises_as_torch, target):
    """A float target shaped as class indices: PyTorch's message (the dtype it wanted), then
    tapegrad's note on class probabilities."""
    raises_as_torch(lambda L: L.nn.functional.cross_entropy(
        L.ones(2, 3), L.tensor([0.0, 1.0], dtype=getattr(L, target))), prefix=True)


# ---- numerics PyTorch's kernels fix ---------------------------------------------------------
def test_binary_cross_entropy_uses_log1p_and_pytorchs_signed_zeros(torch_float64):
    """PyTorch's kernel: (t - 1) max(log1p(-x), -100) - t max(log x, -100): exact for x near
    0 (log(1 - x) lost 8 digits at x = 1e-10), -0 where x = t = 1; gradients unchanged."""
    torch = torch_float64
    xs = [1e-10, 1e-300, 0.0, 1.0, 0.3, 1.0 - 1e-12, 0.999]
    ts = [0.0, 0.0, 0.0, 1.0, 0.25, 1.0, 0.5]
    got, want = [], []
    for L, out in ((tg, got), (torch, want)):
        x = L.tensor(xs, requires_grad=True)
        loss = L.nn.functional.binary_cross_entropy(x, L.tensor(ts), reduction="none")
        (loss * L.arange(7.0)).sum().backward()
        out += [np.asarray(loss.detach()), np.asarray(x.grad)]
    np.testing.assert_array_equal(np.signbit(got[0]), np.signbit(want[0]))
    np.testing.assert_allclose(got[0], want[0], rtol=1e-15, atol=0)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-9)
    h = 1e-7  # central differences inside (0, 1)
    x0 = np.array([0.3, 0.999, 0.5])
    t0 = tg.tensor([0.25, 0.5, 1.0])
    x = tg.tensor(x0, requires_grad=True)
    tg.nn.functional.binary_cross_entropy(x, t0, reduction="sum").backward()
    fd = [(float(tg.nn.functional.binary_cross_entropy(tg.tensor(x0 + h * e), t0, reduction="sum"))
           - float(tg.nn.functional.binary_cross_entropy(tg.tensor(x0 - h * e), t0,
                                                          reduction="sum"))) / (2 * h)
          for e in np.eye(3)]
    np.testing.assert_allclose(np.asarray(x.grad), fd, rtol=1e-6)


def test_identity_compose_transform_jacobian_is_zeros(torch_float64):
    """biject_to(real) is the empty ComposeTransform: its log|det J| is zeros (not x * 0,
    -0 at negative x)."""
    torch = torch_float64
    for L in (tg, torch):
        x = L.tensor([-1.0, 0.0, 2.0])
        t = L.distributions.biject_to(L.distributions.constraints.real)
        assert repr(t.log_abs_det_jacobian(x, t(x))) == "tensor([0., 0., 0.])"


# ---- PyTorch's roundings: multiply-adds, linspace, pow's gradient --------------------------
def test_fma_is_rounded_once():
    """_fp.fma against exact rational arithmetic, over magnitudes 1e-6..1e6 and signs."""
    from fractions import Fraction

    from tapegrad._fp import fma
    rng = np.random.default_rng(5)
    a, b, c = rng.standard_normal((3, 4000)) * 10.0 ** rng.integers(-6, 7, (3, 4000))
    got = fma(a, b, c)
    want = [float(Fraction(x) * Fraction(y) + Fraction(z)) for x, y, z in zip(a, b, c)]
    np.testing.assert_array_equal(got, want)
    assert fma(1e308, 10.0, 1.0) == np.inf  # (overflow: the plain a * b + c)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32"])
def test_linspace_points_are_pytorchs(torch_float64, dtype):
    """PyTorch's points (start + step i below the middle, end - step (n - 1 - i) from it,
    each one multiply-add): NumPy's linspace differed in the last bit of ~1 point in 4."""
    torch = torch_float64
    rng = np.random.default_rng(3)
    for _ in range(60):
        lo, hi = rng.standard_normal(2) * 10.0 ** rng.integers(-3, 4)
        n = int(rng.integers(0, 400))
        want = torch.linspace(lo, hi, n, dtype=getattr(torch, dtype)).numpy()
        got = np.asarray(tg.linspace(lo, hi, n, dtype=getattr(tg, dtype)))
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_linspace_bad_steps_as_torch(torch_float64, raises_as_torch):
    raises_as_torch(lambda L: L.linspace(0, 1, -1))
    with pytest.raises(TypeError, match="steps"):
        tg.linspace(0, 1, 2.0)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_lerp_and_addcmul_values_are_pytorchs_and_gradients_unchanged(torch_float64, dtype):
    """lerp (number or tensor weight, both branches) and addcmul bit for bit as PyTorch's
    kernels (one rounding of each multiply-add); gradients against PyTorch and central
    differences."""
    torch = torch_float64
    rng = np.random.default_rng(0)
    a, b, c = (rng.standard_normal(500).astype(dtype) for _ in range(3))
    w = (rng.random(500) * 1.2 - 0.1).astype(dtype)
    calls = [lambda L, T: L.lerp(T(a), T(b), 0.3), lambda L, T: T(a).lerp(T(b), 0.8),
             lambda L, T: L.lerp(T(a), T(b), T(w)), lambda L, T: L.addcmul(T(a), T(b), T(c)),
             lambda L, T: L.addcmul(T(a), T(b), T(c), value=-0.37)]
    for f in calls:
        want = f(torch, torch.tensor).numpy()
        np.testing.assert_array_equal(np.asarray(f(tg, tg.tensor)), want)
    x0, y0, w0 = a[:4].astype(np.float64), b[:4].astype(np.float64), w[:4].astype(np.float64)
    for f in (lambda L, x, y: L.lerp(x, y, 0.3), lambda L, x, y: L.lerp(x, y, L.tensor(w0)),
              lambda L, x, y: L.addcmul(x, y, x, value=0.5)):
        grads = []
        for L in (tg, torch):
            x, y = L.tensor(x0, requires_grad=True), L.tensor(y0, requires_grad=True)
            (f(L, x, y) * L.arange(1.0, 5.0)).sum().backward()
            grads.append((np.asarray(x.grad), np.asarray(y.grad)))
        np.testing.assert_allclose(grads[0][0], grads[1][0], rtol=1e-14)
        np.testing.assert_allclose(grads[0][1], grads[1][1], rtol=1e-14)
        h, e = 1e-6, np.eye(4)[1]
        fd = (float((f(tg, tg.tensor(x0 + h * e), tg.tensor(y0)) * tg.arange(1.0, 5.0)).sum())
              - float((f(tg, tg.tensor(x0 - h * e), tg.tensor(y0)) * tg.arange(1.0, 5.0))
                      .sum())) / (2 * h)
        np.testing.assert_allclose(grads[0][0][1], fd, rtol=1e-7)


@pytest.mark.parametrize("c", [3.0, 4.0, 2.0])
def test_pow_gradient_rounds_as_pytorchs(torch_float64, c):
    """pow's gradient is g * (c * x^(c-1)) in that order (PyTorch's pow_backward), its small
    powers as PyTorch's products (other powers go through libm's pow, whose last bit is
    PyTorch's vectorised pow's only most of the time)."""
    torch = torch_float64
    x0 = np.random.default_rng(1).random(300) * 3 + 0.1
    g0 = np.random.default_rng(2).standard_normal(300)
    grads = []
    for L in (tg, torch):
        x = L.tensor(x0, requires_grad=True)
        (x ** c).backward(L.tensor(g0))
        grads.append(np.asarray(x.grad))
    np.testing.assert_array_equal(grads[0], grads[1])


OPTIMIZERS = [("Adam", dict(lr=0.05)), ("AdamW", dict(lr=0.05, amsgrad=True)),
              ("RAdam", dict(lr=0.05)), ("SGD", dict(lr=1e-3)),
              ("SGD", dict(lr=1e-3, momentum=0.9, nesterov=True, weight_decay=0.1)),
              ("SGD", dict(lr=1e-3, momentum=0.5, dampening=0.2))]


@pytest.mark.parametrize("dtype", ["float64"])  # (float32 gradients: see the report)
@pytest.mark.parametrize("k", range(len(OPTIMIZERS)))
def test_optimizer_trajectories_bit_for_bit(torch_float64, k, dtype):
    """Adam's moments as PyTorch's lerp_ and addcmul_ round them, SGD's steps as its
    add_(alpha=) does (one multiply-add each): 30 steps on a cubic loss agree with
    PyTorch's to the last bit (they parted after a few steps)."""
    torch = torch_float64
    opt, kw = OPTIMIZERS[k]
    runs = []
    for L in (tg, torch):
        p = L.nn.Parameter(L.tensor([0.3, -1.7, 2.2], dtype=getattr(L, dtype)))
        o = getattr(L.optim, opt)([p], **kw)
        for _ in range(30):
            o.zero_grad()
            target = L.tensor([1.0, 2.0, -3.0], dtype=getattr(L, dtype))
            (((p - target) ** 3).abs().sum() * 0.37).backward()
            o.step()
        runs.append(np.asarray(p.detach()))
    np.testing.assert_array_equal(runs[0], runs[1])


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_add_sub_with_alpha_round_once_as_torch(torch_float64, dtype):
    """torch.add/sub(..., alpha=) and add_/sub_ are one multiply-add in PyTorch's kernel:
    the same values bit for bit, the same nodes and gradients."""
    torch = torch_float64
    rng = np.random.default_rng(4)
    a, b = (rng.standard_normal(400).astype(dtype) for _ in range(2))
    outs = []
    for L in (tg, torch):
        x, y = L.tensor(a), L.tensor(b)
        x2, x3 = x.clone(), x.clone()
        x2.add_(y, alpha=0.1)
        x3.sub_(y, alpha=3.3)
        outs.append([np.asarray(t) for t in (L.add(x, y, alpha=-0.37), x.sub(y, alpha=0.37),
                                             x2, x3)])
    for ours, theirs in zip(*outs):
        np.testing.assert_array_equal(ours, theirs)
    grads = []
    for L in (tg, torch):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        y = L.tensor([3.0, 0.1], requires_grad=True)
        z = L.sub(x, y, alpha=0.3)
        w = x * 1
        w.add_(y, alpha=2.5)
        (z.sum() + (w * w).sum()).backward()
        grads.append((z.grad_fn.name(), w.grad_fn.name(), x.grad.tolist(), y.grad.tolist()))
    assert grads[0] == grads[1]
