"""More of PyTorch's distributions, built from the others or written out: the low-rank
MultivariateNormal, LKJCholesky (correlation Cholesky factors), VonMises, FisherSnedecor,
InverseGamma, Kumaraswamy, LogisticNormal and GeneralizedPareto.  PyTorch's formulas, in
tapegrad ops, so log_prob, entropy, moments and rsample carry gradient to the parameters."""
import math

import numpy as np

from .. import creation, linalg
from ..ops import EXPORTS as _OPS
from ..special import i0e, i1e, mvlgamma
from ..tensor import Size
from . import constraints
from .bijections import StickBreakingTransform
from .continuous import Beta, Gamma, Normal, Uniform
from .distribution import Distribution, Elementwise, LocatedAt, broadcast_all, standard_draw
from .multivariate import _batch_mv, _mahalanobis
from .transforms import AffineTransform, PowerTransform, TransformedDistribution

_where = _OPS["where"]
_NAN, _INF = float("nan"), float("inf")


def _masked(t, bad, fill):
    """``t`` with ``fill`` where ``bad`` (PyTorch's ``t[bad] = fill`` on a copy)."""
    return _where(bad, creation.full((), fill, dtype=t.dtype), t)


# ---- low-rank multivariate normal ---------------------------------------------------------
def _capacitance_tril(W, D):
    """Cholesky factor of ``I + W^T D^-1 W`` (m x m)."""
    m = W.shape[-1]
    K = (W.mT / D.unsqueeze(-2)) @ W
    return linalg.cholesky(K + creation.eye(m, dtype=K.dtype))


class LowRankMultivariateNormal(LocatedAt, Distribution):
    """N(loc, cov_factor cov_factor^T + diag(cov_diag)): log_prob and entropy through the
    Woodbury identity and the matrix determinant lemma (an m x m Cholesky factor)."""

    arg_constraints = {"loc": constraints.real_vector,
                       "cov_factor": constraints.independent(constraints.real, 2),
                       "cov_diag": constraints.independent(constraints.positive, 1)}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, cov_factor, cov_diag, validate_args=None):
        if loc.ndim < 1:
            raise ValueError("loc must be at least one-dimensional.")
        n = loc.shape[-1]
        if cov_factor.ndim < 2:
            raise ValueError("cov_factor must be at least two-dimensional, with optional "
                             "leading batch dimensions")
        if tuple(cov_factor.shape[-2:-1]) != (n,):
            raise ValueError(f"cov_factor must be a batch of matrices with shape {n} x m")
        if tuple(cov_diag.shape[-1:]) != (n,):
            raise ValueError(f"cov_diag must be a batch of vectors with shape {Size((n,))}")
        m = cov_factor.shape[-1]
        try:
            batch = tuple(np.broadcast_shapes(tuple(loc.shape[:-1]),
                                              tuple(cov_factor.shape[:-2]),
                                              tuple(cov_diag.shape[:-1])))
        except ValueError:
            raise ValueError(f"Incompatible batch shapes: loc {Size(loc.shape)}, cov_factor "
                             f"{Size(cov_factor.shape)}, cov_diag "
                             f"{Size(cov_diag.shape)}") from None
        self.loc = loc.expand(batch + (n,))
        self.cov_factor = cov_factor.expand(batch + (n, m))
        self.cov_diag = cov_diag.expand(batch + (n,))
        super().__init__(batch, (n,), validate_args=validate_args)
        self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag = cov_factor, cov_diag
        self._capacitance_tril = _capacitance_tril(cov_factor, cov_diag)

    def __repr__(self):
        return f"LowRankMultivariateNormal(loc: {Size(self.loc.shape)!r}, cov_factor: " \
               f"{Size(self.cov_factor.shape)!r}, cov_diag: {Size(self.cov_diag.shape)!r})"

    def _full(self, m):
        return m.expand(tuple(self._batch_shape) + tuple(self._event_shape) * 2)

    @property
    def variance(self):
        W, D = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        return (W.pow(2).sum(-1) + D).expand(self._extended_shape())

    @property
    def scale_tril(self):
        W, D = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        root = D.sqrt().unsqueeze(-1)
        Ws = W / root
        K = Ws @ Ws.mT + creation.eye(W.shape[-2], dtype=W.dtype)
        return self._full(root * linalg.cholesky(K))

    @property
    def covariance_matrix(self):
        W, D = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        return self._full(W @ W.mT + linalg.diag_embed(D))

    @property
    def precision_matrix(self):
        W, D = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        A = linalg.solve_triangular(self._capacitance_tril, W.mT / D.unsqueeze(-2),
                                    upper=False)
        return self._full(linalg.diag_embed(D.reciprocal()) - A.mT @ A)

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        W, D = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        eps_w = standard_draw("normal", tuple(shape[:-1]) + (W.shape[-1],), self.loc.dtype)
        eps_d = standard_draw("normal", shape, self.loc.dtype)
        return self.loc + _batch_mv(W, eps_w) + D.sqrt() * eps_d

    def _log_det(self):
        return 2 * self._capacitance_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1) + \
            self._unbroadcasted_cov_diag.log().sum(-1)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        W, D = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        diff = value - self.loc
        m = (diff.pow(2) / D).sum(-1) - \
            _mahalanobis(self._capacitance_tril, _batch_mv(W.mT / D.unsqueeze(-2), diff))
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + self._log_det() + m)

    def entropy(self):
        h = 0.5 * (self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + self._log_det())
        return h.expand(self._batch_shape) if len(self._batch_shape) else h


# ---- LKJ prior on correlation Cholesky factors -------------------------------------------
class LKJCholesky(Distribution):
    """LKJ(concentration) over Cholesky factors of ``dim x dim`` correlation matrices
    (onion-method draws; no rsample, as in PyTorch)."""

    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim, concentration=1.0, validate_args=None):
        if dim < 2:
            raise ValueError(f"Expected dim to be an integer greater than or equal to 2. "
                             f"Found dim={dim}.")
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        c = self.concentration
        offset = creation.tensor(np.concatenate([[0.0], np.arange(dim - 1)]), dtype=c.dtype)
        marginal = c + 0.5 * (dim - 2)
        super().__init__(c.shape, (dim, dim), validate_args=validate_args)
        self._beta = Beta(offset + 0.5, marginal.unsqueeze(-1) - 0.5 * offset,
                          validate_args=validate_args)

    def sample(self, sample_shape=Size()):
        y = self._beta.sample(sample_shape).unsqueeze(-1)
        shape = self._extended_shape(sample_shape)
        u = standard_draw("normal", shape, self.concentration.dtype).tril(-1)
        sphere = u / u.norm(dim=-1, keepdim=True)
        # row 0 of u is zero (0/0 above): it becomes e_1 once the diagonal is added
        w = y.sqrt() * _where(sphere == sphere, sphere, creation.zeros((), dtype=u.dtype))
        tiny = float(np.finfo(w.dtype).tiny)
        return w + linalg.diag_embed((1 - w.pow(2).sum(-1)).clamp(min=tiny).sqrt())

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diag = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = creation.tensor(np.arange(2, self.dim + 1, dtype=np.float64),
                                dtype=value.dtype)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        norm = 0.5 * dm1 * math.log(math.pi) + mvlgamma(alpha - 0.5, dm1) - \
            alpha.lgamma() * dm1
        return (order * diag.log()).sum(-1) - norm


# ---- von Mises on the circle --------------------------------------------------------------
def _log_i(order, x):
    """``log I_order(x)`` for x > 0, through the scaled Bessel functions."""
    return (i0e(x) if order == 0 else i1e(x)).log() + x


def _von_mises_draws(loc, kappa, shape, rng):
    """Best and Fisher's (1979) rejection sampler, in float64 NumPy: the angles, in
    [-pi, pi) around ``loc``."""
    kappa = np.broadcast_to(kappa, shape).astype(np.float64)
    loc = np.broadcast_to(loc, shape).astype(np.float64)
    tau = 1 + np.sqrt(1 + 4 * kappa ** 2)
    rho = (tau - np.sqrt(2 * tau)) / (2 * kappa)
    r = (1 + rho ** 2) / (2 * rho)
    small = kappa < 1e-5  # the uniform limit; r blows up in float64
    out = np.empty(shape)
    todo = np.ones(shape, np.bool_)
    while todo.any():
        u1, u2, u3 = rng.random((3,) + shape)
        z = np.cos(np.pi * u1)
        f = (1 + r * z) / (r + z)
        c = kappa * (r - f)
        ok = ((c * (2 - c) - u2 > 0) | (np.log(c / u2) + 1 - c >= 0)) & todo
        theta = np.sign(u3 - 0.5) * np.arccos(np.clip(f, -1, 1))
        theta = np.where(small, 2 * np.pi * u1 - np.pi, theta)
        ok |= small & todo
        out[ok] = theta[ok]
        todo &= ~ok
    return np.mod(out + loc + np.pi, 2 * np.pi) - np.pi


class VonMises(Elementwise):
    """The circular normal: density ``exp(kappa cos(x - loc)) / (2 pi I0(kappa))``.  Draws
    by rejection (no rsample, as in PyTorch)."""

    arg_constraints = {"loc": constraints.real, "concentration": constraints.positive}
    support = constraints.real
    has_rsample = False
    _params = ("loc", "concentration")

    def __init__(self, loc, concentration, validate_args=None):
        self._setup((loc, concentration), validate_args)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        k = self.concentration
        return k * (value - self.loc).cos() - math.log(2 * math.pi) - _log_i(0, k)

    def sample(self, sample_shape=Size()):
        shape = tuple(self._extended_shape(sample_shape))
        x = _von_mises_draws(self.loc.detach().numpy(), self.concentration.detach().numpy(),
                             shape, creation._rng)
        return creation.tensor(x, dtype=self.loc.dtype)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        k = self.concentration
        return 1 - (_log_i(1, k) - _log_i(0, k)).exp()


# ---- built from gammas, uniforms and normals ---------------------------------------------
class FisherSnedecor(Elementwise):
    """F(df1, df2): the ratio of two scaled chi-squares (rsample through the gammas)."""

    arg_constraints = {"df1": constraints.positive, "df2": constraints.positive}
    support = constraints.positive
    has_rsample = True
    _params = ("df1", "df2")

    def __init__(self, df1, df2, validate_args=None):
        self._setup((df1, df2), validate_args)
        self._gamma1 = Gamma(self.df1 * 0.5, self.df1)
        self._gamma2 = Gamma(self.df2 * 0.5, self.df2)

    def rsample(self, sample_shape=Size()):
        tiny = float(np.finfo(self.df1.dtype).tiny)
        x1 = self._gamma1.rsample(sample_shape)
        x2 = self._gamma2.rsample(sample_shape).clamp(min=tiny)
        return (x1 / x2).clamp(min=tiny)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        h1, h2 = self.df1 * 0.5, self.df2 * 0.5
        ratio = self.df1 / self.df2
        return (h1 + h2).lgamma() - h1.lgamma() - h2.lgamma() + h1 * ratio.log() + \
            (h1 - 1) * value.log() - (h1 + h2) * (ratio * value).log1p()

    @property
    def mean(self):
        df2 = _masked(self.df2, self.df2 <= 2, _NAN)
        return df2 / (df2 - 2)

    @property
    def mode(self):
        m = (self.df1 - 2) / self.df1 * self.df2 / (self.df2 + 2)
        return _masked(m, self.df1 <= 2, _NAN)

    @property
    def variance(self):
        df2 = _masked(self.df2, self.df2 <= 4, _NAN)
        return 2 * df2.pow(2) * (self.df1 + df2 - 2) / \
            (self.df1 * (df2 - 2).pow(2) * (df2 - 4))


class InverseGamma(TransformedDistribution):
    """1 / Gamma(concentration, rate)."""

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, concentration, rate, validate_args=None):
        base = Gamma(concentration, rate, validate_args=validate_args)
        neg_one = creation.full((), -1.0, dtype=base.rate.dtype)
        super().__init__(base, PowerTransform(neg_one), validate_args=validate_args)

    @property
    def concentration(self):
        return self.base_dist.concentration

    @property
    def rate(self):
        return self.base_dist.rate

    @property
    def mean(self):
        c = self.concentration
        return _masked(self.rate / (c - 1), c <= 1, _INF)

    @property
    def mode(self):
        return self.rate / (self.concentration + 1)

    @property
    def variance(self):
        c = self.concentration
        return _masked(self.rate.pow(2) / ((c - 1).pow(2) * (c - 2)), c <= 2, _INF)

    def entropy(self):
        c = self.concentration
        return c + self.rate.log() + c.lgamma() - (1 + c) * c.digamma()


def _kumaraswamy_moment(a, b, n):
    """``E[X^n] = b B(1 + n/a, b)``."""
    t = 1 + n / a
    return b * (t.lgamma() + b.lgamma() - (t + b).lgamma()).exp()


class Kumaraswamy(TransformedDistribution):
    """Kumaraswamy(concentration1, concentration0) on (0, 1):
    ``(1 - U^(1/c0))^(1/c1)`` for U uniform."""

    arg_constraints = {"concentration1": constraints.positive,
                       "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        self.concentration1, self.concentration0 = broadcast_all(concentration1,
                                                                 concentration0)
        c1, c0 = self.concentration1, self.concentration0
        base = Uniform(c0.detach() * 0, c0.detach() * 0 + 1, validate_args=validate_args)
        super().__init__(base, [PowerTransform(c0.reciprocal()), AffineTransform(1.0, -1.0),
                                PowerTransform(c1.reciprocal())],
                         validate_args=validate_args)

    @property
    def mean(self):
        return _kumaraswamy_moment(self.concentration1, self.concentration0, 1)

    @property
    def mode(self):
        c1, c0 = self.concentration1, self.concentration0
        log_mode = c0.reciprocal() * (-c0).log1p() - (-c0 * c1).log1p()
        return _masked(log_mode, (c0 < 1) | (c1 < 1), _NAN).exp()

    @property
    def variance(self):
        c1, c0 = self.concentration1, self.concentration0
        return _kumaraswamy_moment(c1, c0, 2) - self.mean.pow(2)

    def entropy(self):
        c1, c0 = self.concentration1, self.concentration0
        h0 = (c0 + 1).digamma() + 0.5772156649015329  # harmonic number H(c0)
        return (1 - c0.reciprocal()) + (1 - c1.reciprocal()) * h0 - c1.log() - c0.log()


class LogisticNormal(TransformedDistribution):
    """A Normal pushed onto the simplex by stick-breaking (one more coordinate)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        base = Normal(loc, scale, validate_args=validate_args)
        if not len(base.batch_shape):
            base = Normal(base.loc.expand((1,)), base.scale.expand((1,)),
                          validate_args=validate_args)
        super().__init__(base, StickBreakingTransform(), validate_args=validate_args)

    @property
    def loc(self):
        return self.base_dist.base_dist.loc

    @property
    def scale(self):
        return self.base_dist.base_dist.scale


class GeneralizedPareto(Elementwise):
    """GPD(loc, scale, concentration): ``loc + scale ((1-U)^-xi - 1) / xi`` (the exponential
    tail when xi = 0)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive,
                       "concentration": constraints.real}
    has_rsample = True
    _params = ("loc", "scale", "concentration")

    def __init__(self, loc, scale, concentration, validate_args=None):
        self._setup((loc, scale, concentration), validate_args)

    @property
    def support(self):
        xi = self.concentration.detach()
        upper = _where(xi < 0, self.loc.detach() - self.scale.detach() / xi,
                       creation.full((), _INF, dtype=xi.dtype))
        return constraints.interval(self.loc.detach(), upper)

    def _split(self):
        """Where xi is 0, and xi with those entries replaced by 1 (no 0/0 anywhere)."""
        xi = self.concentration
        zero = xi.detach().abs() <= 1e-8  # torch.isclose(xi, 0)'s absolute tolerance
        return zero, _where(zero, xi * 0 + 1, xi)

    def rsample(self, sample_shape=Size()):
        return self.icdf(standard_draw("uniform", self._extended_shape(sample_shape),
                                       self.loc.dtype))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        zero, xi = self._split()
        y = 1 / xi + 1
        nonzero = _where(y == 0, y, y * (xi * z).log1p())
        return -self.scale.log() - _where(zero, z, nonzero)

    def log_survival_function(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        zero, xi = self._split()
        return _where(zero, -z, -(xi * z).log1p() / xi)

    def log_cdf(self, value):
        return (-self.log_survival_function(value).exp()).log1p()

    def cdf(self, value):
        return self.log_cdf(value).exp()

    def icdf(self, value):
        zero, xi = self._split()
        logu = (-value).log1p()
        return _where(zero, self.loc - self.scale * logu,
                      self.loc + self.scale / xi * (-xi * logu).expm1())

    @property
    def mean(self):
        xi = self.concentration
        ok = xi < 1
        safe = _where(ok, xi, xi * 0 + 0.5)
        return _masked(self.loc + self.scale / (1 - safe), ~ok, _NAN)

    @property
    def variance(self):
        xi = self.concentration
        ok = xi < 0.5
        safe = _where(ok, xi, xi * 0 + 0.25)
        return _masked(self.scale.pow(2) / ((1 - safe).pow(2) * (1 - 2 * safe)), ~ok, _NAN)

    def entropy(self):
        return (self.scale.log() + self.concentration + 1).expand(self._batch_shape)

    @property
    def mode(self):
        return self.loc


__all__ = ["FisherSnedecor", "GeneralizedPareto", "InverseGamma", "Kumaraswamy", "LKJCholesky",
           "LogisticNormal", "LowRankMultivariateNormal", "VonMises"]
