"""``kl_divergence(p, q)`` and ``register_kl``: closed forms per pair of types (PyTorch's
documented formulas), looked up through the types' MROs."""
import math

import numpy as np

from .. import linalg
from ..nn.functional import softplus
from ..ops import EXPORTS as _OPS
from . import continuous as c
from . import discrete as d
from . import multivariate as mv
from .distribution import sum_rightmost

where = _OPS["where"]
_KL = {}


def register_kl(type_p, type_q):
    """Decorator: ``fn(p, q)`` computes KL(p || q) for p of ``type_p``, q of ``type_q``."""
    def deco(fn):
        _KL[type_p, type_q] = fn
        return fn
    return deco


def kl_divergence(p, q):
    """KL(p || q), per batch element."""
    for tp in type(p).__mro__:
        for tq in type(q).__mro__:
            fn = _KL.get((tp, tq))
            if fn is not None:
                return fn(p, q)
    raise NotImplementedError(f"No KL(p || q) is implemented for p of type "
                              f"{type(p).__name__} and q of type {type(q).__name__}")


def _inf_where(t, cond):
    return where(cond, math.inf, t)


@register_kl(c.Normal, c.Normal)
def _kl_normal_normal(p, q):
    var_ratio = (p.scale / q.scale) ** 2
    t1 = ((p.loc - q.loc) / q.scale) ** 2
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(c.Uniform, c.Uniform)
def _kl_uniform_uniform(p, q):
    r = ((q.high - q.low) / (p.high - p.low)).log()
    return _inf_where(r, (q.low > p.low) | (q.high < p.high))


@register_kl(c.Exponential, c.Exponential)
def _kl_exponential_exponential(p, q):
    ratio = q.rate / p.rate
    return ratio - ratio.log() - 1


@register_kl(c.Laplace, c.Laplace)
def _kl_laplace_laplace(p, q):
    scale_ratio = p.scale / q.scale
    diff = (p.loc - q.loc).abs()
    return -scale_ratio.log() + diff / q.scale + scale_ratio * (-diff / p.scale).exp() - 1


@register_kl(c.Gamma, c.Gamma)
def _kl_gamma_gamma(p, q):
    a, b, qa, qb = p.concentration, p.rate, q.concentration, q.rate
    return qa * (b / qb).log() + qa.lgamma() - a.lgamma() + (a - qa) * a.digamma() + \
        (qb - b) * (a / b)


@register_kl(c.Beta, c.Beta)
def _kl_beta_beta(p, q):
    a, b, qa, qb = p.concentration1, p.concentration0, q.concentration1, q.concentration0
    t = a + b
    return t.lgamma() - (qa + qb).lgamma() - a.lgamma() - b.lgamma() + qa.lgamma() + \
        qb.lgamma() + (a - qa) * (a.digamma() - t.digamma()) + \
        (b - qb) * (b.digamma() - t.digamma())


@register_kl(c.Dirichlet, c.Dirichlet)
def _kl_dirichlet_dirichlet(p, q):
    a, qa = p.concentration, q.concentration
    a0 = a.sum(-1)
    return a0.lgamma() - qa.sum(-1).lgamma() - (a.lgamma() - qa.lgamma()).sum(-1) + \
        ((a - qa) * (a.digamma() - a0.digamma().unsqueeze(-1))).sum(-1)


@register_kl(d.Bernoulli, d.Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    from_one = p.probs * (softplus(-q.logits) - softplus(-p.logits))
    from_one = where(p.probs == 0, 0.0, _inf_where(from_one, q.probs == 0))
    from_zero = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
    from_zero = where(p.probs == 1, 0.0, _inf_where(from_zero, q.probs == 1))
    return from_one + from_zero


@register_kl(d.Categorical, d.Categorical)
def _kl_categorical_categorical(p, q):
    t = p.probs * (p.logits - q.logits)
    t = where(p.probs == 0, 0.0, _inf_where(t, q.probs == 0))
    return t.sum(-1)


@register_kl(d.OneHotCategorical, d.OneHotCategorical)
def _kl_onehot_onehot(p, q):
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(mv.MultivariateNormal, mv.MultivariateNormal)
def _kl_mvn_mvn(p, q):
    if p.event_shape != q.event_shape:
        raise ValueError("KL-divergence between two Multivariate Normals with different "
                         "event shapes cannot be computed")
    Lp, Lq = p._unbroadcasted_scale_tril, q._unbroadcasted_scale_tril
    n = p.event_shape[0]
    half_term1 = q._half_log_det() - p._half_log_det()
    batch = tuple(np.broadcast_shapes(tuple(Lp.shape[:-2]), tuple(Lq.shape[:-2])))
    m = linalg.solve_triangular(Lq.expand(batch + (n, n)), Lp.expand(batch + (n, n)),
                                   upper=False)
    term2 = m.pow(2).sum((-2, -1))
    term3 = mv._mahalanobis(Lq, q.loc - p.loc)
    return half_term1 + 0.5 * (term2 + term3 - n)


@register_kl(mv.Independent, mv.Independent)
def _kl_independent_independent(p, q):
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    return sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.reinterpreted_batch_ndims)


__all__ = ["kl_divergence", "register_kl"]
