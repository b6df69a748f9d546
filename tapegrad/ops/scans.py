"""Scans along a dimension, composed from the primitives: cumprod, cummax and cummin,
logcumsumexp, diff (cumsum is a primitive: reductions.py).

cumprod and logcumsumexp run one step per position along the dim (each step vectorised over
the other dims): their gradients are then exact where a closed form is not (cumprod at zeros:
PyTorch's special case), at a few rows per position.  cummax/cummin pick their values with one
GATHER row at indices computed in NumPy, so the gradient goes to the index, as PyTorch's.
"""
import dataclasses
import math

import numpy as np

from .. import dtypes
from ..return_types import named
from ..tensor import Tensor, _leaf, _wrap_dim, host_values, norm
from . import arithmetic as ar
from . import control as cmp
from . import elementwise as ew
from . import shape as sh
from ._record import named_result, node
from .registry import api
from .spec import Spec
from .spec import lib as _lib

CummaxResult = named("cummax", ("values", "indices"))
CumminResult = named("cummin", ("values", "indices"))


def _tensor(x, op):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(x).__name__}")
    return x


def _steps(input, dim, op, step):
    """``out[0] = x[0]``, ``out[i] = step(out[i-1], x[i])`` along ``dim``."""
    if input.ndim == 0:
        return sh.clone(input)
    d = _wrap_dim(dim, input.ndim, op)
    n = input.shape[d]
    if n == 0:
        return sh.clone(input)
    acc = [sh.select(input, d, 0)]
    for i in range(1, n):
        acc.append(step(acc[-1], sh.select(input, d, i)))
    return sh.stack(acc, d)


@api
@node("CumprodBackward0")
def cumprod(input, dim, *, dtype=None):
    """Cumulative product along ``dim``; its gradient is exact at zeros too.

    >>> import tapegrad as tg
    >>> tg.tensor([1.0, 2.0, 3.0]).cumprod(0).tolist()
    [1.0, 2.0, 6.0]
    """
    _tensor(input, "cumprod")
    if dtype is not None:
        input = sh.to(input, dtypes.to_dtype(dtype))
    elif input.dtype.kind in "bu" or input.dtype == np.int32:
        input = sh.to(input, np.int64)  # PyTorch: integer products accumulate in int64
    return _steps(input, dim, "cumprod", ew.mul)


@api
@node("LogcumsumexpBackward0")
def logcumsumexp(input, dim):
    """``log(cumsum(exp(input)))`` along ``dim``, without overflow (a running logaddexp)."""
    _tensor(input, "logcumsumexp")
    if input.dtype.kind != "f":
        raise NotImplementedError(f"\"logcumsumexp_out_cpu\" not implemented for "
                                  f"'{dtypes.torch_name(input.dtype)}'")
    if input.requires_grad and input.ndim:  # (0-d: the gradient passes, as PyTorch's)
        input = _nan_gradient_at_leading_neg_inf(input, dim)
    return _steps(input, dim, "logcumsumexp", ar.logaddexp)


def _nan_gradient_at_leading_neg_inf(input, dim):
    """``input`` with the same values, and a nan gradient at each ``-inf`` with only ``-inf``
    before it (where the output is ``-inf`` too): PyTorch's closed form of logcumsumexp's
    gradient, ``sum_k g_k exp(x_i - y_k)``, is nan there (``-inf - -inf``), where the running
    logaddexp's would be finite.  ``-sqrt(x * x)`` is ``x`` at ``-inf`` with derivative
    ``2x / (2 * inf)``, nan; elsewhere it gets -1 (a zero adjoint, no 0 * inf)."""
    x = host_values(input, "logcumsumexp", lambda t: cmp.eq(t, -math.inf)) == -np.inf
    x = np.logical_and.accumulate(x, axis=_wrap_dim(dim, x.ndim, "logcumsumexp"))
    if not x.any():
        return input
    lead = Tensor(x)
    s = ew.where(lead, input, -1.0)
    return ew.where(lead, -ew.sqrt(s * s), input)


def _cum_extreme(input, dim, largest):
    op = "cummax" if largest else "cummin"
    _tensor(input, op)
    result = CummaxResult if largest else CumminResult
    x = host_values(input, op)  # (the values decide where each running extreme sits)
    if x.ndim == 0:
        return result(sh.clone(input), _leaf(np.zeros((), np.int64)))
    d = _wrap_dim(dim, x.ndim, op)
    xs = np.moveaxis(x, d, 0)
    idx = np.zeros(xs.shape, np.int64)
    if xs.shape[0]:
        best = xs[0].copy()
        at = np.zeros(xs.shape[1:], np.int64)
        with np.errstate(invalid="ignore"):
            for i in range(1, xs.shape[0]):
                # PyTorch: a tie moves the index to the later element; a NaN, once met, stays
                take = (xs[i] >= best if largest else xs[i] <= best) | np.isnan(xs[i])
                best = np.where(take, xs[i], best)
                at = np.where(take, i, at)
                idx[i] = at
    indices = np.ascontiguousarray(np.moveaxis(idx, 0, d))
    values = named_result(sh.gather(input, d, indices),
                          "CummaxBackward0" if largest else "CumminBackward0", input)
    return result(values, _leaf(norm(indices)))


@api
def cummax(input, dim):
    """Running maximum along ``dim``: the named tuple ``(values, indices)``."""
    return _cum_extreme(input, dim, True)


@api
def cummin(input, dim):
    """Running minimum along ``dim``: the named tuple ``(values, indices)``."""
    return _cum_extreme(input, dim, False)


@api
def diff(input, n=1, dim=-1, prepend=None, append=None):
    """The ``n``-th forward difference along ``dim`` (``prepend``/``append`` joined first)."""
    _tensor(input, "diff")
    if input.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    d = _wrap_dim(dim, input.ndim, "diff")
    parts = [t for t in (prepend, input, append) if t is not None]
    x = sh.cat(parts, d) if len(parts) > 1 else input
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    for _ in range(n):
        m = x.shape[d]
        if m == 0:
            break
        hi, lo = sh.narrow(x, d, 1, m - 1), sh.narrow(x, d, 0, m - 1)
        x = cmp.logical_xor(hi, lo) if x.dtype == np.bool_ else hi - lo
    return x


def _not_0d(x):
    """Random programs skip logcumsumexp of a 0-d value: exactly x here, log(exp(x)) in the
    reference, which differ at tiny x (2e-308) by enough for a later ceil to disagree."""
    if np.ndim(x) == 0:
        raise ValueError("0-d")
    return True


SPECS = [
    Spec("cumprod", lambda x: x.cumprod(-1), lambda np_, x: np_.cumprod(x, -1),
         shapes=((3,), (2, 3)), oracle=False),  # (HIPS autograd: no cumprod VJP)
    Spec("cummax", lambda x: x.cummax(-1)[0], lambda np_, x: np.maximum.accumulate(x, -1),
         shapes=((4,), (2, 3)), oracle=False, replay=False,  # (HIPS autograd: no accumulate)
         notes="its indices are constants of the eager tape (a GATHER row), as sort's"),
    Spec("logcumsumexp", lambda x: x.logcumsumexp(-1),
         lambda np_, x: _not_0d(x) and _logcumsumexp_ref(np_, x, np_.max(x, -1, keepdims=True)),
         shapes=((3,), (2, 3))),
    Spec("diff", lambda x: x.diff(dim=-1), lambda np_, x: x[..., 1:] - x[..., :-1],
         shapes=((3,), (2, 3))),
    Spec("diff_2", lambda x: _lib(x).diff(x, n=2, dim=0), lambda np_, x: x[2:] - 2 * x[1:-1] +
         x[:-2], shapes=((4,), (4, 2))),
]

def _logcumsumexp_ref(np_, x, m):
    # shifted by the max, as the op (log(cumsum(exp(x))) of x = 5e-207 is log(1.0) = 0.0)
    return np_.log(np_.cumsum(np_.exp(x - m), -1)) + m


SPECS = [dataclasses.replace(spec, shapes=spec.shapes[-1:]) for spec in SPECS]  # (one shape:
#                                           a composite's rows are checked by their own rows)
