"""``torch._foreach_*``: PyTorch's list-wise ops, which EMA and optimizer code (timm's
ModelEmaV3, diffusion training loops) calls on whole parameter lists.  Each maps its
per-tensor op over the lists; the in-place forms (``_foreach_mul_``) return the list they
were given, the others a tuple, as PyTorch's.

>>> import tapegrad as tg
>>> tg._foreach_add([tg.ones(2), tg.zeros(1)], [1.0, 2.0])
(tensor([2., 2.]), tensor([2.]))
"""
import numbers

from .linalg import vector_norm
from .ops import EXPORTS as _OPS
from .tensor import Tensor

UNARY = ("abs", "acos", "asin", "atan", "ceil", "cos", "cosh", "erf", "erfc", "exp", "expm1",
         "floor", "frac", "lgamma", "log", "log10", "log1p", "log2", "neg", "reciprocal",
         "round", "rsqrt", "sigmoid", "sign", "sin", "sinh", "sqrt", "tan", "tanh", "trunc")
BINARY = ("add", "sub", "mul", "div", "maximum", "minimum", "pow", "clamp_min", "clamp_max")


def _nonempty(tensors):
    if not tensors:
        raise RuntimeError("Tensor list must have at least one tensor.")
    return list(tensors)


def _spread(other, n):
    """``other`` for each of ``n`` tensors: a tensor list, a scalar list, or one scalar or
    0-dim tensor for all."""
    if isinstance(other, (list, tuple)):
        if len(other) != n:
            if other and isinstance(other[0], Tensor):
                raise RuntimeError(f"Tensor lists must have the same number of tensors, got "
                                   f"{n} and {len(other)}")
            raise RuntimeError("Tensor list must have same number of elements as scalar list.")
        return list(other)
    if isinstance(other, Tensor) and other.ndim != 0:
        raise RuntimeError(f"scalar tensor expected to be 0 dim but it has {other.ndim} "
                           f"dimensions and {other.numel()} elements.")
    return [other] * n


def _scalars(values, n):
    """addcmul/addcdiv's ``value``: one number, a list of them, or a 1-D tensor of them."""
    if isinstance(values, Tensor):
        values = values.tolist()
    return _spread(values, n)


def _pair(name, per):
    """The out-of-place and in-place forms of a list-wise op; ``per(t, i, inplace)`` runs it
    on the i-th tensor (the i-th of every other argument bound by the caller)."""
    def out_of_place(self, *args, **kwargs):
        ts = _nonempty(self)
        per_i = per(len(ts), *args, **kwargs)
        return tuple(per_i(t, i, False) for i, t in enumerate(ts))

    def in_place(self, *args, **kwargs):
        ts = _nonempty(self)
        per_i = per(len(ts), *args, **kwargs)
        for i, t in enumerate(ts):
            per_i(t, i, True)
        return self

    out_of_place.__name__, in_place.__name__ = f"_foreach_{name}", f"_foreach_{name}_"
    out_of_place.__doc__ = f"``{name}`` of each tensor of a list (a tuple of the results)."
    in_place.__doc__ = f"``{name}_`` on each tensor of a list, which it returns."
    return out_of_place, in_place


def _method(t, name, inplace):
    return getattr(t, name + "_" if inplace else name)


def _unary(name):
    return lambda n: lambda t, i, inplace: _method(t, name, inplace)()


_BY_NUMBER = {"maximum": "clamp_min", "minimum": "clamp_max"}  # (take no Python number)


def _binary(name):
    def per(n, other, *, alpha=None):
        others = _spread(other, n)
        kw = {} if alpha is None else {"alpha": alpha}

        def run(t, i, inplace):
            op = name if isinstance(others[i], Tensor) else _BY_NUMBER.get(name, name)
            return _method(t, op, inplace)(others[i], **kw)
        return run
    return per


def _lerp(n, tensors1, weight):
    ends, weights = _spread(tensors1, n), _spread(weight, n)
    return lambda t, i, inplace: _method(t, "lerp", inplace)(ends[i], weights[i])


def _addc(name):
    def per(n, tensor1, tensor2, value=1):
        t1, t2, vs = _spread(tensor1, n), _spread(tensor2, n), _scalars(value, n)
        return lambda t, i, inplace: _method(t, name, inplace)(t1[i], t2[i], value=vs[i])
    return per


FUNCTIONS = {}
for _name, _per in ([(u, _unary(u)) for u in UNARY] + [(b, _binary(b)) for b in BINARY]
                    + [("lerp", _lerp), ("addcmul", _addc("addcmul")),
                       ("addcdiv", _addc("addcdiv"))]):
    _out, _in = _pair(_name, _per)
    FUNCTIONS[_out.__name__], FUNCTIONS[_in.__name__] = _out, _in
_pow = FUNCTIONS["_foreach_pow"]


def _foreach_pow(self, exponent):
    """``pow`` of each tensor of a list; a number first raises it to each tensor."""
    if isinstance(self, numbers.Number):
        return tuple(_OPS["pow"](self, t) for t in _nonempty(exponent))
    return _pow(self, exponent)


def _foreach_zero_(self):
    """Zero each tensor of a list, which it returns."""
    for t in _nonempty(self):
        t.zero_()
    return self


def _foreach_copy_(self, src, non_blocking=False):
    """Copy ``src[i]`` into ``self[i]``; returns ``self``."""
    for t, s in zip(_nonempty(self), _spread(src, len(self)), strict=True):
        t.copy_(s)
    return self


def _foreach_clone(self):
    """A clone of each tensor of a list."""
    return tuple(t.clone() for t in _nonempty(self))


def _foreach_norm(self, ord=2, dtype=None):
    """The ``ord``-norm of each tensor of a list (``linalg.vector_norm``)."""
    return tuple(vector_norm(t, ord, dtype=dtype) for t in _nonempty(self))


def _foreach_max(self):
    """The largest element of each tensor of a list."""
    return tuple(t.max() for t in _nonempty(self))


FUNCTIONS.update((f.__name__, f) for f in (
    _foreach_pow, _foreach_zero_, _foreach_copy_, _foreach_clone, _foreach_norm, _foreach_max))
