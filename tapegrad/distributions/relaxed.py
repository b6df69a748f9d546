"""Relaxed (Concrete / Gumbel-softmax) distributions: RelaxedBernoulli and
RelaxedOneHotCategorical, reparameterised through logistic and Gumbel noise, with their
logit-space bases; OneHotCategoricalStraightThrough; and the ExponentialFamily base class.
PyTorch's formulas in tapegrad ops."""
import math

from .. import autograd, creation
from ..tensor import Size, Tensor
from . import constraints
from .discrete import Bernoulli, Categorical, OneHotCategorical, _clamped
from .distribution import Distribution, broadcast_all, standard_draw
from .transforms import ExpTransform, SigmoidTransform, TransformedDistribution


class ExponentialFamily(Distribution):
    """Base class of densities ``exp(<t(x), theta> - F(theta) + k(x))``: a subclass gives
    ``_natural_params``, ``_log_normalizer`` and ``_mean_carrier_measure``; the entropy
    then follows from the Bregman divergence (the gradient of F)."""

    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        result = -self._mean_carrier_measure
        params = [p.detach().requires_grad_() for p in self._natural_params]
        lg = self._log_normalizer(*params)
        grads = autograd.grad(lg.sum(), params, create_graph=True)
        result = result + lg
        for p, g in zip(params, grads, strict=True):
            result = result - p * g
        return result


class _Relaxed:
    """Parameters read through the underlying Bernoulli / Categorical ``self._base``."""

    # (the temperature is one number for the whole batch: expand shares it)
    _unexpanded = Distribution._unexpanded + ("temperature",)

    @property
    def probs(self):
        return self._base.probs

    @property
    def logits(self):
        return self._base.logits

    @property
    def param_shape(self):
        return self._base.param_shape if hasattr(self._base, "param_shape") else \
            self._base.probs.shape

    def _pushed(self, base, transform, validate_args):
        """Init as ``base`` (a relaxed distribution on logits) pushed through
        ``transform``, with base's parameters."""
        self._base = base._base
        self.temperature = base.temperature
        self.arg_constraints = base.arg_constraints
        TransformedDistribution.__init__(self, base, transform, validate_args=validate_args)


def _temperature(t, like):
    """The temperature as a tensor of the parameters' dtype (PyTorch keeps what it is given
    and needs a tensor for log_prob; a number is accepted here too)."""
    return t if isinstance(t, Tensor) else creation.tensor(float(t), dtype=like.dtype)


def _uniform(shape, dtype):
    return _clamped(standard_draw("uniform", shape, dtype))


class LogitRelaxedBernoulli(_Relaxed, Distribution):
    """The logit of a RelaxedBernoulli draw: ``(logits + logistic noise) / temperature``."""

    support = constraints.real
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        self._base = Bernoulli(probs, logits, validate_args=validate_args)
        self.temperature = _temperature(temperature, self._base.logits)
        self.arg_constraints = self._base.arg_constraints
        super().__init__(self._base.batch_shape, validate_args=False)
        self._validate_args = self._base._validate_args

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        u = _uniform(shape, self.logits.dtype)
        return (u.log() - (-u).log1p() + self.logits) / self.temperature

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        diff = logits - value * self.temperature
        return self.temperature.log() + diff - 2 * diff.exp().log1p()


class RelaxedBernoulli(_Relaxed, TransformedDistribution):
    """A Concrete relaxation of Bernoulli on (0, 1), sharper as ``temperature`` falls;
    ``rsample`` carries gradient to the logits."""

    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        self._pushed(LogitRelaxedBernoulli(temperature, probs, logits, validate_args),
                     SigmoidTransform(), validate_args)


class ExpRelaxedCategorical(_Relaxed, Distribution):
    """The log of a RelaxedOneHotCategorical draw:
    ``log_softmax((logits + Gumbel noise) / temperature)``."""

    support = constraints.real_vector
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        self._base = Categorical(probs, logits, validate_args=validate_args)
        self.temperature = _temperature(temperature, self._base.logits)
        self.arg_constraints = self._base.arg_constraints
        super().__init__(self._base.batch_shape, self._base.param_shape[-1:],
                         validate_args=False)
        self._validate_args = self._base._validate_args

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        gumbels = -(-_uniform(shape, self.logits.dtype).log()).log()
        scores = (self.logits + gumbels) / self.temperature
        return scores - scores.logsumexp(-1, keepdim=True)

    def log_prob(self, value):
        k = self._base._num_events
        if self._validate_args:
            self._validate_sample(value)
        t = self.temperature
        log_scale = math.lgamma(k) + (k - 1) * t.log()
        logits, value = broadcast_all(self.logits, value)
        score = logits - value * t
        return (score - score.logsumexp(-1, keepdim=True)).sum(-1) + log_scale


class RelaxedOneHotCategorical(_Relaxed, TransformedDistribution):
    """The Concrete / Gumbel-softmax relaxation of OneHotCategorical on the simplex;
    ``rsample`` carries gradient to the logits."""

    support = constraints.simplex
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        self._pushed(ExpRelaxedCategorical(temperature, probs, logits, validate_args),
                     ExpTransform(), validate_args)


class OneHotCategoricalStraightThrough(OneHotCategorical):
    """OneHotCategorical whose ``rsample`` is the one-hot draw plus ``probs - probs.detach()``:
    the straight-through gradient estimator."""

    has_rsample = True

    def rsample(self, sample_shape=Size()):
        draw = self.sample(sample_shape)
        p = self._categorical.probs
        return draw + (p - p.detach())

    def __repr__(self):
        return f"OneHotCategoricalStraightThrough({self._given}: " \
               f"{Size(getattr(self, self._given).shape)!r})"


__all__ = ["ExpRelaxedCategorical", "ExponentialFamily", "LogitRelaxedBernoulli",
           "OneHotCategoricalStraightThrough", "RelaxedBernoulli", "RelaxedOneHotCategorical"]
