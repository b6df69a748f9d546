"""NumPy's floating-point error state set to "ignore" around tapegrad's own computations:
1/0 gives inf and 0/0 nan without warnings, as in PyTorch.

``np.errstate(all="ignore")`` builds its state object on every entry (1.4 us a call,
more than a small op's arithmetic); ``quiet()`` sets a state built once (0.3 us).  It uses
NumPy's context variable for the error state, and falls back to ``np.errstate`` where a
NumPy lacks it.
"""
import contextvars

import numpy as np

from . import _eager

try:
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj
    _IGNORE = _make_extobj(all="ignore")
    # bound once: looking the methods up on every call cost ~0.1 us of a ~3 us small op
    _set, _reset = _extobj_contextvar.set, _extobj_contextvar.reset
except (ImportError, AttributeError, TypeError):  # pragma: no cover (NumPy < 2 or changed)
    _extobj_contextvar = None


class _Quiet:
    __slots__ = ("token",)

    def __enter__(self):
        self.token = _extobj_contextvar.set(_IGNORE)

    def __exit__(self, *exc):
        _extobj_contextvar.reset(self.token)


def quiet():
    """A context manager: NumPy computes inside it with every floating-point error ignored."""
    return _Quiet()


def quiet_context():
    """A ``contextvars.Context`` in which NumPy's error state ignores every floating-point
    error: ``ctx.run(ufunc, x, y)`` enters it without changing the caller's context
    (``call``'s set and reset of the context variable build HAMT nodes: ~1,900 instructions
    of a ~20,000-instruction small-vector op, issue 20; entering costs ~200).  A context is
    entered by one thread at a time: each thread has its own (``_state.state.quiet``)."""
    ctx = contextvars.Context()
    ctx.run(_set, _IGNORE)
    return ctx


def call(fn, *args):
    """``fn(*args)`` with every NumPy floating-point error ignored."""
    token = _set(_IGNORE)
    try:
        return fn(*args)
    finally:
        _reset(token)


if _extobj_contextvar is None:  # pragma: no cover
    def quiet():  # noqa: F811
        return np.errstate(all="ignore")

    def call(fn, *args):  # noqa: F811
        with np.errstate(all="ignore"):
            return fn(*args)

    class _QuietRun:  # (np.errstate, without a context variable to enter)
        def run(self, fn, *args):
            return call(fn, *args)

    def quiet_context():  # noqa: F811
        return _QuietRun()


def _split(x):
    # Veltkamp: x = hi + lo with hi holding the top 26 bits, so hi * hi' is exact
    t = 134217729.0 * x  # 2^27 + 1
    hi = t - (t - x)
    return hi, x - hi


def product_error(a, b, p):
    """``e`` with ``p + e == a * b`` exactly, for ``p = a * b`` rounded (Dekker's product,
    in products within the split's range): on floats, arrays, or tensors, whose rows then
    compute it (ops/arithmetic.py's traced fmod)."""
    ah, al = _split(a)
    bh, bl = _split(b)
    return ((ah * bh - p) + ah * bl + al * bh) + al * bl


def fma(a, b, c):
    """``a * b + c`` rounded once (float64 arrays), as C's fma and the multiply-adds
    PyTorch's CPU kernels compile to (linspace, lerp, addcmul): Dekker's exact product
    and Knuth's exact sum, then one rounding of their total.  Finite inputs with products
    below ~1e300 (the split's range); elsewhere the result is ``a * b + c``."""
    with _Quiet():
        a, b, c = (np.asarray(v, np.float64) for v in (a, b, c))
        out = _eager.fma(a, b, c)  # (compiled: the operations below, one pass)
        if out is not None:
            return out
        p = a * b
        e = product_error(a, b, p)
        s = p + c
        v = s - p
        t = (p - (s - v)) + (c - v)  # s + t == p + c exactly
        out = s + (t + e)
        return np.where(np.isfinite(out), out, p + c)
