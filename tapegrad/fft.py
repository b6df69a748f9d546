"""``torch.fft``: the discrete Fourier transforms (complex tensors: tapegrad/_complex.py),
the sample frequencies (``fftfreq``, ``rfftfreq``) and the zero-frequency shifts
(``fftshift``, ``ifftshift``, rolls that differentiate as ``roll``)."""
import builtins

import numpy as np

from . import _complex, creation, dtypes
from ._names import torch_named
from .autograd.function import Function
from ._state import state
from .tensor import EagerOnlyError, Tensor, _wrap_dim


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


# ---- the transforms ---------------------------------------------------------------------------
# Three primitives, each one Function (its backward in Python, forward in NumPy's pocketfft):
# complex-to-complex (C2C), real-to-half-spectrum (R2C) and half-spectrum-to-real (C2R).  Each
# backward is again a transform (the adjoint), written with these Functions, so gradients are
# O(n log n) and differentiable again (create_graph).  Everything else (the sizes n / s,
# conjugates, the Hermitian transforms) is real ops on the parts around them.
_NORMS = ("backward", "ortho", "forward")
_SWAP = {"backward": "forward", "ortho": "ortho", "forward": "backward"}


def _norm(norm):
    if norm is None:
        return "backward"
    if norm not in _NORMS:
        raise RuntimeError(f'Invalid normalization mode: "{norm}"')
    return norm


def _array(re, im=None):
    """The NumPy values of real tensor ``re``, or of ``re + i im``."""
    a = np.asarray(re.detach().numpy())
    if im is None:
        return a
    z = np.empty(a.shape, dtype=np.result_type(a.dtype, np.complex64))
    z.real, z.imag = a, np.asarray(im.detach().numpy())
    return z


def _parts_of(arr, dtype):
    """Two real leaves: the parts of complex result ``arr`` in real dtype ``dtype``."""
    return (Tensor(np.ascontiguousarray(arr.real, dtype=dtype)),
            Tensor(np.ascontiguousarray(arr.imag, dtype=dtype)))


class _C2C(Function):
    """``fftn`` (or ``ifftn`` when inverse) of re + i im over ``dims``."""
    node_name = "FftC2CBackward0"

    @staticmethod
    def forward(ctx, re, im, dims, inverse, norm):
        ctx.args = (dims, inverse, norm)
        f = np.fft.ifftn if inverse else np.fft.fftn
        return _parts_of(f(_array(re, im), axes=dims, norm=norm), re.dtype)

    @staticmethod
    def backward(ctx, gre, gim):
        dims, inverse, norm = ctx.args  # the adjoint: the other direction, the other scale
        return (*_C2C.apply(gre, gim, dims, not inverse, _SWAP[norm]), None, None, None)


class _R2C(Function):
    """``rfftn`` of real x over ``dims`` (the last one halved), or with ``onesided`` False
    the whole spectrum, its other half filled in by Hermitian symmetry (exact, as PyTorch's
    fft of a real input: the zero and Nyquist bins' imaginary parts are exactly 0)."""
    node_name = "FftR2CBackward0"

    @staticmethod
    def forward(ctx, x, dims, norm, onesided=True):
        n = x.shape[dims[-1]]
        ctx.args = (dims, norm, n, onesided)
        half = np.fft.rfftn(_array(x), axes=dims, norm=norm)
        if not onesided:  # X[-k] = conj(X[k]): the bins n - k of the last dim, others reversed
            last, m = dims[-1], half.shape[dims[-1]]
            tail = np.take(half, np.arange(n - m, 0, -1), axis=last)
            for d in dims[:-1]:
                tail = np.roll(np.flip(tail, axis=d), 1, axis=d)
            half = np.concatenate([half, np.conj(tail)], axis=last)
        return _parts_of(half, x.dtype)

    @staticmethod
    def backward(ctx, gre, gim):
        dims, norm, n, onesided = ctx.args  # the half spectrum is a slice of the whole: pad
        if onesided:
            gre, gim = _resize(gre, dims[-1], n), _resize(gim, dims[-1], n)
        return _C2C.apply(gre, gim, dims, True, _SWAP[norm])[0], None, None, None


class _C2R(Function):
    """``irfftn`` of half spectrum re + i im over ``dims``, ``n`` points on the last."""
    node_name = "FftC2RBackward0"

    @staticmethod
    def forward(ctx, re, im, dims, n, norm):
        ctx.args = (dims, n, norm, re.shape[dims[-1]])
        s = [re.shape[d] for d in dims[:-1]] + [n]
        out = np.fft.irfftn(_array(re, im), s=s, axes=dims, norm=norm)
        return Tensor(np.ascontiguousarray(out, dtype=re.dtype))

    @staticmethod
    def backward(ctx, g):
        dims, n, norm, m = ctx.args
        # PyTorch's rule: the half spectrum of g, its bins that stand for two (k and n - k)
        # counted twice
        gre, gim = _R2C.apply(g, dims, _SWAP[norm])
        twice = np.ones(m, dtype=g.dtype)
        twice[1:n - m + 1] = 2.0
        shape = [1] * g.ndim
        shape[dims[-1]] = m
        w = Tensor(twice.reshape(shape))
        return gre * w, gim * w, None, None, None


def _resize(t, dim, n):
    """Real tensor ``t`` cut or zero-padded to ``n`` along ``dim`` (the transforms' n / s)."""
    size = t.shape[dim]
    if n == size:
        return t
    if n < size:
        return t.narrow(dim, 0, n)
    shape = list(t.shape)
    shape[dim] = n - size
    return _real_cat([t, Tensor(np.zeros(shape, dtype=t.dtype))], dim)


def _real_cat(ts, dim):
    return _complex._TOP_REAL["cat"](ts, dim)


def _input(name, input):  # noqa: A002
    if state.tracing is not None:  # (compile runs f eagerly instead)
        raise EagerOnlyError(f"tapegrad.trace: fft.{name} is eager-only (its result is complex "
                             "and its backward runs NumPy); run the function eagerly")
    if not isinstance(input, Tensor):
        raise TypeError(f"fft_{name}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    if type(input) is _complex.ComplexTensor:
        return input
    if input.dtype.kind != "f":
        input = input.to(dtypes.default_float())
    if input.dtype == np.float16:
        raise RuntimeError(f"fft_{name}: tapegrad has no complex32; use float32 or float64")
    return input


def _dims_sizes(name, input, s, dim, default_dims):  # noqa: A002
    """The dims and their signal sizes, PyTorch's way: dim alone sizes them from the input,
    s alone takes the last len(s) dims, neither takes ``default_dims`` (None: all)."""
    ndim = input.ndim
    if dim is None:
        if s is not None:
            dims = list(range(ndim - len(s), ndim))
        else:
            dims = list(range(ndim)) if default_dims is None else list(default_dims)
    else:
        dims = [dim] if isinstance(dim, int) else list(dim)
    dims = [_wrap_dim(d, ndim, f"fft_{name}") for d in dims]
    if len(set(dims)) != len(dims):
        raise RuntimeError(f"fft_{name}: FFT dims must be unique")
    if s is None:
        sizes = [input.shape[d] for d in dims]
    else:
        s = [s] if isinstance(s, int) else list(s)
        if len(s) != len(dims):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        sizes = [input.shape[d] if n == -1 else n for n, d in builtins.zip(s, dims)]
    for n in sizes:
        if n < 1:
            raise RuntimeError(f"Invalid number of data points ({n}) specified")
    return dims, sizes


def _c2c(name, input, s, dim, norm, inverse, default_dims=None):  # noqa: A002
    z = _input(name, input)
    dims, sizes = _dims_sizes(name, z, s, dim, default_dims)
    re, im = _complex.parts(z)
    if im is None and name not in ("fft", "ifft"):  # (PyTorch's n-D ones make it complex)
        im = _complex._zeros_like(re)
    for d, n in builtins.zip(dims, sizes):
        re = _resize(re, d, n)
        im = None if im is None else _resize(im, d, n)
    if im is None:  # a real input, as PyTorch: the real transform, its other half filled in
        if inverse:  # (ifft(x) = conj(fft(x)) scaled as the inverse)
            return _complex.conj(_complex.make(*_R2C.apply(re, tuple(dims), _SWAP[_norm(norm)],
                                                           False)))
        return _complex.make(*_R2C.apply(re, tuple(dims), _norm(norm), False),
                             "FftR2CBackward0")
    return _complex.make(*_C2C.apply(re, im, tuple(dims), inverse, _norm(norm)),
                         "FftC2CBackward0")


def _r2c(name, input, s, dim, norm, default_dims=None):  # noqa: A002
    x = _input(name, input)
    if type(x) is _complex.ComplexTensor:
        got = dtypes.torch_name(x.dtype)  # (PyTorch's three wordings)
        raise RuntimeError(f"Only supports floating-point dtypes, but found: {got}"
                           if name in ("ihfft2", "ihfftn") else
                           f"{name} expects a real input tensor, but got {got}"
                           if name in ("rfft", "ihfft") else
                           f"rfftn expects a real-valued input tensor, but got {got}")
    dims, sizes = _dims_sizes(name, x, s, dim, default_dims)
    for d, n in builtins.zip(dims, sizes):
        x = _resize(x, d, n)
    return _complex.make(*_R2C.apply(x, tuple(dims), _norm(norm)), "FftR2CBackward0")


def _c2r(name, input, s, dim, norm, default_dims=None):  # noqa: A002
    z = _input(name, input)
    dims, sizes = _dims_sizes(name, z, s, dim, default_dims)
    if s is None or (isinstance(s, (list, tuple)) and s[-1] == -1):
        sizes[-1] = 2 * (z.shape[dims[-1]] - 1)
    n = sizes[-1]
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")
    re, im = _complex.parts(z)
    if im is None:
        im = _complex._zeros_like(re)
    for d, m in builtins.zip(dims, sizes[:-1] + [n // 2 + 1]):
        re, im = _resize(re, d, m), _resize(im, d, m)
    return _C2R.apply(re, im, tuple(dims), n, _norm(norm))


def fft(input, n=None, dim=-1, norm=None, *, out=None):  # noqa: A002
    """The 1-D discrete Fourier transform of ``input`` along ``dim`` (complex result)."""
    return _out(_c2c("fft", input, None if n is None else [n], dim, norm, False), out)


def ifft(input, n=None, dim=-1, norm=None, *, out=None):  # noqa: A002
    """The 1-D inverse discrete Fourier transform."""
    return _out(_c2c("ifft", input, None if n is None else [n], dim, norm, True), out)


def fft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):  # noqa: A002
    return _out(_c2c("fft2", input, s, dim, norm, False), out)


def ifft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):  # noqa: A002
    return _out(_c2c("ifft2", input, s, dim, norm, True), out)


def fftn(input, s=None, dim=None, norm=None, *, out=None):  # noqa: A002
    return _out(_c2c("fftn", input, s, dim, norm, False), out)


def ifftn(input, s=None, dim=None, norm=None, *, out=None):  # noqa: A002
    return _out(_c2c("ifftn", input, s, dim, norm, True), out)


def rfft(input, n=None, dim=-1, norm=None, *, out=None):  # noqa: A002
    """The FFT of real ``input``: the ``n // 2 + 1`` non-redundant frequencies."""
    return _out(_r2c("rfft", input, None if n is None else [n], dim, norm), out)


def rfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):  # noqa: A002
    return _out(_r2c("rfft2", input, s, dim, norm), out)


def rfftn(input, s=None, dim=None, norm=None, *, out=None):  # noqa: A002
    return _out(_r2c("rfftn", input, s, dim, norm), out)


def irfft(input, n=None, dim=-1, norm=None, *, out=None):  # noqa: A002
    """The inverse of ``rfft``: a real signal of ``n`` points (default ``2 (m - 1)``) from
    a half spectrum of ``m`` (the imaginary parts of its zero and Nyquist bins ignored)."""
    return _out(_c2r("irfft", input, None if n is None else [n], dim, norm), out)


def irfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):  # noqa: A002
    return _out(_c2r("irfft2", input, s, dim, norm), out)


def irfftn(input, s=None, dim=None, norm=None, *, out=None):  # noqa: A002
    return _out(_c2r("irfftn", input, s, dim, norm), out)


def hfft(input, n=None, dim=-1, norm=None, *, out=None):  # noqa: A002
    """The FFT of a Hermitian-symmetric signal given by its first half: real, ``n`` points
    (``irfft`` of the conjugate with the opposite scaling)."""
    return _out(_c2r("hfft", _complex.conj(_input("hfft", input)),
                     None if n is None else [n], dim, _SWAP[_norm(norm)]), out)


def ihfft(input, n=None, dim=-1, norm=None, *, out=None):  # noqa: A002
    """The inverse of ``hfft``: the half spectrum of real ``input``."""
    return _out(_complex.conj(_r2c("ihfft", input, None if n is None else [n], dim,
                                   _SWAP[_norm(norm)])), out)


def hfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):  # noqa: A002
    return _out(_c2r("hfft2", _complex.conj(_input("hfft2", input)), s, dim,
                     _SWAP[_norm(norm)]), out)


def _ihfftn(name, input, s, dim, norm, default_dims=None):  # noqa: A002
    """PyTorch's order: the last dim's half spectrum, conjugated, then the other dims'
    inverse transforms (the same values; the signs of zero parts as PyTorch's)."""
    x = _input(name, input)
    dims, sizes = _dims_sizes(name, x, s, dim, default_dims)
    y = _complex.conj(_r2c(name, x, [sizes[-1]], dims[-1], _SWAP[_norm(norm)]))
    return y if len(dims) == 1 else _c2c(name, y, sizes[:-1], dims[:-1], norm, True)


def ihfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):  # noqa: A002
    return _out(_ihfftn("ihfft2", input, s, dim, norm), out)


def hfftn(input, s=None, dim=None, norm=None, *, out=None):  # noqa: A002
    return _out(_c2r("hfftn", _complex.conj(_input("hfftn", input)), s, dim,
                     _SWAP[_norm(norm)]), out)


def ihfftn(input, s=None, dim=None, norm=None, *, out=None):  # noqa: A002
    return _out(_ihfftn("ihfftn", input, s, dim, norm), out)


__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
           "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq",
           "rfftfreq", "fftshift", "ifftshift"]

__getattr__ = torch_named(globals(), "fft_")  # (PyTorch's names: _names.py)
