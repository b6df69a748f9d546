"""``tapegrad.signal.windows`` (PyTorch's ``torch.signal.windows``): SciPy's window family.

Each window is computed as PyTorch computes it, with tapegrad ops on a ``linspace`` of
the window's dtype (so float32 windows round as PyTorch's do): ``sym=False`` gives the
periodic window (one point more, the last dropped), for spectral analysis.  A window
asked for with ``requires_grad=True`` is, as in PyTorch, the result of those ops.

>>> import tapegrad as tg
>>> tg.signal.windows.hann(5)
tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
"""
import math
from collections.abc import Iterable

from .. import creation, dtypes

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
           "general_hamming", "hamming", "hann", "kaiser", "nuttall"]


def _checks(name, M, dtype, layout):
    """PyTorch's checks, in its order and words; the dtype the window gets."""
    dtype = dtype or dtypes.default_float()
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if layout is not None and str(layout) != "torch.strided":
        raise ValueError(f"{name} is implemented for strided tensors only, got: {layout}")
    if dtype not in (dtypes.float32, dtypes.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")
    return dtype


def _trivial(M, dtype, requires_grad):
    """The windows of 0 and 1 points (None for longer ones)."""
    if M > 1:
        return None
    return creation.ones(M, dtype=dtype, requires_grad=requires_grad)


def _points(start, step, M, dtype, requires_grad):
    return creation.linspace(start, start + (M - 1) * step, M, dtype=dtype,
                             requires_grad=requires_grad)


def _length(M, sym):
    """The divisor: a periodic window is the symmetric one of M + 1 points, cut."""
    return M if not sym and M > 1 else M - 1


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, layout=None, device=None,
                requires_grad=False):
    dtype = _checks("exponential", M, dtype, layout)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    if M == 0:
        return creation.empty(0, dtype=dtype, requires_grad=requires_grad)
    center = _length(M, sym) / 2.0 if center is None else center
    return _points(-center / tau, 1 / tau, M, dtype, requires_grad).abs().neg().exp()


def cosine(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    dtype = _checks("cosine", M, dtype, layout)
    if M == 0:
        return creation.empty(0, dtype=dtype, requires_grad=requires_grad)
    constant = math.pi / (M + 1 if not sym and M > 1 else M)
    return _points(0.5 * constant, constant, M, dtype, requires_grad).sin()


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=None, device=None,
             requires_grad=False):
    dtype = _checks("gaussian", M, dtype, layout)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    if M == 0:
        return creation.empty(0, dtype=dtype, requires_grad=requires_grad)
    constant = 1 / (std * math.sqrt(2))
    k = _points(-_length(M, sym) / 2.0 * constant, constant, M, dtype, requires_grad)
    return (k ** 2).neg().exp()


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=None, device=None,
           requires_grad=False):
    dtype = _checks("kaiser", M, dtype, layout)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    short = _trivial(M, dtype, requires_grad)
    if short is not None:
        return short
    b = creation.tensor(beta, dtype=dtype)  # (PyTorch's arithmetic in the window's dtype)
    end = (-b + (M - 1) * (2.0 * b / (M if not sym else M - 1))).clamp(max=b)
    k = creation.linspace(float(-b), float(end), M, dtype=dtype, requires_grad=requires_grad)
    return (b * b - k.pow(2)).sqrt().i0() / b.i0()


def general_cosine(M, *, a, sym=True, dtype=None, layout=None, device=None,
                   requires_grad=False):
    dtype = _checks("general_cosine", M, dtype, layout)
    short = _trivial(M, dtype, requires_grad)
    if short is not None:
        return short
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    k = _points(0, 2 * math.pi / (M if not sym else M - 1), M, dtype, requires_grad)
    a_i = creation.tensor([(-1) ** i * w for i, w in enumerate(a)], dtype=dtype,
                          requires_grad=requires_grad)
    i = creation.arange(a_i.shape[0], dtype=dtype)
    return (a_i.unsqueeze(-1) * (i.unsqueeze(-1) * k).cos()).sum(0)


def general_hamming(M, *, alpha=0.54, sym=True, dtype=None, layout=None, device=None,
                    requires_grad=False):
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, layout=layout,
                          requires_grad=requires_grad)


def hamming(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    return general_hamming(M, sym=sym, dtype=dtype, layout=layout,
                           requires_grad=requires_grad)


def hann(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, layout=layout,
                           requires_grad=requires_grad)


def blackman(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    _checks("blackman", M, dtype, layout)
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, layout=layout,
                          requires_grad=requires_grad)


def bartlett(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    dtype = _checks("bartlett", M, dtype, layout)
    short = _trivial(M, dtype, requires_grad)
    if short is not None:
        return short
    return 1 - _points(-1, 2 / (M if not sym else M - 1), M, dtype, requires_grad).abs()


def nuttall(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym,
                          dtype=dtype, layout=layout, requires_grad=requires_grad)
