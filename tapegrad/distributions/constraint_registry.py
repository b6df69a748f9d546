"""``torch.distributions.constraint_registry``: ``biject_to(c)`` (a bijection from the
reals onto constraint ``c``) and ``transform_to(c)`` (a map onto it, not necessarily
one-to-one), looked up by the constraint's kind, with PyTorch's table."""
from numbers import Number

from . import constraints
from .bijections import (
    CatTransform,
    CorrCholeskyTransform,
    IndependentTransform,
    LowerCholeskyTransform,
    PositiveDefiniteTransform,
    SoftmaxTransform,
    StackTransform,
    StickBreakingTransform,
    identity_transform,
)
from .transforms import AffineTransform, ComposeTransform, ExpTransform, SigmoidTransform


def _kind(constraint):
    """The registry key: bounds share one class here, so they are told apart by name;
    other constraints by class (a class or an instance may be given)."""
    if isinstance(constraint, constraints._Bound):
        return constraint.name
    if constraint in (constraints.greater_than, constraints.greater_than_eq,
                      constraints.less_than, constraints.interval,
                      constraints.half_open_interval):
        return {constraints.greater_than: "GreaterThan",
                constraints.greater_than_eq: "GreaterThanEq",
                constraints.less_than: "LessThan", constraints.interval: "Interval",
                constraints.half_open_interval: "HalfOpenInterval"}[constraint]
    if constraint in (constraints.cat, constraints.stack):
        return constraints._Joined
    return constraint if isinstance(constraint, type) else type(constraint)


class ConstraintRegistry:
    """Constraint kinds to factories of transforms."""

    def __init__(self):
        self._registry = {}

    def register(self, constraint, factory=None):
        if factory is None:
            return lambda factory: self.register(constraint, factory)
        self._registry[_kind(constraint)] = factory
        return factory

    def __call__(self, constraint):
        try:
            factory = self._registry[_kind(constraint)]
        except KeyError:
            raise NotImplementedError(
                f"Cannot transform {type(constraint).__name__} constraints") from None
        return factory(constraint)


biject_to = ConstraintRegistry()
transform_to = ConstraintRegistry()


def _both(*kinds):
    def deco(fn):
        for k in kinds:
            biject_to.register(k, fn)
            transform_to.register(k, fn)
        return fn
    return deco


@_both(constraints.real)
def _to_real(c):
    return identity_transform


@_both(constraints.greater_than, constraints.greater_than_eq)
def _to_greater_than(c):
    return ComposeTransform([ExpTransform(), AffineTransform(c.lower_bound, 1)])


@_both(constraints.less_than)
def _to_less_than(c):
    return ComposeTransform([ExpTransform(), AffineTransform(c.upper_bound, -1)])


@_both(constraints.interval, constraints.half_open_interval)
def _to_interval(c):
    lo, hi = c.lower_bound, c.upper_bound
    if isinstance(lo, Number) and lo == 0 and isinstance(hi, Number) and hi == 1:
        return SigmoidTransform()
    return ComposeTransform([SigmoidTransform(), AffineTransform(lo, hi - lo)])


@_both(constraints.corr_cholesky)
def _to_corr_cholesky(c):
    return CorrCholeskyTransform()


biject_to.register(constraints.independent, lambda c: IndependentTransform(
    biject_to(c.base_constraint), c.reinterpreted_batch_ndims))
transform_to.register(constraints.independent, lambda c: IndependentTransform(
    transform_to(c.base_constraint), c.reinterpreted_batch_ndims))
biject_to.register(constraints.simplex, lambda c: StickBreakingTransform())
transform_to.register(constraints.simplex, lambda c: SoftmaxTransform())
transform_to.register(constraints.lower_cholesky, lambda c: LowerCholeskyTransform())
transform_to.register(constraints.positive_definite, lambda c: PositiveDefiniteTransform())
transform_to.register(constraints.positive_semidefinite,
                      lambda c: PositiveDefiniteTransform())


def _joined(registry):
    def make(c):
        parts = [registry(p) for p in c.cseq]
        return StackTransform(parts, c.dim) if c.stacked else \
            CatTransform(parts, c.dim, c.lengths)
    return make


biject_to.register(constraints.cat, _joined(biject_to))
transform_to.register(constraints.cat, _joined(transform_to))

__all__ = ["ConstraintRegistry", "biject_to", "transform_to"]
