"""The Distribution base class (``torch.distributions.Distribution``): shapes, argument
validation with PyTorch's messages, ``sample`` as ``rsample`` without gradient.

Draws come from the default generator (``tapegrad.manual_seed`` seeds them); the numbers
differ from PyTorch's, their distribution does not."""
import numpy as np

from .. import creation, dtypes
from ..grad_mode import enable_grad, no_grad
from ..ops import EXPORTS as _OPS
from ..tensor import Size, Tensor
from . import constraints

broadcast_tensors = _OPS["broadcast_tensors"]


def broadcast_all(*values):
    """Tensors (numbers become 0-d tensors of the first tensor's dtype, or the default
    float dtype) broadcast to one shape."""
    like = next((v for v in values if isinstance(v, Tensor)), None)
    dt = like.dtype if like is not None and like.dtype.kind == "f" else dtypes.default_float()
    ts = [v if isinstance(v, Tensor) else creation.tensor(float(v), dtype=dt) for v in values]
    if like is None or any(t.dtype != dt for t in ts):
        ts = [t if t.dtype == dt else t.to(dt) for t in ts]
    return broadcast_tensors(*ts)


def sum_rightmost(value, dim):
    """Sum over the ``dim`` rightmost dims."""
    return value.reshape(tuple(value.shape[:value.ndim - dim]) + (-1,)).sum(-1) if dim else value


def standard_draw(kind, shape, dtype):
    """Draws of ``kind`` ("normal", "uniform", "exponential") from the default generator,
    as a constant tensor of ``shape`` and ``dtype``."""
    g = creation._rng
    data = {"normal": g.standard_normal, "uniform": g.random,
            "exponential": g.standard_exponential}[kind](tuple(shape))
    return creation.tensor(data, dtype=dtype)


def _shape_text(v):
    """A parameter as PyTorch's repr shows it: a number, a one-element tensor, or a shape."""
    if isinstance(v, Tensor) and v.ndim:
        return repr(v) if v.numel() == 1 else repr(Size(v.shape))
    return str(float(v)) if isinstance(v, Tensor) else str(v)


class Distribution:
    """Base class: ``batch_shape``, ``event_shape``, ``sample``/``rsample``, ``log_prob``,
    ``entropy``, ``mean``, ``variance``, ``stddev``, validation of arguments."""

    has_rsample = False
    has_enumerate_support = False
    _validate_default = True  # PyTorch validates unless python -O (set_default_validate_args)
    arg_constraints = {}
    support = None

    @staticmethod
    def set_default_validate_args(value):
        if value not in (True, False):
            raise ValueError
        Distribution._validate_default = value

    def __init__(self, batch_shape=Size(), event_shape=Size(), validate_args=None):
        self._batch_shape = Size(batch_shape)
        self._event_shape = Size(event_shape)
        self._validate_args = self._validate_default if validate_args is None else \
            validate_args
        if self._validate_args:
            for name, c in self.arg_constraints.items():
                value = self.__dict__.get(name)  # the parameters given, as they were given
                if not isinstance(value, Tensor):
                    continue
                ok = c.check(value)
                if not bool(np.all(ok._data)):
                    raise ValueError(
                        f"Expected parameter {name} (Tensor of shape {tuple(value.shape)}) of "
                        f"distribution {self!r} to satisfy the constraint {c!r}, but found "
                        f"invalid values:\n{value}")  # (a 0-d tensor as a number, as PyTorch)

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    def _extended_shape(self, sample_shape=Size()):
        return Size(tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape))

    def sample(self, sample_shape=Size()):
        """Draws of shape ``sample_shape + batch_shape + event_shape``, without gradient."""
        with no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=Size()):
        raise NotImplementedError(f"{type(self).__name__} has no reparameterised sampler "
                                  "(rsample); use sample()")

    def sample_n(self, n):
        return self.sample(Size((n,)))

    def _validate_sample(self, value):
        """PyTorch's checks of a value given to log_prob: a tensor, shapes that broadcast,
        inside the support."""
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        ev = len(self._event_shape)
        if tuple(value.shape[value.ndim - ev:]) != tuple(self._event_shape) and ev:
            raise ValueError(f"The right-most size of value must match event_shape: "
                             f"{Size(value.shape)} vs {self._event_shape}.")
        try:
            np.broadcast_shapes(tuple(value.shape), tuple(self._batch_shape + self._event_shape))
        except ValueError:
            raise ValueError(f"Value is not broadcastable with batch_shape+event_shape: "
                             f"{Size(value.shape)} vs "
                             f"{Size(self._batch_shape + self._event_shape)}.") from None
        ok = self.support.check(value)
        if not bool(np.all(ok._data)):
            raise ValueError(
                f"Expected value argument (Tensor of shape {tuple(value.shape)}) to be within "
                f"the support ({self.support!r}) of the distribution {self!r}, but found "
                f"invalid values:\n{value}")  # (a 0-d tensor as a number, as PyTorch)

    def log_prob(self, value):
        raise NotImplementedError

    def entropy(self):
        raise NotImplementedError

    def cdf(self, value):
        raise NotImplementedError

    def icdf(self, value):
        raise NotImplementedError

    @property
    def mean(self):
        raise NotImplementedError

    @property
    def mode(self):
        raise NotImplementedError(f"{type(self)} does not implement mode")

    @property
    def variance(self):
        raise NotImplementedError

    @property
    def stddev(self):
        return self.variance.sqrt()

    def perplexity(self):
        return self.entropy().exp()

    def enumerate_support(self, expand=True):
        raise NotImplementedError

    # Attributes ``expand`` keeps as they are: factors held unbroadcast on purpose.
    _unexpanded = ("_unbroadcasted_scale_tril", "_unbroadcasted_cov_factor",
                   "_unbroadcasted_cov_diag", "_capacitance_tril")

    def expand(self, batch_shape, _instance=None):
        """The same distribution over the larger ``batch_shape`` (PyTorch's broadcasting
        rules): every parameter whose leading dims are the batch shape is expanded (a view,
        gradients flow back to the original), nested distributions likewise."""
        batch_shape = Size(batch_shape)
        old = tuple(self._batch_shape)
        tail = tuple(batch_shape)[len(batch_shape) - len(old):] if old else ()
        if len(batch_shape) < len(old) or any(o not in (1, n) for o, n in zip(old, tail)):
            raise RuntimeError(
                f"The expanded size of the batch_shape {batch_shape} does not match the "
                f"existing batch_shape {self._batch_shape} of {type(self).__name__}: each "
                f"existing size must equal the new one or be 1")
        new = object.__new__(type(self)) if _instance is None else _instance
        for name, v in self.__dict__.items():
            new.__dict__[name] = v if name in self._unexpanded else \
                self._expand_part(v, old, tuple(batch_shape))
        new._batch_shape = batch_shape
        return new

    def _get_checked_instance(self, cls, _instance=None):
        """PyTorch's helper for a subclass's own ``expand``: a bare instance of the
        subclass to fill in (a subclass of ``cls`` with its own ``__init__`` must define
        its own ``expand``)."""
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(
                f"Subclass {self.__class__.__name__} of {cls.__name__} that defines a custom "
                f"__init__ method must also define a custom .expand() method.")
        return self.__new__(type(self)) if _instance is None else _instance

    @staticmethod
    def _expand_part(v, old, new):
        """``v`` (a tensor or a distribution) with its leading ``old`` dims made ``new``;
        anything whose leading dims are not the batch shape is shared unchanged."""
        if isinstance(v, Tensor) and tuple(v.shape[:len(old)]) == old:
            return v.expand(new + tuple(v.shape[len(old):]))
        if isinstance(v, Distribution) and tuple(v.batch_shape[:len(old)]) == old:
            return v.expand(new + tuple(v.batch_shape[len(old):]))
        return v

    _repr_args = True  # False where PyTorch's class holds its parameters in properties

    def __repr__(self):
        names = [k for k in self.arg_constraints if k in self.__dict__ and self._repr_args]
        args = ", ".join(f"{k}: {_shape_text(self.__dict__[k])}" for k in names)
        return f"{type(self).__name__}({args})"


class Elementwise(Distribution):
    """A distribution whose parameters (named by ``_params``) broadcast to its batch shape."""

    _params = ()

    def _setup(self, values, validate_args):
        for name, v in zip(self._params, broadcast_all(*values), strict=True):
            setattr(self, name, v)
        super().__init__(getattr(self, self._params[0]).shape, validate_args=validate_args)


class lazy_property:  # noqa: N801 (PyTorch's name)
    """A parameter derived from another on first read and then kept in the instance's
    ``__dict__``, as PyTorch's: its repr and argument checks see only the parameters made
    so far (``Categorical(logits: ...)`` until ``probs`` is read)."""

    def __init__(self, fn):
        self.fn = fn
        self.__doc__, self.name = fn.__doc__, fn.__name__

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        d = obj.__dict__
        if self.name not in d:
            with enable_grad():  # (made outside no_grad, as PyTorch's)
                d[self.name] = self.fn(obj)
        return d[self.name]

    def __set__(self, obj, value):
        obj.__dict__[self.name] = value


class ProbsOrLogits:
    """Mixin for a distribution given ``probs`` or ``logits`` (named by ``_given``)."""

    @property
    def param_shape(self):
        return Size(getattr(self, self._given).shape)


class LocatedAt:
    """Mixin: the mean and the mode are the ``loc`` parameter."""

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc


__all__ = ["Distribution", "Elementwise", "LocatedAt", "ProbsOrLogits", "broadcast_all",
           "constraints", "sum_rightmost"]
