"""``torch.distributions.transforms`` (the elementwise bijections) and
``TransformedDistribution``: a base distribution pushed through transforms, its log_prob by
the change of variables ``log p(y) = log p_base(x) - sum log|dy/dx|``.  PyTorch's formulas
(the clipped sigmoid, the stable tanh and softplus Jacobians)."""
import copy
import math

import numpy as np

from .. import creation
from ..grad_mode import no_grad
from ..nn import functional as F
from ..tensor import Size
from . import constraints
from .distribution import Distribution, sum_rightmost
from .multivariate import Independent

__all__ = ["AbsTransform", "AffineTransform", "ComposeTransform", "ExpTransform",
           "PowerTransform", "SigmoidTransform", "SoftplusTransform", "TanhTransform",
           "Transform", "TransformedDistribution"]


def _same(a, b):
    """Equal parameters (a loc, scale or exponent): numbers by value, else all elements."""
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return bool((a == b).all().item())


def equal_if_a(cls):
    """PyTorch's ``__eq__`` of a transform without parameters: any instance of ``cls``."""
    cls.__eq__ = lambda self, other: isinstance(other, cls)
    cls.__hash__ = None
    return cls


class Transform:
    """An invertible map ``y = t(x)`` with ``t.inv`` and ``log_abs_det_jacobian(x, y)``
    (elementwise: ``event_dim`` 0 unless a subclass says otherwise)."""

    event_dim = 0
    bijective = True
    sign = 1  # of dy/dx, for the monotone elementwise transforms (cdf through them)
    domain = codomain = constraints.real

    _cache_size = 0
    _cached_x_y = (None, None)

    def __eq__(self, other):  # (PyTorch's: identity, unless a subclass compares parameters;
        return self is other  # defining __eq__ leaves its transforms unhashable, as theirs)

    def __init__(self, cache_size=0):
        if cache_size not in (0, 1):
            raise ValueError("cache_size must be 0 or 1")
        self._cache_size = cache_size
        self._cached_x_y = (None, None)

    def __call__(self, x):
        """``t(x)``; with ``cache_size=1`` the last ``(x, y)`` pair is kept, so calling again
        on the same tensor object (or ``t.inv`` on its y) returns the kept one: exact, and
        joined to the graph that made it (atanh(tanh(x)) would round, or overflow)."""
        return self._through_cache(x, 0, self._call)

    def _inv_call(self, y):
        return self._through_cache(y, 1, self._inverse)

    def _through_cache(self, v, side, compute):
        # compute(v), v the pair's x (side 0) or y (side 1), through the kept pair
        if not self._cache_size:
            return compute(v)
        pair = self._cached_x_y
        if v is pair[side]:
            return pair[1 - side]
        w = compute(v)
        self._cached_x_y = (v, w) if side == 0 else (w, v)
        return w

    @property
    def inv(self):
        return _InverseTransform(self)

    def log_abs_det_jacobian(self, x, y):
        raise NotImplementedError

    def with_cache(self, cache_size=1):
        """This transform with ``cache_size`` (itself when it already has it)."""
        if cache_size == self._cache_size:
            return self
        if cache_size not in (0, 1):
            raise ValueError("cache_size must be 0 or 1")
        new = copy.copy(self)
        new._cache_size, new._cached_x_y = cache_size, (None, None)
        return new

    @property
    def _dims(self):
        """(domain event dims, codomain event dims): they differ for transforms between a
        vector and a matrix (CorrCholeskyTransform) or between shapes (ReshapeTransform)."""
        return self.event_dim, self.event_dim

    def forward_shape(self, shape):
        return shape

    def inverse_shape(self, shape):
        return shape

    def __repr__(self):
        return f"{type(self).__name__}()"


class _InverseTransform(Transform):
    def __init__(self, base):
        self._inv = base
        self.event_dim = base.event_dim
        self.domain, self.codomain = base.codomain, base.domain

    @property
    def inv(self):
        return self._inv

    @property
    def _cache_size(self):
        return self._inv._cache_size

    def __call__(self, y):
        return self._inv._inv_call(y)

    def _inv_call(self, x):
        return self._inv(x)

    def with_cache(self, cache_size=1):
        return self._inv.with_cache(cache_size).inv

    def _call(self, y):
        return self._inv._inverse(y)

    def _inverse(self, x):
        return self._inv._call(x)

    def log_abs_det_jacobian(self, x, y):
        return -self._inv.log_abs_det_jacobian(y, x)

    @property
    def _dims(self):
        return self._inv._dims[::-1]

    @property
    def sign(self):
        return self._inv.sign

    def forward_shape(self, shape):
        return self._inv.inverse_shape(shape)

    def inverse_shape(self, shape):
        return self._inv.forward_shape(shape)

    def __repr__(self):
        return f"_InverseTransform({self._inv!r})"

    def __eq__(self, other):
        return isinstance(other, _InverseTransform) and self._inv == other._inv


@equal_if_a
class ExpTransform(Transform):
    codomain = constraints.positive

    def _call(self, x):
        return x.exp()

    def _inverse(self, y):
        return y.log()

    def log_abs_det_jacobian(self, x, y):
        return x


class AffineTransform(Transform):
    """``y = loc + scale * x``; ``event_dim`` dims count as one event."""

    def __init__(self, loc, scale, event_dim=0, cache_size=0):
        super().__init__(cache_size)
        self.loc, self.scale, self.event_dim = loc, scale, event_dim

    @property
    def sign(self):
        s = self.scale
        return s.sign() if hasattr(s, "sign") else (1 if s > 0 else -1 if s < 0 else 0)

    def __eq__(self, other):
        return isinstance(other, AffineTransform) and _same(self.loc, other.loc) and \
            _same(self.scale, other.scale)

    def _call(self, x):
        return self.loc + self.scale * x

    def _inverse(self, y):
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x, y):
        scale = self.scale
        ladj = scale.abs().log() if hasattr(scale, "abs") else \
            x.new_full((), math.log(abs(scale)))
        shape = tuple(x.shape)
        if self.event_dim:
            ladj = ladj.expand(shape) if tuple(ladj.shape) != shape else ladj
            return sum_rightmost(ladj, self.event_dim)
        return ladj.expand(shape)


def _clipped_sigmoid(x):
    info = np.finfo(x.dtype)
    return x.sigmoid().clamp(min=float(info.tiny), max=1.0 - float(info.eps))


@equal_if_a
class SigmoidTransform(Transform):
    codomain = constraints.unit_interval

    def _call(self, x):
        return _clipped_sigmoid(x)

    def _inverse(self, y):
        info = np.finfo(y.dtype)
        y = y.clamp(min=float(info.tiny), max=1.0 - float(info.eps))
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x, y):
        return -F.softplus(-x) - F.softplus(x)


@equal_if_a
class TanhTransform(Transform):
    codomain = constraints.interval(-1.0, 1.0)

    def _call(self, x):
        return x.tanh()

    def _inverse(self, y):
        return y.atanh()

    def log_abs_det_jacobian(self, x, y):
        return 2.0 * (math.log(2.0) - x - F.softplus(-2.0 * x))


@equal_if_a
class SoftplusTransform(Transform):
    codomain = constraints.positive

    def _call(self, x):
        return F.softplus(x)

    def _inverse(self, y):
        return (-y).expm1().neg().log() + y

    def log_abs_det_jacobian(self, x, y):
        return -F.softplus(-x)


class PowerTransform(Transform):
    """``y = x ** exponent`` on the positive reals."""

    domain = codomain = constraints.positive

    def __init__(self, exponent, cache_size=0):
        super().__init__(cache_size)
        self.exponent = exponent

    @property
    def sign(self):
        e = self.exponent
        return e.sign() if hasattr(e, "sign") else (1 if e > 0 else -1 if e < 0 else 0)

    def __eq__(self, other):
        return isinstance(other, PowerTransform) and _same(self.exponent, other.exponent)

    def _call(self, x):
        return x.pow(self.exponent)

    def _inverse(self, y):
        return y.pow(1 / self.exponent)

    def log_abs_det_jacobian(self, x, y):
        return (self.exponent * y / x).abs().log()


@equal_if_a
class AbsTransform(Transform):
    """``y = |x|`` (not a bijection: the inverse is the identity on y)."""

    bijective = False
    codomain = constraints.nonnegative

    def _call(self, x):
        return x.abs()

    def _inverse(self, y):
        return y


class ComposeTransform(Transform):
    """``parts`` applied in order."""

    def __init__(self, parts, cache_size=0):
        super().__init__(cache_size)
        self.parts = [p.with_cache(cache_size) for p in parts] if cache_size else list(parts)
        self.event_dim = self._dims[0]

    def __eq__(self, other):
        return isinstance(other, ComposeTransform) and self.parts == other.parts

    @property
    def _dims(self):
        """PyTorch's rule: each part's event dims, carried through the shape changes."""
        if not self.parts:
            return 0, 0
        dim = self.parts[-1]._dims[1]
        for part in reversed(self.parts):
            d_in, d_out = part._dims
            dim = max(dim + d_in - d_out, d_in)
        into = self.parts[0]._dims[0]
        for part in self.parts:
            d_in, d_out = part._dims
            into = max(into + d_out - d_in, d_out)
        return dim, into

    @property
    def bijective(self):
        return all(p.bijective for p in self.parts)

    @property
    def sign(self):
        sign = 1
        for p in self.parts:
            sign = sign * p.sign
        return sign

    @property
    def domain(self):
        return self.parts[0].domain if self.parts else constraints.real

    @property
    def codomain(self):
        return self.parts[-1].codomain if self.parts else constraints.real

    def forward_shape(self, shape):
        for part in self.parts:
            shape = part.forward_shape(shape)
        return shape

    def inverse_shape(self, shape):
        for part in reversed(self.parts):
            shape = part.inverse_shape(shape)
        return shape

    def _call(self, x):
        for part in self.parts:
            x = part(x)
        return x

    def _inverse(self, y):
        for part in reversed(self.parts):
            y = part.inv(y)
        return y

    def log_abs_det_jacobian(self, x, y):
        if not self.parts:
            return creation.zeros_like(x)  # (x * 0 is -0 at negative x; PyTorch's: zeros)
        total, dim = 0.0, self._dims[0]
        for i, part in enumerate(self.parts):
            y_part = y if i == len(self.parts) - 1 else part(x)  # (cached parts: free)
            d_in, d_out = part._dims
            total = total + sum_rightmost(part.log_abs_det_jacobian(x, y_part), dim - d_in)
            dim += d_out - d_in
            x = y_part
        return total

    def __repr__(self):
        return "ComposeTransform(\n    " + ",\n    ".join(map(repr, self.parts)) + "\n)"


class TransformedDistribution(Distribution):
    """``base_distribution`` pushed through ``transforms`` (one or a list)."""

    arg_constraints = {}

    def __init__(self, base_distribution, transforms, validate_args=None):
        self.transforms = [transforms] if isinstance(transforms, Transform) else \
            list(transforms)
        if not all(isinstance(t, Transform) for t in self.transforms):
            raise ValueError(f"transforms must be a Transform or a list of Transforms, but "
                             f"was {transforms}")
        chain = ComposeTransform(self.transforms)
        d_in, d_out = chain._dims
        base_shape = tuple(base_distribution.batch_shape) + tuple(base_distribution.event_shape)
        if len(base_shape) < d_in:
            raise ValueError(f"base_distribution needs to have shape with size at least "
                             f"{d_in}, but got {Size(base_shape)}.")
        shape = tuple(chain.forward_shape(base_shape))
        more = d_in - len(base_distribution.event_shape)
        if more > 0:  # PyTorch lifts the base's batch dims the transforms read as one event
            base_distribution = Independent(base_distribution, more)
        self.base_dist = base_distribution
        event_dim = d_out + max(len(base_distribution.event_shape) - d_in, 0)
        cut = len(shape) - event_dim
        super().__init__(Size(shape[:cut]), Size(shape[cut:]), validate_args=validate_args)

    @property
    def has_rsample(self):
        return self.base_dist.has_rsample

    @property
    def support(self):
        return self.transforms[-1].codomain if self.transforms else self.base_dist.support

    def rsample(self, sample_shape=Size()):
        x = self.base_dist.rsample(sample_shape)
        for t in self.transforms:
            x = t(x)
        return x

    def expand(self, batch_shape, _instance=None):
        """The base distribution expanded to the batch shape the transforms map onto
        ``batch_shape`` (their inverse shapes), then the generic rule for the rest."""
        new = super().expand(batch_shape, _instance)
        shape = tuple(batch_shape) + tuple(self.event_shape)
        for t in reversed(self.transforms):
            shape = tuple(t.inverse_shape(shape))
        new.base_dist = self.base_dist.expand(shape[:len(shape) -
                                                    len(self.base_dist.event_shape)])
        return new

    def sample(self, sample_shape=Size()):
        with no_grad():
            x = self.base_dist.sample(sample_shape)
            for t in self.transforms:
                x = t(x)
            return x

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        event_dim = len(self.event_shape)
        log_prob = 0.0
        y = value
        for t in reversed(self.transforms):
            x = t.inv(y)
            d_in, d_out = t._dims
            event_dim += d_in - d_out
            log_prob = log_prob - sum_rightmost(t.log_abs_det_jacobian(x, y), event_dim - d_in)
            y = x
        return log_prob + sum_rightmost(self.base_dist.log_prob(y),
                                        event_dim - len(self.base_dist.event_shape))

    def _monotonize_cdf(self, value):
        """A decreasing chain of transforms turns the base's cdf into a survival function."""
        sign = ComposeTransform(self.transforms).sign
        return value if isinstance(sign, int) and sign == 1 else sign * (value - 0.5) + 0.5

    def cdf(self, value):
        for t in reversed(self.transforms):
            value = t.inv(value)
        if self._validate_args:
            self.base_dist._validate_sample(value)
        return self._monotonize_cdf(self.base_dist.cdf(value))

    def icdf(self, value):
        value = self.base_dist.icdf(self._monotonize_cdf(value))
        for t in self.transforms:
            value = t(value)
        return value
