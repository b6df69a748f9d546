"""``tapegrad.special`` (PyTorch's ``torch.special``), and the non-elementary functions that
``tapegrad`` and Tensor also offer under PyTorch's names (``lgamma``, ``digamma``,
``polygamma``, ``erfinv``, ``erfc``, ``i0``, ``mvlgamma``).

How the non-elementary ones are made: each is a Python stop, an internal
``autograd.Function`` (DESIGN.md: "one sweep, many stops").  Its values come from SciPy's
``special`` module (a runtime dependency already: erf uses it) evaluated in float64, with
PyTorch's values at the edges (``lgamma(-inf) = inf``, PyTorch's own trigamma series); its
derivative is written with tapegrad ops, so create_graph and double backward work
(``lgamma' = digamma``, ``digamma' = polygamma(1, .)``, ``polygamma(n)' = polygamma(n + 1)``).
No opcode is added to the compiled sweep, whose cold compile time every new branch grows.
Their limit is every custom Function's: a function traced for replay (``tapegrad.jit.trace``,
``tapegrad.compile``) cannot contain them.

The elementary members of ``torch.special`` are the composites and primitives of ``ops/``
(``expit`` is sigmoid, ``xlogy`` ops/arithmetic.py's, ...), re-exported here.

>>> import tapegrad as tg
>>> round(float(tg.special.gammaln(tg.tensor(4.5))), 12)
2.453736570842
"""
import math

import numpy as np

from . import dtypes
from .autograd.function import Function
from .nn import functional as _F
from .ops import arithmetic as _ar
from .ops import elementwise as _ew
from .ops import reductions as _red
from .tensor import Tensor, _leaf, norm

_SQRT_PI = math.sqrt(math.pi)
_SQRT_2PI = math.sqrt(2.0 * math.pi)


def _sp():
    import scipy.special  # on first use, as erf's: tapegrad's start-up stays lean
    return scipy.special


def _tensor(x, op):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(x).__name__}")
    return x


def _values(fn, x):
    """``fn`` on x's values in float64, as x's float dtype (integers and bools give the
    default float dtype, as PyTorch's float ops do)."""
    d = np.asarray(x._data)
    dt = d.dtype if d.dtype.kind == "f" else dtypes.get_default_dtype()
    with np.errstate(all="ignore"):
        v = np.asarray(fn(d.astype(np.float64)), dtype=np.float64).astype(dt)
    return _leaf(norm(v))


def _stop(node, value, derivative):
    """The function ``x -> value(x)`` as a Python stop with PyTorch's node name ``node``;
    ``derivative(x, y)`` (tapegrad ops of the input and the output) is dy/dx."""
    def forward(ctx, x):
        y = _values(value, x)
        ctx.save_for_backward(x, y)
        return y

    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * derivative(x, y)

    cls = type(node[:-len("Backward0")], (Function,), {
        "node_name": node, "forward": staticmethod(forward), "backward": staticmethod(backward)})
    return cls.apply


# ---- the gamma family ------------------------------------------------------------------
def _lgamma_np(x):
    return np.where(x == -np.inf, np.inf, _sp().gammaln(x))  # PyTorch: lgamma(-inf) = inf


def _trigamma_np(x):
    """PyTorch's trigamma (its series, to its numbers: ~1e-9 from the exact value near 1):
    reflection below 1/2, six recurrence steps, then the asymptotic series."""
    x = np.asarray(x, np.float64)
    small = x < 0.5
    sign = np.where(small, -1.0, 1.0)
    s = np.sin(np.pi * x)
    result = np.where(small, -(np.pi * np.pi) / (s * s), 0.0)
    x = np.where(small, 1.0 - x, x)
    for _ in range(6):
        result = result + 1.0 / (x * x)
        x = x + 1.0
    ixx = 1.0 / (x * x)
    result = result + (1.0 + 1.0 / (2.0 * x) + ixx * (1.0 / 6 - ixx * (1.0 / 30 - ixx / 42))) / x
    return sign * result


def _polygamma_np(n):
    if n == 0:
        return _sp().psi
    if n == 1:
        return _trigamma_np
    return lambda x: np.where(x == np.inf, np.nan, _sp().polygamma(n, x))  # (PyTorch: nan)


_lgamma = _stop("LgammaBackward0", _lgamma_np, lambda x, y: digamma(x))
_digamma = _stop("DigammaBackward0", lambda x: _sp().psi(x), lambda x, y: polygamma(1, x))
_POLYGAMMA = {}  # n -> its function (one stop per order: its derivative is order n + 1)


def lgamma(input):
    """``log |Gamma(x)|``; its derivative is digamma.

    >>> import tapegrad as tg
    >>> float(tg.lgamma(tg.tensor(3.0)))
    0.6931471805599453
    """
    return _lgamma(_tensor(input, "lgamma"))


def digamma(input):
    """``d/dx log Gamma(x)`` (``-inf`` at ``+0``, ``nan`` at negative integers, as PyTorch)."""
    return _digamma(_tensor(input, "digamma"))


def polygamma(n, input):
    """The ``n``-th derivative of digamma (``polygamma(0, x)`` is digamma)."""
    _tensor(input, "polygamma")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"polygamma(): argument 'n' (position 1) must be int, not "
                        f"{type(n).__name__}")
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    n = int(n)
    fn = _POLYGAMMA.get(n)
    if fn is None:
        fn = _POLYGAMMA[n] = _stop("PolygammaBackward0", _polygamma_np(n),
                                   lambda x, y: polygamma(n + 1, x))
    return fn(input)


def mvlgamma(input, p):
    """The multivariate log-gamma of dimension ``p``:
    ``sum_j lgamma(x - j / 2) + p (p - 1) / 4 log(pi)``."""
    _tensor(input, "mvlgamma")
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    p = int(p)
    shifts = Tensor(-0.5 * np.arange(p, dtype=np.float64), dtype=_float_dtype(input))
    terms = lgamma(input.unsqueeze(-1) + shifts)
    return terms.sum(-1) + p * (p - 1) / 4.0 * math.log(math.pi)


def _float_dtype(x):
    return x.dtype if x.dtype.kind == "f" else dtypes.get_default_dtype()


# ---- error functions and the normal distribution ----------------------------------------
_erfinv = _stop("ErfinvBackward0", lambda x: _sp().erfinv(x),
                lambda x, y: (0.5 * _SQRT_PI) * _ew.exp(y * y))
_erfc = _stop("ErfcBackward0", lambda x: _sp().erfc(x),
              lambda x, y: (-2.0 / _SQRT_PI) * _ew.exp(-(x * x)))
_erfcx = _stop("SpecialErfcxBackward0", lambda x: _sp().erfcx(x),
               lambda x, y: 2.0 * x * y - 2.0 / _SQRT_PI)
_ndtr = _stop("SpecialNdtrBackward0", lambda x: _sp().ndtr(x),
              lambda x, y: _ew.exp(-0.5 * (x * x)) / _SQRT_2PI)
_ndtri = _stop("SpecialNdtriBackward0", lambda x: _sp().ndtri(x),
               lambda x, y: _SQRT_2PI * _ew.exp(0.5 * (y * y)))
_log_ndtr = _stop("SpecialLogNdtrBackward0", lambda x: _sp().log_ndtr(x),
                  lambda x, y: _ew.exp(-0.5 * (x * x) - y) / _SQRT_2PI)


def erfinv(input):
    """The inverse error function (``+-inf`` at ``+-1``, nan outside ``[-1, 1]``)."""
    return _erfinv(_tensor(input, "erfinv"))


def erfc(input):
    """``1 - erf(x)``, accurate where erf is close to 1."""
    return _erfc(_tensor(input, "erfc"))


def erfcx(input):
    """The scaled complementary error function ``exp(x^2) erfc(x)``."""
    return _erfcx(_tensor(input, "erfcx"))


def ndtr(input):
    """The standard normal CDF."""
    return _ndtr(_tensor(input, "ndtr"))


def ndtri(input):
    """The inverse of the standard normal CDF."""
    return _ndtri(_tensor(input, "ndtri"))


def log_ndtr(input):
    """``log(ndtr(x))``, accurate in the lower tail."""
    return _log_ndtr(_tensor(input, "log_ndtr"))


# ---- modified Bessel functions ---------------------------------------------------------
def _at_zero(x, half, fn):
    """``fn(x)`` with ``x = 0`` replaced by 1 inside (no 0/0 reaches a gradient), and
    ``half`` where x is 0."""
    zero = x == 0
    safe = _ew.where(zero, 1.0, x)
    return _ew.where(zero, half, fn(safe))


_i0 = _stop("I0Backward0", lambda x: _sp().i0(x), lambda x, y: i1(x))
_i0e = _stop("SpecialI0EBackward0", lambda x: _sp().i0e(x),
             lambda x, y: i1e(x) - _ew.sign(x) * y)
_i1 = _stop("SpecialI1Backward0", lambda x: _sp().i1(x),
            lambda x, y: _at_zero(x, 0.5, lambda s: i0(s) - i1(s) / s))
_i1e = _stop("SpecialI1EBackward0", lambda x: _sp().i1e(x),
             lambda x, y: _at_zero(x, 0.5, lambda s: i0e(s) - i1e(s) * (_ew.sign(s) + 1.0 / s)))


def i0(input):
    """The modified Bessel function of the first kind, order 0."""
    return _i0(_tensor(input, "i0"))


def i0e(input):
    """``exp(-|x|) i0(x)``."""
    return _i0e(_tensor(input, "i0e"))


def i1(input):
    """The modified Bessel function of the first kind, order 1."""
    return _i1(_tensor(input, "i1"))


def i1e(input):
    """``exp(-|x|) i1(x)``."""
    return _i1e(_tensor(input, "i1e"))


# ---- entropy ---------------------------------------------------------------------------
def _entr_np(x):
    with np.errstate(all="ignore"):
        v = -x * np.log(x)
    return np.where(x == 0, 0.0, np.where(x < 0, -np.inf, v))


_entr = _stop("SpecialEntrBackward0", _entr_np, lambda x, y: -(1.0 + _ew.log(x)))


def entr(input):
    """Elementwise entropy: ``-x log x`` for ``x > 0``, 0 at 0, ``-inf`` below."""
    return _entr(_tensor(input, "entr"))


# ---- torch.special's names -------------------------------------------------------------
# ---- inverse hyperbolics: Python stops too, since NumPy's are accurate everywhere where a
# composite of log and sqrt loses digits (asinh at small |x|, atanh near 0) or overflows
_asinh = _stop("AsinhBackward0", np.arcsinh, lambda x, y: 1.0 / _ew.sqrt(x * x + 1.0))
_acosh = _stop("AcoshBackward0", np.arccosh, lambda x, y: 1.0 / _ew.sqrt((x - 1.0) * (x + 1.0)))
_atanh = _stop("AtanhBackward0", np.arctanh, lambda x, y: 1.0 / ((1.0 - x) * (1.0 + x)))


def asinh(input):
    """Inverse hyperbolic sine; d/dx = 1 / sqrt(x^2 + 1)."""
    return _asinh(_tensor(input, "asinh"))


def acosh(input):
    """Inverse hyperbolic cosine (nan below 1); d/dx = 1 / sqrt(x^2 - 1)."""
    return _acosh(_tensor(input, "acosh"))


def atanh(input):
    """Inverse hyperbolic tangent (+-inf at +-1, nan beyond); d/dx = 1 / (1 - x^2)."""
    return _atanh(_tensor(input, "atanh"))


expit = _ew.sigmoid
logit = _ar.logit
xlogy = _ar.xlogy
xlog1py = _ar.xlog1py
sinc = _ar.sinc
exp2 = _ar.exp2
expm1 = _ew.expm1
log1p = _ew.log1p
erf = _ew.erf
round = _ew.round  # noqa: A001 (PyTorch's name)
logsumexp = _red.logsumexp
softmax = _F.softmax
log_softmax = _F.log_softmax
gammaln = lgamma
psi = digamma
multigammaln = mvlgamma


# Tensor methods and tapegrad names of the functions above (tapegrad/__init__.py exports
# TOP_LEVEL); bound from here, the floor above Tensor, as autograd binds backward
TOP_LEVEL = {"lgamma": lgamma, "digamma": digamma, "polygamma": polygamma, "erfinv": erfinv,
             "erfc": erfc, "i0": i0, "mvlgamma": mvlgamma, "asinh": asinh, "acosh": acosh,
             "atanh": atanh, "arcsinh": asinh, "arccosh": acosh, "arctanh": atanh}
for _name, _fn in TOP_LEVEL.items():
    setattr(Tensor, _name, _fn)
Tensor.polygamma = lambda self, n: polygamma(n, self)
Tensor.polygamma.__doc__ = "``polygamma(n, self)``."

__all__ = [
    "digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammaln",
    "i0", "i0e", "i1", "i1e", "log1p", "log_ndtr", "log_softmax", "logit", "logsumexp",
    "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round", "sinc", "softmax", "xlog1py",
    "xlogy"]
