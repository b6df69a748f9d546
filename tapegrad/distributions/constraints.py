"""``torch.distributions.constraints``: where a parameter or a value may lie.  ``check``
returns a bool tensor (per batch element for event constraints)."""
import numpy as np

from ..tensor import Tensor


def _values(v):
    return np.asarray(v.detach()._data if isinstance(v, Tensor) else v)


def _result(ok):
    return Tensor(np.asarray(ok, np.bool_))


class Constraint:
    """A region; ``event_dim`` counts the rightmost dims one check covers."""

    is_discrete = False
    event_dim = 0

    def check(self, value):
        raise NotImplementedError

    def __repr__(self):  # PyTorch's: the class name without its leading underscore
        name = type(self).__name__
        return name.lstrip("_")[:1].upper() + name.lstrip("_")[1:] + "()"


class _Real(Constraint):
    def check(self, value):
        v = _values(value)
        return _result(v == v)  # not nan

    def __repr__(self):
        return "Real()"


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        v = _values(value)
        return _result((v == 0) | (v == 1))


class _Bound(Constraint):
    """A lower and/or upper bound (strict or not), named as PyTorch names it."""

    def __init__(self, name, lower=None, upper=None, lower_strict=False, upper_strict=True,
                 integer=False):
        self.name, self.lower_bound, self.upper_bound = name, lower, upper
        self.lower_strict, self.upper_strict = lower_strict, upper_strict
        self.is_discrete = integer

    def check(self, value):
        v = _values(value)
        ok = np.ones(v.shape, np.bool_)
        if self.is_discrete:
            ok &= v % 1 == 0
        if self.lower_bound is not None:
            ok &= v > self.lower_bound if self.lower_strict else v >= self.lower_bound
        if self.upper_bound is not None:
            ok &= v < self.upper_bound if self.upper_strict else v <= self.upper_bound
        return _result(ok)

    def __repr__(self):
        parts = [f"{k}={v}" for k, v in (("lower_bound", self.lower_bound),
                                          ("upper_bound", self.upper_bound)) if v is not None]
        return f"{self.name}({', '.join(parts)})"


def greater_than(lower_bound):
    return _Bound("GreaterThan", lower_bound, lower_strict=True)


def greater_than_eq(lower_bound):
    return _Bound("GreaterThanEq", lower_bound)


def less_than(upper_bound):
    return _Bound("LessThan", upper=upper_bound)


def interval(lower_bound, upper_bound):
    return _Bound("Interval", lower_bound, upper_bound, upper_strict=False)


def half_open_interval(lower_bound, upper_bound):
    return _Bound("HalfOpenInterval", lower_bound, upper_bound)


def integer_interval(lower_bound, upper_bound):
    return _Bound("IntegerInterval", lower_bound, upper_bound, upper_strict=False, integer=True)


def integer_greater_than(lower_bound):
    return _Bound("IntegerGreaterThan", lower_bound, integer=True)


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value):
        v = _values(value)
        return _result((v >= 0).all(-1) & (np.abs(v.sum(-1) - 1) < 1e-6))


class multinomial(Constraint):  # noqa: N801 (PyTorch's name, as constraints.multinomial(n))
    """Counts: nonnegative, summing to at most ``upper_bound`` over the last dim."""

    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, x):
        v = _values(x)
        return _result((v >= 0).all(-1) & (v.sum(-1) <= self.upper_bound))


class MixtureSameFamilyConstraint(Constraint):
    """A MixtureSameFamily's support: the component's ``base_constraint``, checked with the
    mixture dim put back (left of the event dims) and all of its components holding."""

    def __init__(self, base_constraint):
        if not isinstance(base_constraint, Constraint):
            raise AssertionError(f"base_constraint must be a Constraint, got "
                                 f"{type(base_constraint).__name__}")
        self.base_constraint = base_constraint
        self.is_discrete = base_constraint.is_discrete
        self.event_dim = base_constraint.event_dim

    def check(self, value):
        if value.dim() < self.event_dim:
            raise ValueError(f"Expected value.dim() >= {self.event_dim} but got {value.dim()}")
        ok = _values(self.base_constraint.check(value.unsqueeze(-1 - self.event_dim)))
        keep = value.dim() - self.event_dim
        return _result(ok.reshape(ok.shape[:keep] + (-1,)).all(-1))

    def __repr__(self):
        return f"{type(self).__name__}({self.base_constraint!r})"


class _LowerCholesky(Constraint):
    event_dim = 2

    def check(self, value):
        v = _values(value)
        lower = (np.triu(v, 1) == 0).all((-2, -1))
        return _result(lower & (np.diagonal(v, axis1=-2, axis2=-1) > 0).all(-1))


class _PositiveDefinite(Constraint):
    event_dim = 2

    def check(self, value):
        v = _values(value)
        sym = np.allclose(v, np.swapaxes(v, -1, -2), rtol=1e-6, atol=1e-6)
        with np.errstate(invalid="ignore"):
            ev = np.linalg.eigvalsh(v) if sym else np.zeros(v.shape[:-1])
        return _result(sym & (ev > 0).all(-1))


class _CorrCholesky(_LowerCholesky):
    """Lower Cholesky factors of correlation matrices: each row of unit norm."""

    def check(self, value):
        v = _values(value)
        tol = np.finfo(v.dtype).eps * v.shape[-1] * 10
        unit = (np.abs(np.linalg.norm(v, axis=-1) - 1) <= tol).all(-1)
        return _result(_values(super().check(value)) & unit)


class _LowerTriangular(Constraint):
    event_dim = 2

    def check(self, value):
        v = _values(value)
        return _result((np.triu(v, 1) == 0).all((-2, -1)))


class _Square(Constraint):
    event_dim = 2

    def check(self, value):
        v = _values(value)
        return _result(np.full(v.shape[:-2], v.shape[-1] == v.shape[-2]))


class _Symmetric(_Square):
    def check(self, value):
        v = _values(value)
        if v.shape[-1] != v.shape[-2]:
            return _result(np.zeros(v.shape[:-2], np.bool_))
        return _result(np.isclose(v, np.swapaxes(v, -1, -2), atol=1e-6).all((-2, -1)))


class _PositiveSemidefinite(_Symmetric):
    def check(self, value):
        sym = _values(super().check(value))
        v = _values(value)
        with np.errstate(invalid="ignore"):
            ev = np.linalg.eigvalsh(v) if sym.all() else np.zeros(v.shape[:-1])
        return _result(sym & (ev >= 0).all(-1))


class _OneHot(Constraint):
    is_discrete = True
    event_dim = 1

    def check(self, value):
        v = _values(value)
        return _result(((v == 0) | (v == 1)).all(-1) & (v.sum(-1) == 1))


class _Dependent(Constraint):
    """A placeholder whose region depends on other values (PyTorch's ``dependent``)."""

    def __init__(self, is_discrete=False, event_dim=0):
        self.is_discrete, self.event_dim = is_discrete, event_dim

    def __call__(self, *, is_discrete=False, event_dim=0):
        return _Dependent(is_discrete, event_dim)

    def check(self, value):
        raise ValueError("Cannot determine validity of dependent constraint")


def is_dependent(constraint):
    return isinstance(constraint, _Dependent)


class dependent_property(property):  # noqa: N801 (PyTorch's name)
    """A property that stands for ``dependent`` when read from the class."""

    def __init__(self, fn=None, *, is_discrete=False, event_dim=0):
        super().__init__(fn)
        self.is_discrete, self.event_dim = is_discrete, event_dim


class independent(Constraint):  # noqa: N801 (PyTorch's name)
    """``base`` over ``reinterpreted_batch_ndims`` more rightmost dims (all must hold)."""

    def __init__(self, base_constraint, reinterpreted_batch_ndims):
        self.base_constraint, self.reinterpreted_batch_ndims = base_constraint, \
            reinterpreted_batch_ndims
        self.event_dim = base_constraint.event_dim + reinterpreted_batch_ndims
        self.is_discrete = base_constraint.is_discrete

    def check(self, value):
        ok = _values(self.base_constraint.check(value))
        n = self.reinterpreted_batch_ndims
        return _result(ok.reshape(ok.shape[:ok.ndim - n] + (-1,)).all(-1) if n else ok)

    def __repr__(self):
        return f"IndependentConstraint({self.base_constraint!r}, " \
               f"{self.reinterpreted_batch_ndims})"


class _Joined(Constraint):
    """``cseq[i]`` on the slices of ``dim`` (``cat`` by ``lengths``, or ``stack``)."""

    def __init__(self, cseq, dim=0, lengths=None, stacked=False):
        self.cseq, self.dim, self.stacked = list(cseq), dim, stacked
        self.lengths = list(lengths) if lengths is not None else [1] * len(self.cseq)
        self.event_dim = max(c.event_dim for c in self.cseq)
        self.is_discrete = any(c.is_discrete for c in self.cseq)

    def check(self, value):
        v = _values(value)
        if self.stacked:
            parts = [np.take(v, i, axis=self.dim) for i in range(v.shape[self.dim])]
            return _result(np.stack([_values(c.check(p)) for c, p in
                                     zip(self.cseq, parts, strict=True)], self.dim))
        cuts = np.cumsum(self.lengths)[:-1]
        parts = np.split(v, cuts, axis=self.dim)
        return _result(np.concatenate([_values(c.check(p)) for c, p in
                                       zip(self.cseq, parts, strict=True)], self.dim))

    def __repr__(self):
        return "Stack()" if self.stacked else "Cat()"


def cat(cseq, dim=0, lengths=None):
    return _Joined(cseq, dim, lengths)


def stack(cseq, dim=0):
    return _Joined(cseq, dim, stacked=True)


real = _Real()
real_vector = independent(real, 1)
boolean = _Boolean()
positive = greater_than(0.0)
nonnegative = greater_than_eq(0.0)
unit_interval = interval(0.0, 1.0)
nonnegative_integer = integer_greater_than(0)
positive_integer = integer_greater_than(1)
simplex = _Simplex()
lower_cholesky = _LowerCholesky()
positive_definite = _PositiveDefinite()
corr_cholesky = _CorrCholesky()
lower_triangular = _LowerTriangular()
square = _Square()
symmetric = _Symmetric()
positive_semidefinite = _PositiveSemidefinite()
one_hot = _OneHot()
dependent = _Dependent()

__all__ = ["Constraint", "MixtureSameFamilyConstraint", "boolean", "cat", "corr_cholesky",
           "dependent", "dependent_property", "is_dependent", "lower_triangular", "one_hot",
           "positive_semidefinite", "square", "stack", "symmetric", "greater_than",
           "greater_than_eq", "half_open_interval", "independent", "integer_interval",
           "integer_greater_than", "interval", "less_than", "lower_cholesky", "multinomial",
           "nonnegative", "nonnegative_integer", "positive", "positive_definite",
           "positive_integer", "real", "real_vector", "simplex", "unit_interval"]
