"""Gaps that PyTorch programs written for ``import tapegrad as torch`` ran into, against
torch: the named tuples of torch.return_types (fields and printing), einsum's ellipsis,
diagonals and sublist format, a number as the first operand of torch.add/sub/mul/div/pow,
``alpha`` of add/sub, and the optimizers and lr schedulers that were missing."""
import contextlib

import numpy as np
import pytest
from test_torch_api_misc import check

import tapegrad as tg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

R = np.random.default_rng(5)


@contextlib.contextmanager
def torch_float64():
    """torch with tapegrad's default dtype (float64), for comparisons to 1e-10."""
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        yield
    finally:
        torch.set_default_dtype(old)


# ---- torch.return_types ---------------------------------------------------------------------
@pytest.mark.parametrize("fn", [
    lambda L, x: L.max(x, 1), lambda L, x: x.min(dim=0), lambda L, x: L.sort(x[0]),
    lambda L, x: L.topk(x[1], 2), lambda L, x: L.cummax(x[0], 0), lambda L, x: L.median(x, 1),
    lambda L, x: L.mode(x.round(), 1), lambda L, x: L.kthvalue(x, 2, 1),
    lambda L, x: L.aminmax(x), lambda L, x: L.frexp(x), lambda L, x: L.linalg.slogdet(x),
    lambda L, x: L.linalg.qr(x)])
def test_return_types_fields_and_print(fn):
    x = np.array([[3.0, 1.5, 2.0], [0.5, 4.0, -1.0], [2.5, -2.0, 1.0]])
    r, rt = fn(tg, tg.tensor(x)), fn(torch, torch.tensor(x))
    assert type(r).__name__ == type(rt).__name__ and r.__match_args__ == type(rt).__match_args__
    assert type(r).__module__ == "tapegrad.return_types"
    assert repr(r) == repr(rt).replace(", dtype=torch.float64", "")  # (tapegrad's default)
    assert getattr(tg.return_types, type(r).__name__) is type(r)
    a, b = r  # unpacks as a tuple
    assert np.allclose(np.asarray(a), rt[0].numpy())


# ---- einsum -------------------------------------------------------------------------------
@pytest.mark.parametrize("eq, shapes", [
    ("ii->", [(3, 3)]), ("ii", [(3, 3)]), ("bii->bi", [(2, 3, 3)]), ("iji->j", [(2, 3, 2)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]), ("...ij,...jk", [(2, 1, 3, 4), (5, 4, 2)]),
    ("i...->...", [(3, 2, 2)]), ("b...d,b...d->b...", [(2, 3, 4), (2, 3, 4)]),
    ("...", [(2, 3)]), ("ab...,b->a...", [(2, 3, 4, 5), (3,)]), ("iij,jk", [(3, 3, 2), (2, 4)])])
def test_einsum_ellipsis_and_diagonals(eq, shapes):
    check(lambda L, *xs: L.einsum(eq, *xs), *[R.standard_normal(s) for s in shapes])


def test_einsum_sublist_format():
    a, b = R.standard_normal((2, 3)), R.standard_normal((3, 4))
    check(lambda L, x, y: L.einsum(x, [0, 1], y, [1, 2], [0, 2]), a, b)
    check(lambda L, x, y: L.einsum(x, [Ellipsis, 1], y, [1, 2]), a, b)


def test_einsum_errors():
    with pytest.raises(RuntimeError, match="sizes don't match"):
        tg.einsum("ii", tg.ones(2, 3))
    with pytest.raises(RuntimeError, match="not part of any ellipsis"):
        tg.einsum("i..j", tg.ones(2, 3))


# ---- a number first; alpha ----------------------------------------------------------------
@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "pow", "true_divide", "subtract",
                                  "multiply", "divide"])
def test_number_as_first_operand(name):
    check(lambda L, x: getattr(L, name)(2.5, x), R.uniform(0.5, 2.0, (3, 2)))
    if "div" not in name:  # (an int quotient is tapegrad's default float64, torch's float32)
        check(lambda L, x: getattr(L, name)(2, x), np.arange(1, 5), grad=False)


def test_add_sub_alpha():
    a, b = R.standard_normal((2, 3)), R.standard_normal(3)
    check(lambda L, x, y: L.add(x, y, alpha=3), a, b)
    check(lambda L, x, y: x.sub(y, alpha=0.5), a, b)
    check(lambda L, x, y: L.subtract(x, y, alpha=2), a, b)
    check(lambda L, x: L.add(x, 2, alpha=3), a)
    check(lambda L, x: L.sub(1, x, alpha=2), a)


# ---- optimizers -----------------------------------------------------------------------------
def _descend(lib, name, kw, steps=8):
    """``steps`` updates of one parameter by gradients of a fixed sequence of losses; the
    parameter and the optimizer's state after them."""
    rng = np.random.default_rng(3)
    p = lib.tensor(rng.standard_normal((3, 2)), requires_grad=True)
    opt = getattr(lib.optim, name)([p], **kw)
    for _ in range(steps):
        opt.zero_grad()
        ((p * lib.tensor(rng.standard_normal((3, 2)))).sum() + (p * p).sum() * 0.1).backward()
        opt.step()
    state = opt.state_dict()["state"][0]
    return p.detach().numpy(), {k: np.asarray(v) for k, v in state.items()}


@pytest.mark.parametrize("name, kw", [
    ("Adadelta", {}), ("Adadelta", dict(lr=0.5, rho=0.8, weight_decay=0.1, maximize=True)),
    ("Adamax", {}), ("Adamax", dict(lr=0.1, weight_decay=0.1)),
    ("NAdam", {}), ("NAdam", dict(lr=0.05, weight_decay=0.1)),
    ("NAdam", dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True)),
    ("RAdam", {}), ("RAdam", dict(lr=0.1, weight_decay=0.1, betas=(0.8, 0.9))),
    ("RAdam", dict(lr=0.1, weight_decay=0.1, decoupled_weight_decay=True)),
    ("Rprop", {}), ("Rprop", dict(lr=0.1, etas=(0.3, 1.5), step_sizes=(1e-3, 0.2),
                                  maximize=True)),
    ("ASGD", {}), ("ASGD", dict(lr=0.1, t0=5, weight_decay=0.1, lambd=0.01))])
def test_more_optimizers_match_torch(name, kw):
    with torch_float64():  # (torch keeps NAdam's mu_product, ASGD's eta and mu as
        want, want_state = _descend(torch, name, kw)  # default-dtype tensors)
    got, state = _descend(tg, name, kw)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
    assert sorted(state) == sorted(want_state)
    for k, v in want_state.items():
        np.testing.assert_allclose(state[k], v, rtol=1e-12, atol=1e-14)


def test_optimizer_repr_matches_torch():
    def text(lib):
        w, b = lib.zeros(2, requires_grad=True), lib.zeros(1, requires_grad=True)
        return repr(lib.optim.Adam([{"params": [w]}, {"params": [b], "lr": 0.5}], lr=0.01))
    assert text(tg) == text(torch)


# ---- lr schedulers --------------------------------------------------------------------------
S = "lr_scheduler"
SCHEDULES = {
    "MultiplicativeLR": lambda L, o: getattr(L.optim, S).MultiplicativeLR(o, lambda e: 0.95),
    "ConstantLR": lambda L, o: getattr(L.optim, S).ConstantLR(o, factor=0.5, total_iters=3),
    "PolynomialLR": lambda L, o: getattr(L.optim, S).PolynomialLR(o, total_iters=8, power=2.0),
    "WarmRestarts": lambda L, o: getattr(L.optim, S).CosineAnnealingWarmRestarts(
        o, T_0=3, T_mult=2, eta_min=0.001),
    "Cyclic": lambda L, o: getattr(L.optim, S).CyclicLR(o, base_lr=0.01, max_lr=0.1,
                                                        step_size_up=3),
    "Cyclic2": lambda L, o: getattr(L.optim, S).CyclicLR(
        o, 0.01, [0.1], step_size_up=2, step_size_down=3, mode="triangular2"),
    "CyclicExp": lambda L, o: getattr(L.optim, S).CyclicLR(
        o, 0.01, 0.1, step_size_up=2, mode="exp_range", gamma=0.9, cycle_momentum=False),
    "Sequential": lambda L, o: getattr(L.optim, S).SequentialLR(o, [
        getattr(L.optim, S).LinearLR(o, start_factor=0.2, total_iters=3),
        getattr(L.optim, S).ExponentialLR(o, gamma=0.9)], milestones=[3]),
    "Chained": lambda L, o: getattr(L.optim, S).ChainedScheduler([
        getattr(L.optim, S).ConstantLR(o, factor=0.5, total_iters=2),
        getattr(L.optim, S).ExponentialLR(o, gamma=0.9)])}


def _schedule(lib, make, steps=14):
    w = lib.zeros(2, requires_grad=True)
    opt = lib.optim.SGD([w], lr=0.1, momentum=0.9)
    sched = make(lib, opt)
    seen = []
    for _ in range(steps):
        w.grad = lib.ones(2)
        opt.step()
        sched.step()
        seen.append((sched.get_last_lr()[0], opt.param_groups[0]["momentum"]))
    return seen, sched


@pytest.mark.filterwarnings("ignore:The epoch parameter")
@pytest.mark.parametrize("name", list(SCHEDULES))
def test_more_schedulers_match_torch(name):
    got, sched = _schedule(tg, SCHEDULES[name])
    want, sched_t = _schedule(torch, SCHEDULES[name])
    np.testing.assert_allclose(got, want, rtol=1e-13)
    assert isinstance(sched, tg.optim.lr_scheduler.LRScheduler)
    state = sched.state_dict()
    assert "optimizer" not in state
    again, sched2 = _schedule(tg, SCHEDULES[name], steps=0)
    sched2.load_state_dict(state)
    assert sched2.get_last_lr() == sched.get_last_lr()
    assert sched2.state_dict().keys() == state.keys()


def test_warm_restarts_fractional_epochs():
    def lrs(lib):
        opt = lib.optim.SGD([lib.zeros(1, requires_grad=True)], lr=0.1)
        sched = lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2)
        out = []
        for epoch in range(5):
            for i in range(3):
                sched.step(epoch + i / 3)
                out.append(opt.param_groups[0]["lr"])
        return out
    np.testing.assert_allclose(lrs(tg), lrs(torch), rtol=1e-13)


# ---- distributions --------------------------------------------------------------------------
def _moments(L, d, value):
    out = [d.log_prob(L.tensor(value)), d.mean, d.variance, d.stddev, d.mode]
    try:
        return out + [d.entropy()]
    except NotImplementedError:  # (Poisson's; Binomial's with unequal total counts)
        return out


DISTS = {
    "StudentT": (lambda L, D: D.StudentT(L.tensor([3.0, 1.5, 0.8]), L.tensor(0.5),
                                         L.tensor([1.0, 2.0, 0.5])), [0.3, 1.5, -2.0]),
    "Cauchy": (lambda L, D: D.Cauchy(L.tensor([0.0, 1.0, 2.0]), 2.0), [0.3, 1.5, -2.0]),
    "HalfNormal": (lambda L, D: D.HalfNormal(L.tensor([1.0, 2.0, 0.5])), [0.3, 1.5, 2.0]),
    "HalfCauchy": (lambda L, D: D.HalfCauchy(L.tensor([1.0, 2.0, 0.5])), [0.3, 1.5, 2.0]),
    "Gumbel": (lambda L, D: D.Gumbel(L.tensor([0.0, 1.0, 2.0]), 2.0), [0.3, 1.5, -2.0]),
    "Chi2": (lambda L, D: D.Chi2(L.tensor([1.0, 3.0, 5.0])), [0.3, 1.5, 2.0]),
    "Poisson": (lambda L, D: D.Poisson(L.tensor([1.0, 3.0, 5.5])), [0.0, 2.0, 7.0]),
    "Geometric": (lambda L, D: D.Geometric(L.tensor([0.2, 0.5, 0.9])), [0.0, 2.0, 7.0]),
    "GeometricLogits": (lambda L, D: D.Geometric(logits=L.tensor([0.2, -0.5, 0.9])),
                        [0.0, 2.0, 7.0]),
    "Binomial": (lambda L, D: D.Binomial(10, L.tensor([0.2, 0.5, 0.9])), [0.0, 2.0, 7.0]),
    "BinomialLogits": (lambda L, D: D.Binomial(L.tensor([5.0, 10.0, 3.0]),
                                               logits=L.tensor([0.2, -0.5, 0.9])),
                       [0.0, 2.0, 3.0])}


@pytest.mark.parametrize("name", list(DISTS))
def test_more_distributions_match_torch(name):
    make, value = DISTS[name]
    got = _moments(tg, make(tg, tg.distributions), value)
    with torch_float64():
        want = _moments(torch, make(torch, torch.distributions), value)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(np.asarray(g.detach()), w.detach().numpy(), rtol=1e-10)
    d = make(tg, tg.distributions)
    assert tuple(d.batch_shape) == tuple(make(torch, torch.distributions).batch_shape)
    assert tuple(d.sample((5,)).shape) == (5,) + tuple(d.batch_shape)


def test_distribution_gradients_match_torch():
    def grads(L):
        D = L.distributions
        df = L.tensor([3.0, 4.0], requires_grad=True)
        s = L.tensor([1.0, 2.0], requires_grad=True)
        x = L.tensor([0.5, 1.0])
        lp = (D.StudentT(df, 0.0, s).log_prob(x).sum() + D.Gumbel(s, df).log_prob(x).sum()
              + D.Binomial(5, logits=s).log_prob(x.round()).sum()
              + D.Poisson(df).log_prob(x.round()).sum() + D.StudentT(df, 0.0, s).entropy().sum()
              + D.HalfNormal(s).log_prob(x).sum() + D.Cauchy(df, s).cdf(x).sum())
        return L.autograd.grad(lp, [df, s])
    with torch_float64():
        want = grads(torch)
    for g, w in zip(grads(tg), want, strict=True):
        np.testing.assert_allclose(np.asarray(g), w.numpy(), rtol=1e-10)


@pytest.mark.parametrize("batched", [False, True])
def test_mixture_same_family_matches_torch(batched):
    def parts(L):
        D = L.distributions
        if batched:
            g = D.MixtureSameFamily(
                D.Categorical(logits=L.tensor([[0.2, 0.5], [0.1, -0.3]])),
                D.Independent(D.Normal(L.arange(8.0).reshape(2, 2, 2), L.ones(2, 2, 2)), 1))
            x = L.tensor([[0.3, 0.2], [1.0, 4.0]])
        else:
            g = D.MixtureSameFamily(D.Categorical(L.tensor([0.2, 0.5, 0.3])),
                                    D.Normal(L.tensor([-1.0, 0.0, 2.0]),
                                             L.tensor([0.5, 1.0, 1.5])))
            x = L.tensor([[0.3], [1.0]])
        extra = [] if batched else [g.cdf(L.tensor([0.5, -1.0]))]
        return [g.log_prob(x), g.mean, g.variance] + extra, g
    got, g = parts(tg)
    with torch_float64():
        want, gt = parts(torch)
    for a, b in zip(got, want, strict=True):
        np.testing.assert_allclose(np.asarray(a), b.numpy(), rtol=1e-10)
    assert tuple(g.sample((3,)).shape) == tuple(gt.sample((3,)).shape)


# ---- printing: PyTorch's line width (80) and its suffixes on lines of their own ----------------
@pytest.mark.parametrize("shape", [(8,), (9,), (2, 8), (3, 13), (2, 2, 9), (20,)])
@pytest.mark.parametrize("scale", [1.0, 123.0])
def test_repr_line_breaks_match_torch(shape, scale):
    a = np.sin(np.arange(np.prod(shape))).reshape(shape) * scale
    with torch_float64():
        want = [repr(torch.tensor(a)), repr(torch.tensor(a, requires_grad=True) * 2),
                repr(torch.tensor(a, requires_grad=True))]
    got = [repr(tg.tensor(a)), repr(tg.tensor(a, requires_grad=True) * 2),
           repr(tg.tensor(a, requires_grad=True))]
    assert got == want


# ---- torch.utils.data -----------------------------------------------------------------------
def test_weighted_random_sampler():
    from tapegrad.utils.data import WeightedRandomSampler
    s = WeightedRandomSampler([0.0, 0.0, 1.0, 0.0], num_samples=5)
    assert list(s) == [2] * 5 and len(s) == 5
    tg.manual_seed(0)
    drawn = list(WeightedRandomSampler(tg.tensor([1.0, 3.0]), 4000))
    assert 0.72 < np.mean(drawn) < 0.78  # P(1) = 3/4
    assert sorted(WeightedRandomSampler([1, 1, 1], 3, replacement=False)) == [0, 1, 2]
    with pytest.raises(ValueError, match="num_samples should be a positive integer"):
        WeightedRandomSampler([1.0], 0)


def test_stack_dataset():
    from tapegrad.utils.data import StackDataset, TensorDataset
    for lib in (tg, torch):
        a = lib.utils.data.TensorDataset(lib.arange(4.0))
        assert len(lib.utils.data.StackDataset(a, lib.arange(4))) == 4
    ds = StackDataset(x=TensorDataset(tg.arange(4.0)), y=[10, 11, 12, 13])
    assert ds[2]["y"] == 12 and float(ds[2]["x"][0]) == 2.0
    assert StackDataset([1, 2], [3, 4])[1] == (2, 4)
    with pytest.raises(ValueError, match="Size mismatch"):
        StackDataset([1, 2], [3])


INF, NAN = float("inf"), float("nan")
FLOATS = [[1.0, -INF], [0.0, NAN], [1e6, 1.0], [1e3, 1.0], [1001.0, 1.0], [1.5, INF],
          [0.0, 0.0], [1e9, 1e9], [123456789.0, 1.0], [INF, -INF, NAN], [1e-5, 1.0],
          [0.5, -2.25], [-1e-5, 2e-5], [[1.0, 2.5], [NAN, -3.0]], [12345.678, 0.001]]


@pytest.mark.parametrize("options", [{}, {"sci_mode": True}, {"sci_mode": False},
                                     {"precision": 2}])
def test_float_format_matches_torch(options):
    """Scientific notation when whole numbers span more than 1e3 too; the column width
    from the nonzero finite values only (inf, nan and 0 never widen it)."""
    with torch_float64():
        torch.set_printoptions(**options)
        tg.set_printoptions(**options)
        try:
            for values in FLOATS:
                assert repr(tg.tensor(values)) == repr(torch.tensor(values)), values
        finally:
            torch.set_printoptions(profile="default", sci_mode=None)
            tg.set_printoptions(profile="default", sci_mode=None)


# ---- shifts and reflected bitwise operators ---------------------------------------------------
def test_shift_and_reflected_bitwise_operators():
    check(lambda L, x: (x >> 1, x << 2, 3 & x, 8 | x, 1 ^ x, 1 << x, 64 >> x), np.array([5, 3]),
          grad=False)

    def inplace(L):
        x = L.tensor([5, 3])
        y = x
        x <<= 1
        x |= 1
        x ^= 2
        x >>= 1
        x &= 6
        return y
    assert inplace(tg).tolist() == inplace(torch).tolist()


R2 = np.random.default_rng(1)
BIG = {"floats": np.arange(2000.0), "ints": np.arange(2000), "square": R2.standard_normal((40, 40)),
       "wide": R2.standard_normal((3, 400)), "3-d": R2.standard_normal((5, 5, 50)) * 1000,
       "bools": R2.integers(0, 2, (50, 30)).astype(bool), "empty ints": np.zeros(0, np.int64),
       "empty bools 2-d": np.zeros((0, 2), bool), "float32": R2.standard_normal(12, np.float32)}


@pytest.mark.parametrize("options", [{}, {"edgeitems": 2, "threshold": 50},
                                     {"precision": 2, "linewidth": 60}])
def test_summarized_repr_matches_torch(options):
    """PyTorch's layout itself: the formatter fitted to the shown elements only, ' ...' as
    one more element of a summarised row, '...' for summarised rows, dtype= on every empty
    tensor of a dtype other than the default."""
    with torch_float64():
        torch.set_printoptions(**options)
        tg.set_printoptions(**options)
        try:
            for name, a in BIG.items():
                want = repr(torch.tensor(a))
                assert repr(tg.tensor(a)) == want, name
        finally:
            torch.set_printoptions(profile="default", linewidth=80)
            tg.set_printoptions(profile="default", linewidth=None)


# ---- module hooks: the full backward hooks wrap the outputs the forward hooks return ----------
def test_backward_hooks_see_forward_hooks_outputs():
    def run(lib):
        lin = lib.nn.Linear(2, 2)
        with lib.no_grad():
            lin.weight.copy_(lib.tensor([[1.0, 2.0], [3.0, 4.0]]))
            lin.bias.zero_()
        seen = []
        lin.register_full_backward_pre_hook(lambda m, gout: seen.append(gout[0].clone()))
        lin.register_full_backward_hook(lambda m, gin, gout: seen.append(gout[0].clone()))
        lin.register_forward_hook(lambda m, args, kwargs, out: out * 2, with_kwargs=True)
        x = lib.ones(1, 2, requires_grad=True)
        out = lin(x)
        (out * lib.tensor([1.0, 3.0])).sum().backward()
        return [out, *seen, x.grad, lin.weight.grad], out.grad_fn.name()
    got, name = run(tg)
    with torch_float64():
        want, name_t = run(torch)
    assert name == name_t
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(np.asarray(g.detach()), w.detach().numpy())


# ---- optim.swa_utils -------------------------------------------------------------------------
def _swa_run(lib):
    nn, su = lib.nn, lib.optim.swa_utils
    model = nn.Sequential(nn.Linear(2, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
    with lib.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(lib.sin(lib.arange(p.numel(), dtype=p.dtype) + i).view_as(p) * 0.5)
    x = lib.linspace(-1, 1, 32).view(16, 2)
    y = x.sum(1, keepdim=True) ** 2
    batches = [(x[i:i + 4], y[i:i + 4]) for i in range(0, 16, 4)]
    opt = lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    swa = su.AveragedModel(model)
    ema = su.AveragedModel(model, multi_avg_fn=su.get_ema_multi_avg_fn(0.9))
    ema2 = su.AveragedModel(model, avg_fn=su.get_ema_avg_fn(0.8), use_buffers=True)
    sched = su.SWALR(opt, swa_lr=0.05, anneal_epochs=3)
    lrs = []
    for epoch in range(5):
        for xb, yb in batches:
            opt.zero_grad()
            nn.functional.mse_loss(model(xb), yb).backward()
            opt.step()
        if epoch >= 1:
            swa.update_parameters(model)
            sched.step()
        ema.update_parameters(model)
        ema2.update_parameters(model)
        lrs.append(opt.param_groups[0]["lr"])
    su.update_bn(batches, swa)
    swa.eval()
    return [lib.tensor(lrs), swa.module[1].running_mean, swa.module[1].running_var,
            swa.module[0].weight, ema.module[3].weight, ema2.module[1].running_mean, swa(x[:3]),
            swa.n_averaged]


def test_swa_utils_match_torch():
    got = _swa_run(tg)
    with torch_float64():
        want = _swa_run(torch)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(np.asarray(g.detach()), w.detach().numpy(), rtol=1e-11)


def test_distribution_repr_matches_torch():
    def texts(L):
        D = L.distributions
        return [repr(D.Normal(0.0, 1.0)), repr(D.Normal(L.zeros(2), 1.0)),
                repr(D.StudentT(L.tensor([3.0]), 0.0, 1.0)),
                repr(D.Bernoulli(probs=L.tensor([0.25]))), repr(D.Categorical(L.ones(3))),
                repr(D.Chi2(L.tensor([3.0])))]
    with torch_float64():
        want = texts(torch)  # (Size prints as torch.Size, as PyTorch's)
    assert texts(tg) == want


# ---- distributions.transforms / TransformedDistribution ---------------------------------------
def _transformed(L):
    D = L.distributions
    T = D.transforms
    out = []
    loc = L.tensor([0.2, -0.5], requires_grad=True)
    base = D.Normal(loc, L.tensor([1.0, 0.5]))
    x = L.tensor([0.3, 1.7])
    for t in [T.ExpTransform(), T.AffineTransform(1.0, 2.0),
              T.AffineTransform(L.tensor([1.0, 2.0]), L.tensor([-2.0, 0.5])),
              T.SigmoidTransform(), T.TanhTransform(), T.SoftplusTransform(),
              T.ComposeTransform([T.AffineTransform(0.5, 3.0), T.TanhTransform()]),
              T.ComposeTransform([T.ExpTransform(), T.PowerTransform(2.0)]),
              T.ExpTransform().inv]:
        y = t(x)
        out += [y, D.TransformedDistribution(base, t).log_prob(y), t.inv(y),
                t.log_abs_det_jacobian(x, y)]
    ind = D.Independent(D.Normal(L.zeros(2, 3), L.ones(2, 3)), 1)
    d = D.TransformedDistribution(ind, [T.AffineTransform(L.zeros(3), L.tensor([1.0, 2.0, 3.0]),
                                                          event_dim=1)])
    out += [d.log_prob(L.ones(2, 3)), L.tensor(list(d.batch_shape) + [-1] + list(d.event_shape))]
    logistic = D.TransformedDistribution(D.Uniform(L.tensor(0.0), L.tensor(1.0)), [
        T.SigmoidTransform().inv, T.AffineTransform(loc=L.tensor(0.5), scale=L.tensor(2.0))])
    out += [logistic.log_prob(L.tensor([0.1, 2.0]))]
    out += list(L.autograd.grad(sum(o.sum() for o in out if o.requires_grad), [loc]))
    return out


def test_transformed_distribution_matches_torch():
    got = _transformed(tg)
    with torch_float64():
        want = _transformed(torch)
    for g, w in zip(got, want, strict=True):
        assert tuple(g.shape) == tuple(w.shape)
        np.testing.assert_allclose(np.asarray(g.detach()), w.detach().numpy(), rtol=1e-10,
                                   atol=1e-12)
    d = tg.distributions.TransformedDistribution(tg.distributions.Normal(0.0, 1.0),
                                                 [tg.distributions.ExpTransform()])
    assert tuple(d.rsample((3,)).shape) == (3,) and bool((d.sample((4,)) > 0).all())
