"""float64 sin and cos of tapegrad's own formula, written so LLVM vectorises the loops (issue
20: NumPy's float64 sin/cos are libm's, one value at a time, ~5-15 ns each on this
AVX-512 machine; at 256 values they were most of an eager ``sin``).

Below NEAR (|x| <= 1e6) the argument is reduced by k = round(x 2/pi) in double-double
arithmetic, Cody-Waite with pi/2 split in three 33-bit parts and a 53-bit tail (k < 2^20,
so every k * part is exact; ~160 bits of pi/2, enough for the doubles closest to a
multiple of pi/2 in that range, whose reduced argument is >= ~2^-60), then the classical
minimax polynomials on [-pi/4, pi/4] (the coefficients published with fdlibm's
__kernel_sin/__kernel_cos, error < 2^-58), the reduction's low part carried into them.
Beyond NEAR, and at +-inf and NaN, libm's ``sin``/``cos`` (``math.sin``, ``np.sin``: the
same function), which reduce exactly.  Measured within 1 ulp of the exact value
(tests/test_trig.py pins 1 ulp against a long double and mpmath reference), signs of zero
kept.

One formula, run four ways that give the same bits: ``_sin_of``/``_cos_of`` per value (the
replay rules, the one-point interpreter, fused kernels), ``_sin``/``_cos`` over an array
(the eager kernels: the reduction loop vectorised, libm patched in afterwards for the rare
far values), their small-array ufuncs, and ``sin_numpy``/``cos_numpy`` (NumPy, while the
kernels load: only +, -, *, selects and one float-to-int, so the same IEEE operations in
the same order).  Compiled with ``fastmath`` off, so LLVM fuses no multiply-add.
"""
import inspect
import math

import numpy as np

from . import _eager
from ._jit import njit, rule, stamp_together

NEAR = 1e6  # |x| up to which the reduction here runs (k = round(x 2/pi) < 2^20)
_2_PI = 0.6366197723675814  # 2/pi
_ROUND = 6755399441055744.0  # 1.5 * 2^52: (v + _ROUND) - _ROUND rounds v to an integer
# pi/2 = _P1 + _P2 + _P3 + _P4 + O(2^-160); _P1.._P3 have 33 significant bits
_P1, _P2, _P3, _P4 = (1.5707963267341256, 6.077100506303966e-11, 2.0222662487111665e-21,
                      8.4784276603689e-32)
S1, S2, S3, S4, S5, S6 = (-1.66666666666666324348e-01, 8.33333333332248946124e-03,
                          -1.98412698298579493134e-04, 2.75573137070700676789e-06,
                          -2.50507602534068634195e-08, 1.58969099521155010221e-10)
C1, C2, C3, C4, C5, C6 = (4.16666666666666019037e-02, -1.38888888888741095749e-03,
                          2.48015872894767294178e-05, -2.75573143513906633035e-07,
                          2.08757232129817482790e-09, -1.13596475577881948265e-11)


def _reduce_py(v):
    """(k, rh, rl): v = k pi/2 + rh + rl, |rh| <= ~pi/4, rl below rh's last bit; v is
    clamped to 0 beyond NEAR (and NaN), whose results are replaced.  Two exact products
    subtracted with TwoSum, their errors and the tail's product summed, then rh + rl
    renormalised (Fast2Sum)."""
    # (a float32 value as a double: interpreted, NumPy would keep float32 arithmetic)
    v = float(v) if abs(v) <= NEAR else 0.0  # (NaN too)
    k = (v * _2_PI + _ROUND) - _ROUND
    a = v - k * _P1  # (exact: k * _P1 is, and a is a Sterbenz difference)
    b = k * _P2
    s1 = a - b
    t = s1 - a
    e1 = (a - (s1 - t)) - (b + t)  # a - b = s1 + e1 exactly
    c = k * _P3
    s2 = s1 - c
    t = s2 - s1
    e2 = (s1 - (s2 - t)) - (c + t)  # s1 - c = s2 + e2 exactly
    tail = (e1 + e2) - k * _P4
    rh = s2 + tail
    return k, rh, (s2 - rh) + tail


def _sin_poly_py(rh, rl, z):
    """sin(rh + rl), |rh| <= ~pi/4, z = rh^2: rh + rh^3 S(z) + rl (1 - z/2)."""
    v = z * rh
    r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)))
    return rh + ((v * (S1 + z * r) + rl) - 0.5 * z * rl)


def _cos_poly_py(rh, rl, z):
    """cos(rh + rl): w = 1 - z/2 rounded, its rounding error ((1 - w) - z/2, exact: w is
    within [0.69, 1]) added back with z^2 C(z) - rh rl."""
    hz = 0.5 * z
    w = 1.0 - hz
    r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))))
    return w + (((1.0 - w) - hz) + (z * r - rh * rl))


_reduce = rule(inline=True)(_reduce_py)
_sin_poly = rule(inline=True)(_sin_poly_py)
_cos_poly = rule(inline=True)(_cos_poly_py)


def _sin_near_py(v, shift):
    """sin(v + shift pi/2) for |v| <= NEAR (shift 0: sin, 1: cos): the quadrant's sine or
    cosine polynomial, its sign, all by selects (branch-free: the loops vectorise);
    sin(+-0) is the zero itself."""
    k, rh, rl = _reduce(v)
    q = np.int32(k) + np.int32(shift)
    z = rh * rh
    s = _sin_poly(rh, rl, z)
    c = _cos_poly(rh, rl, z)
    y = c if q & np.int32(1) else s
    y = -y if q & np.int32(2) else y
    return y if shift or v != 0.0 else v


_sin_near = rule(inline=True)(_sin_near_py)


def _sin_at_py(v, shift):
    """sin(v + shift pi/2) at any v: libm's (``math``'s) beyond NEAR, and at inf and NaN."""
    if not abs(v) <= NEAR:
        return math.cos(v) if shift else math.sin(v)
    return _sin_near(v, shift)


_sin_at = rule(inline=True)(_sin_at_py)


def _sin_of_py(v):
    """One value's sin (the small arrays' ufunc, the tangent and curvature rules)."""
    return _sin_at(v, 0)


def _cos_of_py(v):
    """One value's cos."""
    return _sin_at(v, 1)


_sin_of = rule(inline=True)(_sin_of_py)
_cos_of = rule(inline=True)(_cos_of_py)


@rule(inline=True)
def all_near(x, a, n):
    """Whether x[a:a + n] are all within NEAR: the rules' vectorised loops apply."""
    far = False
    for i in range(n):
        far |= not abs(x[a + i]) <= NEAR
    return not far


@rule(inline=True)
def fill(dst, o, src, a, n, shift):
    """dst[o:o + n] = sin(src[a:a + n] + shift pi/2): one vectorised loop when every value is
    within NEAR, else value by value (dst and src may be one arena: sin_fwd, cos_fwd)."""
    if all_near(src, a, n):
        for i in range(n):
            dst[o + i] = _sin_near(src[a + i], shift)
    else:
        for i in range(n):
            dst[o + i] = _sin_at(src[a + i], shift)


@njit
def _sin(x, out):
    fill(out, 0, x, 0, len(x), 0)


@njit
def _cos(x, out):
    fill(out, 0, x, 0, len(x), 1)


stamp_together(_sin, _cos)
KERNELS = (_sin, _cos)


def source():
    """``_sin_of``/``_cos_of``'s source, self-contained (constants as literals, helpers'
    sources, compiled by ``njit``), for generated modules (replay/fused.py) that call
    ``_sin(x)`` and ``_cos(x)``: the rules' values bit for bit."""
    names = ("NEAR", "_2_PI", "_ROUND", "_P1", "_P2", "_P3", "_P4", "S1", "S2", "S3", "S4",
             "S5", "S6", "C1", "C2", "C3", "C4", "C5", "C6")
    lines = [f"{n} = {globals()[n]!r}" for n in names]
    fns = (_reduce_py, _sin_poly_py, _cos_poly_py, _sin_near_py, _sin_at_py, _sin_of_py,
           _cos_of_py)
    for fn in fns:
        lines += ["", "", inspect.getsource(fn).rstrip()]
    lines += ["", ""] + [f"{fn.__name__[:-3]} = njit({fn.__name__})" for fn in fns[:-2]]
    lines += ["_sin = njit(_sin_of_py)", "_cos = njit(_cos_of_py)"]
    return "\n".join(lines)


def _near_numpy(x, shift):
    """``_sin_near``'s operations on a float64 array, in NumPy (its values bit for bit)."""
    v = np.where(np.abs(x) <= NEAR, x, 0.0)
    k = (v * _2_PI + _ROUND) - _ROUND
    a = v - k * _P1
    b = k * _P2
    s1 = a - b
    t = s1 - a
    e1 = (a - (s1 - t)) - (b + t)
    c = k * _P3
    s2 = s1 - c
    t = s2 - s1
    e2 = (s1 - (s2 - t)) - (c + t)
    tail = (e1 + e2) - k * _P4
    rh = s2 + tail
    rl = (s2 - rh) + tail
    q = k.astype(np.int32) + np.int32(shift)
    z = rh * rh
    y = np.where(q & 1, _cos_poly_py(rh, rl, z), _sin_poly_py(rh, rl, z))
    y = np.where(q & 2, -y, y)
    far = ~(np.abs(x) <= NEAR)
    if far.any():
        y[far] = np.cos(x[far]) if shift else np.sin(x[far])
    return y


def sin_numpy(x):
    """``_sin``'s values for a float64 array, computed by NumPy."""
    with np.errstate(all="ignore"):
        return np.where(x != 0.0, _near_numpy(x, 0), x)  # (+-0 itself, as _sin_near)


def cos_numpy(x):
    """``_cos``'s values for a float64 array, computed by NumPy."""
    with np.errstate(all="ignore"):
        return _near_numpy(x, 1)


# ---- the eager forwards -----------------------------------------------------------------
UFUNC_MAX = 8  # elements up to which the formula runs as a ufunc (faster than the entry point)
_ndarray, _empty, _F64 = np.ndarray, np.empty, np.dtype(np.float64)


def _eager_unary(kernel, one, numpy_fallback, npfn):
    """An eager forward as ``_eager.tanh`` is one (make_unary's NumPy function): the
    formula for every float64 array with dims, whatever its size or layout (a value does not
    depend on which ran), NumPy's ``npfn`` for anything else (float32's is vectorised
    already; a 0-d array is libm's, as a Python float's).  Up to UFUNC_MAX values the
    formula runs as a ufunc (np.sin's call cost); above, a 1-d C-contiguous array calls the
    compiled kernel's entry point; until the kernel is loaded, NumPy computes its values."""
    ready, small, entry = _eager._Ready(kernel), _eager._SmallUfunc(one), [None]

    def fn(x):
        if type(x) is not _ndarray or x.dtype is not _F64 or not x.ndim:
            return npfn(x)
        if x.size <= UFUNC_MAX:  # (any layout: a ufunc's result is a new C-contiguous array)
            uf = small.ufunc or small.get()
            if uf is not None:
                return uf(x)
        e = entry[0]
        if e is not None and x.ndim == 1 and x.flags.carray:
            out = _empty(len(x))
            e(x, out)
            return out
        out = np.empty(x.shape)
        flat = x.reshape(-1) if x.flags.c_contiguous and x.flags.writeable else x.ravel().copy()
        args = (flat, out.reshape(-1))
        d = ready.get(_F64, args)
        if d is None:
            args[1][:] = numpy_fallback(flat)
            return out
        d(*args)
        if e is None:  # (this signature is the one the entry point is taken for)
            entry[0] = d.overloads[ready._sig(args)].entry_point
        return out

    fn.fresh = True  # its result is a new C-contiguous array, as a ufunc's (make_unary)
    fn.small = small  # (warmup() builds the ufunc)
    fn.__name__ = fn.__qualname__ = npfn.__name__
    return fn


sin = _eager_unary(_sin, _sin_of_py, sin_numpy, np.sin)
cos = _eager_unary(_cos, _cos_of_py, cos_numpy, np.cos)
