"""Names PyTorch programs reach for that tapegrad lacked (round 9), each checked against
torch in float64: ``Distribution.expand`` for every family, the remaining
``kl_divergence`` pairs PyTorch registers, ``torch.masked``'s reductions, the top-level
``torch.embedding_bag``, the optimizers' state-dict hooks, the import paths scripts use
(``torch.backends.cudnn``, ``torch.nn.modules.loss``...) and a one-process
``DistributedSampler``."""

import numpy as np
import pytest

import tapegrad as tg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

from tests.test_api_gaps7 import agree  # noqa: E402


def _grads(L, out, params):
    return list(L.autograd.grad(out, params, allow_unused=True))


# ---- Distribution.expand ---------------------------------------------------------------
def _t(L, v):
    return L.tensor(v, requires_grad=True)


# (name, builder of the distribution from its parameter tensors, parameters, a value)
_FAMILIES = [
    ("Normal", lambda D, a, b: D.Normal(a, b), ([0.3, -1.0], [1.5, 0.7]), [0.2, 0.4]),
    ("LogNormal", lambda D, a, b: D.LogNormal(a, b), ([0.3, -1.0], [1.5, 0.7]), [0.2, 1.4]),
    ("Uniform", lambda D, a, b: D.Uniform(a, b), ([0.0, -1.0], [1.5, 0.7]), [0.2, 0.4]),
    ("Exponential", lambda D, a: D.Exponential(a), ([1.3, 0.4],), [0.2, 1.4]),
    ("Laplace", lambda D, a, b: D.Laplace(a, b), ([0.3, -1.0], [1.5, 0.7]), [0.2, 0.4]),
    ("Gamma", lambda D, a, b: D.Gamma(a, b), ([2.3, 0.6], [1.5, 0.7]), [0.2, 1.4]),
    ("Beta", lambda D, a, b: D.Beta(a, b), ([2.3, 0.6], [1.5, 0.7]), [0.2, 0.4]),
    ("Dirichlet", lambda D, a: D.Dirichlet(a), ([[2.3, 0.6, 1.0], [1.5, 0.7, 3.0]],),
     [0.2, 0.5, 0.3]),
    ("Bernoulli", lambda D, a: D.Bernoulli(logits=a), ([0.3, -1.0],), [1.0, 0.0]),
    ("Categorical", lambda D, a: D.Categorical(logits=a), ([[0.3, -1.0, 2.0]] * 2,), [2, 0]),
    ("OneHotCategorical", lambda D, a: D.OneHotCategorical(probs=a),
     ([[0.3, 0.5, 0.2], [0.1, 0.1, 0.8]],), [0.0, 1.0, 0.0]),
    ("Binomial", lambda D, a: D.Binomial(5, logits=a), ([0.3, -1.0],), [2.0, 5.0]),
    ("Geometric", lambda D, a: D.Geometric(a), ([0.3, 0.6],), [2.0, 0.0]),
    ("NegativeBinomial", lambda D, a: D.NegativeBinomial(3.0, a), ([0.3, 0.6],), [2.0, 0.0]),
    ("Poisson", lambda D, a: D.Poisson(a), ([0.3, 2.6],), [2.0, 0.0]),
    ("Multinomial", lambda D, a: D.Multinomial(4, a), ([[0.3, 0.5, 0.2], [0.1, 0.1, 0.8]],),
     [1.0, 3.0, 0.0]),
    ("StudentT", lambda D, a, b: D.StudentT(a, b, 2.0), ([2.3, 5.0], [0.5, -1.0]), [0.2, 0.4]),
    ("Cauchy", lambda D, a, b: D.Cauchy(a, b), ([0.3, -1.0], [1.5, 0.7]), [0.2, 0.4]),
    ("HalfNormal", lambda D, a: D.HalfNormal(a), ([1.3, 0.4],), [0.2, 1.4]),
    ("HalfCauchy", lambda D, a: D.HalfCauchy(a), ([1.3, 0.4],), [0.2, 1.4]),
    ("Gumbel", lambda D, a, b: D.Gumbel(a, b), ([0.3, -1.0], [1.5, 0.7]), [0.2, 0.4]),
    ("Chi2", lambda D, a: D.Chi2(a), ([1.3, 3.4],), [0.2, 1.4]),
    ("Weibull", lambda D, a, b: D.Weibull(a, b), ([1.3, 0.4], [1.5, 0.7]), [0.2, 1.4]),
    ("Pareto", lambda D, a, b: D.Pareto(a, b), ([0.1, 0.4], [1.5, 0.7]), [0.2, 1.4]),
    ("VonMises", lambda D, a, b: D.VonMises(a, b), ([0.3, -1.0], [1.5, 0.7]), [0.2, 0.4]),
    ("FisherSnedecor", lambda D, a, b: D.FisherSnedecor(a, b), ([2.3, 5.0], [6.5, 9.7]),
     [0.2, 1.4]),
    ("Kumaraswamy", lambda D, a, b: D.Kumaraswamy(a, b), ([2.3, 0.6], [1.5, 0.7]), [0.2, 0.4]),
    ("InverseGamma", lambda D, a, b: D.InverseGamma(a, b), ([2.3, 0.6], [1.5, 0.7]),
     [0.2, 1.4]),
    ("ContinuousBernoulli", lambda D, a: D.ContinuousBernoulli(a), ([0.3, 0.8],), [0.2, 0.4]),
    ("GeneralizedPareto", lambda D, a, b: D.GeneralizedPareto(a, b, 0.2),
     ([0.0, -1.0], [1.5, 0.7]), [0.2, 0.4]),
    ("RelaxedBernoulli", lambda D, a: D.RelaxedBernoulli(a.new_tensor(0.5), logits=a),
     ([0.3, -1.0],),
     [0.2, 0.4]),
    ("RelaxedOneHotCategorical", lambda D, a: D.RelaxedOneHotCategorical(
        a.new_tensor(0.5), logits=a),
     ([[0.3, -1.0, 2.0]] * 2,), [0.2, 0.5, 0.3]),
    ("LogisticNormal", lambda D, a, b: D.LogisticNormal(a, b),
     ([[0.3, -1.0], [0.1, 0.2]], [[1.5, 0.7], [0.4, 0.9]]), [0.2, 0.5, 0.3]),
    ("Independent", lambda D, a, b: D.Independent(D.Normal(a, b), 1),
     ([[0.3, -1.0], [0.1, 0.2]], [[1.5, 0.7], [0.4, 0.9]]), [0.2, 0.5]),
    ("MultivariateNormal", lambda D, a, b: D.MultivariateNormal(a, scale_tril=b),
     ([[0.3, -1.0], [0.1, 0.2]], [[1.5, 0.0], [0.4, 0.9]]), [0.2, 0.5]),
    ("LowRankMultivariateNormal",
     lambda D, a, b: D.LowRankMultivariateNormal(a, b, a.detach().abs() + 0.5),
     ([[0.3, -1.0], [0.1, 0.2]], [[[1.5], [0.4]], [[0.2], [-0.3]]]), [0.2, 0.5]),
    ("MixtureSameFamily",
     lambda D, a, b: D.MixtureSameFamily(D.Categorical(logits=a), D.Normal(b, 1.0)),
     ([[0.3, -1.0], [0.1, 0.2]], [[1.5, 0.7], [0.4, 0.9]]), [0.2, 0.5]),
    ("Wishart", lambda D, a, b: D.Wishart(a, scale_tril=b),
     ([3.0, 4.5], [[1.5, 0.0], [0.4, 0.9]]), [[2.0, 0.3], [0.3, 1.0]]),
    ("LKJCholesky", lambda D, a: D.LKJCholesky(2, a), ([0.5, 2.0],), [[1.0, 0.0], [0.6, 0.8]]),
]


def _expanded(name):
    build, params, value = next((b, p, v) for n, b, p, v in _FAMILIES if n == name)

    def program(L):
        ps = [_t(L, p) for p in params]
        d = build(L.distributions, *ps)
        e = d.expand((3,) + tuple(d.batch_shape))
        v = L.tensor(value)
        lp = e.log_prob(v)
        out = [tuple(e.batch_shape), tuple(e.event_shape), lp,
               tuple(e.sample().shape), tuple(e.sample((4,)).shape),
               *_grads(L, lp.sum(), ps)]
        # (torch's Multinomial.expand drops the _binomial its entropy reads)
        for stat in ("mean", "variance") + (("entropy",) if name != "Multinomial" else ()):
            try:
                v = getattr(e, stat)
                out.append(v() if callable(v) else v)
            except NotImplementedError:  # (both libraries lack it)
                out.append(None)
        return out
    return program


@pytest.mark.parametrize("name", [f[0] for f in _FAMILIES])
def test_expand_against_torch(name):
    # (VonMises' normaliser is a Bessel-series approximation in both, to ~1e-8 apart)
    agree(_expanded(name), rtol=1e-6 if name == "VonMises" else 1e-8, atol=1e-10)


def _expand_scalar(L):
    D = L.distributions
    loc = L.tensor(0.5, requires_grad=True)
    d = D.Normal(loc, 2.0).expand([2, 3])
    lp = d.log_prob(L.zeros(2, 3)).sum()
    return [tuple(d.batch_shape), lp, *_grads(L, lp, [loc]),
            tuple(D.MultivariateNormal(L.zeros(2), L.eye(2)).expand([4]).covariance_matrix.shape),
            tuple(D.Bernoulli(L.tensor([0.2])).expand([5]).param_shape),
            tuple(D.Binomial(3, L.tensor([0.2, 0.4])).param_shape)]


def test_expand_of_a_scalar_distribution():
    agree(_expand_scalar)


@pytest.mark.parametrize("L", [tg, torch], ids=["tapegrad", "torch"])
def test_expand_refuses_a_shape_that_does_not_broadcast(L):
    with pytest.raises(RuntimeError, match="expanded size"):
        L.distributions.Normal(L.zeros(2), 1.0).expand([3])
    with pytest.raises(NotImplementedError):
        L.distributions.Normal(0.0, 1.0).enumerate_support()


# ---- kl_divergence: every pair PyTorch registers ---------------------------------------------
_BUILD = {n: (b, p) for n, b, p, _ in _FAMILIES}
_KL_PAIRS = sorted({(a.__name__, b.__name__)
                    for a, b in torch.distributions.kl._KL_REGISTRY
                    if a.__name__ in _BUILD and b.__name__ in _BUILD})


# q's parameters: p's family's, shrunk (another member of the family), or these (a Uniform q
# with an interval that holds [0, 1] and one that does not)
_Q_PARAMS = {"Uniform": ([-0.1, -1.2], [1.3, 0.9])}


def _kl_program(pname, qname, shrink=0.8):
    def program(L):
        (bp, pp), (bq, qp) = _BUILD[pname], _BUILD[qname]
        ps = [_t(L, v) for v in pp]
        qs = [_t(L, np.asarray(v) * shrink) for v in _Q_PARAMS.get(qname, qp)]
        kl = L.distributions.kl_divergence(bp(L.distributions, *ps),
                                           bq(L.distributions, *qs))
        finite = L.isfinite(kl)
        out = [kl]
        if bool(finite.all()):
            out += _grads(L, kl.sum(), ps + qs)
        return out
    return program


@pytest.mark.parametrize("pair", _KL_PAIRS, ids=["-".join(p) for p in _KL_PAIRS])
def test_kl_pairs_against_torch(pair):
    agree(_kl_program(*pair), rtol=1e-7, atol=1e-10)


def _kl_inside(L):
    """Pairs whose divergence is finite only for some parameters (a Uniform p inside q's
    support, a Pareto q's scale below p's), and the KLs of the rest in the same program."""
    D = L.distributions
    lo, hi = _t(L, [0.2, -0.5]), _t(L, [0.7, 0.9])
    u = D.Uniform(lo, hi)
    out = []
    for q in (D.Beta(L.tensor([2.0, 3.0]), L.tensor([1.5, 0.5])),
              D.ContinuousBernoulli(L.tensor([0.3, 0.7])),
              D.Pareto(L.tensor([0.1, 0.3]), L.tensor([2.0, 3.0])),
              D.Gamma(L.tensor([2.0, 3.0]), L.tensor([1.5, 0.5])),
              D.Exponential(L.tensor([2.0, 3.0]))):
        kl = D.kl_divergence(u, q)
        out += [kl, *_grads(L, L.where(L.isfinite(kl), kl, 0.0).sum(), [lo, hi])]
    a = _t(L, [1.5, 2.5])
    out.append(_grads(L, D.kl_divergence(D.Pareto(1.0, a), D.Exponential(2.0)).sum(), [a]))
    out.append(D.kl_divergence(D.Chi2(_t(L, [3.0])), D.Exponential(L.tensor([0.5]))))
    out.append(D.kl_divergence(D.Binomial(5, L.tensor([0.3])),
                               D.Binomial(4, L.tensor([0.2]))))
    return out


def test_kl_where_supports_depend_on_parameters():
    agree(_kl_inside, rtol=1e-7, atol=1e-10)


def _kl_errors(L):
    D = L.distributions
    out = []
    for p, q in [(D.Binomial(3, L.tensor([0.3])), D.Binomial(4, L.tensor([0.2]))),
                 (D.ContinuousBernoulli(L.tensor([0.3])), D.Normal(0.0, 1.0).expand([1])),
                 (D.Normal(0.0, 1.0), D.StudentT(3.0))]:
        try:
            D.kl_divergence(p, q)
            out.append(None)
        except NotImplementedError as e:
            out.append(type(e).__name__)
    return out


def test_kl_refusals_match_torch():
    agree(_kl_errors)


def test_kl_transformed_and_lognormal_against_torch():
    def program(L):
        D, T = L.distributions, L.distributions.transforms
        a, b = _t(L, [0.3, -0.4]), _t(L, [1.2, 0.8])
        p = D.TransformedDistribution(D.Normal(a, b), [T.AffineTransform(1.0, 2.0),
                                                       T.ExpTransform()])
        q = D.TransformedDistribution(D.Normal(b, a.exp()), [T.AffineTransform(1.0, 2.0),
                                                             T.ExpTransform()])
        kl = D.kl_divergence(p, q)
        lk = D.kl_divergence(D.LogNormal(a, b), D.LogNormal(b, 1.0))
        return [kl, *_grads(L, kl.sum(), [a, b]), lk, *_grads(L, lk.sum(), [a, b])]
    agree(program)
    D = tg.distributions
    with pytest.raises(NotImplementedError):
        D.kl_divergence(D.TransformedDistribution(D.Normal(0.0, 1.0), D.transforms.ExpTransform()),
                        D.TransformedDistribution(D.Normal(0.0, 1.0),
                                                  D.transforms.AffineTransform(0.0, 2.0)))


def test_kl_cross_terms_pass_gradcheck():
    D = tg.distributions
    cases = [lambda a, b: D.kl_divergence(D.Gumbel(a, b), D.Normal(b, a.exp())),
             lambda a, b: D.kl_divergence(D.Uniform(a.exp(), a.exp() + b), D.Gamma(b, a.exp())),
             lambda a, b: D.kl_divergence(D.Normal(a, b), D.Gumbel(b, b + 1)),
             lambda a, b: D.kl_divergence(D.Normal(a, b), D.Laplace(b, b)),
             lambda a, b: D.kl_divergence(D.Beta(b, a.exp()), D.ContinuousBernoulli(b / 3)),
             lambda a, b: D.kl_divergence(D.ContinuousBernoulli(b / 3), D.ContinuousBernoulli(
                 a.sigmoid()))]
    for fn in cases:
        a = tg.tensor([0.3, -0.4], dtype=tg.float64, requires_grad=True)
        b = tg.tensor([1.2, 0.8], dtype=tg.float64, requires_grad=True)
        assert tg.autograd.gradcheck(fn, (a, b))


# ---- torch.masked ------------------------------------------------------------------------------
def _masked(L):
    M = L.masked
    x = L.tensor([[1.0, -2.0, 3.0, 0.5], [4.0, 5.0, -6.0, 2.0], [0.3, 0.2, 0.1, 0.4]],
                 requires_grad=True)
    m = L.tensor([[True, False, True, True], [False, True, True, False],
                  [True, True, True, True]])
    out = []
    for name in ("sum", "mean", "amax", "amin", "prod", "logsumexp"):
        f = getattr(M, name)
        for kw in ({"dim": 1}, {"dim": (0, 1), "keepdim": True}, {}):
            y = f(x, mask=m, **kw)
            out += [y, *_grads(L, (y * y).sum(), [x])]
    for name in ("var", "std"):
        for kw in ({"dim": 1}, {"dim": 0, "unbiased": False}, {"dim": 1, "correction": 2}):
            y = getattr(M, name)(x, mask=m, **kw)
            out += [y, *_grads(L, y.sum(), [x])]
    y = M.norm(x, 3.0, 1, mask=m)
    out += [y, *_grads(L, y.sum(), [x])]
    for name in ("softmax", "log_softmax", "softmin", "cumsum", "cumprod"):
        y = getattr(M, name)(x, 1, mask=m)
        keep = L.isfinite(y)
        out += [y, *_grads(L, L.where(keep, y, 0.0).pow(2).sum(), [x])]
    y = M.normalize(x, 2.0, 1, mask=m)
    out += [y, *_grads(L, y[:, 0].sum(), [x])]
    out += [M.argmax(x, 1, mask=m).tolist(), M.argmin(x, 0, mask=m).tolist(),
            M.median(x, 1, mask=m), M.sum(x, 1), M.mean(x, 0, mask=m[0]),
            M.logaddexp(x, x.flip(0), input_mask=m, other_mask=m.flip(1)),
            M.is_masked_tensor(x)]
    empty = L.tensor([[False] * 4] * 3)
    out += [M.sum(x, 1, mask=empty), M.mean(x, 1, mask=empty), M.amax(x, 1, mask=empty),
            M.var(x, 1, mask=empty), M.median(x, 1, mask=empty)]
    return out


def test_masked_reductions_against_torch():
    # (torch's masked argmax / argmin return the input's float dtype; tapegrad's int64)
    agree(_masked, rtol=1e-9, atol=1e-12)


def test_masked_bad_input_and_masked_tensor():
    x = tg.ones(2, 3)
    with pytest.raises(ValueError, match="does not broadcast"):
        tg.masked.sum(x, 1, mask=tg.ones(3, 2, dtype=tg.bool))
    with pytest.raises(ValueError, match="bool Tensor"):
        tg.masked.sum(x, 1, mask=tg.ones(2, 3))
    with pytest.raises(NotImplementedError, match="MaskedTensor is not implemented"):
        tg.masked.masked_tensor(x, tg.ones(2, 3, dtype=tg.bool))
    assert set(n for n in dir(torch.masked) if not n.startswith("_")) - set(dir(tg.masked)) \
        == {"maskedtensor"}


# ---- torch.embedding_bag -----------------------------------------------------------------------
def _embedding_bag(L):
    w = L.tensor(np.random.default_rng(3).standard_normal((6, 3)), requires_grad=True)
    i = L.tensor([1, 2, 4, 5, 4, 3, 2, 0])
    out = []
    for mode in (0, 1, 2):
        for offs, last, pad in (([0, 2, 2, 5], False, None), ([0, 2, 2, 5, 8], True, None),
                                ([0, 2, 2, 5], False, 2), ([0, 3], False, -1)):
            r = L.embedding_bag(w, i, L.tensor(offs), False, mode, False, None, last, pad)
            out += [r[0], *[t.tolist() for t in r[1:]], *_grads(L, (r[0] ** 2).sum(), [w])]
    psw = L.tensor([0.5, 2.0, 1.0, -1.0, 3.0, 0.2, 0.1, 1.5], requires_grad=True)
    r = L.embedding_bag(w, i, L.tensor([0, 2, 2, 5]), False, 0, False, psw)
    out += [r[0], *_grads(L, r[0].sum(), [w, psw])]
    return out


def test_embedding_bag_against_torch():
    agree(_embedding_bag, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("L", [tg, torch], ids=["tapegrad", "torch"])
def test_embedding_bag_bad_mode(L):
    with pytest.raises(RuntimeError, match="`mode` must be sum, mean, or max"):
        L.embedding_bag(L.ones(3, 2), L.tensor([0, 1]), L.tensor([0]), False, 3)
    with pytest.raises(TypeError, match="must be Tensor, not NoneType"):
        L.embedding_bag(L.ones(3, 2), L.tensor([0, 1]), None)


# ---- optimizer state-dict hooks ----------------------------------------------------------------
def _state_dict_hooks(L):
    w = L.nn.Parameter(L.tensor([1.0, -2.0]))
    opt = L.optim.Adam([w], lr=0.1)
    w.grad = L.tensor([0.5, 0.25])
    opt.step()
    calls = []
    opt.register_state_dict_pre_hook(lambda o: calls.append("pre"))
    opt.register_state_dict_pre_hook(lambda o: calls.append("pre first"), prepend=True)
    h = opt.register_state_dict_post_hook(lambda o, sd: {**sd, "extra": 1})
    sd = opt.state_dict()
    keys = sorted(sd)
    h.remove()
    sd2 = opt.state_dict()

    def lower_lr(o, sd):
        calls.append("load pre")
        sd["param_groups"] = [{**g, "lr": 0.01} for g in sd["param_groups"]]
        return sd
    opt.register_load_state_dict_pre_hook(lower_lr)
    opt.register_load_state_dict_post_hook(lambda o: calls.append(("load post",
                                                                   o.param_groups[0]["lr"])))
    opt.load_state_dict(sd2)
    return [calls, keys, sorted(sd2), sd2["param_groups"][0]["lr"], opt.param_groups[0]["lr"]]


def test_optimizer_state_dict_hooks_against_torch():
    assert _state_dict_hooks(tg) == _state_dict_hooks(torch)


# ---- import paths scripts use ------------------------------------------------------------------
@pytest.mark.parametrize("lib", ["tapegrad", "torch"])
def test_import_paths_scripts_use(lib):
    import importlib
    cudnn = importlib.import_module(f"{lib}.backends.cudnn")
    cudnn.benchmark = False  # (the seeding boilerplate of many scripts)
    assert importlib.import_module(f"{lib}.backends.mps").is_available() in (True, False)
    amp = importlib.import_module(f"{lib}.cuda.amp")
    assert amp.GradScaler and amp.autocast
    loss = importlib.import_module(f"{lib}.nn.modules.loss")
    nn = importlib.import_module(f"{lib}.nn")

    class Scaled(loss._Loss):  # a custom loss on PyTorch's private base
        def forward(self, a, b):
            return ((a - b) ** 2).mean() * 2

    assert float(Scaled()(nn.Parameter(importlib.import_module(lib).ones(2)).detach(),
                           importlib.import_module(lib).zeros(2))) == 2.0
    utils = importlib.import_module(f"{lib}.nn.modules.utils")
    assert utils._pair(3) == (3, 3) and utils._triple((1, 2, 3)) == (1, 2, 3)
    assert importlib.import_module(f"{lib}.nn.modules.conv")._ConvNd
    assert importlib.import_module(f"{lib}.nn.modules.module").Module is nn.Module
    assert importlib.import_module(f"{lib}.nn.modules.linear").Linear is nn.Linear
    handle = nn.Linear(2, 2).register_forward_hook(lambda *a: None)
    assert isinstance(handle, importlib.import_module(f"{lib}.utils.hooks").RemovableHandle)


# ---- small names ------------------------------------------------------------------------------
@pytest.mark.parametrize("L", [tg, torch], ids=["tapegrad", "torch"])
def test_small_names(L):
    T = L.distributions.transforms
    t = T.ExpTransform().with_cache(1)
    x = L.tensor([0.5, -1.0])
    assert np.allclose(t.inv(t(x)).tolist(), [0.5, -1.0])
    with pytest.raises(ValueError, match="cache_size must be 0 or 1"):
        T.ExpTransform().with_cache(2)
    assert L.nn.functional.grad.conv1d_input is L.nn.grad.conv1d_input
    conv = L.nn.Conv2d(1, 2, 3)
    assert L.nn.utils.convert_conv2d_weight_memory_format(conv, L.channels_last) is conv


@pytest.mark.parametrize("L", [tg, torch], ids=["tapegrad", "torch"])
def test_distributed_sampler_one_process(L):
    import importlib
    DS = importlib.import_module(f"{L.__name__}.utils.data.distributed").DistributedSampler
    assert L.utils.data.DistributedSampler is DS
    shards = [list(DS(range(10), num_replicas=3, rank=r, shuffle=False)) for r in range(3)]
    assert shards == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]
    assert list(DS(range(10), num_replicas=3, rank=1, shuffle=False, drop_last=True)) == [1, 4, 7]
    s = DS(range(10), num_replicas=2, rank=0, seed=5)
    s.set_epoch(1)
    first = list(s)
    assert len(first) == 5 and list(s) == first  # (an epoch's order is fixed)
    assert sorted(list(DS(range(10), num_replicas=2, rank=1, seed=5)) +
                  list(DS(range(10), num_replicas=2, rank=0, seed=5))) == list(range(10))
    loader = L.utils.data.DataLoader(L.utils.data.TensorDataset(L.arange(6.0)), batch_size=2,
                                     sampler=DS(range(6), num_replicas=2, rank=1, shuffle=False))
    assert [b[0].tolist() for b in loader] == [[1.0, 3.0], [5.0]]
    with pytest.raises(ValueError, match="Default process group has not been initialized"):
        DS(range(10))
    with pytest.raises(ValueError, match=r"Invalid rank 3, rank should be in the interval"):
        DS(range(10), num_replicas=3, rank=3)


# ---- torch.cond / torch.while_loop ----------------------------------------------------------
@pytest.mark.parametrize("start", [[1.0, 2.0], [0.25, 0.5]])
def test_cond_takes_the_branch_and_its_gradient(start):
    out = {}
    for L in (tg, torch):
        x = L.tensor(start, dtype=L.float64, requires_grad=True)
        y = L.cond(x.sum() > 2, lambda a: a.sin(), lambda a: a.cos() * a, (x,))
        y.sum().backward()
        out[L] = [np.asarray(t.detach()) if L is tg else t.detach().numpy() for t in (y, x.grad)]
    for a, b in zip(out[tg], out[torch], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-14)
    assert tg.cond(False, lambda: 1.0, lambda: 2.0) == 2.0


def test_while_loop_carries_values_and_gradients():
    out = {}
    for L in (tg, torch):
        x = L.tensor([0.5, -1.5], dtype=L.float64, requires_grad=True)
        i, y = L.while_loop(lambda i, a: i < 4, lambda i, a: (i + 1, a.tanh() * 1.5 + a),
                            (L.tensor(0), x))
        y.sum().backward()
        out[L] = [int(i), np.asarray(y.detach()) if L is tg else y.detach().numpy(),
                  np.asarray(x.grad) if L is tg else x.grad.numpy()]
    assert out[tg][0] == out[torch][0] == 4
    for a, b in zip(out[tg][1:], out[torch][1:], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-14)


def test_cond_and_while_loop_refuse_a_many_valued_predicate():
    two = tg.tensor([True, False])
    with pytest.raises(RuntimeError, match="Expected pred to be bool or single-element tensor"):
        tg.cond(two, lambda: 1, lambda: 2)
    with pytest.raises(RuntimeError, match="single-element tensor"):
        tg.while_loop(lambda a: a > 0, lambda a: (a - 1,), (tg.ones(2),))
    with pytest.raises(RuntimeError, match="body_fn returned 1 values for 2 carried inputs"):
        tg.while_loop(lambda i, a: i < 1, lambda i, a: (i + 1,), (tg.tensor(0), tg.ones(2)))
