"""``torch.fft``'s real-valued helpers: the sample frequencies (``fftfreq``, ``rfftfreq``)
and the zero-frequency shifts (``fftshift``, ``ifftshift``, rolls that differentiate as
``roll``).  The transforms themselves return complex tensors, which tapegrad does not have:
``tapegrad.fft.fft`` & co. raise an AttributeError that says so."""
import numpy as np

from . import creation
from .compat import _COMPLEX
from .tensor import Tensor, _wrap_dim


def _freqs(name, k, n, d, dtype, requires_grad, device):
    creation._device(device, name)
    dt = creation._float(dtype)
    # PyTorch multiplies arange(n) in the result's dtype by the double 1 / (n * d)
    data = k.astype(dt) * dt.type(1.0 / (n * d))
    return creation._make(data, dt, requires_grad, name)


def fftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None,
            requires_grad=False):
    """The sample frequencies of an ``n``-point FFT with spacing ``d``:
    ``[0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (d * n)``."""
    k = np.concatenate([np.arange((n - 1) // 2 + 1), np.arange(-(n // 2), 0)])
    return _out(_freqs("fftfreq", k, n, d, dtype, requires_grad, device), out)


def rfftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None,
             requires_grad=False):
    """The sample frequencies of an ``n``-point real FFT: ``[0, 1, ..., n // 2] / (d * n)``."""
    return _out(_freqs("rfftfreq", np.arange(n // 2 + 1), n, d, dtype, requires_grad,
                       device), out)


def _out(result, out):
    if out is None:
        return result
    out.resize_(result.shape)
    return out.copy_(result)


def _shift(name, input, dim, sign):  # noqa: A002 (PyTorch's name)
    if not isinstance(input, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    if dim is None:
        dims = tuple(range(input.ndim))
    else:
        dims = tuple(_wrap_dim(d, input.ndim, name)
                     for d in ((dim,) if isinstance(dim, int) else dim))
    shifts = tuple(sign * (input.shape[d] // 2) for d in dims)
    return input.roll(shifts, dims)


def fftshift(input, dim=None):  # noqa: A002
    """``input`` rolled by half its size along ``dim`` (every dim when None), so that the
    zero frequency of ``fftfreq``'s order comes to the centre."""
    return _shift("fftshift", input, dim, 1)


def ifftshift(input, dim=None):  # noqa: A002
    """The inverse of ``fftshift`` (they differ for odd sizes)."""
    return _shift("ifftshift", input, dim, -1)


_TRANSFORMS = ("fft ifft fft2 ifft2 fftn ifftn rfft irfft rfft2 irfft2 rfftn irfftn hfft ihfft "
               "hfft2 ihfft2 hfftn ihfftn").split()


def __getattr__(name):
    if name in _TRANSFORMS:
        raise AttributeError(f"module 'tapegrad.fft' has no attribute '{name}': tapegrad does "
                             f"not support the Fourier transforms (they return complex "
                             f"tensors; tapegrad has no {_COMPLEX})")
    raise AttributeError(f"module 'tapegrad.fft' has no attribute '{name}'")


__all__ = ["fftfreq", "rfftfreq", "fftshift", "ifftshift"]
