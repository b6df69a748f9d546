"""NumPy's floating-point error state set to "ignore" around tapegrad's own computations:
1/0 gives inf and 0/0 nan without warnings, as in PyTorch.

``np.errstate(all="ignore")`` builds its state object on every entry (1.4 us a call,
more than a small op's arithmetic); ``quiet()`` sets a state built once (0.3 us).  It uses
NumPy's context variable for the error state, and falls back to ``np.errstate`` where a
NumPy lacks it.
"""
import numpy as np

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
