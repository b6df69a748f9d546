"""Two exponential families PyTorch has: ContinuousBernoulli (the normalised Bernoulli
density on [0, 1], with its Taylor expansions near probs = 1/2) and Wishart (Bartlett
draws, reparameterised through the chi-square draws).  PyTorch's formulas in tapegrad ops."""
import math
import warnings

import numpy as np

from .. import creation, linalg
from ..nn import functional as F
from ..ops import EXPORTS as _OPS
from ..special import mvlgamma
from ..tensor import Size
from . import constraints
from .bijections import vec_to_tril_matrix
from .discrete import _clamped, _one_of
from .distribution import (ProbsOrLogits, _shape_text, broadcast_all, lazy_property,
                           standard_draw)
from .more import Chi2
from .multivariate import TrilParams
from .relaxed import ExponentialFamily

_where = _OPS["where"]
_LOG2 = math.log(2.0)


class ContinuousBernoulli(ProbsOrLogits, ExponentialFamily):
    """Density ``C(p) p^x (1-p)^(1-x)`` on [0, 1]; ``rsample`` by the inverse cdf.  Near
    p = 1/2 (inside ``lims``) the normaliser and moments use PyTorch's Taylor series."""

    support = constraints.unit_interval
    has_rsample = True
    _mean_carrier_measure = 0
    _constraints = {"probs": constraints.unit_interval, "logits": constraints.real}

    def __init__(self, probs=None, logits=None, lims=(0.499, 0.501), validate_args=None):
        _one_of(probs, logits)
        given = probs if probs is not None else logits
        scalar = not hasattr(given, "shape")
        if probs is not None:
            (p,) = broadcast_all(probs)
            if validate_args is not None and \
                    not bool(self._constraints["probs"].check(p)._data.all()):
                raise ValueError("The parameter probs has invalid values")
            self.probs = _clamped(p)
        else:
            (self.logits,) = broadcast_all(logits)
        self._given = "probs" if probs is not None else "logits"  # (the other made when read)
        self._lims = lims
        super().__init__(Size() if scalar else self.param_shape, validate_args=validate_args)

    @lazy_property
    def logits(self):
        return self.probs.log() - (-self.probs).log1p()

    @lazy_property
    def probs(self):
        return _clamped(self.logits.sigmoid())

    arg_constraints = _constraints  # (only those made so far are checked and shown)

    def _outside(self):
        return (self.probs <= self._lims[0]) | (self.probs > self._lims[1])

    def _cut(self):
        return _where(self._outside(), self.probs, self.probs * 0 + self._lims[0])

    def _log_norm(self):
        c = self._cut()
        below = _where(c <= 0.5, c, c * 0)
        above = _where(c >= 0.5, c, c * 0 + 1)
        exact = ((-c).log1p() - c.log()).abs().log() - \
            _where(c <= 0.5, (-2.0 * below).log1p(), (2.0 * above - 1.0).log())
        x = (self.probs - 0.5).pow(2)
        taylor = _LOG2 + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return _where(self._outside(), exact, taylor)

    @property
    def mean(self):
        c = self._cut()
        exact = c / (2.0 * c - 1.0) + 1.0 / ((-c).log1p() - c.log())
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * x.pow(2)) * x
        return _where(self._outside(), exact, taylor)

    @property
    def variance(self):
        c = self._cut()
        exact = c * (c - 1.0) / (1.0 - 2.0 * c).pow(2) + 1.0 / ((-c).log1p() - c.log()).pow(2)
        x = (self.probs - 0.5).pow(2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return _where(self._outside(), exact, taylor)

    def rsample(self, sample_shape=Size()):
        return self.icdf(standard_draw("uniform", self._extended_shape(sample_shape),
                                       self.probs.dtype))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -F.binary_cross_entropy_with_logits(logits, value, reduction="none") + \
            self._log_norm()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        c = self._cut()
        cdfs = (c.pow(value) * (1.0 - c).pow(1.0 - value) + c - 1.0) / (2.0 * c - 1.0)
        inner = _where(self._outside(), cdfs, value)
        return _where(value <= 0, value * 0, _where(value >= 1, value * 0 + 1, inner))

    def icdf(self, value):
        c = self._cut()
        return _where(self._outside(),
                      ((-c + value * (2.0 * c - 1.0)).log1p() - (-c).log1p())
                      / (c.log() - (-c).log1p()), value)

    def entropy(self):
        log0, log1 = (-self.probs).log1p(), self.probs.log()
        return self.mean * (log0 - log1) - self._log_norm() - log0

    @property
    def _natural_params(self):
        return (self.logits,)

    def _log_normalizer(self, x):
        outside = (x <= self._lims[0] - 0.5) | (x > self._lims[1] - 0.5)  # (PyTorch's test)
        cut = _where(outside, x, x * 0 + self._lims[0] - 0.5)
        exact = (cut.expm1().abs()).log() - (cut.abs()).log()
        taylor = 0.5 * x + x.pow(2) / 24.0 - x.pow(4) / 2880.0
        return _where(outside, exact, taylor)


def _mvdigamma(x, p):
    """``sum_i digamma(x - i/2)``, i < p."""
    half = creation.tensor(np.arange(p) / 2.0, dtype=x.dtype)
    return (x.unsqueeze(-1) - half).digamma().sum(-1)


class Wishart(TrilParams, ExponentialFamily):
    """Wishart(df, Sigma) over p x p positive-definite matrices; give exactly one of
    ``covariance_matrix``, ``precision_matrix``, ``scale_tril``.  ``rsample`` is Bartlett's
    construction (gradients through the chi-square draws and the scale factor); a singular
    draw (possible when df < p) is not redrawn here, where PyTorch retries up to 10 times."""

    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, df, covariance_matrix=None, precision_matrix=None, scale_tril=None,
                 validate_args=None):
        name, m = self._one_given(covariance_matrix, precision_matrix, scale_tril,
                                  AssertionError)
        if m.ndim < 2:
            raise ValueError("scale_tril must be at least two-dimensional, with optional "
                             "leading batch dimensions")
        p = m.shape[-1]
        if hasattr(df, "shape"):
            batch = tuple(np.broadcast_shapes(tuple(m.shape[:-2]), tuple(df.shape)))
            self.df = df.expand(batch)
        else:
            batch = tuple(m.shape[:-2])
            self.df = creation.tensor(float(df), dtype=m.dtype)
        if bool((self.df <= p - 1).any()):
            raise ValueError(f"Value of df={df} expected to be greater than ndim - 1 = {p - 1}.")
        self._given = name
        self.__dict__[name] = m.expand(batch + (p, p))
        if bool((self.df < p).any()):
            warnings.warn("Low df values detected. Singular samples are highly likely to occur "
                          "for ndim - 1 < df < ndim.", stacklevel=2)
        super().__init__(batch, (p, p), validate_args=validate_args)
        self._unbroadcasted_scale_tril = self._factor(name, m)
        steps = creation.tensor(np.arange(p, dtype=np.float64), dtype=m.dtype)
        self._dist_chi2 = Chi2(self.df.unsqueeze(-1) - steps)

    @property
    def arg_constraints(self):
        c = {"covariance_matrix": constraints.positive_definite,
             "precision_matrix": constraints.positive_definite,
             "scale_tril": constraints.lower_cholesky}
        return {self._given: c[self._given], "df": constraints.greater_than(0)} \
            if hasattr(self, "_given") else {}

    def __repr__(self):
        return f"Wishart({', '.join(self._matrices_shown() + [f'df: {_shape_text(self.df)}'])})"

    def _precision(self):
        eye = creation.eye(self._event_shape[-1], dtype=self.df.dtype)
        return self._full(linalg.cholesky_solve(eye, self._unbroadcasted_scale_tril))

    def _df(self):
        return self.df.reshape(tuple(self._batch_shape) + (1, 1))

    @property
    def mean(self):
        return self._df() * self.covariance_matrix

    @property
    def mode(self):
        factor = self.df - self._event_shape[-1] - 1
        factor = _where(factor <= 0, factor * float("nan"), factor)
        return factor.reshape(tuple(self._batch_shape) + (1, 1)) * self.covariance_matrix

    @property
    def variance(self):
        V = self.covariance_matrix
        d = V.diagonal(dim1=-2, dim2=-1)
        return self._df() * (V.pow(2) + d.unsqueeze(-1) * d.unsqueeze(-2))

    def rsample(self, sample_shape=Size()):
        p = self._event_shape[-1]
        tiny = float(np.finfo(self.df.dtype).eps)
        diag = self._dist_chi2.rsample(sample_shape).sqrt().clamp(min=tiny)
        below = standard_draw("normal", tuple(sample_shape) + tuple(self._batch_shape)
                              + (p * (p - 1) // 2,), self.df.dtype)
        noise = linalg.diag_embed(diag) + vec_to_tril_matrix(below, diag=-1)
        chol = self._unbroadcasted_scale_tril @ noise
        return chol @ chol.mT

    def _half_log_det(self):
        return self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        nu, p = self.df, self._event_shape[-1]
        trace = linalg.cholesky_solve(value, self._unbroadcasted_scale_tril) \
            .diagonal(dim1=-2, dim2=-1).sum(-1)
        return -nu * (p * _LOG2 / 2 + self._half_log_det()) - mvlgamma(nu / 2, p) + \
            (nu - p - 1) / 2 * linalg.slogdet(value).logabsdet - trace / 2

    def entropy(self):
        nu, p = self.df, self._event_shape[-1]
        return (p + 1) * (p * _LOG2 / 2 + self._half_log_det()) + mvlgamma(nu / 2, p) - \
            (nu - p - 1) / 2 * _mvdigamma(nu / 2, p) + nu * p / 2

    # the exponential-family form, for kl_divergence's Bregman divergence between Wisharts
    @property
    def _natural_params(self):
        return -self.precision_matrix / 2, (self.df - self._event_shape[-1] - 1) / 2

    def _log_normalizer(self, x, y):
        p = self._event_shape[-1]
        return (y + (p + 1) / 2) * (p * _LOG2 - linalg.slogdet(-2 * x).logabsdet) + \
            mvlgamma(y + (p + 1) / 2, p)


__all__ = ["ContinuousBernoulli", "Wishart"]
