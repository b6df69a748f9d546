"""Elementwise composites with PyTorch's names: remainder and fmod, trunc and frac, lerp and
addcmul, hypot, logaddexp, xlogy, sinc, logit, nan_to_num, fmax... Each is written from the
primitives (elementwise.py, control.py), so it has gradients, create_graph, float32 and
replay with no rule of its own; PyTorch's conventions at the edges (its gradients at ties,
zeros and infinities) are kept by where-masks, with the masked branch fed a safe value so no
0 * inf reaches a gradient.  Conditions are tapegrad comparisons: a traced function
records them, and replay follows them at every point.
"""
import dataclasses
import math

import numpy as np

from .. import dtypes
from .._fp import fma, product_error, quiet
from .._state import state
from ..tensor import EagerOnlyError, Tensor, _leaf, host_values, norm
from . import control as cmp
from . import elementwise as ew
from . import shape as sh
from ._record import by_operand, named_result, no_derivative, node
from .registry import api
from .spec import Spec
from .spec import lib as _lib
from .strided import broadcast_error


def _tensor(x, op, pos=1, name="input"):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument '{name}' (position {pos}) must be Tensor, not "
                        f"{type(x).__name__}")
    return x


def refuse(kernel, dt, kinds="b"):
    """PyTorch's refusal of a dtype its CPU kernel lacks: ``dt``, the operands' common dtype,
    of a kind in ``kinds`` ("b": bool; "biu": integers too).  Called on integer paths only."""
    if dt.kind in kinds:
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{dtypes.torch_name(dt)}'")


def _float_pair(input, other, op):
    """Both operands tensors, of a floating common dtype (PyTorch's kernel ``op_cpu`` has no
    integer one); that dtype."""
    _tensor(input, op)
    _tensor(other, op, 2, "other")
    dt = dtypes.result_type(_kind(input), _kind(other))
    refuse(f"{op}_cpu", dt, "biu")
    return dt


def _kind(x):
    """(dtype, ndim) of an operand, ndim None for a Python number (dtypes.result_type)."""
    if isinstance(x, Tensor):
        return x.dtype, x.ndim
    if isinstance(x, (bool, np.bool_)):
        return dtypes.bool, None
    if isinstance(x, (int, np.integer)):
        return dtypes.int64, None
    return dtypes.float64, None


def _data(x, dt, op=None):
    """x's values in dtype dt; with ``op``, read outside the tape (NumPy computes op's
    result: ``host_values``)."""
    if op is not None:
        return host_values(x, op).astype(dt, copy=False)
    return np.asarray(x._data if isinstance(x, Tensor) else x, dtype=dt)


def _signs(t):
    """-1, 0, 1 by sign and 2 at NaN (while tracing: what decides heaviside)."""
    nan = cmp.isnan(t)
    sign = sh.to(cmp.gt(t, 0.0), np.float64) - sh.to(cmp.lt(t, 0.0), np.float64)
    return ew.where(nan, 2.0, sign)


def _records(*xs):
    return state.grad_enabled and any(isinstance(x, Tensor) and x._rg for x in xs)


def _as_tensor(x, like):
    """A number as a 0-d tensor of ``like``'s float dtype (a Tensor passes as it is)."""
    if isinstance(x, Tensor):
        return x
    dt = like.dtype if isinstance(like, Tensor) and like.dtype.kind == "f" else None
    return Tensor(float(x), dtype=dt)


# ---- remainder, fmod, floor_divide: values from NumPy, gradients from the composite ------
def _exactly(composite, value):
    """``composite`` (recorded) carrying the exactly rounded ``value``: x - floor(x / y) * y
    rounds twice where NumPy's remainder is exact, so the difference is added as a constant,
    and the rows still follow a replay of the tape at new inputs (within an ulp or two).
    A sum rounds a zero to +0.0, so where ``value`` is -0.0, ``-(-c - d)`` gives it.  While
    tracing the composite alone stands (a constant would not follow replay)."""
    if state.tracing is not None:
        return composite
    c = np.asarray(composite._data)
    value = np.asarray(value, dtype=c.dtype)
    if _same(c, value):
        return composite
    with quiet():
        d = value - c
    d = Tensor(np.where(np.isnan(d), 0.0, d).astype(c.dtype))  # (non-finite: the composite's)
    out = ew.add(composite, d)
    negative_zero = (value == 0) & np.signbit(value)
    if negative_zero.any():
        out = ew.where(Tensor(negative_zero), ew.neg(ew.sub(ew.neg(composite), d)), out)
    return out


def _same(a, b):
    """The same values, NaNs and signs of zero.  Equal bytes are the common case (the
    composite rounded as the exact value: add_'s alpha, lerp), tested first: a tenth of
    the comparisons' cost on small arrays; other bytes may still be the same (NaN payloads)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes():
        return True
    return np.array_equal(a, b, equal_nan=True) and np.array_equal(np.signbit(a), np.signbit(b))


def _rounded(value, inputs, composite):
    """The recorded result of a rounding of ``inputs`` (floor division, trunc), whose
    gradient is zero: ``composite()``'s rows behind a stop-gradient (they replay) plus
    a -0.0 term of each input, so each input gets an exact zero gradient (the composite's
    own rules would meet 0 * inf at a zero divisor), and showing exactly ``value`` (its
    signs of zero and NaNs too): where the rows' values differ, a WHERE row takes ``value``
    as a constant, as ``_exactly`` does (not while tracing: there the rows must be exact)."""
    y = zero_gradient_to(cmp.stopped(composite()), *inputs)
    c = np.asarray(y._data)
    if state.tracing is not None or _same(c, value):
        return y
    return ew.where(Tensor(np.ones(c.shape, bool)), Tensor(np.asarray(value, c.dtype)), y)


def _same_each(a, b):
    """Elementwise ``_same``: equal values, NaN with NaN, and the same sign."""
    return ((a == b) | (np.isnan(a) & np.isnan(b))) & (np.signbit(a) == np.signbit(b))


def zero_gradient_to(y, *inputs):
    """``y`` with a zero gradient to each input that requires grad (PyTorch's, where its rule
    gives an input zeros rather than None): a constant zero under create_graph too, as
    PyTorch's (trunc's does not require grad).  A WHERE row that always takes ``y`` (its
    values exactly) with ``sign(t)`` as the other side: sign's gradient is new zeros,
    whatever reaches it.  (``y`` has the inputs' broadcast shape.)"""
    for t in inputs:
        if isinstance(t, Tensor) and t._rg:
            y = ew.where(_ALWAYS, y, ew.sign(t))
    return y


_ALWAYS = Tensor(True)


def negative_zero(t):
    """-0.0 with a zero gradient to ``t``: added to any value it leaves it as it is (a zero's
    sign and infinities too; ``0 * t`` made trunc(-0.3) 0.0 and trunc(inf) NaN in replay)."""
    z = ew.mul(ew.where(cmp.isfinite(t), t, 0.0), 0.0)
    return ew.neg(ew.mul(z, z))


# ---- the same while traced: rows whose values are NumPy's exactly at every point ----------
# x - floor(x / y) * y is off by y, not by an ulp, where x / y rounds up to an integer (2.0
# % 0.4 is 0.3999..., the composite's 0.0): a constant fixing the traced point would not
# follow replay, so a traced fmod is computed exactly in rows, from the quotient n =
# trunc(x / y), one too far from zero there, and x - n * y formed without rounding
# (Dekker's product).  That holds for quotients below 2**52 and divisors whose products
# neither overflow nor lose bits to underflow: a guard asks for those
_EXACT = (2.0 ** 52, 2.0 ** -960, 2.0 ** 990)  # |quotient| below, |divisor| within


def _residual(x, n, y):
    """``x - n * y`` rounded once: n * y = p + e exactly (Dekker), x - p exact near x."""
    p = n * y
    return (x - p) - product_error(n, y, p)


def _mask(c):
    return sh.to(c, np.float64)


def _where_off(r, s):
    """1.0 where ``r`` is nonzero and its sign is not ``s``'s, else 0.0."""
    return _mask(cmp.ne(r, 0.0)) * _mask(cmp.ne(cmp.lt(r, 0.0), cmp.lt(s, 0.0)))


def _traced_fmod(x, y):
    """C's fmod of float64 ``x`` and ``y`` as rows (their values only: no gradient), exact
    wherever the guard recorded here holds, as it must at the traced point; and trunc(x / y)
    (PyTorch's quotient in fmod's gradient)."""
    x, y = cmp.stopped(x), cmp.stopped(y)
    q = ew.div(x, y)
    n0 = ew.sign(q) * ew.floor(ew.abs(q))
    n = n0 - _where_off(_residual(x, n0, y), x) * ew.sign(n0)
    r = ew.where(cmp.eq(n, 0.0), x, _residual(x, n, y))  # (|x| < |y|: x, even over inf)
    r = ew.where(cmp.eq(r, 0.0), x * 0.0, r)  # (a zero in x's sign: -3.2 fmod 0.1 is -0.0)
    ay = ew.abs(y)
    # finite x over a finite nonzero y, quotient not 0 (logical and/or of traced masks do not
    # record: products and sums of 0/1 floats; an overflowed quotient is out of range)
    inexact = _mask(cmp.isfinite(x)) * _mask(cmp.isfinite(y)) * _mask(cmp.ne(y, 0.0)) * (
        _mask(cmp.ne(n, 0.0))) * (
        1.0 - _mask(cmp.lt(ew.abs(n), _EXACT[0])) * _mask(cmp.ge(ay, _EXACT[1])) *
        _mask(cmp.le(ay, _EXACT[2])))
    ok = cmp.eq(inexact.sum(), 0.0)
    if not bool(np.asarray(ok._data)):
        raise EagerOnlyError("tapegrad.trace: fmod/remainder/floor_divide of a traced tensor "
                             "at a quotient of 2**52 or more, or a divisor beyond 2**990 or "
                             "below 2**-960, cannot be replayed exactly: call f eagerly there "
                             "(tapegrad.compile(f) called with tensors does)")
    cmp.guard(ok, "bool")
    return r, n0


def _traced_floor_div(x, y, mod=None):
    """PyTorch's floor division (``_floor_div``) as rows, from the exact fmod ``mod``."""
    if mod is None:
        mod = _traced_fmod(x, y)[0]
    x, y = cmp.stopped(x), cmp.stopped(y)
    div = ew.div(x - mod, y)
    div = div - _where_off(mod, y)
    fl = ew.floor(div)
    fl = fl + _mask(cmp.gt(div - fl, 0.5))
    q = ew.div(x, y)
    return ew.where(cmp.eq(y, 0.0), q, ew.where(cmp.ne(div, 0.0), fl, q * 0.0))


def _traced_divmod(x, y, floor):
    """fmod (``floor``: remainder) of traced ``x`` and ``y``: the exact rows' value, plus
    zero-valued terms that carry PyTorch's gradient, 1 for x and minus the quotient q for y
    (trunc(x / y) for fmod, floor division's for remainder).  Each is -0.0, which adds to
    any value, a zero's sign included, without changing it.  Where q * y is not finite
    (a zero or infinite divisor, an infinite x) ``x - q * y`` is the value, as eagerly."""
    r, q = _traced_fmod(x, y)
    if floor:  # (the floor quotient from the fmod, then the fmod into y's sign)
        q = _traced_floor_div(x, y, r)
        ys = cmp.stopped(y)
        r = ew.where(cmp.ne(_where_off(r, ys), 0.0), r + ys, r)
    qy = q * y
    finite = cmp.isfinite(qy)
    fy = ew.where(finite, q, 0.0) * y  # (each branch's rule meets no inf times a zero adjoint)
    exact = r + -(cmp.stopped(x) - x) + ew.where(finite, -(fy - cmp.stopped(fy)), -0.0)
    zero = cmp.eq(q, 0.0)  # (0 * inf is NaN: x % inf is x)
    return ew.where(cmp.ne(_mask(finite) + _mask(zero), 0.0), exact,
                    x - ew.where(zero, 0.0, qy))


def _divmod_op(name, npfn, quotient):
    def fn(input, other):
        if not isinstance(input, Tensor) and not isinstance(other, Tensor):
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                            f"{type(input).__name__}")
        rd = dtypes.result_type(_kind(input), _kind(other))
        cmp.broadcast_shape(name, getattr(input, "shape", ()), getattr(other, "shape", ()))
        if rd.kind in "iub":  # integers: NumPy's, no row (rows would compute in float64)
            refuse(f"{name}_cpu", rd)
            a, b = _data(input, rd, name), _data(other, rd, name)
            if (b == 0).any():
                raise RuntimeError("ZeroDivisionError")
            return _leaf(norm(np.asarray(npfn(a, b), dtype=rd)))
        a, b = _data(input, rd), _data(other, rd)
        with quiet():
            value = npfn(a, b)
        if not _records(input, other):
            return _leaf(norm(np.asarray(value, dtype=rd)))
        x, y = _as_tensor(input, other), _as_tensor(other, input)
        if state.tracing is not None:
            return named_result(_traced_divmod(x, y, npfn is _remainder),
                                f"{name.capitalize()}Backward{int(isinstance(other, Tensor))}",
                                input, other)
        # the quotient takes no gradient (PyTorch's: 1 for x, -quotient for y) and passes
        # none back: behind a stop-gradient row, its x / y row is not swept (a zero adjoint
        # would meet 0 / 0 at y == 0 there), yet replays
        q = quotient(x / y)
        if npfn is _remainder:  # PyTorch's floor division of an infinity is nan
            q = ew.where(cmp.isinf(x), math.nan, q)
        # y's gradient is -q with q PyTorch's floor (trunc) division's value, where the
        # rows' floor(x / y) differs: -1.5 // inf is -1 (floor(-0.0) is -0.0), 1 // 0.1 is
        # 9 (floor(10.0) is 10); a constant there, as _rounded's (not while tracing)
        with quiet():
            exact = _floor_div(a, b) if npfn is _remainder else np.trunc(a / b)
        if state.tracing is None and not _same(np.asarray(q._data), exact):
            q = ew.where(Tensor(np.ones(exact.shape, bool)), Tensor(exact.astype(rd)), q)
        # a zero quotient times an infinite divisor is NaN: 0 there (5 % inf is 5), and y's
        # gradient, -q, is 0 there all the same
        qy = cmp.stopped(q) * y
        zero_q = np.asarray(q._data) == 0
        if (zero_q & np.isinf(np.asarray(y._data))).any():
            qy = ew.where(Tensor(zero_q), 0.0, qy)
        out = _exactly(x - qy, value)
        # (PyTorch's nodes: FmodBackward0 for a number divisor, FmodBackward1 for a tensor)
        return named_result(out, f"{name.capitalize()}Backward{int(isinstance(other, Tensor))}",
                            input, other)
    fn.__name__ = name
    return fn


def _remainder(a, b):
    """PyTorch's remainder: C's fmod moved into the divisor's sign when nonzero, so that an
    exact zero keeps the dividend's sign (-2.0 % 2 is -0.0; NumPy's is 0.0)."""
    m = np.fmod(a, b)
    return np.where((m != 0) & ((b < 0) != (m < 0)), m + b, m)


remainder = api(_divmod_op("remainder", _remainder, ew.floor))
remainder.__doc__ = ("``input - floor(input / other) * other``: the sign of ``other``, as "
                     "Python's ``%``.\n\n    >>> import tapegrad as tg\n    >>> "
                     "tg.remainder(tg.tensor([5.0, -5.0]), 3).tolist()\n    [2.0, 1.0]\n    ")
fmod = api(_divmod_op("fmod", np.fmod, lambda q: trunc(q)))
fmod.__doc__ = "``input - trunc(input / other) * other``: the sign of ``input``, as C's fmod."


@api
def floor_divide(input, other):
    """``floor(input / other)`` (integers stay integers), ``x // y``: as PyTorch's, with no
    derivative (its node ``NotImplemented``, whose backward raises); ``torch.div(...,
    rounding_mode="floor")``, which has one (zero), is ``floor_quotient``.  While tracing
    the zero-gradient composite is recorded, noted as eager's refusal at backward."""
    try:
        q = floor_quotient(input, other)
    except ValueError:  # (NumPy's broadcast error: PyTorch's words)
        broadcast_error("floor_divide", (input, other))
        raise
    if q._tok is None:
        return q
    return no_derivative("floor_divide", q if state.tracing is not None else q._data, input,
                         other)


def floor_quotient(input, other):
    """``floor(input / other)`` (integers stay integers); its gradient is zero."""
    rd = dtypes.result_type(_kind(input), _kind(other))
    if rd.kind in "iub":  # (integers: NumPy's, no row)
        refuse("div_floor_cpu", rd)
        a, b = _data(input, rd, "floor_divide"), _data(other, rd, "floor_divide")
        if (b == 0).any():
            raise RuntimeError("ZeroDivisionError")
        return _leaf(norm(np.floor_divide(a, b)))
    value = _floor_div(_data(input, rd), _data(other, rd)).astype(rd, copy=False)
    if not _records(input, other):
        return _leaf(norm(value))
    if state.tracing is not None:
        return _rounded(value, (input, other),
                        lambda: _traced_floor_div(_as_tensor(input, other),
                                                  _as_tensor(other, input)))
    return _rounded(value, (input, other),
                    lambda: ew.floor(ew.div(_as_tensor(input, other), other)))


def div_trunc(input, other):
    """``trunc(input / other)`` of floats (``torch.div(..., rounding_mode="trunc")``)."""
    rd = dtypes.result_type(_kind(input), _kind(other))
    with quiet():
        value = np.trunc(np.true_divide(_data(input, rd), _data(other, rd))).astype(rd)
    if not _records(input, other):
        return _leaf(norm(value))
    return _rounded(value, (input, other),
                    lambda: trunc(ew.div(_as_tensor(input, other), other)))


def _floor_div(a, b):
    """PyTorch's floor division of floats: from the quotient ``(a - fmod(a, b)) / b``, exact
    where ``floor(a / b)`` rounds up (1 // 0.1 is 9, as in Python), and finite over an
    infinite divisor (-5.5 // inf is -1)."""
    with quiet():
        mod = np.fmod(a, b)
        div = (a - mod) / b
        div = div - ((mod != 0) & ((b < 0) != (mod < 0)))
        fl = np.floor(div)
        fl = fl + (div - fl > 0.5)
        return np.where(b == 0, a / b, np.where(div != 0, fl, np.copysign(0.0, a / b)))


def _rremainder(input, other):
    return remainder(other, input)


def _rfloor_divide(input, other):
    return floor_divide(other, input)


@api
def trunc(input):
    """Round toward zero (``floor`` above 0, ``ceil`` below); zero gradient."""
    _tensor(input, "trunc")
    if input.dtype.kind != "f":
        refuse("trunc_vml_cpu", input.dtype)
        return sh.clone(input)
    value = np.trunc(_data(input, input.dtype))
    if not _records(input):
        return _leaf(norm(value))
    if state.tracing is not None:  # (below 1 in size, a zero of input's sign: a mask
        # that records while tracing; eagerly a mask is a constant of this point, which the
        # rows must not hold, and _rounded's WHERE gives the signed zeros)
        y = _rounded(value, (input,),
                     lambda: ew.where(cmp.lt(ew.abs(input), 1.0), ew.mul(input, 0.0),
                                      ew.sign(input) * ew.floor(ew.abs(input))))
    else:
        y = _rounded(value, (input,), lambda: ew.sign(input) * ew.floor(ew.abs(input)))
    return named_result(y, "TruncBackward0", input)


fix = api(trunc, name="fix")


@api
@node("FracBackward0")
def frac(input):
    """``input - trunc(input)``, the sign of input; gradient 1."""
    refuse("frac_cpu", _tensor(input, "frac").dtype, "biu")
    return ew.sub(input, trunc(input))


@api
def float_power(input, exponent):
    """``input ** exponent`` computed in float64 (the result is float64)."""
    x = sh.to(input, np.float64) if isinstance(input, Tensor) else float(input)
    e = sh.to(exponent, np.float64) if isinstance(exponent, Tensor) else float(exponent)
    if not isinstance(x, Tensor):
        return ew.rpow(e, x)
    return ew.pow(x, e)


@api
def heaviside(input, values):
    """0 below zero, 1 above, ``values`` at zero: PyTorch's has no derivative (its result
    requires grad, and backward raises)."""
    _tensor(input, "heaviside")
    _tensor(values, "heaviside", 2, "values")
    if input.dtype != values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different "
                           "dtypes.")
    with quiet():  # (input's signs and NaNs decide each element: what is guarded)
        try:
            v = np.heaviside(host_values(input, "heaviside", decides=_signs),
                             host_values(values, "heaviside"))
        except ValueError:  # (NumPy's broadcast error: PyTorch's words)
            broadcast_error("heaviside", (input, values))
            raise
    return no_derivative("heaviside", norm(v.astype(input.dtype)), input, values)


# ---- nan_to_num, fmax, fmin ----------------------------------------------------------------
@api
@node("NanToNumBackward0")
def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """NaN, +inf and -inf replaced by ``nan``, ``posinf`` and ``neginf`` (default: the
    dtype's largest and lowest finite values); gradient 1 at finite values, 0 elsewhere.

    >>> import tapegrad as tg
    >>> tg.nan_to_num(tg.tensor([float('nan'), 1.0]), nan=-1.0).tolist()
    [-1.0, 1.0]
    """
    _tensor(input, "nan_to_num")
    if input.dtype.kind != "f":
        return sh.clone(input)
    info = np.finfo(input.dtype)
    hi = info.max if posinf is None else posinf
    lo = info.min if neginf is None else neginf
    if state.tracing is not None:  # the fill follows each point's NaN and sign pattern
        fill = ew.where(cmp.isnan(input), nan, ew.where(cmp.gt(input, 0.0), hi, lo))
        return ew.where(cmp.isfinite(input), input, sh.to(fill, input.dtype))
    d = np.asarray(input._data)
    with quiet():
        fill = np.where(np.isnan(d), nan, np.where(d > 0, hi, lo)).astype(input.dtype)
    return ew.where(cmp.isfinite(input), input, Tensor(fill))


def _nan_max_op(name, npfn, ge):
    def fn(input, other):
        _tensor(input, name)
        _tensor(other, name, 2, "other")
        # PyTorch's gradient: to input where input >= other (ties included) or other is nan
        # (nested wheres, not logical_or: a traced function records comparisons only)
        return ew.where(cmp.isnan(other), input, ew.where(ge(input, other), input, other))
    fn.__name__ = name
    fn.__doc__ = f"Elementwise {name[1:]} that ignores NaN (NaN only where both are NaN)."
    return api(node(f"F{name[1:]}Backward0")(fn))


fmax = _nan_max_op("fmax", np.fmax, cmp.ge)
fmin = _nan_max_op("fmin", np.fmin, cmp.le)


# ---- hypot, logaddexp, logaddexp2 ----------------------------------------------------------
@api
@node("HypotBackward0", broadcast_error)
def hypot(input, other):
    """``sqrt(input^2 + other^2)`` without overflow (both scaled by the larger magnitude, a
    constant: the derivative of the identity holds for any scale)."""
    dt = _float_pair(input, other, "hypot")
    with quiet():
        m = np.maximum(np.abs(np.asarray(input._data)), np.abs(np.asarray(other._data)))
        m = np.where(np.isfinite(m) & (m > 0), m, 1.0)
    s = Tensor(m.astype(dt))
    return ew.sqrt(ew.square(input / s) + ew.square(other / s)) * s


def _logaddexp(a, b, log1p_exp):
    # max + log1p(exp(-|a - b|)); where both are the same infinity, that infinity (a - b is
    # nan there). PyTorch's gradients: 1/2 each at finite ties, nan at infinite ones
    r = ew.maximum(a, b) + log1p_exp(-ew.abs(a - b))
    return ew.where(cmp.isinf(a), ew.where(cmp.eq(a, b), a, r), r)


@api
@node("LogaddexpBackward0")
def logaddexp(input, other):
    """``log(exp(input) + exp(other))`` without overflow."""
    _float_pair(input, other, "logaddexp")
    return _logaddexp(input, other, lambda t: ew.log1p(ew.exp(t)))


@api
@node("Logaddexp2Backward0")
def logaddexp2(input, other):
    """The base-2 logarithm of ``2^input + 2^other``, without overflow."""
    _float_pair(input, other, "logaddexp2")
    return _logaddexp(input, other,
                      lambda t: ew.log1p(ew.rpow(t, 2.0)) * (1.0 / math.log(2.0)))


# ---- xlogy, xlog1py, sinc, logit, exp2 -------------------------------------------------------
def _xlog(name, node, log, pole):
    def fn(input, other):
        if not isinstance(input, Tensor) and not isinstance(other, Tensor):
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                            f"{type(input).__name__}")
        x, y = _as_tensor(input, other), _as_tensor(other, input)
        # x * log(y), and 0 where x == 0 unless y is nan; PyTorch's gradient in x there is 0
        # for y at or below the pole, log(y) above it, and x / y (nan at 0/0) in y
        ly = log(y)
        out = x * ew.where(cmp.eq(x, 0.0), ew.where(cmp.le(y, pole), 0.0, ly), ly)
        overload = 0 if isinstance(input, Tensor) and isinstance(other, Tensor) else \
            1 if isinstance(other, Tensor) else 2  # (PyTorch's numbering of the overloads)
        return named_result(out, f"{node}{overload}", input, other)
    fn.__name__ = name
    return fn


xlogy = api(_xlog("xlogy", "XlogyBackward", ew.log, 0.0))
xlogy.__doc__ = "``input * log(other)``, 0 where input is 0 (unless other is nan)."
xlog1py = api(_xlog("xlog1py", "SpecialXlog1PyBackward", ew.log1p, -1.0), method=False,
              export=False)
xlog1py.__doc__ = "``input * log1p(other)``, 0 where input is 0 (unless other is nan)."


@api
@node("SincBackward0")
def sinc(input):
    """The normalised sinc ``sin(pi x) / (pi x)``, 1 at 0 (gradient 0 there)."""
    _tensor(input, "sinc")
    x = input if input.dtype.kind == "f" else sh.to(input, dtypes.get_default_dtype())
    zero = cmp.eq(x, 0.0)
    px = ew.where(zero, 1.0, x) * math.pi
    return ew.where(zero, 1.0, ew.sin(px) / px)


@api
@node("LogitBackward0")
def logit(input, eps=None):
    """``log(p / (1 - p))``, with ``p`` clamped to ``[eps, 1 - eps]`` when eps is given
    (gradient 0 outside)."""
    _tensor(input, "logit")
    if input.dtype.kind in "biu":  # (PyTorch computes in the default float dtype)
        input = sh.to(input, dtypes.get_default_dtype())
    x = input if eps is None else ew.clamp(input, eps, 1.0 - eps)
    # at 0 and 1: -inf and inf, and PyTorch's gradient inf (log(x / (1 - x)) gives 0 * inf)
    one, zero = cmp.eq(x, 1.0), cmp.eq(x, 0.0)
    safe = ew.where(one, 0.5, ew.where(zero, 0.5, x))
    inner = ew.where(zero, ew.log(x), ew.log(safe / (1.0 - safe)))
    # + 0 * sqrt(x (1 - x)): nan (value and gradient) outside [0, 1], as PyTorch's gradient
    return ew.where(one, -ew.log1p(-x), inner) + ew.sqrt(safe * (1.0 - safe)) * 0.0


@api
def exp2(input):
    """``2 ** input``."""
    _tensor(input, "exp2")
    return named_result(ew.rpow(input, 2.0), "Exp2Backward0", input)


def _number_kind(v):
    """The dtype kind (b, i, u, f, c) a tensor or a Python/NumPy number brings to a sum."""
    return v.dtype.kind if isinstance(v, Tensor) else np.asarray(v).dtype.kind


def check_alpha(input, other, alpha):
    """PyTorch's refusals of an ``alpha`` the sum's dtype cannot hold (its alpha_check): a
    float alpha for integers or bools, a bool alpha for numbers, a complex one for reals.
    (Callers skip it for a Python int alpha, which every dtype takes.)"""
    kind = max(_number_kind(input), _number_kind(other), key="buifc".index)
    have = _number_kind(alpha)
    if have == "b" and kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if have == "c" and kind != "c":
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a complex "
                           "number.")
    if have == "f" and kind in "biu":
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")


def add_scaled(input, other, alpha, sign=1.0):
    """``input + sign * alpha * other``: torch.add / torch.sub with ``alpha``, whose kernel
    is one multiply-add (rounded once: its value, here as well)."""
    scaled = ew.mul(other, alpha) if isinstance(other, Tensor) else other * alpha
    out = ew.add(input, scaled) if sign > 0 else ew.sub(input, scaled)
    if out.dtype.kind != "f" or not isinstance(other, Tensor) or not isinstance(input, Tensor):
        return out
    value = fma(out.dtype.type(sign * alpha), np.asarray(other._data), np.asarray(input._data))
    return named_result(_exactly(out, value), "AddBackward0" if sign > 0 else "SubBackward0",
                        input, other)


# ---- lerp, addcmul, addcdiv ------------------------------------------------------------------
@api
@node(lambda i, e, w: f"LerpBackward{int(isinstance(w, Tensor))}", broadcast_error)
def lerp(input, end, weight):
    """``input + weight * (end - input)``; as PyTorch, ``end - (end - input) * (1 - weight)``
    for weights of at least 1/2 (exact at weight 1)."""
    _tensor(input, "lerp")
    _tensor(end, "lerp", 2, "end")
    if input.dtype.kind in "biu" and end.dtype == input.dtype:
        if not isinstance(weight, Tensor):
            refuse("lerp_kernel_scalar", input.dtype, "biu")
        elif weight.dtype == input.dtype:
            refuse("lerp_kernel_tensor", input.dtype, "biu")
    d = end - input
    if not isinstance(weight, Tensor):
        w = float(weight)
        out = input + d * w if abs(w) < 0.5 else end - d * (1.0 - w)
    else:
        out = ew.where(cmp.lt(ew.abs(weight), 0.5), input + weight * d, end - d * (1.0 - weight))
    if out.dtype.kind != "f":
        return out
    # PyTorch's kernel compiles each branch to one multiply-add: its value, rounded once
    x, e, dv = (np.asarray(t._data) for t in (input, end, d))
    w = np.asarray(weight._data if isinstance(weight, Tensor) else weight, out.dtype)
    return _exactly(out, np.where(np.abs(w) < 0.5, fma(w, dv, x),
                                  fma(-dv, (1 - w).astype(out.dtype), e)))


@api
@node("AddcmulBackward0", broadcast_error)
def addcmul(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 * tensor2``."""
    _tensor(input, "addcmul")
    scaled = tensor1 * value if value != 1 else tensor1
    out = input + scaled * tensor2
    if out.dtype.kind != "f" or not isinstance(tensor2, Tensor):
        return out
    # (PyTorch's kernel: value * t1 * t2 + input, one multiply-add)
    return _exactly(out, fma(np.asarray(scaled._data), np.asarray(tensor2._data),
                             np.asarray(input._data)))


@api
@node("AddcdivBackward0", broadcast_error)
def addcdiv(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 / tensor2``."""
    _tensor(input, "addcdiv")
    return input + (tensor1 * value) / tensor2 if value != 1 else input + tensor1 / tensor2


# ---- one-line spellings ------------------------------------------------------------------
@api
@node("ReciprocalBackward0")
def reciprocal(input):
    """``1 / input``."""
    return ew.rdiv(_tensor(input, "reciprocal"), 1.0)


@api
@node("RsqrtBackward0")
def rsqrt(input):
    """``1 / sqrt(input)``."""
    return ew.rdiv(ew.sqrt(_tensor(input, "rsqrt")), 1.0)


@api
@node("Deg2RadBackward0")
def deg2rad(input):
    """Degrees to radians."""
    return ew.mul(_tensor(input, "deg2rad"), math.pi / 180.0)


@api
@node("Rad2DegBackward0")
def rad2deg(input):
    """Radians to degrees."""
    return ew.mul(_tensor(input, "rad2deg"), 180.0 / math.pi)


@api
def signbit(input):
    """True where the sign bit is set (``-0.0`` included)."""
    _tensor(input, "signbit")
    if state.tracing is not None and cmp._traced(input, state.tracing):
        # traced: x < 0 replays, where no element is 0 or NaN (their sign bits differ
        # from their order); a point with one is guarded by its exact values (host_values)
        d = np.asarray(input._data)  # (which of the two: decided at the traced point)
        if not (np.isnan(d).any() or (d == 0).any()):
            bool((sh.to(cmp.eq(input, 0.0), d.dtype) + sh.to(cmp.isnan(input), d.dtype))
                 .sum() == 0.0)  # (a guard: no 0 or NaN at the replayed point)
            return cmp.lt(input, 0.0)
    return _leaf(norm(np.signbit(host_values(input, "signbit"))))


@api
@node(by_operand("CopysignBackward"), broadcast_error)
def copysign(input, other):
    """``|input|`` with the sign of ``other`` (its sign bit: -0.0 is negative); the gradient
    goes to input only, as PyTorch's."""
    _tensor(input, "copysign")
    x = input if input.dtype.kind == "f" else sh.to(input, dtypes.default_float())
    neg = signbit(other) if isinstance(other, Tensor) else Tensor(np.signbit(float(other)))
    y = ew.where(neg, ew.neg(ew.abs(x)), ew.abs(x))
    return zero_gradient_to(y, other) if state.grad_enabled else y


@api
def nextafter(input, other):
    """The next float after ``input`` toward ``other``.  Its gradient, as PyTorch's: input's
    passes through where ``input != other`` (0 where they are equal), other's is zero."""
    _float_pair(input, other, "nextafter")
    a = host_values(input, "nextafter")
    b = np.asarray(host_values(other, "nextafter"), a.dtype)
    with quiet():
        try:
            v = norm(np.nextafter(a, b))
        except ValueError:  # (NumPy's broadcast error: PyTorch's words)
            broadcast_error("nextafter", (input, other))
            raise
        if not _records(input, other):
            return _leaf(v)
        y = ew.add(input, Tensor(v - a))  # (one ulp: a + (v - a) is v where both are finite)
    y = zero_gradient_to(y, other)
    # where input == other, and where the sum is not v (an infinite input, a sign of zero),
    # v as a constant: a zero gradient there (PyTorch's is zero only at input == other)
    fixed = (a == b) | ~_same_each(np.asarray(y._data), v)
    if fixed.any():
        y = ew.where(Tensor(fixed), Tensor(v), y)
    return named_result(y, "NextafterBackward0", input, other)


@api
def isposinf(input):
    """True where input is +inf."""
    return cmp.eq(_tensor(input, "isposinf"), math.inf)


@api
def isneginf(input):
    """True where input is -inf."""
    return cmp.eq(_tensor(input, "isneginf"), -math.inf)


@api
def isreal(input):
    """True everywhere: a real tensor's elements are real (_complex.py answers a complex one)."""
    return _leaf(norm(np.ones(_tensor(input, "isreal").shape, np.bool_)))


@api
def is_complex(input):
    """False: tapegrad has no complex dtypes."""
    _tensor(input, "is_complex")
    return False


api(ew.abs, name="absolute")
api(ew.neg, name="negative")


@api
def positive(input):
    """``input`` itself (``+input``); PyTorch refuses a bool tensor."""
    if _tensor(input, "positive").dtype.kind == "b":
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


api(ew.mul, name="multiply")
api(ew.div, name="true_divide")

# the operators (bound with the others by ops/__init__.py's protocol table)
PROTOCOL = {"__mod__": remainder, "__rmod__": _rremainder, "__floordiv__": floor_divide,
            "__rfloordiv__": _rfloor_divide}


# ---- spec rows ----------------------------------------------------------------------------
_MASKED = ("its masks (which operand is NaN, or larger) are constants on an eager tape, so a "
           "replay of that tape at other points keeps them; a traced function records them "
           "as comparisons and replays right (test_saved_trace_loads)")
SPECS = [
    Spec("remainder", lambda a, b: _lib(a).remainder(a, b),
         lambda np_, a, b: a - np_.floor(a / b) * b, arity=2, domain=(0.3, 3.0),
         pinned=(((5.0, 3.0), (1.0, -1.0)), ((-5.0, 3.0), (1.0, 2.0)))),
    Spec("fmod", lambda a, b: _lib(a).fmod(a, b),
         lambda np_, a, b: a - np_.trunc(a / b) * b, arity=2, domain=(0.3, 3.0),
         pinned=(((5.0, -3.0), (1.0, 1.0)), ((-5.0, 3.0), (1.0, 1.0)))),
    Spec("frac", lambda x: x.frac(), lambda np_, x: x - np_.trunc(x)),
    Spec("lerp", lambda a, b: a.lerp(b, 0.3), lambda np_, a, b: a + 0.3 * (b - a), arity=2),
    Spec("lerp_tensor_weight", lambda a, b: _lib(a).lerp(a, b, b * 0.5),
         lambda np_, a, b: a + 0.5 * b * (b - a), arity=2, domain=(-0.9, 0.9)),
    Spec("addcmul", lambda a, b: a.addcmul(b, a, value=0.5), lambda np_, a, b: a + 0.5 * b * a,
         arity=2),
    Spec("addcdiv", lambda a, b: a.addcdiv(a, b, value=-2.0), lambda np_, a, b: a - 2.0 * a / b,
         arity=2, domain=(0.5, 2.0)),
    Spec("hypot", lambda a, b: a.hypot(b), lambda np_, a, b: np_.sqrt(a * a + b * b), arity=2,
         domain=(0.2, 2.0)),
    Spec("logaddexp", lambda a, b: a.logaddexp(b), lambda np_, a, b: np_.logaddexp(a, b),
         arity=2, pinned=(((1.0, 1.0), (0.5, 0.5)), ((math.inf, 1.0), (1.0, 0.0)))),
    Spec("logaddexp2", lambda a, b: a.logaddexp2(b), lambda np_, a, b: np_.logaddexp2(a, b),
         arity=2, pinned=(((1.0, 1.0), (0.5, 0.5)),)),
    Spec("xlogy", lambda a, b: a.xlogy(b), lambda np_, a, b: a * np_.log(b), arity=2,
         domain=(0.2, 2.0), pinned=(((0.0, 1.0), (0.0, 0.0)), ((0.0, 2.0), (math.log(2), 0.0)),
                                    ((0.0, 0.0), (0.0, math.nan)))),
    Spec("sinc", lambda x: x.sinc(), lambda np_, x: np_.sin(np.pi * x) / (np.pi * x),
         domain=(0.1, 2.0), pinned=(((0.0,), (0.0,)),)),
    Spec("logit", lambda x: x.logit(), lambda np_, x: np_.log(x / (1 - x)), domain=(0.1, 0.9),
         pinned=(((0.0,), (math.inf,)), ((1.0,), (math.inf,)))),
    Spec("logit_eps", lambda x: x.logit(eps=0.2), lambda np_, x: np_.log(x / (1 - x)),
         domain=(0.3, 0.7), pinned=(((0.1,), (0.0,)), ((0.5,), (4.0,)))),
    Spec("exp2", lambda x: x.exp2(), lambda np_, x: 2.0 ** x),
    Spec("fmax", lambda a, b: a.fmax(b), lambda np_, a, b: np_.maximum(a, b), arity=2,
         pinned=(((2.0, 2.0), (1.0, 0.0)), ((math.nan, 1.0), (0.0, 1.0))), replay=False,
         notes=_MASKED),
    Spec("fmin", lambda a, b: a.fmin(b), lambda np_, a, b: np_.minimum(a, b), arity=2,
         pinned=(((2.0, 2.0), (1.0, 0.0)), ((1.0, math.nan), (1.0, 0.0))), replay=False,
         notes=_MASKED),
    Spec("nan_to_num", lambda x: x.nan_to_num(), lambda np_, x: x,
         pinned=(((math.nan,), (0.0,)), ((math.inf,), (0.0,)), ((1.0,), (1.0,)))),
    Spec("reciprocal", lambda x: x.reciprocal(), lambda np_, x: 1.0 / x, domain=(0.5, 2.0)),
    Spec("rsqrt", lambda x: x.rsqrt(), lambda np_, x: 1.0 / np_.sqrt(x), domain=(0.5, 2.0)),
]
# the scalar path and one array path each: the composites' rows are the primitives', checked
# at every shape by their own spec rows already (this keeps the op table's run short)
SPECS = [dataclasses.replace(spec, shapes=((), (2, 3))) for spec in SPECS]
