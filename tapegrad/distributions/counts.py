"""Weibull, Pareto, NegativeBinomial and Multinomial, with PyTorch's parameterisations and
formulas (log_prob, moments, entropy where PyTorch has one), written in tapegrad ops so that
gradients reach the parameters; Weibull and Pareto have ``rsample``.  tests/test_api_gaps7.py
compares them with torch."""
import math

import numpy as np

from .. import creation
from ..nn import functional as F
from ..tensor import Size
from . import constraints
from .discrete import Categorical, _OverCategorical
from .distribution import Distribution, Elementwise, broadcast_all, standard_draw
from .continuous import Exponential
from .more import Binomial, _BinaryParams

__all__ = ["Multinomial", "NegativeBinomial", "Pareto", "Weibull"]

_EULER = 0.57721566490153286061


class Weibull(Elementwise):
    """Weibull with ``scale`` and shape ``concentration``: ``scale * E ** (1 / k)`` for E
    standard exponential."""

    arg_constraints = {"scale": constraints.positive, "concentration": constraints.positive}
    support = constraints.positive
    has_rsample = True
    _params = ("scale", "concentration")

    def __init__(self, scale, concentration, validate_args=None):
        self._setup((scale, concentration), validate_args)

    def rsample(self, sample_shape=Size()):
        e = standard_draw("exponential", self._extended_shape(sample_shape), self.scale.dtype)
        return self.scale * e.pow(self.concentration.reciprocal())

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        k, z = self.concentration, value / self.scale
        return (k / self.scale).log() + (k - 1) * z.log() - z.pow(k)

    def cdf(self, value):
        return 1 - (-(value / self.scale).pow(self.concentration)).exp()

    def icdf(self, value):
        return self.scale * (-(-value).log1p()).pow(self.concentration.reciprocal())

    def entropy(self):
        k = self.concentration
        return _EULER * (1 - k.reciprocal()) + (self.scale / k).log() + 1

    @property
    def mean(self):
        return self.scale * (1 + self.concentration.reciprocal()).lgamma().exp()

    @property
    def mode(self):
        k = self.concentration
        return self.scale * ((k - 1) / k).pow(k.reciprocal()).clamp(min=0)

    @property
    def variance(self):
        k = self.concentration
        return self.scale ** 2 * ((1 + 2 / k).lgamma().exp()
                                  - (2 * (1 + k.reciprocal()).lgamma()).exp())


class Pareto(Elementwise):
    """Pareto type I with ``scale`` (the least value) and tail index ``alpha``."""

    arg_constraints = {"alpha": constraints.positive, "scale": constraints.positive}
    has_rsample = True
    _params = ("scale", "alpha")

    def __init__(self, scale, alpha, validate_args=None):
        self._setup((scale, alpha), validate_args)

    @property
    def support(self):
        return constraints.greater_than_eq(self.scale)

    def rsample(self, sample_shape=Size()):
        e = standard_draw("exponential", self._extended_shape(sample_shape), self.scale.dtype)
        return self.scale * (e / self.alpha).exp()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self.alpha.log() + self.alpha * self.scale.log() - (self.alpha + 1) * value.log()

    def cdf(self, value):
        if self._validate_args:  # (PyTorch's Pareto checks its base, Exponential(alpha))
            Exponential(self.alpha)._validate_sample((value / self.scale).log())
        return 1 - (self.scale / value).pow(self.alpha)

    def icdf(self, value):
        return self.scale * (-(-value).log1p() / self.alpha).exp()

    def entropy(self):
        return (self.scale / self.alpha).log() + self.alpha.reciprocal() + 1

    @property
    def mean(self):
        a = self.alpha.clamp(min=1)  # infinite for alpha <= 1, as PyTorch's
        return a * self.scale / (a - 1)

    @property
    def mode(self):
        return self.scale

    @property
    def variance(self):
        a = self.alpha.clamp(min=2)  # infinite for alpha <= 2
        return self.scale ** 2 * a / ((a - 1) ** 2 * (a - 2))


class NegativeBinomial(_BinaryParams):
    """The number of successes (each with probability ``probs``) before ``total_count``
    failures."""

    _constraints = {"probs": constraints.half_open_interval(0.0, 1.0),
                    "logits": constraints.real}
    _more_constraints = {"total_count": constraints.greater_than_eq(0)}
    support = constraints.nonnegative_integer

    def __init__(self, total_count, probs=None, logits=None, validate_args=None):
        (self.total_count,) = self._set_probs(probs, logits, total_count)
        self.total_count = self.total_count.to(getattr(self, self._given).dtype)
        super().__init__(self.param_shape, validate_args=validate_args)

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        n = np.broadcast_to(np.asarray(self.total_count.detach()), shape)
        p = np.broadcast_to(np.asarray(self.probs.detach()), shape)
        # NumPy counts failures before n successes: its success is our failure
        draws = creation._rng.negative_binomial(np.maximum(n, 1e-300), 1 - p)
        return creation.tensor(np.where(n > 0, draws, 0).astype(p.dtype))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        n, logits = self.total_count, self.logits
        unnormalized = n * F.logsigmoid(-logits) + value * F.logsigmoid(logits)
        normalization = -(n + value).lgamma() + (1 + value).lgamma() + n.lgamma()
        normalization = normalization.masked_fill(n + value == 0, 0.0)  # (a point mass at 0)
        return unnormalized - normalization

    @property
    def mean(self):
        return self.total_count * self.logits.exp()

    @property
    def mode(self):
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self):
        return self.mean / (-self.logits).sigmoid()


class _Multinomial(constraints.Constraint):
    """Nonnegative integer counts over the last dim that add up to ``total_count``."""

    is_discrete = True
    event_dim = 1

    def __init__(self, total_count):
        self.total_count = total_count

    def check(self, value):
        ok = (value >= 0).all(-1) & (value.sum(-1) == self.total_count)
        return ok & (value == value.floor()).all(-1)

    def __repr__(self):
        return "Multinomial()"


class Multinomial(_OverCategorical, Distribution):
    """Counts of ``total_count`` draws from ``Categorical(probs or logits)``, over the last
    dim."""

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, (int, np.integer)):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = int(total_count)
        self._categorical = Categorical(probs=probs, logits=logits)
        self._binomial = Binomial(total_count=self.total_count, probs=self.probs)
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:],
                         validate_args=validate_args)

    @property
    def support(self):
        return _Multinomial(self.total_count)

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        p = np.asarray(self.probs.detach(), np.float64)
        p = np.broadcast_to(p / p.sum(-1, keepdims=True), shape)  # (NumPy checks the sum)
        counts = creation._rng.multinomial(self.total_count, p)
        return creation.tensor(counts.astype(self.probs.dtype))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        with_zero = (value == 0) & (logits == float("-inf"))  # 0 * log(0) counts 0
        log_powers = (logits.masked_fill(with_zero, 0.0) * value).sum(-1)
        return (value.sum(-1) + 1).lgamma() - (value + 1).lgamma().sum(-1) + log_powers

    def entropy(self):
        n = self.total_count
        term1 = n * self._categorical.entropy() - math.lgamma(n + 1)
        k = creation.arange(1, n + 1, dtype=self.probs.dtype).reshape(
            (n,) + (1,) * len(self._binomial.batch_shape))
        binomial_probs = self._binomial.log_prob(k).exp()
        term2 = (binomial_probs * (k + 1).lgamma()).sum((0, -1)) if n else 0.0 * term1
        return term1 + term2

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)
