"""``math`` as the rules see it when they run as Python rather than compiled.

Compiled by Numba, ``math.log(-1.0)`` is nan, ``math.log(0.0)`` is -inf, ``math.cos(inf)``
is nan and ``math.exp(1000.0)`` is inf, as in C, NumPy and PyTorch; CPython's ``math``
raises ValueError or OverflowError instead.  The interpreted sweep of a cold cache
(tapegrad/_kernels.py) and ``NUMBA_DISABLE_JIT=1`` (tapegrad/_jit.py) give the rules this
module in place of ``math``, so a gradient through ``log`` of a negative number is nan
however the rule runs, never an exception.  Every other name is ``math``'s own.
"""
import math as _math
from math import *  # noqa: F401,F403 (every name not overridden below is math's own)

import numpy as _np

_ERRORS = (ValueError, OverflowError, ZeroDivisionError)


def _gamma(x):
    # poles: +-inf at zero (the sign of the zero), nan at negative integers and -inf
    if x == 0.0:
        return _math.copysign(_math.inf, x)
    if x == -_math.inf or (x < 0.0 and x == _math.floor(x)):
        return _math.nan
    return _math.inf  # an overflow


def _lgamma(x):
    return _math.nan if _math.isnan(x) else _math.inf  # a pole or an overflow


def _log(x, *base):
    return _np.log(x) / _np.log(base[0]) if base else _np.log(x)  # math.log(x[, base])


_LIKE_NUMPY = {
    "sqrt": _np.sqrt, "exp": _np.exp, "expm1": _np.expm1, "exp2": _np.exp2,
    "log": _log, "log2": _np.log2, "log10": _np.log10, "log1p": _np.log1p,
    "sin": _np.sin, "cos": _np.cos, "tan": _np.tan,
    "asin": _np.arcsin, "acos": _np.arccos,
    "sinh": _np.sinh, "cosh": _np.cosh, "acosh": _np.arccosh, "atanh": _np.arctanh,
    "pow": _np.power, "fmod": _np.fmod, "ldexp": _np.ldexp,
    "gamma": _gamma, "lgamma": _lgamma,
}


def _ieee(name, ieee):
    strict = getattr(_math, name)

    def fn(*args):
        try:
            return strict(*args)
        except _ERRORS:
            with _np.errstate(all="ignore"):
                return float(ieee(*args))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"math.{name}, with IEEE results (nan, +-inf) where math raises."
    return fn


for _name, _like in _LIKE_NUMPY.items():
    if hasattr(_math, _name):  # (math.exp2 is Python 3.11's)
        globals()[_name] = _ieee(_name, _like)
