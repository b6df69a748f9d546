"""Resizing (``interpolate``: nearest, nearest-exact, linear/bilinear/bicubic/trilinear,
area) and pixel shuffling, composed from primitives: each spatial dim is resized on its own, nearest
by one index_select, linear by two index_selects weighted with PyTorch's lambdas (its source
index rule, align_corners or not), bicubic by four (Keys' cubic convolution, the indices
clamped to the input), area by adaptive average pooling.

>>> import tapegrad as tg, tapegrad.nn.functional as F
>>> F.interpolate(tg.tensor([[[1.0, 2.0]]]), scale_factor=2).tolist()
[[[1.0, 1.0, 2.0, 2.0]]]
"""
import math

import numpy as np

from ..ops._record import named_result
from ..tensor import Tensor
from .windows import _float_input, adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d

_LINEAR = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}
_CUBIC_A = -0.75  # PyTorch's (and OpenCV's) cubic convolution parameter
_MODES = ("nearest", "linear", "bilinear", "bicubic", "trilinear", "area", "nearest-exact")


def _sizes(input, size, scale_factor, mode, recompute_scale_factor):
    """(output sizes, the scale factors that set the source index, or None per dim)."""
    d = input.ndim - 2
    spatial = list(input.shape[2:])
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if recompute_scale_factor:
            raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
        out = list(size) if isinstance(size, (list, tuple)) else [size] * d
        if len(out) != d:
            raise ValueError(f"Input and output must have the same number of spatial "
                             f"dimensions, but got input with spatial dimensions of {spatial} "
                             f"and output size of {size}. Please provide input tensor in (N, "
                             "C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) "
                             "format.")
        return [int(o) for o in out], [None] * d
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    scales = list(scale_factor) if isinstance(scale_factor, (list, tuple)) else \
        [scale_factor] * d
    if len(scales) != d:
        raise ValueError(f"Input and scale_factor must have the same number of spatial "
                         f"dimensions, but got input with spatial dimensions of {spatial} and "
                         f"scale_factor of shape {scale_factor}. Please provide input tensor in "
                         "(N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) "
                         "format.")
    out = [int(math.floor(float(n) * float(s))) for n, s in zip(spatial, scales, strict=True)]
    if recompute_scale_factor or mode == "area":
        return out, [None] * d
    return out, [float(s) for s in scales]


def _nearest_index(n, o, scale, exact):
    """PyTorch's nearest source index (computed in float32, as its kernel does)."""
    if o == n:
        return np.arange(o)
    s = np.float32(1.0 / scale if scale is not None and scale > 0 else n / o)
    dst = np.arange(o, dtype=np.float32) + (np.float32(0.5) if exact else np.float32(0.0))
    return np.minimum(np.floor(dst * s).astype(np.int64), n - 1)


def _linear_weights(n, o, scale, align_corners):
    """(i0, i1, lambda0, lambda1) of PyTorch's linear interpolation along one dim."""
    dst = np.arange(o, dtype=np.float64)
    if o == n:
        return dst.astype(np.int64), dst.astype(np.int64), np.ones(o), np.zeros(o)
    if align_corners:
        src = dst * ((n - 1) / (o - 1) if o > 1 else 0.0)
    else:
        ratio = 1.0 / scale if scale is not None and scale > 0 else n / o
        src = np.maximum(ratio * (dst + 0.5) - 0.5, 0.0)
    i0 = np.minimum(np.floor(src).astype(np.int64), n - 1)
    lam1 = np.clip(src - i0, 0.0, 1.0)
    i1 = i0 + (i0 < n - 1)
    return i0, i1, 1.0 - lam1, lam1


def _cubic_weights(n, o, scale, align_corners):
    """The four source indices (clamped to the input) and weights of PyTorch's bicubic
    interpolation along one dim (Keys' cubic convolution, a = -0.75)."""
    dst = np.arange(o, dtype=np.float64)
    if align_corners:
        src = dst * ((n - 1) / (o - 1) if o > 1 else 0.0)
    else:
        ratio = 1.0 / scale if scale is not None and scale > 0 else n / o
        src = ratio * (dst + 0.5) - 0.5  # (not clamped at 0, unlike linear)
    base = np.floor(src)
    t = src - base
    a = _CUBIC_A
    near = lambda x: ((a + 2) * x - (a + 3)) * x * x + 1  # noqa: E731 (|x| <= 1)
    far = lambda x: ((a * x - 5 * a) * x + 8 * a) * x - 4 * a  # noqa: E731 (1 < |x| < 2)
    weights = [far(t + 1.0), near(t), near(1.0 - t), far(2.0 - t)]
    index = [np.clip(base.astype(np.int64) + k, 0, n - 1) for k in (-1, 0, 1, 2)]
    return index, weights


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resize the spatial dims of (N, C, *spatial) to ``size`` or by ``scale_factor``."""
    _float_input(input, "interpolate")
    if mode not in _MODES:
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported "
                                  f"(got {input.ndim}D) for the modes: nearest | linear | "
                                  f"bilinear | bicubic | trilinear | area | nearest-exact (got "
                                  f"{mode})")
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating "
                             "modes: linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    if antialias and (mode not in ("bilinear", "bicubic") or input.ndim != 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos "
                         "modes and requires a 4-D tensor as input")
    if input.ndim not in (3, 4, 5):
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported "
                                  f"(got {input.ndim}D) for the modes: nearest | linear | "
                                  f"bilinear | bicubic | trilinear | area | nearest-exact (got "
                                  f"{mode})")
    out, scales = _sizes(input, size, scale_factor, mode, recompute_scale_factor)
    if mode in _LINEAR and input.ndim != _LINEAR[mode]:  # (after the sizes: PyTorch's order)
        raise NotImplementedError(f"Got {input.ndim}D input, but {mode} mode needs "
                                  f"{_LINEAR[mode]}D input")
    if any(o <= 0 for o in out):
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input "
                           f"({', '.join(map(str, input.shape[2:]))}) and output "
                           f"({', '.join(map(str, out))})")
    if mode == "area":
        pool = {3: adaptive_avg_pool1d, 4: adaptive_avg_pool2d, 5: adaptive_avg_pool3d}
        return pool[input.ndim](input, out)
    y = input
    for i, (o, s) in enumerate(zip(out, scales, strict=True)):
        dim, n = 2 + i, input.shape[2 + i]
        if mode.startswith("nearest"):
            if o != n:
                y = y.index_select(dim, Tensor(_nearest_index(n, o, s, mode != "nearest")))
            continue
        if antialias:
            y = _along(y, dim, _antialias_weights(n, o, s, align_corners, mode))
            continue
        if o == n:
            continue
        if mode == "bicubic":
            index, weights = _cubic_weights(n, o, s, align_corners)
        else:
            i0, i1, lam0, lam1 = _linear_weights(n, o, s, align_corners)
            index, weights = [i0, i1], [lam0, lam1]
        shape = [1] * input.ndim
        shape[dim] = o
        terms = [y.index_select(dim, Tensor(i)) * Tensor(w.reshape(shape).astype(input.dtype))
                 for i, w in zip(index, weights, strict=True)]
        y = terms[0]
        for term in terms[1:]:
            y = y + term
    aa = "Aa" if antialias else ""
    return named_result(y, f"Upsample{_NODE[mode]}{input.ndim - 2}D{aa}Backward0", input)


def _antialias_weights(n, o, scale, align_corners, mode):
    """The (o, n) matrix of PyTorch's antialiased resampling along one dim (PIL's): each
    output i averages the inputs under a filter centred at ``scale (i + 0.5)``, stretched by
    ``scale`` when downsampling (so every input counts) and normalised to sum 1; the filter is
    the triangle (bilinear) or Keys' cubic with a = -0.5 (bicubic)."""
    if align_corners:
        scale = (n - 1) / (o - 1) if o > 1 else 0.0
    else:
        scale = 1.0 / scale if scale is not None and scale > 0 else n / o
    width = 1.0 if mode == "bilinear" else 2.0  # half the filter's support
    support = width * scale if scale >= 1.0 else width
    inv = 1.0 / scale if scale >= 1.0 else 1.0
    W = np.zeros((o, n))
    for i in range(o):
        center = scale * (i + 0.5)
        lo = max(int(center - support + 0.5), 0)  # (int(): truncation, as the C++ cast)
        hi = min(int(center + support + 0.5), n)
        x = np.abs((np.arange(lo, hi) - center + 0.5) * inv)
        if mode == "bilinear":
            w = np.maximum(1.0 - x, 0.0)
        else:
            a = -0.5
            w = np.where(x < 1.0, ((a + 2) * x - (a + 3)) * x * x + 1,
                         np.where(x < 2.0, ((a * x - 5 * a) * x + 8 * a) * x - 4 * a, 0.0))
        total = w.sum()
        W[i, lo:hi] = w / total if total != 0.0 else w
    return W


def _along(y, dim, W):
    """``y`` with dim ``dim`` mapped through the matrix ``W`` (out, in): one matmul."""
    moved = y.movedim(dim, -1)
    return (moved @ Tensor(W.T.astype(y.dtype))).movedim(-1, dim)


_NODE = {"nearest": "Nearest", "nearest-exact": "NearestExact", "linear": "Linear",
         "bilinear": "Bilinear", "bicubic": "Bicubic", "trilinear": "Trilinear"}


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated spelling of ``interpolate``."""
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def _shuffle_args(input, factor, op):
    """(factor, leading dims, (C, H, W)) of a pixel (un)shuffle's input, checked."""
    _float_input(input, op)
    if input.ndim < 3:
        raise RuntimeError(f"{op} expects input to have at least 3 dimensions, but got input "
                           f"with {input.ndim} dimension(s)")
    return int(factor), list(input.shape[:-3]), tuple(input.shape[-3:])


def pixel_shuffle(input, upscale_factor):
    """(*, C r^2, H, W) -> (*, C, H r, W r)."""
    r, lead, (c, h, w) = _shuffle_args(input, upscale_factor, "pixel_shuffle")
    if c % (r * r):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be "
                           f"divisible by the square of upscale_factor, but input.size(-3)={c} "
                           f"is not divisible by {r * r}")
    k = len(lead)
    y = input.reshape(*lead, c // (r * r), r, r, h, w)
    y = y.permute(*range(k), k, k + 3, k + 1, k + 4, k + 2)
    return named_result(y.reshape(*lead, c // (r * r), h * r, w * r), "PixelShuffleBackward0",
                        input)


def pixel_unshuffle(input, downscale_factor):
    """(*, C, H r, W r) -> (*, C r^2, H, W)."""
    r, lead, (c, h, w) = _shuffle_args(input, downscale_factor, "pixel_unshuffle")
    if h % r or w % r:
        which, size = ("height", h) if h % r else ("width", w)
        raise RuntimeError(f"pixel_unshuffle expects {which} to be divisible by "
                           f"downscale_factor, but input.size({-2 if h % r else -1})={size} is "
                           f"not divisible by {r}")
    k = len(lead)
    y = input.reshape(*lead, c, h // r, r, w // r, r)
    y = y.permute(*range(k), k, k + 2, k + 4, k + 1, k + 3)
    return named_result(y.reshape(*lead, c * r * r, h // r, w // r), "PixelUnshuffleBackward0",
                        input)
