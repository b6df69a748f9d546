"""More of ``torch.distributions``: StudentT, Cauchy, HalfNormal, HalfCauchy, Gumbel, Chi2,
Poisson, Geometric, Binomial and MixtureSameFamily, with PyTorch's documented formulas for
log_prob, cdf/icdf, entropy and the moments, written in tapegrad ops (gradients reach the
parameters); the continuous ones have ``rsample``.  tests/test_api_gaps5.py compares them
with torch."""
import math

import numpy as np

from .. import creation
from ..grad_mode import no_grad
from ..nn import functional as F
from ..ops._record import named_result
from ..tensor import Size
from . import constraints
from .continuous import Gamma, LocationScale, Normal, _standard_gamma
from .discrete import _BinaryProbs, _one_of
from .distribution import (Distribution, Elementwise, ProbsOrLogits, broadcast_all,
                           standard_draw)

__all__ = ["Binomial", "Cauchy", "Chi2", "Geometric", "Gumbel", "HalfCauchy", "HalfNormal",
           "MixtureSameFamily", "Poisson", "StudentT"]

_EULER = 0.57721566490153286061


def _full(like, value):
    return creation.full(tuple(like.shape), value, dtype=like.dtype)


def _nonnegative(value, log_prob):
    """``log_prob`` where ``value >= 0``, -inf elsewhere (a half distribution's density)."""
    return log_prob.where(value >= 0, float("-inf"))


class StudentT(Elementwise):
    """Student's t with ``df`` degrees of freedom, location ``loc`` and scale ``scale``."""

    arg_constraints = {"df": constraints.positive, "loc": constraints.real,
                       "scale": constraints.positive}
    support = constraints.real
    has_rsample = True
    _params = ("df", "loc", "scale")

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None):
        self._setup((df, loc, scale), validate_args)

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        x = standard_draw("normal", shape, self.df.dtype)
        z = _standard_gamma(0.5 * self.df, shape) * 2  # chi2(df)
        return self.loc + self.scale * x * (z / self.df).rsqrt()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        z = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi)
             + (0.5 * self.df).lgamma() - (0.5 * (self.df + 1.0)).lgamma())
        return -0.5 * (self.df + 1.0) * (y ** 2 / self.df).log1p() - z

    def entropy(self):
        lbeta = (0.5 * self.df).lgamma() + math.lgamma(0.5) - (0.5 * (self.df + 1)).lgamma()
        return (self.scale.log() + 0.5 * (self.df + 1) * ((0.5 * (self.df + 1)).digamma()
                - (0.5 * self.df).digamma()) + 0.5 * self.df.log() + lbeta)

    @property
    def mean(self):
        return self.loc.where(self.df > 1, float("nan"))

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        v = self.scale ** 2 * self.df / (self.df - 2)
        v = v.where(self.df > 2, float("inf"))
        return v.where(self.df > 1, float("nan"))


class Cauchy(LocationScale):
    """The Cauchy (Lorentz) distribution: no mean (nan), infinite variance."""

    def rsample(self, sample_shape=Size()):
        u = standard_draw("uniform", self._extended_shape(sample_shape), self.loc.dtype)
        return self.loc + self.scale * (math.pi * (u - 0.5)).tan()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (-math.log(math.pi) - self.scale.log()
                - (((value - self.loc) / self.scale) ** 2).log1p())

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return ((value - self.loc) / self.scale).atan() / math.pi + 0.5

    def icdf(self, value):
        return (math.pi * (value - 0.5)).tan() * self.scale + self.loc

    def entropy(self):
        return math.log(4 * math.pi) + self.scale.log()

    @property
    def mean(self):
        return _full(self.loc, float("nan"))

    @property
    def variance(self):
        return _full(self.loc, float("inf"))


class _Half(Elementwise):
    """|X| for X of a symmetric ``_base`` at 0 with this ``scale``."""

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _params = ("scale",)
    _repr_args = False  # (PyTorch's: a TransformedDistribution, which prints none)

    def __init__(self, scale, validate_args=None):
        self._setup((scale,), validate_args)
        self.base_dist = self._base(0.0 * self.scale.detach(), self.scale,
                                    validate_args=False)

    def rsample(self, sample_shape=Size()):
        return self.base_dist.rsample(sample_shape).abs()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return _nonnegative(value, self.base_dist.log_prob(value) + math.log(2))

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob):
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self):
        return self.base_dist.entropy() - math.log(2)

    @property
    def mode(self):
        return 0.0 * self.scale


class HalfNormal(_Half):
    """|N(0, scale^2)|."""

    _base = Normal

    @property
    def mean(self):
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def variance(self):
        return self.scale ** 2 * (1 - 2 / math.pi)


class HalfCauchy(_Half):
    """|Cauchy(0, scale)|: infinite mean and variance."""

    _base = Cauchy

    @property
    def mean(self):
        return _full(self.scale, float("inf"))

    @property
    def variance(self):
        return _full(self.scale, float("inf"))


class Gumbel(LocationScale):
    """The Gumbel (type-I extreme value) distribution."""

    def rsample(self, sample_shape=Size()):
        u = standard_draw("uniform", self._extended_shape(sample_shape), self.loc.dtype)
        u = u.clamp(min=float(np.finfo(u.dtype).tiny), max=1 - float(np.finfo(u.dtype).eps))
        return self.loc - self.scale * (-u.log()).log()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (self.loc - value) / self.scale
        return (y - y.exp()) - self.scale.log()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        # PyTorch's node: its transformed Uniform's cdf ends in sign * (u - 0.5) + 0.5
        u = (-(-(value - self.loc) / self.scale).exp()).exp()
        return named_result(u, "AddBackward0")

    def icdf(self, value):
        return self.loc - self.scale * (-value.log()).log()

    def entropy(self):
        return self.scale.log() + (1 + _EULER)

    @property
    def mean(self):
        return self.loc + self.scale * _EULER

    @property
    def stddev(self):
        return (math.pi / math.sqrt(6)) * self.scale

    @property
    def variance(self):
        return self.stddev ** 2


class Chi2(Gamma):
    """The chi-squared distribution with ``df`` degrees of freedom: Gamma(df / 2, 1 / 2)."""

    arg_constraints = {"df": constraints.positive}

    def __init__(self, df, validate_args=None):
        (df,) = broadcast_all(df)
        super().__init__(0.5 * df, 0.5 * creation.ones_like(df), validate_args=validate_args)

    @property
    def df(self):
        return self.concentration * 2


class Poisson(Elementwise):
    """The number of events at ``rate``."""

    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer
    _params = ("rate",)

    def __init__(self, rate, validate_args=None):
        self._setup((rate,), validate_args)

    def sample(self, sample_shape=Size()):
        rate = np.broadcast_to(np.asarray(self.rate.detach()), self._extended_shape(sample_shape))
        return creation.tensor(creation._rng.poisson(rate).astype(rate.dtype))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return value.xlogy(self.rate) - self.rate - (value + 1).lgamma()

    @property
    def mean(self):
        return self.rate

    @property
    def mode(self):
        return self.rate.floor()

    @property
    def variance(self):
        return self.rate


class _BinaryParams(_BinaryProbs, ProbsOrLogits, Distribution):
    """``probs`` or ``logits`` (exactly one, the other derived), as Bernoulli's."""

    def _set_probs(self, probs, logits, *more):
        _one_of(probs, logits)
        values = broadcast_all(probs if probs is not None else logits, *more)
        self._given = "probs" if probs is not None else "logits"
        setattr(self, self._given, values[0])  # (the other is derived when first read)
        return values[1:]

    @property
    def arg_constraints(self):  # (only those made so far are checked and shown)
        return {**self._more_constraints, **self._constraints}

    _more_constraints = {}


class Geometric(_BinaryParams):
    """The number of failures before the first success, each trial succeeding with
    ``probs``."""

    _constraints = {"probs": constraints.interval(0.0, 1.0), "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, probs=None, logits=None, validate_args=None):
        self._set_probs(probs, logits)
        super().__init__(self.param_shape, validate_args=validate_args)

    def sample(self, sample_shape=Size()):
        p = np.broadcast_to(np.asarray(self.probs.detach()), self._extended_shape(sample_shape))
        return creation.tensor((creation._rng.geometric(p) - 1).astype(p.dtype))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        with no_grad():  # p = 1 at value 0: log(1) + 0 * log(0) is 0, not nan
            edge = (probs == 1) & (value == 0)
        return value * (-probs.masked_fill(edge, 0.0)).log1p() + self.probs.log()

    def entropy(self):
        return F.binary_cross_entropy_with_logits(self.logits, self.probs,
                                                  reduction="none") / self.probs

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def mode(self):
        return 0.0 * self.probs

    @property
    def variance(self):
        return (1.0 / self.probs - 1.0) / self.probs


class Binomial(_BinaryParams):
    """The number of successes in ``total_count`` trials, each succeeding with ``probs``."""

    _constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    _more_constraints = {"total_count": constraints.nonnegative_integer}
    has_enumerate_support = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        (self.total_count,) = self._set_probs(probs, logits, total_count)
        self.total_count = self.total_count.to(getattr(self, self._given).dtype)
        super().__init__(self.param_shape, validate_args=validate_args)

    @property
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    def enumerate_support(self, expand=True):
        """0, 1, ..., total_count down a new first dim (one total_count for the batch)."""
        n = int(self.total_count.max())
        if int(self.total_count.min()) != n:
            raise NotImplementedError("Inhomogeneous total count not supported by "
                                      "`enumerate_support`.")
        v = creation.arange(1 + n, dtype=getattr(self, self._given).dtype).reshape(
            (-1,) + (1,) * len(self.batch_shape))
        return v.expand((-1,) + tuple(self.batch_shape)) if expand else v

    def _validate_sample(self, value):
        if not bool(((value >= 0) & (value <= self.total_count) & (value == value.floor()))
                    .all()):
            raise ValueError(f"Expected value argument (Tensor of shape {tuple(value.shape)}) "
                             f"to be within the support (IntegerInterval) of the distribution "
                             f"{self!r}, but found invalid values:\n{value.detach()!r}")

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        n = np.broadcast_to(np.asarray(self.total_count.detach()), shape).astype(np.int64)
        p = np.broadcast_to(np.asarray(self.probs.detach()), shape)
        return creation.tensor(creation._rng.binomial(n, p).astype(p.dtype))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        n, logits = self.total_count, self.logits
        clamped = (logits.clamp(min=0) + logits - logits.clamp(max=0)) / 2
        normalize = (n * clamped + n * (-logits.abs()).exp().log1p() - (n + 1).lgamma())
        return value * logits - (value + 1).lgamma() - (n - value + 1).lgamma() - normalize

    def entropy(self):
        n = int(self.total_count.max())
        if not bool((self.total_count == n).all()):
            raise NotImplementedError("Inhomogeneous total count not supported by "
                                      "`entropy`.")
        k = creation.arange(n + 1, dtype=self.probs.dtype).reshape(
            (n + 1,) + (1,) * len(self.batch_shape))
        lp = self.log_prob(k) if not self._validate_args else Binomial.log_prob(
            _Unchecked(self), k)
        return -(lp.exp() * lp).sum(0)

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def mode(self):
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)


class _Unchecked:
    """A distribution's parameters without its validation (for a log_prob over its whole
    support)."""

    _validate_args = False

    def __init__(self, d):
        self.total_count, self.logits = d.total_count, d.logits


class MixtureSameFamily(Distribution):
    """A mixture of the components of ``component_distribution`` (its rightmost batch dim)
    weighted by ``mixture_distribution`` (a Categorical over that dim)."""

    arg_constraints = {}
    has_rsample = False

    def __init__(self, mixture_distribution, component_distribution, validate_args=None):
        self._mixture_distribution = mixture_distribution
        self._component_distribution = component_distribution
        cb = tuple(component_distribution.batch_shape)
        mb = tuple(mixture_distribution.batch_shape)
        if len(cb) < 1:
            raise ValueError("`component_distribution` must have a batch dimension")
        k = mixture_distribution.logits.shape[-1]
        if cb[-1] != k:
            raise ValueError(f"`mixture_distribution component` ({k}) does not equal "
                             f"`component_distribution.batch_shape[-1]` ({cb[-1]})")
        for a, b in zip(reversed(mb), reversed(cb[:-1]), strict=False):
            if a != 1 and b != 1 and a != b:
                raise ValueError(f"`mixture_distribution.batch_shape` ({Size(mb)}) is not "
                                 f"compatible with `component_distribution.batch_shape`"
                                 f"({Size(cb)})")
        self._event_ndims = len(component_distribution.event_shape)
        super().__init__(cb[:-1], component_distribution.event_shape,
                         validate_args=validate_args)

    @property
    def mixture_distribution(self):
        return self._mixture_distribution

    @property
    def component_distribution(self):
        return self._component_distribution

    @property
    def support(self):
        return self._component_distribution.support

    def _pad(self, x):
        """``x`` with a mixture dim before the event dims (value -> per-component value)."""
        return x.unsqueeze(-1 - self._event_ndims)

    def _pad_mixture(self, x):
        """Mixture weights ``x`` [..., k] shaped to line up with the components' values."""
        pad = 0 if len(self._mixture_distribution.batch_shape) == 1 else \
            len(self.batch_shape) - len(self._mixture_distribution.batch_shape)
        shape = tuple(x.shape)
        return x.reshape(shape[:-1] + (1,) * pad + shape[-1:] + (1,) * self._event_ndims)

    @property
    def mean(self):
        probs = self._pad_mixture(self._mixture_distribution.probs)
        return (probs * self._component_distribution.mean).sum(-1 - self._event_ndims)

    @property
    def variance(self):
        probs = self._pad_mixture(self._mixture_distribution.probs)
        d = -1 - self._event_ndims
        cond_var = (probs * self._component_distribution.variance).sum(d)
        var_mean = (probs * (self._component_distribution.mean
                             - self._pad(self.mean)) ** 2).sum(d)
        return cond_var + var_mean

    def cdf(self, x):
        x = self._pad(x)
        cdf_x = self._component_distribution.cdf(x)
        return (cdf_x * self._mixture_distribution.probs).sum(-1)

    def log_prob(self, x):
        if self._validate_args:
            self._validate_sample(x)
        lp = self._component_distribution.log_prob(self._pad(x))
        mix = self._mixture_distribution.logits.log_softmax(-1)
        return (lp + mix).logsumexp(-1)

    def sample(self, sample_shape=Size()):
        with no_grad():
            sample_shape = Size(sample_shape)
            which = self._mixture_distribution.sample(sample_shape)  # [S, B]
            comps = self._component_distribution.sample(sample_shape)  # [S, B, k, E]
            idx = which.reshape(tuple(which.shape) + (1,) * (self._event_ndims + 1))
            idx = idx.expand(tuple(which.shape) + (1,) + tuple(self.event_shape))
            return comps.gather(len(sample_shape) + len(self.batch_shape), idx).squeeze(
                len(sample_shape) + len(self.batch_shape))

    def __repr__(self):
        return (f"MixtureSameFamily(\n  {self._mixture_distribution!r},\n  "
                f"{self._component_distribution!r})")


