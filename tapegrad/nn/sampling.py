"""Spatial transformers: ``affine_grid`` (a batch of affine maps applied to the normalised
coordinates of an output grid: one matmul) and ``grid_sample`` (the input read at those
coordinates), composed from primitives.  ``grid_sample`` turns each grid coordinate into
pixel units (PyTorch's rule, ``align_corners`` or not), applies the padding mode (``border``
clips, ``reflection`` folds the coordinate back into the image), and sums the input's taps
around it (2 per dim for bilinear/trilinear, 4 for bicubic, 1 for nearest) gathered by one
index_select each and weighted by tensors of the grid: so the gradient reaches both the
input (scattered by index_select's rule) and the grid (through the weights), as PyTorch's
GridSampler2DBackward0.  Taps outside the input read 0 under ``padding_mode='zeros'``.

>>> import tapegrad as tg, tapegrad.nn.functional as F
>>> theta = tg.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
>>> x = tg.arange(4.0).reshape(1, 1, 2, 2)
>>> F.grid_sample(x, F.affine_grid(theta, (1, 1, 2, 2), align_corners=False),
...               align_corners=False).tolist()
[[[[0.0, 1.0], [2.0, 3.0]]]]
"""
import itertools
import math
import warnings

import numpy as np

from .. import creation, dtypes, ops
from ..ops._record import named_result
from ..tensor import Tensor, host_values
from .windows import _check_tensor

GRID_SAMPLE_INTERPOLATION_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
GRID_SAMPLE_PADDING_MODES = {"zeros": 0, "border": 1, "reflection": 2}
_CUBIC_A = -0.75  # PyTorch's cubic convolution parameter (grid_sample's bicubic mode)
_DEFAULT_WARNING = ("Default grid_sample and affine_grid behavior has changed to "
                    "align_corners=False since 1.3.0. Please specify align_corners=True if the "
                    "old behavior is desired. See the documentation of grid_sample for "
                    "details.")


def _align_corners(align_corners):
    if align_corners is None:
        warnings.warn(_DEFAULT_WARNING, stacklevel=3)
        return False
    return bool(align_corners)


# ---- affine_grid ---------------------------------------------------------------------------
def _base_coords(n, align_corners, dtype):
    """The normalised coordinates of ``n`` points along a dim, in [-1, 1] (0 for one point),
    as PyTorch rounds them: its linspace in theta's dtype (symmetric about 0), then times
    n - 1 and over n (np.linspace and one factor (n - 1) / n put a point a few ulps off,
    on the other side of a pixel centre, and grid_sample's gradient took the other side)."""
    if n <= 1:
        return np.zeros(max(n, 0), dtype)
    c = creation._linspace(-1.0, 1.0, n, dtype).astype(dtype)
    return c if align_corners else c * dtype.type(n - 1) / dtype.type(n)


def affine_grid(theta, size, align_corners=None):
    """The sampling grid (N, H, W, 2) (or (N, D, H, W, 3)) of the affine maps ``theta``
    (N, 2, 3) (or (N, 3, 4)) for an output of ``size`` (N, C, H, W) (or (N, C, D, H, W)):
    ``grid[n, i, j] = theta[n] @ (x_j, y_i, 1)``.

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> theta = tg.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
    >>> F.affine_grid(theta, (1, 1, 1, 2), align_corners=True).tolist()
    [[[[-1.0, 0.0], [1.0, 0.0]]]]
    """
    align_corners = _align_corners(align_corners)
    _check_tensor(theta, "affine_grid", "theta")
    if theta.dtype.kind != "f":
        raise ValueError(f"Expected theta to have floating point type, but got "
                         f"{dtypes.name(theta.dtype)}")
    size = tuple(int(s) for s in size)
    if len(size) not in (4, 5):
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                                  f"affine transforms, respectively. Got size {size}.")
    d = len(size) - 2
    if theta.ndim != 3 or tuple(theta.shape[1:]) != (d, d + 1):
        raise ValueError(f"Expected a batch of {d}D affine matrices of shape Nx{d}x{d + 1} for "
                         f"size {size}. Got torch.Size({list(theta.shape)}).")
    spatial = size[2:]
    if align_corners and min(spatial) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size "
                      "grids when align_corners=True. This is not an intended use case of "
                      "affine_grid. See the documentation of affine_grid for details.",
                      stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    if theta.shape[0] != size[0]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{size[0]}, {d + 1}] but got: [{theta.shape[0]}, {d + 1}].")
    # base[..., k]: x (the last spatial dim) first, then y (then z), then 1
    axes = [_base_coords(n, align_corners, np.dtype(theta.dtype)) for n in spatial]
    mesh = np.meshgrid(*axes, indexing="ij")
    base = np.stack([m for m in reversed(mesh)] + [np.ones(spatial, theta.dtype)], -1)
    base = Tensor(base.reshape(1, -1, d + 1).astype(theta.dtype))
    grid = ops.matmul(base, theta.transpose(1, 2))
    return grid.reshape(size[0], *spatial, d)


# ---- grid_sample ---------------------------------------------------------------------------
def _unnormalize(coord, n, align_corners):
    """Grid coordinates in [-1, 1] as pixel coordinates in [0, n - 1] (align_corners: -1 and
    1 are the corner pixels' centres) or [-0.5, n - 0.5] (their outer edges)."""
    if align_corners:
        return (coord + 1.0) * ((n - 1) / 2.0)
    return ((coord + 1.0) * n - 1.0) / 2.0


def _clip(x, n):
    """``x`` clipped into [0, n - 1], with PyTorch's gradient: 1 strictly inside, 0 at and
    beyond the ends."""
    # (which side of the ends each coordinate is on decides the path: guarded when traced)
    xv = host_values(x, "grid_sample", lambda t: (t > 0).double() * 2.0 + (t < n - 1).double())
    inside = Tensor((xv > 0) & (xv < n - 1))
    return ops.where(inside, x, Tensor(np.clip(xv, 0, n - 1).astype(xv.dtype)))


def _reflect(x, twice_lo, twice_hi):
    """``x`` folded back into [lo, hi] by reflections at the ends (the gradient flips sign
    with each reflection)."""
    if twice_lo == twice_hi:
        return x * 0.0
    lo, span = twice_lo / 2.0, (twice_hi - twice_lo) / 2.0
    dist = (x - lo).abs()
    flips = np.floor(host_values(dist, "grid_sample", lambda t: (t / span).floor()) / span)
    extra = dist - Tensor(flips * span)
    even = Tensor(flips % 2 == 0)
    return ops.where(even, extra + lo, (span + lo) - extra)


def _pad_coord(x, n, padding_mode, align_corners):
    if padding_mode == "border":
        return _clip(x, n)
    if padding_mode == "reflection":
        twice = (0, 2 * (n - 1)) if align_corners else (-1, 2 * n - 1)
        return _clip(_reflect(x, *twice), n)
    return x


def _cubic_weights(t):
    """Keys' cubic convolution weights of the 4 taps at offsets -1, 0, 1, 2 from the floor,
    for the fraction ``t`` (a tensor)."""
    a = _CUBIC_A

    def near(s):  # |s| <= 1
        return ((a + 2.0) * s - (a + 3.0)) * s * s + 1.0

    def far(s):  # 1 < |s| < 2
        return ((a * s - 5.0 * a) * s + 8.0 * a) * s - 4.0 * a

    return [far(t + 1.0), near(t), near(1.0 - t), far(2.0 - t)]


def _taps(x, n, mode, padding_mode, align_corners):
    """The taps along one dim: a list of (integer index array, in-bounds mask, weight tensor
    or None) for the pixel coordinates ``x`` (a tensor)."""
    if mode == "bicubic":  # (the taps' cells decide the indices: guarded when traced)
        xv = host_values(x, "grid_sample", lambda t: t.floor())
        lo = np.floor(xv)
        t = x - Tensor(lo.astype(xv.dtype))
        taps = []
        for k, w in enumerate(_cubic_weights(t)):
            c = lo + (k - 1)
            if padding_mode != "zeros":  # the tap itself is padded (no gradient through it)
                c = np.asarray(_pad_coord(Tensor(c), n, padding_mode, align_corners)._data)
            taps.append((c, w))
    else:
        x = _pad_coord(x, n, padding_mode, align_corners)
        xv = host_values(x, "grid_sample",
                         (lambda t: t.round()) if mode == "nearest" else (lambda t: t.floor()))
        if mode == "nearest":
            return [_tap(np.rint(xv), n, x * 0.0 + 1.0)]  # weight 1, gradient 0 (PyTorch's)
        lo = np.floor(xv)
        hi_w = x - Tensor(lo.astype(xv.dtype))
        taps = [(lo, 1.0 - hi_w), (lo + 1, hi_w)]
    return [_tap(c, n, w) for c, w in taps]


def _tap(c, n, w):
    valid = np.isfinite(c) & (c >= 0) & (c <= n - 1)
    return np.where(valid, c, 0).astype(np.int64), valid, w


def _grid_check(input, grid):
    _check_tensor(input, "grid_sample")
    _check_tensor(grid, "grid_sample", "grid")
    isz, gsz = list(input.shape), list(grid.shape)
    if input.ndim != grid.ndim:
        raise RuntimeError(f"grid_sampler(): expected {input.ndim}D input and grid with same "
                           f"number of dimensions, but got input with sizes {isz} and grid "
                           f"with sizes {gsz}")
    if input.ndim not in (4, 5):
        raise RuntimeError(f"grid_sampler(): expected 4D or 5D input and grid with same number "
                           f"of dimensions, but got input with sizes {isz} and grid with sizes "
                           f"{gsz}")
    if isz[0] != gsz[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, "
                           f"but got input with sizes {isz} and grid with sizes {gsz}")
    if gsz[-1] != input.ndim - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.ndim - 2} in "
                           f"last dimension, but got grid with sizes {gsz}")
    for i in range(2, input.ndim):
        if isz[i] == 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial "
                               f"dimensions, but input has sizes {isz} with dimension {i} "
                               "being empty")
    words = [dtypes.torch_name(x.dtype) for x in (input, grid)]
    for x, word in zip((input, grid), words, strict=True):
        if x.dtype.kind != "f":
            raise NotImplementedError(f'"grid_sampler_{input.ndim - 2}d_cpu_kernel_impl" not '
                                      f"implemented for '{word}'")
    if input.dtype != grid.dtype:
        raise RuntimeError(f"expected scalar type {words[0]} but found {words[1]}")


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """``input`` (N, C, H, W) read at the normalised coordinates ``grid`` (N, Ho, Wo, 2)
    (``grid[..., 0]`` is x, along W; -1 is the left edge), giving (N, C, Ho, Wo); also 3-D:
    (N, C, D, H, W) with a grid (N, Do, Ho, Wo, 3).  ``mode``: 'bilinear' (trilinear in 3-D),
    'nearest' or 'bicubic' (4-D only); ``padding_mode``: 'zeros', 'border' or 'reflection'.

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> x = tg.tensor([[[[0.0, 2.0]]]])
    >>> F.grid_sample(x, tg.tensor([[[[0.0, 0.0]]]]), align_corners=True).item()
    1.0
    """
    if mode not in GRID_SAMPLE_INTERPOLATION_MODES:
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in GRID_SAMPLE_PADDING_MODES:
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    align_corners = _align_corners(align_corners)
    _grid_check(input, grid)
    d = input.ndim - 2
    if mode == "bicubic" and d != 2:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    n, c = input.shape[:2]
    spatial, out = tuple(input.shape[2:]), tuple(grid.shape[1:-1])
    points = math.prod(out)
    g = grid.reshape(n, points, d)
    # per input dim (D, H, W order), the taps; grid[..., 0] is the last dim's coordinate
    per_dim = [_taps(_unnormalize(g[:, :, d - 1 - i], spatial[i], align_corners), spatial[i],
                     mode, padding_mode, align_corners) for i in range(d)]
    # the input as rows (n * prod(spatial), c): one index_select per tap combination
    rows = input.reshape(n, c, -1).transpose(1, 2).reshape(-1, c)
    base = (np.arange(n) * math.prod(spatial))[:, None]
    total = None
    for combo in itertools.product(*per_dim):
        flat = np.zeros((n, points), np.int64)
        valid = np.ones((n, points), bool)
        weight = None
        for i, (idx, ok, w) in enumerate(combo):
            flat = flat * spatial[i] + idx
            valid &= ok
            weight = w if weight is None else weight * w
        picked = rows.index_select(0, Tensor((flat + base).reshape(-1))).reshape(n, points, c)
        weight = ops.where(Tensor(valid), weight, Tensor(np.zeros((), weight.dtype)))
        term = picked * weight.unsqueeze(-1)
        total = term if total is None else total + term
    # (a copy: PyTorch's result is a tensor of its own, not a view of the sum)
    y = total.transpose(1, 2).reshape(n, c, *out).clone()
    return named_result(y, f"GridSampler{d}DBackward0", input, grid)
