"""Discrete distributions: Bernoulli, Categorical, OneHotCategorical.  Given ``probs`` or
``logits`` (exactly one), the other is derived, as PyTorch does."""
import numpy as np

from .. import creation, dtypes
from ..grad_mode import no_grad
from ..nn import functional as F
from ..tensor import Size, Tensor
from . import constraints
from .distribution import (Distribution, ProbsOrLogits, broadcast_all, broadcast_tensors,
                           lazy_property)


def _one_of(probs, logits):
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")


def _clamped(p):
    eps = float(np.finfo(p.dtype).eps)
    return p.clamp(min=eps, max=1 - eps)


class _BinaryProbs:
    """Mixin: the probability of a success (``probs``) or its log-odds (``logits``), the
    one not given derived when first read (PyTorch's lazy_property)."""

    @lazy_property
    def logits(self):
        p = _clamped(self.probs)
        return p.log() - (-p).log1p()

    @lazy_property
    def probs(self):
        return self.logits.sigmoid()


class Bernoulli(_BinaryProbs, ProbsOrLogits, Distribution):
    """1 with probability ``probs`` (or ``sigmoid(logits)``), else 0."""

    _constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        _one_of(probs, logits)
        self._given = "probs" if probs is not None else "logits"
        (param,) = broadcast_all(probs if probs is not None else logits)
        setattr(self, self._given, param)  # (the other is derived when first read)
        super().__init__(param.shape, validate_args=validate_args)

    arg_constraints = _constraints  # (only those made so far are checked and shown)

    def sample(self, sample_shape=Size()):
        with no_grad():
            p = self.probs.detach().expand(self._extended_shape(sample_shape))
            return creation.bernoulli(p)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_tensors(self.logits, value.to(self.logits.dtype))
        return -F.binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self):
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    def enumerate_support(self, expand=True):
        v = creation.arange(2, dtype=getattr(self, self._given).dtype).reshape(
            (2,) + (1,) * len(self.batch_shape))  # (reads the given parameter, as PyTorch)
        return v.expand((2,) + tuple(self.batch_shape)) if expand else v

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        m = (self.probs >= 0.5).to(self.probs.dtype)
        return m.masked_fill(self.probs == 0.5, float("nan"))

    @property
    def variance(self):
        return self.probs * (1 - self.probs)


class Categorical(Distribution):
    """Index ``i`` with probability ``probs[..., i]`` (normalised), or ``softmax(logits)``."""

    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        _one_of(probs, logits)
        param = probs if probs is not None else logits
        if not isinstance(param, Tensor) or param.ndim < 1:
            raise ValueError("`probs` parameter must be at least one-dimensional.")
        if probs is not None:  # (the other is derived when first read)
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            self.logits = logits - logits.logsumexp(-1, keepdim=True)
        self._given = "probs" if probs is not None else "logits"
        self._num_events = param.shape[-1]
        super().__init__(param.shape[:-1], validate_args=validate_args)

    # (only those made so far are checked and shown, as PyTorch's)
    arg_constraints = {"probs": constraints.simplex,
                       "logits": constraints.independent(constraints.real, 1)}

    @lazy_property
    def logits(self):
        return _clamped(self.probs).log()

    @lazy_property
    def probs(self):
        return self.logits.softmax(-1)

    @property
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @property
    def param_shape(self):
        return getattr(self, self._given).shape

    def sample(self, sample_shape=Size()):
        shape = Size(sample_shape)
        n = shape.numel()
        p = self.probs.detach().reshape(-1, self._num_events)
        draws = creation.multinomial(p, n, True)  # (batch, n)
        return draws.T.reshape(tuple(shape) + tuple(self.batch_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = value.to(dtypes.int64).unsqueeze(-1)
        value, log_pmf = broadcast_tensors(value, self.logits)
        return log_pmf.gather(-1, value[..., :1]).squeeze(-1)

    def entropy(self):
        logits = self.logits.clamp(min=float(np.finfo(self.logits.dtype).min))
        return -(logits * self.probs).sum(-1)

    def enumerate_support(self, expand=True):
        v = creation.arange(self._num_events).reshape(
            (self._num_events,) + (1,) * len(self.batch_shape))
        return v.expand((self._num_events,) + tuple(self.batch_shape)) if expand else v

    @property
    def mean(self):
        return creation.full(self._extended_shape(), float("nan"), dtype=self.probs.dtype)

    @property
    def mode(self):
        return self.probs.argmax(-1)

    @property
    def variance(self):
        return self.mean


class _OverCategorical:
    """Parameters read through ``self._categorical``: for distributions built on one
    Categorical draw over the last dim (OneHotCategorical, Multinomial)."""

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def arg_constraints(self):
        return self._categorical.arg_constraints

    @property
    def param_shape(self):
        return self._categorical.param_shape


class OneHotCategorical(_OverCategorical, Distribution):
    """A Categorical draw as a one-hot vector over the last dim."""

    support = constraints.independent(constraints.boolean, 1)
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        self._categorical = Categorical(probs, logits, validate_args)
        self._given = self._categorical._given
        super().__init__(self._categorical.batch_shape,
                         self._categorical.param_shape[-1:], validate_args=validate_args)

    def enumerate_support(self, expand=True):
        """The n one-hot vectors, shaped ``(n,) + batch_shape + (n,)`` (broadcast unless
        ``expand``)."""
        n = self.event_shape[0]
        given = getattr(self._categorical, self._given)
        v = creation.eye(n, dtype=given.dtype).reshape((n,) + (1,) * len(self.batch_shape) + (n,))
        return v.expand((n,) + tuple(self.batch_shape) + (n,)) if expand else v

    def sample(self, sample_shape=Size()):
        idx = self._categorical.sample(sample_shape)
        return F.one_hot(idx, self._categorical._num_events).to(self.probs.dtype)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self._categorical.log_prob(value.argmax(-1))

    def entropy(self):
        return self._categorical.entropy()

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        return F.one_hot(self.probs.argmax(-1), self._categorical._num_events).to(
            self.probs.dtype)

    @property
    def variance(self):
        return self.probs * (1 - self.probs)


__all__ = ["Bernoulli", "Categorical", "OneHotCategorical"]
