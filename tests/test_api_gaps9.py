"""Names PyTorch programs reach for that tapegrad lacked (round 9), each checked against
torch in float64: ``Distribution.expand`` for every family, the remaining
``kl_divergence`` pairs PyTorch registers, ``torch.masked``'s reductions, the top-level
``torch.embedding_bag`` and the optimizers' state-dict hooks."""
import math

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
    ("RelaxedBernoulli", lambda D, a: D.RelaxedBernoulli(a.new_tensor(0.5), logits=a), ([0.3, -1.0],),
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
