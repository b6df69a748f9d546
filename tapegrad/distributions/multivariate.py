"""MultivariateNormal (by covariance, precision or a Cholesky factor) and Independent
(batch dims reinterpreted as event dims)."""
import math

import numpy as np

from .. import linalg
from ..tensor import Size
from . import constraints
from .distribution import (Distribution, LocatedAt, _shape_text, standard_draw,
                           sum_rightmost)


def _batch_mv(L, v):
    return (L @ v.unsqueeze(-1)).squeeze(-1)


def _mahalanobis(L, diff):
    """``diff^T (L L^T)^-1 diff`` over the last dim, L broadcast to diff's batch."""
    n = L.shape[-1]
    batch = tuple(np.broadcast_shapes(tuple(L.shape[:-2]), tuple(diff.shape[:-1])))
    Lb = L.expand(batch + (n, n))
    z = linalg.solve_triangular(Lb, diff.expand(batch + (n,)).unsqueeze(-1), upper=False)
    return z.squeeze(-1).pow(2).sum(-1)


class TrilParams:
    """``scale_tril``, ``covariance_matrix`` and ``precision_matrix`` of a distribution
    given one of them (``self._given``, kept in ``__dict__``) and holding the Cholesky
    factor ``_unbroadcasted_scale_tril``; each derived one broadcast to the batch shape.
    ``_precision()`` derives the precision matrix."""

    @staticmethod
    def _one_given(covariance_matrix, precision_matrix, scale_tril, error):
        """``(name, matrix)`` of the one matrix given, else ``error`` (PyTorch's type)."""
        given = [(n, m) for n, m in (("covariance_matrix", covariance_matrix),
                                     ("precision_matrix", precision_matrix),
                                     ("scale_tril", scale_tril)) if m is not None]
        if len(given) != 1:
            raise error("Exactly one of covariance_matrix or precision_matrix or scale_tril "
                        "may be specified.")
        return given[0]

    @staticmethod
    def _factor(name, m):
        """The Cholesky factor of the covariance, from the matrix ``m`` given as ``name``."""
        if name == "scale_tril":
            return m
        return linalg.cholesky(m if name == "covariance_matrix" else linalg.inv(m))

    def _full(self, m):
        k = self._unbroadcasted_scale_tril.shape[-1]
        return m.expand(tuple(self._batch_shape) + (k, k))

    def _lazy(self, name, make):
        """PyTorch's lazy_property: made when first read, then kept in ``__dict__`` (where
        repr and expand find it)."""
        if name not in self.__dict__:
            self.__dict__[name] = make()
        return self.__dict__[name]

    @property
    def scale_tril(self):
        return self._lazy("scale_tril", lambda: self._full(self._unbroadcasted_scale_tril))

    @property
    def covariance_matrix(self):
        L = self._unbroadcasted_scale_tril
        return self._lazy("covariance_matrix", lambda: self._full(L @ L.mT))

    @property
    def precision_matrix(self):
        return self._lazy("precision_matrix", self._precision)

    def _matrices_shown(self):
        """repr's entries for the matrices given or read so far, in PyTorch's order."""
        return [f"{k}: {_shape_text(self.__dict__[k])}" for k in
                ("covariance_matrix", "precision_matrix", "scale_tril") if k in self.__dict__]


class MultivariateNormal(TrilParams, LocatedAt, Distribution):
    """N(loc, Sigma) over the last dim of ``loc``; give exactly one of
    ``covariance_matrix``, ``precision_matrix``, ``scale_tril``."""

    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None,
                 validate_args=None):
        if loc.ndim < 1:
            raise ValueError("loc must be at least one-dimensional.")
        name, m = self._one_given(covariance_matrix, precision_matrix, scale_tril, ValueError)
        if m.ndim < 2:
            raise ValueError(f"{name} matrix must be at least two-dimensional, with optional "
                             "leading batch dimensions")
        self._given = name
        batch = tuple(np.broadcast_shapes(tuple(m.shape[:-2]), tuple(loc.shape[:-1])))
        k = loc.shape[-1]
        self.__dict__[name] = m.expand(batch + (k, k))  # (read by the properties below)
        self.loc = loc.expand(batch + (k,))
        super().__init__(batch, (k,), validate_args=validate_args)  # checks m first
        self._unbroadcasted_scale_tril = self._factor(name, m)

    @property
    def arg_constraints(self):
        c = {"covariance_matrix": constraints.positive_definite,
             "precision_matrix": constraints.positive_definite,
             "scale_tril": constraints.lower_cholesky}
        return {"loc": constraints.real_vector, self._given: c[self._given]}

    def __repr__(self):
        shown = [f"loc: {_shape_text(self.loc)}"] + self._matrices_shown()
        return f"MultivariateNormal({', '.join(shown)})"

    def _precision(self):
        if "covariance_matrix" in self.__dict__:
            return linalg.inv(self.covariance_matrix)
        L = self._unbroadcasted_scale_tril  # (reading covariance_matrix would keep it)
        return self._full(linalg.inv(L @ L.mT))

    def rsample(self, sample_shape=Size()):
        eps = standard_draw("normal", self._extended_shape(sample_shape), self.loc.dtype)
        return self.loc + _batch_mv(self._unbroadcasted_scale_tril, eps)

    def _half_log_det(self):
        return self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        k = self._event_shape[0]
        m = _mahalanobis(self._unbroadcasted_scale_tril, value - self.loc)
        return -0.5 * (k * math.log(2 * math.pi) + m) - self._half_log_det()

    def entropy(self):
        k = self._event_shape[0]
        h = 0.5 * k * (1.0 + math.log(2 * math.pi)) + self._half_log_det()
        return h.expand(self._batch_shape) if len(self._batch_shape) else h

    @property
    def variance(self):
        v = self._unbroadcasted_scale_tril.pow(2).sum(-1)
        return v.expand(tuple(self._batch_shape) + tuple(self._event_shape))


class Independent(Distribution):
    """``base_distribution`` with its ``reinterpreted_batch_ndims`` rightmost batch dims
    counted as event dims: log_prob and entropy sum over them."""

    def __init__(self, base_distribution, reinterpreted_batch_ndims, validate_args=None):
        n = reinterpreted_batch_ndims
        if n > len(base_distribution.batch_shape):
            raise ValueError(f"Expected reinterpreted_batch_ndims <= "
                             f"len(base_distribution.batch_shape), actual {n} vs "
                             f"{len(base_distribution.batch_shape)}")
        shape = tuple(base_distribution.batch_shape) + tuple(base_distribution.event_shape)
        ev = n + len(base_distribution.event_shape)
        self.base_dist = base_distribution
        self.reinterpreted_batch_ndims = n
        super().__init__(shape[:len(shape) - ev], shape[len(shape) - ev:],
                         validate_args=validate_args)

    arg_constraints = {}

    @property
    def has_rsample(self):
        return self.base_dist.has_rsample

    @property
    def support(self):
        return constraints.independent(self.base_dist.support, self.reinterpreted_batch_ndims)

    def __repr__(self):
        return f"Independent({self.base_dist!r}, {self.reinterpreted_batch_ndims})"

    def sample(self, sample_shape=Size()):
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape=Size()):
        return self.base_dist.rsample(sample_shape)

    def log_prob(self, value):
        return sum_rightmost(self.base_dist.log_prob(value), self.reinterpreted_batch_ndims)

    def entropy(self):
        return sum_rightmost(self.base_dist.entropy(), self.reinterpreted_batch_ndims)

    @property
    def mean(self):
        return self.base_dist.mean

    @property
    def mode(self):
        return self.base_dist.mode

    @property
    def variance(self):
        return self.base_dist.variance


__all__ = ["Independent", "MultivariateNormal"]
