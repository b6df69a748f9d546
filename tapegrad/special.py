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
from ._names import torch_named
from .autograd.function import Function
from .nn import functional as _F
from .ops import arithmetic as _ar
from .ops import elementwise as _ew
from .ops import reductions as _red
from .ops._record import named_result
from .tensor import Tensor, _leaf, host_values, norm

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


def _values(fn, x, op="a special function"):
    """``fn`` on x's values in float64, as x's float dtype (integers and bools give the
    default float dtype, as PyTorch's float ops do): read outside the tape (``host_values``:
    while traced, guarded at x's values, since no row replays fn)."""
    d = host_values(x, op)
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
    return named_result(terms.sum(-1) + p * (p - 1) / 4.0 * math.log(math.pi),
                        "MvlgammaBackward0", input)


def _float_dtype(x):
    return x.dtype if x.dtype.kind == "f" else dtypes.get_default_dtype()


# ---- error functions and the normal distribution ----------------------------------------
_erfinv = _stop("ErfinvBackward0", lambda x: _sp().erfinv(x),
                lambda x, y: (0.5 * _SQRT_PI) * _ew.exp(y * y))
_erfc = _stop("ErfcBackward0", lambda x: _sp().erfc(x),
              lambda x, y: (-2.0 / _SQRT_PI) * _ew.exp(-(x * x)))
_erfcx = _stop("SpecialErfcxBackward0", lambda x: _sp().erfcx(x),
               lambda x, y: 2.0 * x * y - 2.0 / _SQRT_PI)
_ndtr = _stop("MulBackward1", lambda x: _sp().ndtr(x),  # (PyTorch composes it: a mul last)
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


# ---- Bessel and Airy functions, orthogonal polynomials: values only --------------------
# PyTorch defines no derivative for these: their results never require grad (no grad_fn),
# whatever the inputs do; tapegrad's are the same constants.
def _constant(fn, op):
    def call(input, *, out=None):
        y = _values(fn, _tensor(input, op), op)
        return y if out is None else out.copy_(y)

    call.__name__ = op
    return call


def _spherical_j0_np(x):
    with np.errstate(all="ignore"):
        return np.where(np.isinf(x), 0.0, np.where(x == 0, 1.0, np.sin(x) / x))


bessel_j0 = _constant(lambda x: _sp().j0(x), "bessel_j0")
bessel_j1 = _constant(lambda x: _sp().j1(x), "bessel_j1")
bessel_y0 = _constant(lambda x: _sp().y0(x), "bessel_y0")
bessel_y1 = _constant(lambda x: _sp().y1(x), "bessel_y1")
modified_bessel_i0 = _constant(lambda x: _sp().i0(x), "modified_bessel_i0")
modified_bessel_i1 = _constant(lambda x: _sp().i1(x), "modified_bessel_i1")
modified_bessel_k0 = _constant(lambda x: _sp().k0(x), "modified_bessel_k0")
modified_bessel_k1 = _constant(lambda x: _sp().k1(x), "modified_bessel_k1")
scaled_modified_bessel_k0 = _constant(lambda x: _sp().k0e(x), "scaled_modified_bessel_k0")
scaled_modified_bessel_k1 = _constant(lambda x: _sp().k1e(x), "scaled_modified_bessel_k1")
spherical_bessel_j0 = _constant(_spherical_j0_np, "spherical_bessel_j0")
airy_ai = _constant(lambda x: _sp().airy(x)[0], "airy_ai")


def _pair(input, other, op, names=("input", "n")):
    """Two operands (tensors or numbers, at least one a tensor) as float64 arrays, broadcast,
    and the result's dtype (PyTorch's promotion; integers give the default float)."""
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError(f"{op}(): argument '{names[0]}' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    ops_ = [(x.dtype, x.ndim) if isinstance(x, Tensor) else
            (np.dtype(np.float64 if isinstance(x, float) else np.int64), None)
            for x in (input, other)]
    dt = dtypes.result_type(*ops_)
    if dt.kind != "f":
        dt = dtypes.get_default_dtype()
    a, b = (np.asarray(host_values(x, op), np.float64) for x in (input, other))  # (no row)
    a, b = np.broadcast_arrays(a, b)
    return a, b, dt


def _recurrence(x, n, first, second, step):
    """``P_n(x)`` from ``P_0 = first(x)``, ``P_1 = second(x)`` and
    ``P_{k+1} = step(k, x, P_k, P_{k-1})``, for integer orders ``n`` (0 where n < 0)."""
    p0, p1 = first(x), second(x)
    out = np.where(n == 0, p0, np.where(n == 1, p1, 0.0))
    top = int(n.max()) if n.size else 0
    with np.errstate(all="ignore"):
        for k in range(1, top):
            p0, p1 = p1, step(k, x, p1, p0)
            out = np.where(n == k + 1, p1, out)
    return np.where(n < 0, 0.0, out)


def _ones(x):
    return np.ones_like(x)


_POLYNOMIALS = {  # name: (P_0, P_1, P_{k+1} from k, x, P_k, P_{k-1}, argument map)
    "chebyshev_polynomial_t": (_ones, lambda x: x, lambda k, x, p, q: 2 * x * p - q, None),
    "chebyshev_polynomial_u": (_ones, lambda x: 2 * x, lambda k, x, p, q: 2 * x * p - q, None),
    "chebyshev_polynomial_v": (_ones, lambda x: 2 * x - 1, lambda k, x, p, q: 2 * x * p - q,
                               None),
    "chebyshev_polynomial_w": (_ones, lambda x: 2 * x + 1, lambda k, x, p, q: 2 * x * p - q,
                               None),
    "hermite_polynomial_h": (_ones, lambda x: 2 * x, lambda k, x, p, q: 2 * x * p - 2 * k * q,
                             None),
    "hermite_polynomial_he": (_ones, lambda x: x, lambda k, x, p, q: x * p - k * q, None),
    "laguerre_polynomial_l": (_ones, lambda x: 1 - x,
                              lambda k, x, p, q: ((2 * k + 1 - x) * p - k * q) / (k + 1), None),
    "legendre_polynomial_p": (_ones, lambda x: x,
                              lambda k, x, p, q: ((2 * k + 1) * x * p - k * q) / (k + 1), None),
}
for _kind in "tuvw":  # the shifted Chebyshev polynomials: T*_n(x) = T_n(2x - 1), ...
    _POLYNOMIALS[f"shifted_chebyshev_polynomial_{_kind}"] = \
        _POLYNOMIALS[f"chebyshev_polynomial_{_kind}"][:3] + (lambda x: 2 * x - 1,)


def _polynomial(op):
    first, second, step, shift = _POLYNOMIALS[op]

    def call(input, n, *, out=None):
        x, order, dt = _pair(input, n, op)
        if shift is not None:
            x = shift(x)
        order = np.trunc(np.nan_to_num(order, nan=-1.0)).astype(np.int64)
        y = _leaf(norm(_recurrence(x, order, first, second, step).astype(dt)))
        return y if out is None else out.copy_(y)

    call.__name__ = op
    call.__doc__ = f"{op.replace('_', ' ')} of integer order ``n`` (no derivative, as PyTorch)."
    return call


chebyshev_polynomial_t = _polynomial("chebyshev_polynomial_t")
chebyshev_polynomial_u = _polynomial("chebyshev_polynomial_u")
chebyshev_polynomial_v = _polynomial("chebyshev_polynomial_v")
chebyshev_polynomial_w = _polynomial("chebyshev_polynomial_w")
shifted_chebyshev_polynomial_t = _polynomial("shifted_chebyshev_polynomial_t")
shifted_chebyshev_polynomial_u = _polynomial("shifted_chebyshev_polynomial_u")
shifted_chebyshev_polynomial_v = _polynomial("shifted_chebyshev_polynomial_v")
shifted_chebyshev_polynomial_w = _polynomial("shifted_chebyshev_polynomial_w")
hermite_polynomial_h = _polynomial("hermite_polynomial_h")
hermite_polynomial_he = _polynomial("hermite_polynomial_he")
laguerre_polynomial_l = _polynomial("laguerre_polynomial_l")
legendre_polynomial_p = _polynomial("legendre_polynomial_p")


# ---- two-argument functions: differentiable in their second argument only ---------------
def _binary_stop(node, value, derivative, first_name):
    """``(a, x) -> value(a, x)`` as a Python stop named ``node``, whose gradient in x is
    ``derivative(a, x)`` (tapegrad ops); asking for the gradient in ``a`` raises PyTorch's
    NotImplementedError, as PyTorch does only then (in backward)."""
    def forward(ctx, a, x):
        dt = x.dtype
        with np.errstate(all="ignore"):
            v = value(np.asarray(a._data, np.float64), np.asarray(x._data, np.float64))
        ctx.save_for_backward(a, x)
        return _leaf(norm(np.asarray(v).astype(dt)))

    def backward(ctx, g):
        a, x = ctx.saved_tensors
        if ctx.needs_input_grad[0]:
            raise NotImplementedError(f"the derivative for '{first_name}' is not implemented.")
        return None, g * derivative(a.detach(), x)

    cls = type(node[:-len("Backward0")], (Function,), {
        "node_name": node, "forward": staticmethod(forward), "backward": staticmethod(backward)})
    return cls.apply


def _binary(stop, input, other, op, names):
    """Both operands as tensors of the promoted float dtype, broadcast (by recorded ops, so
    gradients sum back to each operand's shape)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"{op}(): argument '{names[0]}' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    *_, dt = _pair(input, other, op, names)
    a = input.to(dt)
    x = other.to(dt) if isinstance(other, Tensor) else Tensor(np.asarray(other, dt))
    shape = np.broadcast_shapes(tuple(a.shape), tuple(x.shape))
    return stop(a.expand(*shape) if tuple(a.shape) != shape else a,
                x.expand(*shape) if tuple(x.shape) != shape else x)


def _gammainc_density(a, x):
    """d/dx of the regularized lower incomplete gamma: ``x^(a-1) e^(-x) / Gamma(a)``."""
    return _ew.exp((a - 1.0) * _ew.log(x) - x - lgamma(a))


_gammainc = _binary_stop("IgammaBackward0", lambda a, x: _sp().gammainc(a, x),
                         _gammainc_density, "igamma: input")
_gammaincc = _binary_stop("IgammacBackward0", lambda a, x: _sp().gammaincc(a, x),
                          lambda a, x: -_gammainc_density(a, x), "igammac: input")
_zeta = _binary_stop("SpecialZetaBackward0", lambda s, q: _sp().zeta(s, q),
                     lambda s, q: -s * zeta(s + 1.0, q), "zeta")


def gammainc(input, other, *, out=None):
    """The regularized lower incomplete gamma ``P(a, x)`` (``input`` a, ``other`` x);
    differentiable in x only, as PyTorch's.

    >>> import tapegrad as tg
    >>> tg.special.gammainc(tg.tensor(1.0), tg.tensor(2.0))
    tensor(0.8647)
    """
    y = _binary(_gammainc, input, other, "special_gammainc", ("input", "other"))
    return y if out is None else out.copy_(y)


def gammaincc(input, other, *, out=None):
    """The regularized upper incomplete gamma ``Q(a, x) = 1 - P(a, x)``."""
    y = _binary(_gammaincc, input, other, "special_gammaincc", ("input", "other"))
    return y if out is None else out.copy_(y)


def zeta(input, other, *, out=None):
    """The Hurwitz zeta function ``sum_k (k + q)^(-x)`` (``input`` x, ``other`` q);
    differentiable in q only, as PyTorch's."""
    if not isinstance(input, Tensor):
        if not isinstance(other, Tensor):
            raise TypeError("special_zeta(): argument 'other' (position 2) must be Tensor, not "
                            f"{type(other).__name__}")
        input = Tensor(np.asarray(input, _pair(input, other, "special_zeta")[2]))
    y = _binary(_zeta, input, other, "special_zeta", ("input", "other"))
    return y if out is None else out.copy_(y)


# ---- torch.special's names -------------------------------------------------------------
# ---- inverse hyperbolics: Python stops too, since NumPy's are accurate everywhere where a
# composite of log and sqrt loses digits (asinh at small |x|, atanh near 0) or overflows
_asinh = _stop("AsinhBackward0", np.arcsinh, lambda x, y: 1.0 / _ew.sqrt(x * x + 1.0))
# (the derivatives are PyTorch's formulas, x^2 - 1 and 1 - x^2: (x - 1)(x + 1) is -0.0 at
# x = -1, where acosh's is then -inf and PyTorch's inf; atanh's second derivative at +-1 nan)
_acosh = _stop("AcoshBackward0", np.arccosh, lambda x, y: 1.0 / _ew.sqrt(x * x - 1.0))
_atanh = _stop("AtanhBackward0", np.arctanh, lambda x, y: 1.0 / (1.0 - x * x))


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


def round(input, *, decimals=0):  # noqa: A001 (PyTorch's name)
    """``tapegrad.round``; PyTorch's special.round always passes ``decimals`` (its node
    is RoundBackward1)."""
    return named_result(_ew.round(input, decimals=decimals), "RoundBackward1", input)


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
             "atanh": atanh, "arcsinh": asinh, "arccosh": acosh, "arctanh": atanh,
             "igamma": gammainc, "igammac": gammaincc}
for _name, _fn in TOP_LEVEL.items():
    setattr(Tensor, _name, _fn)
Tensor.polygamma = lambda self, n: polygamma(n, self)
Tensor.polygamma.__doc__ = "``polygamma(n, self)``."

__all__ = [
    "digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammaln",
    "i0", "i0e", "i1", "i1e", "log1p", "log_ndtr", "log_softmax", "logit", "logsumexp",
    "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round", "sinc", "softmax", "xlog1py",
    "xlogy"]
__all__ += [
    "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "chebyshev_polynomial_t",
    "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w", "gammainc",
    "gammaincc", "hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l",
    "legendre_polynomial_p", "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0",
    "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
    "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "spherical_bessel_j0",
    "zeta"]

__getattr__ = torch_named(globals(), "special_")  # (PyTorch's names: _names.py)
