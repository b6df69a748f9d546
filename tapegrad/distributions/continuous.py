"""Univariate continuous distributions: Normal, LogNormal, Uniform, Exponential, Laplace,
Gamma, Beta, and Dirichlet (built from gammas).  Formulas are PyTorch's documented ones,
written in tapegrad ops, so log_prob, entropy and rsample carry gradient to the parameters.

Gamma's ``rsample`` differentiates the draw with respect to the concentration implicitly:
the draw ``x`` keeps its quantile ``u = P(a, x)`` (the regularised incomplete gamma
function) fixed, so ``dx/da = -(dP/da) / (dP/dx)``, ``dP/dx`` being the density; ``dP/da``
is a central difference of SciPy's ``gammainc`` (PyTorch uses its own series; both agree
to ~1e-7 relative, ``tests/test_distributions.py::test_gamma_rsample_gradient``)."""
import math

import numpy as np

from .. import creation
from ..autograd.function import Function
from ..ops import EXPORTS as _OPS
from ..special import gammainc
from ..tensor import Size, Tensor
from . import constraints
from .distribution import Distribution, Elementwise, LocatedAt, standard_draw

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


class LocationScale(LocatedAt, Elementwise):
    """A family on the real line given by ``loc`` and a positive ``scale``."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    _params = ("loc", "scale")

    def __init__(self, loc, scale, validate_args=None):
        self._setup((loc, scale), validate_args)


class Normal(LocationScale):
    """N(loc, scale^2).

    >>> import tapegrad as tg
    >>> round(Normal(0.0, 1.0).log_prob(tg.tensor(0.0)).item(), 6)
    -0.918939
    """

    def rsample(self, sample_shape=Size()):
        eps = standard_draw("normal", self._extended_shape(sample_shape), self.loc.dtype)
        return self.loc + eps * self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = value if isinstance(value, Tensor) else creation.tensor(float(value))
        return -((value - self.loc) ** 2) / (2 * self.scale ** 2) - self.scale.log() - \
            _LOG_SQRT_2PI

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + ((value - self.loc) / (self.scale * math.sqrt(2))).erf())

    def icdf(self, value):
        return self.loc + self.scale * (2 * value - 1).erfinv() * math.sqrt(2)

    def entropy(self):
        return 0.5 + _LOG_SQRT_2PI + self.scale.log()

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return self.scale ** 2


class LogNormal(Distribution):
    """exp(N(loc, scale^2))."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.positive
    has_rsample = True
    _repr_args = False  # (PyTorch's: a TransformedDistribution, which prints none)

    def __init__(self, loc, scale, validate_args=None):
        self.base_dist = Normal(loc, scale, validate_args=validate_args)
        self.loc, self.scale = self.base_dist.loc, self.base_dist.scale
        super().__init__(self.loc.shape, validate_args=validate_args)

    def rsample(self, sample_shape=Size()):
        return self.base_dist.rsample(sample_shape).exp()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = value.log()
        return self.base_dist.log_prob(y) - y

    def cdf(self, value):
        return self.base_dist.cdf(value.log())

    def icdf(self, value):
        return self.base_dist.icdf(value).exp()

    def entropy(self):
        return self.base_dist.entropy() + self.loc

    @property
    def mean(self):
        return (self.loc + self.scale ** 2 / 2).exp()

    @property
    def mode(self):
        return (self.loc - self.scale ** 2).exp()

    @property
    def variance(self):
        s2 = self.scale ** 2
        return s2.expm1() * (2 * self.loc + s2).exp()


class Uniform(Elementwise):
    """U[low, high)."""

    has_rsample = True
    _params = ("low", "high")

    def __init__(self, low, high, validate_args=None):
        self._setup((low, high), validate_args)

    @property
    def arg_constraints(self):  # (PyTorch's: each bound by the other, low checked first)
        return {"low": constraints.less_than(self.high),
                "high": constraints.greater_than(self.low)}

    @property
    def support(self):
        return constraints.interval(self.low.detach(), self.high.detach())  # (PyTorch's)

    def rsample(self, sample_shape=Size()):
        u = standard_draw("uniform", self._extended_shape(sample_shape), self.low.dtype)
        return self.low + u * (self.high - self.low)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        inside = ((self.low <= value) & (self.high > value)).to(self.low.dtype)
        return inside.log() - (self.high - self.low).log()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return ((value - self.low) / (self.high - self.low)).clamp(0, 1)

    def icdf(self, value):
        return value * (self.high - self.low) + self.low

    def entropy(self):
        return (self.high - self.low).log()

    @property
    def mean(self):
        return (self.high + self.low) / 2

    @property
    def mode(self):
        return self.low * math.nan

    @property
    def stddev(self):
        return (self.high - self.low) / 12 ** 0.5

    @property
    def variance(self):
        return (self.high - self.low) ** 2 / 12


class Exponential(Elementwise):
    """Exp(rate), density rate * exp(-rate x) on x >= 0."""

    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _params = ("rate",)

    def __init__(self, rate, validate_args=None):
        self._setup((rate,), validate_args)

    def rsample(self, sample_shape=Size()):
        e = standard_draw("exponential", self._extended_shape(sample_shape), self.rate.dtype)
        return e / self.rate

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 1 - (-self.rate * value).exp()

    def icdf(self, value):
        return -(-value).log1p() / self.rate

    def entropy(self):
        return 1.0 - self.rate.log()

    @property
    def mean(self):
        return self.rate.reciprocal()

    @property
    def mode(self):
        return self.rate * 0

    @property
    def variance(self):
        return self.rate.pow(-2)


class Laplace(LocationScale):
    """Laplace(loc, scale), density exp(-|x - loc| / scale) / (2 scale)."""

    def rsample(self, sample_shape=Size()):
        u = standard_draw("uniform", self._extended_shape(sample_shape), self.loc.dtype)
        u = u * 2 - 1  # on (-1, 1): the inverse cdf, loc - scale sign(u) log(1 - |u|)
        return self.loc - self.scale * u.sign() * (-u.abs()).log1p()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -(2 * self.scale).log() - (value - self.loc).abs() / self.scale

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = value - self.loc
        return 0.5 - 0.5 * z.sign() * (-z.abs() / self.scale).expm1()

    def icdf(self, value):
        t = value - 0.5
        return self.loc - self.scale * t.sign() * (-2 * t.abs()).log1p()

    def entropy(self):
        return 1 + (2 * self.scale).log()

    @property
    def stddev(self):
        return 2 ** 0.5 * self.scale

    @property
    def variance(self):
        return 2 * self.scale ** 2


# ---- gamma draws with an implicit reparameterisation gradient ---------------------------
class _StandardGamma(Function):
    """Draws of Gamma(alpha, 1); backward: ``dx/dalpha`` at the fixed quantile."""

    @staticmethod
    def forward(ctx, alpha):
        a = np.asarray(alpha.detach()._data, np.float64)
        x = np.maximum(creation._rng.standard_gamma(a), np.finfo(alpha.dtype).tiny)
        ctx.a, ctx.x = a, x
        return creation.tensor(x, dtype=alpha.dtype)

    @staticmethod
    def backward(ctx, grad):
        import scipy.special as sp  # SciPy on first use, as tapegrad.special

        a, x = ctx.a, ctx.x
        h = 1e-5 * np.maximum(a, 1e-3)
        dpda = (sp.gammainc(a + h, x) - sp.gammainc(a - h, x)) / (2 * h)
        log_density = (a - 1) * np.log(x) - x - sp.gammaln(a)
        return grad * creation.tensor(-dpda / np.exp(log_density), dtype=grad.dtype)


def _standard_gamma(alpha, shape):
    return _StandardGamma.apply(alpha.expand(shape))


class Gamma(Elementwise):
    """Gamma(concentration, rate), density rate^a x^(a-1) exp(-rate x) / Gamma(a)."""

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _params = ("concentration", "rate")

    def __init__(self, concentration, rate, validate_args=None):
        self._setup((concentration, rate), validate_args)

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        return _standard_gamma(self.concentration, shape) / self.rate.expand(shape)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        a, b = self.concentration, self.rate
        return a.xlogy(b) + (a - 1).xlogy(value) - b * value - a.lgamma()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return gammainc(self.concentration, self.rate * value)

    def entropy(self):
        a = self.concentration
        return a - self.rate.log() + a.lgamma() + (1.0 - a) * a.digamma()

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        return self.concentration / self.rate ** 2


class Dirichlet(Distribution):
    """Dirichlet(concentration) on the simplex of the last dim."""

    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration.ndim < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:],
                         validate_args=validate_args)

    def rsample(self, sample_shape=Size()):
        g = _standard_gamma(self.concentration, self._extended_shape(sample_shape))
        return g / g.sum(-1, keepdim=True)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        a = self.concentration
        return ((a - 1).xlogy(value)).sum(-1) + a.sum(-1).lgamma() - a.lgamma().sum(-1)

    def entropy(self):
        a = self.concentration
        k, a0 = a.shape[-1], a.sum(-1)
        return a.lgamma().sum(-1) - a0.lgamma() - (k - a0) * a0.digamma() - \
            ((a - 1.0) * a.digamma()).sum(-1)

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, keepdim=True)

    @property
    def mode(self):
        # PyTorch's: (a - 1) clamped at 0 and normalised; where every a < 1, a one-hot at the
        # argmax (assigned through the mask always, so the node is PyTorch's too)
        m1 = (self.concentration - 1).clamp(min=0.0)
        mode = m1 / m1.sum(-1, True)
        mask = (self.concentration < 1).all(dim=-1)
        mode[mask] = creation.eye(m1.shape[-1], dtype=mode.dtype)[mode[mask].argmax(dim=-1)]
        return mode

    @property
    def variance(self):
        a0 = self.concentration.sum(-1, keepdim=True)
        m = self.concentration / a0
        return m * (1 - m) / (a0 + 1)


class Beta(Elementwise):
    """Beta(concentration1, concentration0) on [0, 1]."""

    arg_constraints = {"concentration1": constraints.positive,
                       "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True
    _params = ("concentration1", "concentration0")
    _repr_args = False  # (PyTorch's Beta keeps them in a Dirichlet: its repr is Beta())

    def __init__(self, concentration1, concentration0, validate_args=None):
        self._setup((concentration1, concentration0), False)
        # PyTorch's Beta is a Dirichlet of the two: that one checks them (in its words)
        self._dirichlet = Dirichlet(_OPS["stack"]([self.concentration1, self.concentration0],
                                                 -1), validate_args=validate_args)
        self._validate_args = self._dirichlet._validate_args

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        g1 = _standard_gamma(self.concentration1, shape)
        g0 = _standard_gamma(self.concentration0, shape)
        return g1 / (g1 + g0)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        a, b = self.concentration1, self.concentration0
        return (a - 1).xlogy(value) + (b - 1).xlogy(1 - value) + (a + b).lgamma() - \
            a.lgamma() - b.lgamma()

    def entropy(self):
        a, b = self.concentration1, self.concentration0
        t = a + b
        return a.lgamma() + b.lgamma() - t.lgamma() - (a - 1) * a.digamma() - \
            (b - 1) * b.digamma() + (t - 2) * t.digamma()

    @property
    def mean(self):
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self):
        return self._dirichlet.mode[..., 0]

    @property
    def variance(self):
        t = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (t ** 2 * (t + 1))


__all__ = ["Beta", "Dirichlet", "Exponential", "Gamma", "Laplace", "LogNormal", "Normal",
           "Uniform"]
