"""tapegrad.distributions against torch.distributions: log_prob, cdf/icdf, entropy, moments
and KL divergences with their gradients to the parameters (float64), shapes of draws,
argument validation, and the reparameterised samplers' gradients."""
import numpy as np
import pytest

import tapegrad as tg

torch = pytest.importorskip("torch")


def _lib_params(lib, values):
    return [lib.tensor(v, dtype=lib.float64, requires_grad=True) for v in values]


# name -> (parameter values, build(D, *params), what to evaluate from (dist, lib))
def _v(lib, values):
    return lib.tensor(values, dtype=lib.float64)


CASES = {
    "normal": ([[0.5, -1.0], [1.5, 0.3]], lambda D, a, b: D.Normal(a, b),
               lambda d, lib: [d.log_prob(_v(lib, [0.2, -0.7])), d.cdf(_v(lib, [0.2, -0.7])),
                               d.icdf(_v(lib, [0.3, 0.9])), d.entropy(), d.mean, d.stddev,
                               d.variance, d.log_prob(lib.zeros(3, 2, dtype=lib.float64))]),
    "lognormal": ([[0.5, -1.0], [1.5, 0.3]], lambda D, a, b: D.LogNormal(a, b),
                  lambda d, lib: [d.log_prob(_v(lib, [0.4, 1.7])), d.entropy(), d.mean,
                                  d.variance, d.mode]),
    "uniform": ([[0.0, -2.0], [1.0, 3.0]], lambda D, a, b: D.Uniform(a, b),
                lambda d, lib: [d.log_prob(_v(lib, [0.5, 2.0])), d.cdf(_v(lib, [0.5, 2.0])),
                                d.entropy(), d.mean, d.stddev, d.variance]),
    "exponential": ([[0.5, 2.0]], lambda D, a: D.Exponential(a),
                    lambda d, lib: [d.log_prob(_v(lib, [0.5, 2.0])), d.cdf(_v(lib, [0.5, 2.0])),
                                    d.icdf(_v(lib, [0.5, 0.2])), d.entropy(), d.mean,
                                    d.variance]),
    "laplace": ([[0.5, -1.0], [1.5, 0.3]], lambda D, a, b: D.Laplace(a, b),
                lambda d, lib: [d.log_prob(_v(lib, [0.2, -0.7])), d.cdf(_v(lib, [0.2, -0.7])),
                                d.entropy(), d.stddev, d.variance]),
    "gamma": ([[0.7, 3.0], [2.0, 0.5]], lambda D, a, b: D.Gamma(a, b),
              lambda d, lib: [d.log_prob(_v(lib, [0.5, 2.0])), d.entropy(), d.mean,
                              d.variance, d.mode]),
    "beta": ([[0.7, 3.0], [2.0, 0.5]], lambda D, a, b: D.Beta(a, b),
             lambda d, lib: [d.log_prob(_v(lib, [0.3, 0.8])), d.entropy(), d.mean,
                             d.variance]),
    "dirichlet": ([[[0.7, 3.0, 1.2], [2.0, 0.5, 1.0]]], lambda D, a: D.Dirichlet(a),
                  lambda d, lib: [d.log_prob(_v(lib, [0.2, 0.3, 0.5])), d.entropy(), d.mean,
                                  d.variance]),
    "bernoulli_probs": ([[0.2, 0.7, 0.5]], lambda D, p: D.Bernoulli(probs=p),
                        lambda d, lib: [d.log_prob(_v(lib, [1.0, 0.0, 1.0])), d.entropy(),
                                        d.mean, d.variance, d.logits]),
    "bernoulli_logits": ([[0.2, -1.7, 0.0]], lambda D, p: D.Bernoulli(logits=p),
                         lambda d, lib: [d.log_prob(_v(lib, [1.0, 0.0, 1.0])), d.entropy(),
                                         d.probs, d.mode]),
    "categorical_probs": ([[[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]]],
                          lambda D, p: D.Categorical(probs=p),
                          lambda d, lib: [d.log_prob(lib.tensor([2, 0])),
                                          d.log_prob(lib.tensor([[2], [1]])), d.entropy(),
                                          d.logits, d.mode, d.enumerate_support()]),
    "categorical_logits": ([[[0.2, 1.5, -0.3], [0.1, 0.1, 0.8]]],
                           lambda D, p: D.Categorical(logits=p),
                           lambda d, lib: [d.log_prob(lib.tensor([2, 0])), d.entropy(),
                                           d.probs]),
    "onehot": ([[[0.2, 1.5, -0.3], [0.1, 0.1, 0.8]]], lambda D, p: D.OneHotCategorical(
        logits=p), lambda d, lib: [d.log_prob(_v(lib, [[0, 0, 1], [1, 0, 0]])), d.entropy(),
                                   d.mean]),
    "mvn_cov": ([[0.3, -0.2, 1.0], [[2.0, 0.3, 0.1], [0.3, 1.0, 0.2], [0.1, 0.2, 0.5]]],
                lambda D, m, a: D.MultivariateNormal(m, covariance_matrix=a),
                lambda d, lib: [d.log_prob(_v(lib, [[0.1, 0.2, 0.3], [1.0, -1.0, 0.5]])),
                                d.entropy(), d.variance, d.scale_tril, d.precision_matrix]),
    "mvn_precision": ([[0.3, -0.2, 1.0], [[2.0, 0.3, 0.1], [0.3, 1.0, 0.2], [0.1, 0.2, 0.5]]],
                      lambda D, m, a: D.MultivariateNormal(m, precision_matrix=a),
                      lambda d, lib: [d.log_prob(_v(lib, [0.1, 0.2, 0.3])),
                                      d.covariance_matrix]),
    "mvn_tril_batch": ([[[0.3, -0.2], [0.0, 1.0]], [[1.5, 0.0], [0.4, 0.7]]],
                       lambda D, m, L: D.MultivariateNormal(m, scale_tril=L),
                       lambda d, lib: [d.log_prob(_v(lib, [0.1, 0.2])), d.entropy(),
                                       d.variance, d.covariance_matrix]),
    "independent": ([[[0.5, -1.0]], [[1.5, 0.3]]],
                    lambda D, a, b: D.Independent(D.Normal(a, b), 1),
                    lambda d, lib: [d.log_prob(_v(lib, [[0.2, -0.7]])), d.entropy(), d.mean]),
}


def _evaluate(lib, name):
    values, build, what = CASES[name]
    params = _lib_params(lib, values)
    d = build(lib.distributions, *params)
    out = []
    for r in what(d, lib):
        grads = lib.autograd.grad(r.sum(), params, retain_graph=True, allow_unused=True) \
            if r.requires_grad else [None] * len(params)
        out.append((r.detach().numpy(), [None if g is None else g.numpy() for g in grads]))
    shapes = (tuple(d.batch_shape), tuple(d.event_shape), tuple(d.sample((4, 1)).shape))
    return out, shapes


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_torch(name):
    ours, our_shapes = _evaluate(tg, name)
    theirs, their_shapes = _evaluate(torch, name)
    assert our_shapes == their_shapes
    for (v, gs), (tv, tgs) in zip(ours, theirs):
        np.testing.assert_allclose(v, tv, rtol=1e-10, atol=1e-12)
        for g, tgr in zip(gs, tgs):
            if g is None or tgr is None:
                assert (g is None or not g.any()) and (tgr is None or not tgr.any())
            else:
                np.testing.assert_allclose(g, tgr, rtol=1e-9, atol=1e-12)


KL_PAIRS = [
    ([[0.5, -1.0], [1.5, 0.3], [1.0, 0.0], [0.5, 2.0]],
     lambda D, a, b, c, d: (D.Normal(a, b), D.Normal(c, d))),
    ([[0.5, -1.0], [1.5, 0.3], [1.0, 0.0], [0.5, 2.0]],
     lambda D, a, b, c, d: (D.Independent(D.Normal(a, b), 1), D.Independent(D.Normal(c, d), 1))),
    ([[0.2, 0.7, 0.4], [0.5, 0.5, 0.9]],
     lambda D, p, q: (D.Bernoulli(probs=p), D.Bernoulli(probs=q))),
    ([[[0.2, 0.5, 0.3]], [[0.2, 1.5, -0.3]]],
     lambda D, p, q: (D.Categorical(probs=p), D.Categorical(logits=q))),
    ([[0.3, -0.2], [[2.0, 0.3], [0.3, 1.0]], [[0.0, 1.0], [1.0, -1.0]], [[1.0, 0.2], [0.2, 0.5]]],
     lambda D, m, a, n, b: (D.MultivariateNormal(m, a), D.MultivariateNormal(n, b))),
    ([[0.0, -2.0], [1.0, 3.0]], lambda D, a, b: (D.Uniform(a, b), D.Uniform(a - 1, b + 1))),
    ([[0.5, 2.0], [1.5, 0.1]], lambda D, a, b: (D.Exponential(a), D.Exponential(b))),
    ([[0.7, 3.0], [2.0, 0.5]], lambda D, a, b: (D.Gamma(a, b), D.Gamma(b, a))),
    ([[0.7, 3.0], [2.0, 0.5]], lambda D, a, b: (D.Beta(a, b), D.Beta(b, a))),
    ([[0.5, -1.0], [1.5, 0.3], [1.0, 0.0], [0.5, 2.0]],
     lambda D, a, b, c, d: (D.Laplace(a, b), D.Laplace(c, d))),
    ([[0.7, 3.0, 1.2], [2.0, 0.5, 1.0]], lambda D, a, b: (D.Dirichlet(a), D.Dirichlet(b))),
]


@pytest.mark.parametrize("i", range(len(KL_PAIRS)))
def test_kl_divergence_against_torch(i):
    values, build = KL_PAIRS[i]
    res = []
    for lib in (tg, torch):
        params = _lib_params(lib, values)
        k = lib.distributions.kl_divergence(*build(lib.distributions, *params))
        grads = lib.autograd.grad(k.sum(), params)
        res.append((k.detach().numpy(), [g.numpy() for g in grads]))
    np.testing.assert_allclose(res[0][0], res[1][0], rtol=1e-10)
    for g, tgr in zip(res[0][1], res[1][1]):
        np.testing.assert_allclose(g, tgr, rtol=1e-9, atol=1e-12)


def test_kl_edge_values_and_missing_pairs():
    D = tg.distributions
    p = D.Bernoulli(probs=tg.tensor([0.2, 0.0, 1.0, 0.3], dtype=tg.float64))
    q = D.Bernoulli(probs=tg.tensor([0.0, 0.5, 0.5, 1.0], dtype=tg.float64))
    t = torch.distributions
    expect = t.kl_divergence(t.Bernoulli(probs=torch.tensor([0.2, 0.0, 1.0, 0.3])),
                             t.Bernoulli(probs=torch.tensor([0.0, 0.5, 0.5, 1.0])))
    np.testing.assert_allclose(D.kl_divergence(p, q).numpy(), expect.numpy(), rtol=1e-6)
    with pytest.raises(NotImplementedError, match="No KL"):
        D.kl_divergence(D.Gamma(1.0, 1.0), D.Laplace(0.0, 1.0))

    class Wide(D.Normal):
        pass

    @D.register_kl(Wide, D.Normal)
    def _wide(p, q):
        return p.loc * 0 + 42.0

    assert D.kl_divergence(Wide(0.0, 1.0), D.Normal(0.0, 1.0)).item() == 42.0
    assert D.kl_divergence(D.Normal(0.0, 1.0), Wide(0.0, 1.0)).item() == 0.0  # through MRO


def test_validation_messages():
    D = tg.distributions
    with pytest.raises(ValueError, match=r"Expected parameter scale \(Tensor of shape \(2,\)\) "
                                         r"of distribution Normal.*GreaterThan\(lower_bound=0.0"):
        D.Normal(tg.zeros(2), tg.tensor([1.0, -1.0]))
    D.Normal(tg.zeros(2), tg.tensor([1.0, -1.0]), validate_args=False)
    with pytest.raises(ValueError, match=r"to be within the support \(GreaterThanEq"):
        D.Gamma(tg.ones(2), tg.ones(2)).log_prob(tg.tensor([-1.0, 1.0]))
    with pytest.raises(ValueError, match="PositiveDefinite"):
        D.MultivariateNormal(tg.zeros(2), tg.tensor([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(ValueError, match="Either `probs` or `logits`"):
        D.Categorical(probs=tg.ones(2), logits=tg.ones(2))
    with pytest.raises(ValueError, match="Exactly one of covariance_matrix"):
        D.MultivariateNormal(tg.zeros(2))
    D.Distribution.set_default_validate_args(False)
    try:
        D.Normal(0.0, -1.0)
    finally:
        D.Distribution.set_default_validate_args(True)
    assert str(D.Normal(0.0, 1.0)) == "Normal(loc: 0.0, scale: 1.0)"
    assert D.constraints.positive.check(tg.tensor([1.0, -1.0])).tolist() == [True, False]
    assert repr(D.constraints.integer_interval(0, 3)) == \
        repr(torch.distributions.constraints.integer_interval(0, 3))


def test_rsample_carries_the_reparameterised_gradient():
    D = tg.distributions
    tg.manual_seed(0)
    loc = tg.tensor([0.0, 1.0], dtype=tg.float64, requires_grad=True)
    scale = tg.tensor([1.0, 2.0], dtype=tg.float64, requires_grad=True)
    d = D.Normal(loc, scale)
    s = d.rsample((5,))
    s.sum().backward()
    assert loc.grad.tolist() == [5.0, 5.0]
    eps = (s.detach() - loc.detach()) / scale.detach()
    np.testing.assert_allclose(scale.grad.numpy(), eps.sum(0).numpy())
    assert not d.sample().requires_grad and d.rsample().requires_grad


def _grads(params, sample, weight):
    """The gradients of ``(sample * weight).sum()`` in ``params``, as NumPy arrays."""
    (sample * tg.tensor(weight)).sum().backward()
    return [p.grad.numpy() for p in params]


def test_rsample_gradients_follow_the_reparameterisation():
    """Each rsample's gradient against its reparameterisation x = f(theta, eps), with the
    eps recovered from the draw (a weighted sum, so each element's derivative counts)."""
    D, rng = tg.distributions, np.random.default_rng(3)
    f64 = dict(dtype=tg.float64, requires_grad=True)
    tg.manual_seed(4)
    L = tg.tensor([[1.0, 0.0], [0.5, 2.0]], **f64)
    mu = tg.tensor([0.5, -1.0], **f64)
    x = D.MultivariateNormal(mu, scale_tril=L).rsample((3,))
    xv, w = x.detach().numpy(), rng.normal(size=(3, 2))
    eps = np.linalg.solve(L.detach().numpy(), (xv - mu.detach().numpy()).T).T  # x = mu + L eps
    g_mu, g_L = _grads([mu, L], x, w)
    np.testing.assert_allclose(g_mu, w.sum(0), rtol=1e-12)
    np.testing.assert_allclose(g_L, w.T @ eps, rtol=1e-12)  # d/dL_ij = sum_n w_ni eps_nj

    lo, hi = tg.tensor([0.0, -1.0], **f64), tg.tensor([2.0, 3.0], **f64)
    x = D.Uniform(lo, hi).rsample((4,))
    xv, w = x.detach().numpy(), rng.normal(size=(4, 2))
    u = (xv - lo.detach().numpy()) / (hi - lo).detach().numpy()  # x = lo + u (hi - lo)
    g_lo, g_hi = _grads([lo, hi], x, w)
    np.testing.assert_allclose(g_lo, (w * (1 - u)).sum(0), rtol=1e-12)
    np.testing.assert_allclose(g_hi, (w * u).sum(0), rtol=1e-12)

    rate = tg.tensor([0.5, 2.0], **f64)
    x = D.Exponential(rate).rsample((4,))
    xv, w = x.detach().numpy(), rng.normal(size=(4, 2))
    g_rate, = _grads([rate], x, w)  # x = e / rate
    np.testing.assert_allclose(g_rate, (w * -xv / rate.detach().numpy()).sum(0), rtol=1e-12)

    loc, scale = tg.tensor([0.0, 1.0], **f64), tg.tensor([1.0, 0.5], **f64)
    for dist, exp in ((D.Laplace, False), (D.LogNormal, True)):
        loc.grad = scale.grad = None
        x = dist(loc, scale).rsample((4,))
        xv, w = x.detach().numpy(), rng.normal(size=(4, 2))
        z = np.log(xv) if exp else xv  # z = loc + scale eps; LogNormal's x = exp(z)
        e = (z - loc.detach().numpy()) / scale.detach().numpy()
        dz = xv if exp else 1.0
        g_loc, g_scale = _grads([loc, scale], x, w)
        np.testing.assert_allclose(g_loc, (w * dz).sum(0), rtol=1e-12)
        np.testing.assert_allclose(g_scale, (w * dz * e).sum(0), rtol=1e-12)


def test_gamma_rsample_gradient():
    """The draw's derivative in the concentration at a fixed quantile, against SciPy's
    inverse of the incomplete gamma function differenced in a."""
    sp = pytest.importorskip("scipy.special")
    tg.manual_seed(1)
    a = tg.tensor([0.3, 0.7, 3.0, 12.0], dtype=tg.float64, requires_grad=True)
    x = tg.distributions.Gamma(a, 1.0).rsample()
    x.sum().backward()
    av, xv = a.detach().numpy(), x.detach().numpy()
    u, h = sp.gammainc(av, xv), 1e-6
    fd = (sp.gammaincinv(av + h, u) - sp.gammaincinv(av - h, u)) / (2 * h)
    np.testing.assert_allclose(a.grad.numpy(), fd, rtol=1e-6)
    b = tg.tensor([[1.0, 2.0, 3.0]], dtype=tg.float64, requires_grad=True)
    y = tg.distributions.Dirichlet(b).rsample((2,))
    np.testing.assert_allclose(y.sum(-1).detach().numpy(), 1.0)
    y[..., 0].sum().backward()
    # y = g / g.sum(-1), g the gamma draws at fixed quantiles: central differences in b
    tg.manual_seed(5)
    g = tg.distributions.Gamma(b.detach(), 1.0).rsample((2,)).numpy()
    tg.manual_seed(5)
    y = tg.distributions.Dirichlet(b).rsample((2,))
    np.testing.assert_allclose(y.detach().numpy(), g / g.sum(-1, keepdims=True), rtol=1e-12)
    b.grad = None
    y[..., 0].sum().backward()
    bv = b.detach().numpy()
    u = sp.gammainc(bv, g)

    def y0(bb):
        gg = sp.gammaincinv(bb, u)
        return (gg[..., 0] / gg.sum(-1)).sum()

    fd = [(y0(bv + h * e) - y0(bv - h * e)) / (2 * h) for e in np.eye(3)[:, None, :]]
    np.testing.assert_allclose(b.grad.numpy()[0], fd, rtol=1e-5)


def test_draws_follow_the_distribution():
    D = tg.distributions
    tg.manual_seed(2)
    m = D.MultivariateNormal(tg.tensor([1.0, -1.0]), tg.tensor([[2.0, 0.5], [0.5, 1.0]]))
    s = m.sample((20000,)).numpy()
    np.testing.assert_allclose(s.mean(0), [1.0, -1.0], atol=0.05)
    np.testing.assert_allclose(np.cov(s.T), [[2.0, 0.5], [0.5, 1.0]], atol=0.08)
    c = D.Categorical(probs=tg.tensor([[0.2, 0.8], [0.9, 0.1]])).sample((5000,))
    assert c.dtype == tg.int64 and c.shape == (5000, 2)
    np.testing.assert_allclose(c.numpy().mean(0), [0.8, 0.1], atol=0.03)
    g = D.Gamma(tg.tensor([2.0, 5.0]), tg.tensor([1.0, 2.0])).sample((20000,)).numpy()
    np.testing.assert_allclose(g.mean(0), [2.0, 2.5], rtol=0.03)
    b = D.Bernoulli(logits=tg.tensor([0.0, 2.0])).sample((5000,)).numpy()
    np.testing.assert_allclose(b.mean(0), [0.5, 1 / (1 + np.exp(-2))], atol=0.03)
    oh = D.OneHotCategorical(probs=tg.tensor([0.3, 0.7])).sample((3,))
    assert oh.sum(-1).tolist() == [1.0, 1.0, 1.0]
