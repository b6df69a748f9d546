"""The short-time Fourier transform and its inverse (``torch.stft``, ``torch.istft``),
composed from framing, a window, ``fft.rfft``/``irfft`` and an overlap-add, so they need
no rule of their own and differentiate as their parts do.  Real signals only: a complex
signal (two-sided transform of complex input) is refused, naming the op."""
import warnings

import numpy as np

from . import _complex, creation
from . import fft as _fft
from .nn import functional as F
from .ops._record import named_result
from .tensor import Tensor


def _call(name, x, shape, n_fft, hop, win, window, normalized, onesided, return_complex):
    """PyTorch's way of naming a call in its errors (``shape``: the signal's, padded)."""
    w = "None" if window is None else \
        f"torch.{window.type().split('.')[-1]}{{{list(window.shape)}}}"
    return (f"{name}(torch.{x.type().split('.')[-1]}{list(shape)}, n_fft={n_fft}, "
            f"hop_length={hop}, win_length={win}, window={w}, normalized={int(normalized)}, "
            f"onesided={onesided}, return_complex={return_complex}, align_to_window=None)")


def _window(name, window, win, n_fft, dtype, call):
    """The window as a length-``n_fft`` array, centred (ones when None)."""
    if not 0 < win <= n_fft:
        raise RuntimeError(f"{call()} : expected 0 < win_length <= n_fft, but got "
                           f"win_length={win}")
    if window is None:
        w = np.ones(win, dtype)
    else:
        if window.ndim != 1 or window.shape[0] != win:
            raise RuntimeError(f"{call()} : expected a 1D window tensor of size equal to "
                               f"win_length={win}, but got window with size "
                               f"{list(window.shape)}")
        w = window
    left = (n_fft - win) // 2
    if win == n_fft:
        return w if isinstance(w, Tensor) else Tensor(w)
    if isinstance(w, Tensor):
        return F.pad(w, (left, n_fft - win - left))
    return Tensor(np.pad(w, (left, n_fft - win - left)))


def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,  # noqa: A002
         pad_mode="reflect", normalized=False, onesided=None, return_complex=None,
         align_to_window=None):
    """Spectra of windowed frames of a real signal (length L, or batch x L): a complex
    ``(batch,) n_fft // 2 + 1 x frames`` tensor (``onesided``), frames ``hop_length`` apart;
    ``center`` pads ``n_fft // 2`` on both sides with ``pad_mode`` first.

    >>> import tapegrad as tg
    >>> tg.stft(tg.ones(16), 8, return_complex=True).shape
    torch.Size([5, 5])
    """
    if type(input) is _complex.ComplexTensor:
        raise NotImplementedError("stft: tapegrad transforms real signals only (a complex "
                                  "signal's two-sided transform is not supported)")
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length

    def call():  # (PyTorch names the signal as centred: n_fft // 2 more on each side)
        shape = list(input.shape)
        shape[-1] += 2 * (n_fft // 2) if center and shape else 0
        return _call("stft", input, shape, n_fft, hop, win, window, normalized, onesided,
                     None if return_complex is None else int(return_complex))
    if return_complex is None:
        raise RuntimeError("stft requires the return_complex parameter be given for real "
                           "inputs, and will further require that return_complex=True in a "
                           "future PyTorch release.")
    if input.ndim not in (1, 2):
        raise RuntimeError(f"{call()} : expected a 1D or 2D tensor")
    x = input.unsqueeze(0) if input.ndim == 1 else input
    if center:
        pad = n_fft // 2
        x = F.pad(x.unsqueeze(1), (pad, pad), mode=pad_mode).squeeze(1)
    n = x.shape[-1]
    if not 0 < n_fft <= n:
        raise RuntimeError(f"{call()} : expected 0 < n_fft < {n}, but got n_fft={n_fft}")
    if hop <= 0:
        raise RuntimeError(f"{call()} : expected hop_length > 0, but got hop_length={hop}")
    if window is None:
        warnings.warn("A window was not provided. A rectangular window will be applied,which "
                      "is known to cause spectral leakage. Other windows such as "
                      "torch.hann_window or torch.hamming_window are recommended to reduce "
                      "spectral leakage.To suppress this warning and use a rectangular window, "
                      "explicitly set `window=torch.ones(n_fft, device=<device>)`.", UserWarning,
                      stacklevel=2)
    w = _window("stft", window, win, n_fft, x.dtype, call)
    frames = x.unfold(-1, n_fft, hop) * w  # (batch, frames, n_fft)
    two_sided = onesided is False
    spec = (_fft.fft if two_sided else _fft.rfft)(frames, norm="ortho" if normalized else None)
    spec = spec.transpose(1, 2)
    if input.ndim == 1:
        spec = spec.squeeze(0)
    node = "SqueezeBackward4" if input.ndim == 1 else "TransposeBackward1"
    if return_complex:
        spec._node = node  # (PyTorch's last step)
        return spec
    return _complex.view_as_real(spec)


def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,  # noqa: A002
          normalized=False, onesided=None, length=None, return_complex=False):
    """The signal whose ``stft`` (same arguments) is ``input``: inverse transforms of the
    frames, windowed and overlap-added, divided by the summed squared window.

    >>> import tapegrad as tg
    >>> x = tg.arange(32.0)
    >>> bool(tg.allclose(tg.istft(tg.stft(x, 8, return_complex=True), 8, length=32), x))
    True
    """
    if type(input) is not _complex.ComplexTensor:
        raise RuntimeError("istft requires a complex-valued input tensor matching the output "
                           "from stft with return_complex=True.")
    if return_complex:
        raise NotImplementedError("istft: return_complex=True (a complex signal) is not "
                                  "supported by tapegrad; the signal is real")
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if input.ndim not in (2, 3):
        raise RuntimeError(f"istft: expected a tensor with 2 or 3 dimensions of complex "
                           f"values, but got {input.ndim}")
    z = input.unsqueeze(0) if input.ndim == 2 else input
    n_freq, n_frames = z.shape[-2], z.shape[-1]
    if onesided is None:
        onesided = n_freq != n_fft
    if n_freq != (n_fft // 2 + 1 if onesided else n_fft):
        raise RuntimeError(f"istft: expected the frequency dimension (2nd to last) of the "
                           f"input tensor to be {n_fft // 2 + 1 if onesided else n_fft} "
                           f"for onesided={onesided}, but got {n_freq}")

    def call():
        return _call("istft", input, input.shape, n_fft, hop, win, window, normalized,
                     onesided, 0)
    w = _window("istft", window, win, n_fft, z._re.dtype, call)  # (the parts' real dtype)
    norm = "ortho" if normalized else "backward"
    zt = z.transpose(1, 2)
    frames = _fft.irfft(zt, n=n_fft, norm=norm) if onesided else \
        _fft.ifft(zt, norm=norm).real
    frames = frames * w  # (batch, frames, n_fft)
    total = n_fft + hop * (n_frames - 1)
    where = (np.arange(n_frames)[:, None] * hop + np.arange(n_fft)).reshape(-1)
    y = creation.zeros(z.shape[0], total, dtype=frames.dtype).index_add(
        1, Tensor(where), frames.reshape(z.shape[0], -1))
    w2 = np.asarray(w.detach()) ** 2
    env = np.bincount(where, np.tile(w2, n_frames), minlength=total)
    start = n_fft // 2 if center else 0
    end = total - (n_fft // 2 if center else 0) if length is None else \
        min(start + length, total)
    y, env = y[:, start:end], env[start:end]
    if env.size and np.abs(env).min() < 1e-11:
        raise RuntimeError("istft: window overlap add min: "
                           f"{np.abs(env).min():.6g} (the window's squares must sum to "
                           "more than 0 at every sample; a window of zeros, or a hop_length "
                           "longer than the window?)")
    y = y / Tensor(env.astype(np.asarray(y.detach()).dtype))
    if input.ndim == 2:
        y = named_result(y.squeeze(0), "SqueezeBackward1")
    if length is not None and y.shape[-1] < length:  # (zeros after: ConstantPadNdBackward0)
        y = F.pad(y, (0, length - y.shape[-1]))
    return y
