"""``torch.masked``'s functional reductions: ``sum(x, dim, mask=m)`` & co. reduce only where
``m`` (broadcast to ``x``) is True, each masked-out element standing in as the reduction's
identity (0 for sum, 1 for prod, -inf for amax and softmax...), so it gets no gradient.  A
reduction over no element gives what PyTorch gives: 0 for sum, nan for mean and var, -inf
for amax.  ``MaskedTensor`` itself is not implemented: its constructors raise and say so.

>>> import tapegrad as tg
>>> x = tg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
>>> m = tg.tensor([[True, False, True], [False, True, True]])
>>> tg.masked.sum(x, 1, mask=m).tolist(), tg.masked.mean(x, 1, mask=m).tolist()
([4.0, 11.0], [2.0, 5.5])
"""
import math

from . import linalg
from .nn import functional as F
from .ops import EXPORTS as _OPS
from .tensor import Tensor

where = _OPS["where"]


def _prepared(op, input, mask, dtype):  # noqa: A002 (PyTorch's names)
    """``input`` in ``dtype`` and ``mask`` broadcast to its shape (None: all True)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"masked.{op}: expected input to be a Tensor, got "
                        f"{type(input).__name__}")
    if dtype is not None:
        input = input.to(dtype)
    if mask is None:
        return input, None
    if not isinstance(mask, Tensor) or mask.dtype.kind != "b":
        raise ValueError(f"masked.{op}: expected mask to be a bool Tensor, got "
                         f"{getattr(mask, 'dtype', type(mask).__name__)}")
    try:
        return input, mask.expand(tuple(input.shape))
    except RuntimeError:
        raise ValueError(f"masked.{op}: the mask of shape {tuple(mask.shape)} does not "
                         f"broadcast to the input of shape {tuple(input.shape)}") from None


def _filled(input, mask, fill):  # noqa: A002
    return input if mask is None else where(mask, input, fill)


def _dims(input, dim):  # noqa: A002
    if dim is None:
        return tuple(range(input.ndim))
    return (dim,) if isinstance(dim, int) else tuple(dim)


def _count(input, mask, dims, keepdim):  # noqa: A002
    m = mask if mask is not None else _OPS["ones_like"](input, dtype=bool)
    return m.to(input.dtype).sum(dims, keepdim=keepdim)


def _reduction(name, fill, method):
    """A masked reduction over ``dim`` (None: every dim) filling with ``fill``."""
    def reduce(input, dim=None, *, keepdim=False, dtype=None, mask=None):  # noqa: A002
        x, m = _prepared(name, input, mask, dtype)
        return method(_filled(x, m, fill), _dims(x, dim), keepdim)
    reduce.__name__ = reduce.__qualname__ = name
    reduce.__doc__ = f"``{name}`` over the elements where ``mask`` is True."
    return reduce


sum = _reduction("sum", 0.0, lambda x, d, k: x.sum(d, keepdim=k))  # noqa: A001
amax = _reduction("amax", -math.inf, lambda x, d, k: x.amax(d, keepdim=k))
amin = _reduction("amin", math.inf, lambda x, d, k: x.amin(d, keepdim=k))
logsumexp = _reduction("logsumexp", -math.inf, lambda x, d, k: x.logsumexp(d, keepdim=k))


def _prod(x, dims, keepdim):
    for d in sorted((d % x.ndim for d in dims), reverse=True) if x.ndim else ():
        x = x.prod(d, keepdim=keepdim)
    return x


prod = _reduction("prod", 1.0, _prod)


def mean(input, dim=None, *, keepdim=False, dtype=None, mask=None):  # noqa: A002
    """The mean of the elements where ``mask`` is True (nan where there are none)."""
    x, m = _prepared("mean", input, mask, dtype)
    dims = _dims(x, dim)
    return _filled(x, m, 0.0).sum(dims, keepdim=keepdim) / _count(x, m, dims, keepdim)


def var(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None,  # noqa: A002
        mask=None):
    """The variance of the elements where ``mask`` is True, with Bessel's ``correction``
    (1 unless ``unbiased=False`` or ``correction`` says otherwise)."""
    x, m = _prepared("var", input, mask, dtype)
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    dims = _dims(x, dim)
    n = _count(x, m, dims, True)
    centre = _filled(x, m, 0.0).sum(dims, keepdim=True) / n.clamp(min=1)
    dev = _filled((x - centre) ** 2, m, 0.0).sum(dims, keepdim=keepdim)
    # (as PyTorch: no degrees of freedom left give dev / 0, nan for 0 / 0, else inf)
    return dev / ((n if keepdim else n.squeeze(dims)) - correction).clamp(min=0)


def std(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None,  # noqa: A002
        mask=None):
    """The square root of ``var``."""
    return var(input, dim, unbiased, correction=correction, keepdim=keepdim, dtype=dtype,
               mask=mask).sqrt()


def norm(input, ord=2.0, dim=None, *, keepdim=False, dtype=None, mask=None):  # noqa: A002
    """The vector ``ord``-norm of the elements where ``mask`` is True."""
    x, m = _prepared("norm", input, mask, dtype)
    return linalg.vector_norm(_filled(x, m, 0.0), ord, _dims(x, dim), keepdim)


def _arg(name, fill):
    def arg(input, dim=None, *, keepdim=False, dtype=None, mask=None):  # noqa: A002
        x, m = _prepared(name, input, mask, dtype)
        return getattr(_filled(x, m, fill), name)(dim, keepdim=keepdim)
    arg.__name__ = arg.__qualname__ = name
    arg.__doc__ = f"``{name}`` among the elements where ``mask`` is True."
    return arg


argmax = _arg("argmax", -math.inf)
argmin = _arg("argmin", math.inf)


def median(input, dim=-1, *, keepdim=False, dtype=None, mask=None):  # noqa: A002
    """The (lower) median of the elements where ``mask`` is True, nan where there are none
    (the values only; masked-out elements are read as nan, so a nan inside the mask is
    skipped too)."""
    x, m = _prepared("median", input, mask, dtype)
    return _filled(x, m, math.nan).nanmedian(dim, keepdim=keepdim).values


def _along(name, fill, fn):
    """A masked op along one ``dim`` whose result has the input's shape."""
    def op(input, dim, *, dtype=None, mask=None):  # noqa: A002
        x, m = _prepared(name, input, mask, dtype)
        return fn(_filled(x, m, fill), dim)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``{name}`` along ``dim`` over the elements where ``mask`` is True."
    return op


softmax = _along("softmax", -math.inf, lambda x, d: F.softmax(x, d))
log_softmax = _along("log_softmax", -math.inf, lambda x, d: F.log_softmax(x, d))
softmin = _along("softmin", math.inf, lambda x, d: F.softmin(x, d))
cumsum = _along("cumsum", 0.0, lambda x, d: x.cumsum(d))
cumprod = _along("cumprod", 1.0, lambda x, d: x.cumprod(d))


def normalize(input, ord, dim, *, eps=1e-12, dtype=None, mask=None):  # noqa: A002
    """``input`` over its masked ``ord``-norm along ``dim`` (at least ``eps``); masked-out
    elements become 0."""
    x, m = _prepared("normalize", input, mask, dtype)
    x = _filled(x, m, 0.0)
    return x / linalg.vector_norm(x, ord, dim, True).clamp(min=eps)


def logaddexp(input, other, *, dtype=None, input_mask=None, other_mask=None):  # noqa: A002
    """``log(exp(input) + exp(other))``, each side's masked-out elements counting as -inf."""
    x, mx = _prepared("logaddexp", input, input_mask, dtype)
    y, my = _prepared("logaddexp", other, other_mask, dtype)
    return _OPS["logaddexp"](_filled(x, mx, -math.inf), _filled(y, my, -math.inf))


def _no_masked_tensor(*args, **kwargs):
    raise NotImplementedError(
        "tapegrad.masked: MaskedTensor is not implemented; call the masked reductions with "
        "mask= instead (tapegrad.masked.sum(x, dim, mask=m), mean, amax, softmax...)")


masked_tensor = as_masked_tensor = _no_masked_tensor


class MaskedTensor:
    """Not implemented: constructing one raises (see ``masked_tensor``)."""

    def __new__(cls, *args, **kwargs):
        _no_masked_tensor()


def is_masked_tensor(obj):
    """False: tapegrad has no MaskedTensor."""
    return False


__all__ = ["MaskedTensor", "amax", "amin", "argmax", "argmin", "as_masked_tensor", "cumprod",
           "cumsum", "is_masked_tensor", "log_softmax", "logaddexp", "logsumexp",
           "masked_tensor", "mean", "median", "norm", "normalize", "prod", "softmax",
           "softmin", "std", "sum", "var"]
