"""``torch.signal.windows``: SciPy's window functions as PyTorch computes them (its formulas,
arguments, defaults, dtypes and errors), recorded as ops when ``requires_grad``.

>>> import tapegrad as tg
>>> tg.signal.windows.bartlett(5)
tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
"""
import math
from collections.abc import Iterable

import numpy as np

from .. import creation, dtypes
from ..compat import strided
from ..device import check as check_device

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
           "general_hamming", "hamming", "hann", "kaiser", "nuttall"]


def _checks(name, M, dtype, layout, device):
    """PyTorch's checks of every window's arguments; the dtype to use."""
    check_device(device, name)
    dtype = dtypes.get_default_dtype() if dtype is None else dtype
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if layout is not strided:
        raise ValueError(f"{name} is implemented for strided tensors only, got: {layout}")
    if dtype not in (dtypes.float32, dtypes.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")
    return dtype


def _short(M, dtype, requires_grad, ones_at_one=True):
    """The window of length 0 (or 1, where PyTorch returns ones), else None."""
    if M == 0:
        return creation.empty((0,), dtype=dtype, requires_grad=requires_grad)
    if M == 1 and ones_at_one:
        return creation.ones((1,), dtype=dtype, requires_grad=requires_grad)
    return None


def _k(start, step, M, dtype, requires_grad):
    return creation.linspace(start * step, (start + (M - 1)) * step, M, dtype=dtype,
                             requires_grad=requires_grad)


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, layout=strided, device=None,
                requires_grad=False):
    dtype = _checks("exponential", M, dtype, layout, device)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    if M == 0:
        return _short(M, dtype, requires_grad)
    if center is None:
        center = (M if not sym and M > 1 else M - 1) / 2.0
    return (-_k(-center, 1 / tau, M, dtype, requires_grad).abs()).exp()


def cosine(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    dtype = _checks("cosine", M, dtype, layout, device)
    if M == 0:
        return _short(M, dtype, requires_grad)
    return _k(0.5, math.pi / (M + 1 if not sym and M > 1 else M), M, dtype,
              requires_grad).sin()


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=strided, device=None,
             requires_grad=False):
    dtype = _checks("gaussian", M, dtype, layout, device)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    if M == 0:
        return _short(M, dtype, requires_grad)
    start = -(M if not sym and M > 1 else M - 1) / 2.0
    return (-(_k(start, 1 / (std * math.sqrt(2)), M, dtype, requires_grad) ** 2)).exp()


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=strided, device=None,
           requires_grad=False):
    dtype = _checks("kaiser", M, dtype, layout, device)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    if M < 2:
        return _short(M, dtype, requires_grad)
    b = np.asarray(beta, np.dtype(dtype))  # (PyTorch's beta in the window's dtype: no NaN)
    constant = 2.0 * b / (M if not sym else M - 1)
    end = np.minimum(b, -b + (M - 1) * constant)
    k = creation.linspace(float(-b), float(end), M, dtype=dtype, requires_grad=requires_grad)
    beta_t = creation.tensor(float(b), dtype=dtype)
    return (beta_t * beta_t - k ** 2).sqrt().i0() / beta_t.i0()


def general_cosine(M, *, a, sym=True, dtype=None, layout=strided, device=None,
                   requires_grad=False):
    dtype = _checks("general_cosine", M, dtype, layout, device)
    if M < 2:
        return _short(M, dtype, requires_grad)
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    k = _k(0, 2 * math.pi / (M if not sym else M - 1), M, dtype, requires_grad)
    a_i = creation.tensor([(-1) ** i * w for i, w in enumerate(a)], dtype=dtype,
                          requires_grad=requires_grad)
    i = creation.arange(a_i.shape[0], dtype=a_i.dtype, requires_grad=requires_grad)
    return (a_i.unsqueeze(-1) * (i.unsqueeze(-1) * k).cos()).sum(0)


def general_hamming(M, *, alpha=0.54, sym=True, dtype=None, layout=strided, device=None,
                    requires_grad=False):
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)


def hamming(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    return general_hamming(M, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def hann(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def blackman(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    _checks("blackman", M, dtype, layout, device)
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)


def nuttall(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym,
                          dtype=dtype, layout=layout, device=device, requires_grad=requires_grad)


def bartlett(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    dtype = _checks("bartlett", M, dtype, layout, device)
    if M < 2:
        return _short(M, dtype, requires_grad)
    constant = 2 / (M if not sym else M - 1)
    k = creation.linspace(-1, -1 + (M - 1) * constant, M, dtype=dtype,
                          requires_grad=requires_grad)
    return 1 - k.abs()
