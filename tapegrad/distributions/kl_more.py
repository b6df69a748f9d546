"""The rest of PyTorch's registered ``kl_divergence`` pairs.

Between two univariate continuous families, ``KL(p || q) = -H(p) - E_p[log q(X)]``: the
density of every q family here is a sum of terms in ``x``, ``x^2``, ``log x``,
``log(1 - x)``, ``|x - m|`` or ``exp(-x / b)``, so the cross term needs only those
expectations under p, each written once per p family (tables below).  Where p's support
is not inside q's the divergence is infinite: a constant when p's support is unbounded
and q's is not, elementwise where it depends on the parameters (a Uniform p, a Pareto
q).  Same-family pairs with a closed form have their own functions, exponential
families (ContinuousBernoulli, Wishart) use the Bregman divergence of their log
normaliser, and low-rank Gaussians are compared through their covariance matrices."""
import math

import numpy as np

from .. import autograd, creation
from ..ops import EXPORTS as _OPS
from . import continuous as c
from . import counts, discrete, more, multivariate, relaxed, shaped
from .families import ContinuousBernoulli
from .distribution import sum_rightmost
from .kl import _inf_where, kl_divergence, register_kl
from .transforms import TransformedDistribution

_EULER = 0.57721566490153286061
_LOG_2PI = math.log(2 * math.pi)
xlogy = _OPS["xlogy"]


# ---- expectations under p -----------------------------------------------------------------
def _second_moment(p):
    return p.variance + p.mean ** 2


def _uniform_log_mean(lo, hi):
    """E[log X] for X uniform on [lo, hi], lo >= 0."""
    return (xlogy(hi, hi) - xlogy(lo, lo)) / (hi - lo) - 1


_E_LOG = {  # E_p[log X], p on the positive half-line
    c.Beta: lambda p: p.concentration1.digamma() -
    (p.concentration1 + p.concentration0).digamma(),
    c.Exponential: lambda p: -_EULER - p.rate.log(),
    c.Gamma: lambda p: p.concentration.digamma() - p.rate.log(),
    counts.Pareto: lambda p: p.scale.log() + p.alpha.reciprocal(),
    c.Uniform: lambda p: _uniform_log_mean(p.low, p.high),
}
_E_LOG1M = {  # E_p[log(1 - X)], p on [0, 1]
    c.Beta: lambda p: p.concentration0.digamma() -
    (p.concentration1 + p.concentration0).digamma(),
    c.Uniform: lambda p: _uniform_log_mean(1 - p.high, 1 - p.low),
}
_E_EXP = {  # E_p[exp(-t X)], t > 0 (a Gumbel q's term)
    c.Exponential: lambda p, t: p.rate / (p.rate + t),
    c.Gamma: lambda p, t: (1 + t / p.rate).pow(-p.concentration),
    c.Normal: lambda p, t: (-t * p.loc + (t * p.scale) ** 2 / 2).exp(),
    c.Uniform: lambda p, t: ((-t * p.low).exp() - (-t * p.high).exp()) /
    (t * (p.high - p.low)),
    more.Gumbel: lambda p, t: (-t * p.loc + (1 + t * p.scale).lgamma()).exp(),
}


def _normal_abs_moment(p, m):
    """E_p|X - m| for a Normal p: the mean of a folded normal."""
    d, s = p.loc - m, p.scale
    return s * math.sqrt(2 / math.pi) * (-(d / s) ** 2 / 2).exp() + \
        d * (d / (s * math.sqrt(2))).erf()


# ---- E_p[log q(X)] per q family ---------------------------------------------------------------
def _cross_normal(p, q):
    m, s = q.loc, q.scale
    return -(_second_moment(p) - 2 * m * p.mean + m ** 2) / (2 * s ** 2) - s.log() - \
        _LOG_2PI / 2


def _cross_exponential(p, q):
    return q.rate.log() - q.rate * p.mean


def _cross_gamma(p, q):
    a, b = q.concentration, q.rate
    return a * b.log() - a.lgamma() + (a - 1) * _E_LOG[_family(p, _E_LOG)](p) - b * p.mean


def _cross_gumbel(p, q):
    t = q.scale.reciprocal()
    return -q.scale.log() - (p.mean - q.loc) * t - \
        (q.loc * t).exp() * _E_EXP[_family(p, _E_EXP)](p, t)


def _cross_laplace(p, q):
    return -(2 * q.scale).log() - _normal_abs_moment(p, q.loc) / q.scale


def _cross_uniform(p, q):
    return -(q.high - q.low).log() + 0 * p.mean


def _cross_beta(p, q):
    a, b = q.concentration1, q.concentration0
    log_beta = a.lgamma() + b.lgamma() - (a + b).lgamma()
    return (a - 1) * _E_LOG[_family(p, _E_LOG)](p) + \
        (b - 1) * _E_LOG1M[_family(p, _E_LOG1M)](p) - log_beta


def _cross_pareto(p, q):
    a, s = q.alpha, q.scale
    return a.log() + a * s.log() - (a + 1) * _E_LOG[_family(p, _E_LOG)](p)


def _cross_continuous_bernoulli(p, q):
    # log q is linear in x: C(lambda) + x log(lambda) + (1 - x) log(1 - lambda)
    return q._log_norm() + p.mean * q.probs.log() + (1 - p.mean) * (-q.probs).log1p()


def _family(p, table):
    return next(t for t in type(p).__mro__ if t in table)


# ---- supports, as (low, high) bounds (numbers or tensors) -------------------------------------
_REAL = (-math.inf, math.inf)
_SUPPORT = {
    c.Normal: lambda d: _REAL, more.Gumbel: lambda d: _REAL, c.Laplace: lambda d: _REAL,
    c.Exponential: lambda d: (0.0, math.inf), c.Gamma: lambda d: (0.0, math.inf),
    c.Beta: lambda d: (0.0, 1.0), ContinuousBernoulli: lambda d: (0.0, 1.0),
    counts.Pareto: lambda d: (d.scale, math.inf), c.Uniform: lambda d: (d.low, d.high),
}


def _outside(p, q):
    """Where p's support leaves q's: True, False, or a bool tensor when a bound is a
    parameter (True too when that tensor is all True: no formula need be evaluated)."""
    (plo, phi), (qlo, qhi) = _SUPPORT[_family(p, _SUPPORT)](p), _SUPPORT[_family(q, _SUPPORT)](q)
    parts = [plo < qlo, phi > qhi]
    if any(part is True for part in parts):
        return True
    parts = [part for part in parts if part is not False]
    if not parts:
        return False
    out = parts[0] if len(parts) == 1 else parts[0] | parts[1]
    return True if bool(out._data.all()) else out


def _infinite(p, q):
    shape = np.broadcast_shapes(tuple(p.batch_shape), tuple(q.batch_shape))
    dtype = next(v.dtype for v in vars(p).values() if hasattr(v, "dtype"))
    return creation.full(shape, math.inf, dtype=dtype)


def _cross_kl(cross):
    """KL(p || q) from q's cross term: infinite where p's support leaves q's."""
    def kl(p, q):
        out = _outside(p, q)
        if out is True:
            return _infinite(p, q)
        value = -p.entropy() - cross(p, q)
        return value if out is False else _inf_where(value, out)
    return kl


_CROSS = {
    c.Normal: (_cross_normal, (c.Beta, ContinuousBernoulli, c.Exponential, c.Gamma,
                               more.Gumbel, c.Laplace, counts.Pareto, c.Uniform)),
    c.Exponential: (_cross_exponential, (c.Beta, ContinuousBernoulli, c.Gamma, more.Gumbel,
                                         c.Laplace, c.Normal, counts.Pareto, c.Uniform)),
    c.Gamma: (_cross_gamma, (c.Beta, c.Exponential, more.Gumbel, c.Laplace, c.Normal,
                             counts.Pareto, c.Uniform)),
    more.Gumbel: (_cross_gumbel, (c.Exponential, c.Gamma, more.Gumbel, c.Normal, c.Uniform)),
    c.Laplace: (_cross_laplace, (c.Normal,)),
    c.Uniform: (_cross_uniform, (c.Beta, ContinuousBernoulli, c.Exponential, c.Gamma,
                                 more.Gumbel, c.Laplace, c.Normal, counts.Pareto)),
    c.Beta: (_cross_beta, (c.Exponential, c.Gamma, more.Gumbel, c.Laplace, c.Normal,
                           counts.Pareto, c.Uniform)),
    counts.Pareto: (_cross_pareto, (c.Beta, ContinuousBernoulli, c.Exponential, c.Gamma,
                                    more.Gumbel, c.Laplace, c.Normal, counts.Pareto,
                                    c.Uniform)),
    ContinuousBernoulli: (_cross_continuous_bernoulli, (c.Beta, c.Exponential, c.Gamma,
                                                        more.Gumbel, c.Laplace, c.Normal,
                                                        counts.Pareto, c.Uniform)),
}
# (the pairs PyTorch registers; each p family has the expectations its q's term reads)
for _q, (_cross, _ps) in _CROSS.items():
    for _p in _ps:
        register_kl(_p, _q)(_cross_kl(_cross))


# ---- same-family closed forms ---------------------------------------------------------------
@register_kl(more.Binomial, more.Binomial)
def _kl_binomial_binomial(p, q):
    if bool((p.total_count < q.total_count).any()):
        raise NotImplementedError("KL between Binomials where q.total_count > p.total_count is "
                                  "not implemented")
    kl = p.total_count * (p.probs * (p.logits - q.logits) + (-p.probs).log1p() -
                          (-q.probs).log1p())
    return _inf_where(kl, p.total_count > q.total_count)


@register_kl(more.Geometric, more.Geometric)
def _kl_geometric_geometric(p, q):
    return -p.entropy() - (-q.probs).log1p() / p.probs - q.logits


@register_kl(more.Poisson, more.Poisson)
def _kl_poisson_poisson(p, q):
    return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)


@register_kl(discrete.Bernoulli, more.Poisson)
def _kl_bernoulli_poisson(p, q):
    # E_p[log q(K)] = P(K=1) log(rate) - rate  (log 0! = log 1! = 0)
    return -p.entropy() - (p.probs * q.rate.log() - q.rate)


@register_kl(more.Poisson, discrete.Bernoulli)
@register_kl(more.Poisson, more.Binomial)
def _kl_poisson_bounded(p, q):
    return _infinite(p, q)  # (a Poisson puts mass on every count)


@register_kl(more.HalfNormal, more.HalfNormal)
def _kl_halfnormal_halfnormal(p, q):
    ratio = (p.scale / q.scale) ** 2
    return 0.5 * (ratio - 1 - ratio.log())


@register_kl(more.Cauchy, more.Cauchy)
def _kl_cauchy_cauchy(p, q):
    return (((p.scale + q.scale) ** 2 + (p.loc - q.loc) ** 2) / (4 * p.scale * q.scale)).log()


@register_kl(c.LogNormal, c.LogNormal)
def _kl_lognormal_lognormal(p, q):
    # (one bijection, exp, maps both from Normals; KL does not change under it)
    return kl_divergence(c.Normal(p.loc, p.scale), c.Normal(q.loc, q.scale))


@register_kl(relaxed.ExponentialFamily, relaxed.ExponentialFamily)
def _kl_expfamily_expfamily(p, q):
    """The Bregman divergence of the log normaliser F between the natural parameters."""
    if type(p) is not type(q):
        raise NotImplementedError("The cross KL-divergence between different exponential "
                                  "families cannot be computed using Bregman divergences")
    # (p's own natural parameters where they carry gradient, so the divergence
    # differentiates to p too; PyTorch's gradients do)
    p_nat = [t if t.requires_grad else t.detach().requires_grad_() for t in p._natural_params]
    q_nat = q._natural_params
    lg = p._log_normalizer(*p_nat)
    grads = autograd.grad(lg.sum(), p_nat, create_graph=True)
    result = q._log_normalizer(*q_nat) - lg
    batch = len(np.broadcast_shapes(tuple(p.batch_shape), tuple(q.batch_shape)))
    for pn, qn, g in zip(p_nat, q_nat, grads, strict=True):
        # each parameter's own event dims (Wishart's df term has none; PyTorch sums every
        # term over len(event_shape) dims, which mixes a batch of Wisharts' KLs together)
        term = (qn - pn) * g
        result = result - sum_rightmost(term, max(term.ndim - batch, 0))
    return result


def _as_full(d):
    return multivariate.MultivariateNormal(d.loc, covariance_matrix=d.covariance_matrix,
                                           validate_args=False)


@register_kl(shaped.LowRankMultivariateNormal, shaped.LowRankMultivariateNormal)
@register_kl(shaped.LowRankMultivariateNormal, multivariate.MultivariateNormal)
@register_kl(multivariate.MultivariateNormal, shaped.LowRankMultivariateNormal)
def _kl_lowrank_gaussian(p, q):
    """Two Gaussians, either low-rank, through their full covariance matrices."""
    if p.event_shape != q.event_shape:
        raise ValueError("KL-divergence between two (Low Rank) Multivariate Normals with "
                         "different event shapes cannot be computed")
    p = _as_full(p) if isinstance(p, shaped.LowRankMultivariateNormal) else p
    q = _as_full(q) if isinstance(q, shaped.LowRankMultivariateNormal) else q
    return kl_divergence(p, q)


def _same_transform(a, b):
    """Two transforms that map alike: one type, equal parameters."""
    if type(a) is not type(b):
        return False
    va, vb = vars(a), vars(b)
    if va.keys() != vb.keys():
        return False
    for k, x in va.items():
        y = vb[k]
        if k.startswith("_cache") or k.startswith("_inv"):
            continue
        if hasattr(x, "shape") or hasattr(y, "shape"):
            if not np.array_equal(np.asarray(getattr(x, "_data", x)),
                                  np.asarray(getattr(y, "_data", y))):
                return False
        elif isinstance(x, list):
            if len(x) != len(y) or not all(map(_same_transform, x, y)):
                return False
        elif x != y:
            return False
    return True


@register_kl(TransformedDistribution, TransformedDistribution)
def _kl_transformed_transformed(p, q):
    if len(p.transforms) != len(q.transforms) or \
            not all(map(_same_transform, p.transforms, q.transforms)):
        raise NotImplementedError
    if p.event_shape != q.event_shape:
        raise NotImplementedError
    return sum_rightmost(kl_divergence(p.base_dist, q.base_dist),
                         len(p.event_shape) - len(p.base_dist.event_shape))
