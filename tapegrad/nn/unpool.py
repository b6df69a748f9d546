"""Max unpooling and fractional max pooling, composed from primitives.

``max_unpool{1,2,3}d`` puts each value at the flat position its index names in a zero
output plane (one scatter row: the gradient gathers back from those positions), the inverse
of ``max_pool*d(..., return_indices=True)``.  ``fractional_max_pool{2,3}d`` (Graham's
fractional max-pooling) takes, per sample and channel, windows of ``kernel_size`` whose
starts are PyTorch's pseudo-random sequence ``int((i + u) a) - int(u a)``,
``a = (in - k) / (out - 1)`` (the last window ends at the input's end), ``u`` a sample in
[0, 1) per (sample, channel, dim): drawn from tapegrad's generator, or given as
``_random_samples`` (N, C, d) in PyTorch's order (W, H in 2-d; T, H, W in 3-d).  The
windows' elements are gathered and max-reduced, so the gradient reaches each window's first
maximum.

>>> import tapegrad as tg, tapegrad.nn.functional as F
>>> y, i = F.max_pool1d(tg.tensor([[1.0, 3.0, 2.0, 0.0]]), 2, return_indices=True)
>>> F.max_unpool1d(y, i, 2).tolist()
[[0.0, 3.0, 2.0, 0.0]]
"""
import math

import numpy as np

from .. import creation, dtypes
from ..ops._record import node
from ..tensor import Tensor
from .windows import _check_tensor, _float_input, _ntuple

_DIM_WORDS = ("time", "height", "width")


# ---- max_unpool ----------------------------------------------------------------------------
def _unpool_size(input, k, stride, padding, output_size):
    """The output's spatial size: PyTorch's default, or ``output_size`` checked against it."""
    d = len(k)
    default = [(input.shape[input.ndim - d + i] - 1) * stride[i] + k[i] - 2 * padding[i]
               for i in range(d)]
    if output_size is None:
        return default
    out = [int(o) for o in output_size]
    if len(out) == d + 2:
        out = out[2:]
    if len(out) != d:
        raise ValueError(f"output_size should be a sequence containing {d} or {d + 2} "
                         f"elements, but it has a length of '{len(out)}'")
    for i in range(d):
        lo, hi = default[i] - stride[i], default[i] + stride[i]
        if not lo < out[i] < hi:
            raise ValueError(f'invalid output_size "{tuple(output_size)}" (dim {i} must be '
                             f"between {lo} and {hi})")
    return out


def _max_unpool(input, indices, kernel_size, stride, padding, output_size, d):
    op = f"max_unpool{d}d"
    _float_input(input, op)
    _check_tensor(indices, op, "indices")
    k = _ntuple(kernel_size, d, "kernel_size", op)
    stride = k if stride is None else _ntuple(stride, d, "stride", op)
    padding = _ntuple(padding, d, "padding", op)
    shown = max(d, 2)  # PyTorch runs 1-d unpooling as 2-d (its messages say so)
    if input.ndim not in (d + 1, d + 2):
        raise RuntimeError(f"Input to max_unpooling{shown}d should be a {shown + 1}d or "
                           f"{shown + 2}d Tensor, but got a tensor with {input.ndim + shown - d}"
                           " dimensions.")
    if indices.dtype != np.int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: "
                           f"{dtypes.torch_name(indices.dtype)}")
    if tuple(indices.shape) != tuple(input.shape):
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor "
                           f"({list(input.shape)}) but got indices tensor with shape: "
                           f"{list(indices.shape)}")
    out = _unpool_size(input, k, stride, padding, output_size)
    plane = math.prod(out)
    idx = np.asarray(indices._data)
    bad = idx[(idx < 0) | (idx >= plane)]
    if bad.size:
        sizes = "x".join(str(o) for o in out + [1] * (shown - d))
        raise RuntimeError(f"Found an invalid max index: {int(bad.flat[0])} (output volumes "
                           f"are of size {sizes})")
    lead = tuple(input.shape[:input.ndim - d])
    flat_in = input.reshape(*lead, -1)
    zeros = Tensor(np.zeros(lead + (plane,), input.dtype))
    index = Tensor(idx.reshape(*lead, -1))
    result = zeros.scatter_add(len(lead), index, flat_in)  # gradient: gather at the indices
    planes = np.sort(idx.reshape(-1, math.prod(idx.shape[-d:])), axis=1)
    if (np.diff(planes, axis=1) == 0).any():
        # overlapping windows gave one position twice: PyTorch keeps the last value written
        # there, and still hands every input the gradient at its index
        result = zeros.scatter(len(lead), index, flat_in.detach()) + (result - result.detach())
    return result.reshape(*lead, *out)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of ``max_pool1d``: each value of (N, C, L) or (C, L) put at its index in a
    zero row of the pooled input's length (or ``output_size``)."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 1)


@node("MaxUnpool2DBackward0")
def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of ``max_pool2d``: each value of (N, C, H, W) or (C, H, W) put at its flat
    index in a zero plane.

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> y, i = F.max_pool2d(tg.arange(4.0).reshape(1, 1, 2, 2), 2, return_indices=True)
    >>> F.max_unpool2d(y, i, 2).tolist()
    [[[[0.0, 0.0], [0.0, 3.0]]]]
    """
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 2)


@node("MaxUnpool3DBackward0")
def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of ``max_pool3d`` on (N, C, D, H, W) or (C, D, H, W)."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 3)


# ---- fractional max pooling ----------------------------------------------------------------
def _starts(u, n, o, k, dt):
    """The window starts along a dim of size ``n`` for samples ``u`` (any shape): (..., o),
    in the input's float type, as PyTorch's kernel computes them."""
    u = u.astype(dt)
    seq = np.empty(u.shape + (o,), np.int64)
    if o > 1:
        alpha = dt.type(n - k) / dt.type(o - 1)
        i = np.arange(o - 1, dtype=dt)
        seq[..., :-1] = ((i + u[..., None]) * alpha).astype(np.int64) - \
            (u[..., None] * alpha).astype(np.int64)
    if o > 0:
        seq[..., -1] = n - k
    return seq


def _fractional_sizes(spatial, k, output_size, output_ratio, d, op):
    if output_size is None and output_ratio is None:
        raise ValueError(f"{op} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        ratio = output_ratio if isinstance(output_ratio, (list, tuple)) else [output_ratio] * d
        if len(ratio) == 1:
            ratio = list(ratio) * d
        if not all(0 < r < 1 for r in ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")
        return [int(n * r) for n, r in zip(spatial, ratio, strict=True)]
    return list(_ntuple(output_size, d, "output_size", op))


def _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                         samples, d):
    op = f"fractional_max_pool{d}d"
    where = op + ("()" if d == 2 else "_out()")
    _float_input(input, op)
    if input.ndim not in (d + 1, d + 2) or input.numel() == 0:
        raise RuntimeError(f"{where}: Expected {d + 1}D or {d + 2}D tensor, but got: "
                           f"{list(input.shape)}")
    k = _ntuple(kernel_size, d, "kernel_size", op)
    x = input if input.ndim == d + 2 else input.unsqueeze(0)
    n, c = x.shape[:2]
    spatial = list(x.shape[2:])
    out = _fractional_sizes(spatial, k, output_size, output_ratio, d, op)
    words = _DIM_WORDS[3 - d:]
    for i in range(d):
        if out[i] + k[i] - 1 > spatial[i]:
            raise RuntimeError(f"{where}: pool {words[i]} {k[i]} too large relative to input "
                               f"{words[i]} {spatial[i]}")
    if samples is None:
        u = creation._rng.random((n, c, d))
    else:
        _check_tensor(samples, op, "_random_samples")
        u = np.asarray(samples._data)
        if u.ndim != 3 or u.shape[0] < n or u.shape[1] != c:
            raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
        if u.shape[2] != d:
            raise RuntimeError(f"Expect _random_samples.size(2) equals to {d}; got "
                               f"{u.shape[2]}.")
        u = u[:n]
    # flat plane indices of every window's elements: (N, C, *out, prod(k)), row-major scan
    flat = np.zeros((n, c) + (1,) * (2 * d), np.int64)
    for i in range(d):
        sample = u[..., d - 1 - i] if d == 2 else u[..., i]  # (PyTorch's orders)
        start = _starts(sample, spatial[i], out[i], k[i], input.dtype)  # (N, C, o)
        pos = start[..., :, None] + np.arange(k[i])  # (N, C, o, k)
        shape = [n, c] + [1] * (2 * d)
        shape[2 + i], shape[2 + d + i] = out[i], k[i]
        flat = flat * spatial[i] + pos.reshape(shape)
    flat = flat.reshape(n, c, *out, -1)
    picked = x.reshape(n, c, -1).gather(2, Tensor(flat.reshape(n, c, -1)))
    values, arg = picked.reshape(*flat.shape).max(-1)
    indices = np.take_along_axis(flat, np.asarray(arg._data)[..., None], -1)[..., 0]
    if input.ndim == d + 1:
        values, indices = values.squeeze(0), indices[0]
    return (values, Tensor(indices)) if return_indices else values


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """Fractional max pooling of (N, C, H, W) or (C, H, W) to ``output_size`` (or
    ``output_ratio`` of the input's size) with ``kernel_size`` windows at pseudo-random
    starts."""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio,
                                return_indices, _random_samples, 2)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """Fractional max pooling of (N, C, D, H, W) or (C, D, H, W)."""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio,
                                return_indices, _random_samples, 3)


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None,
                                       output_ratio=None, return_indices=False,
                                       _random_samples=None):
    return fractional_max_pool2d(input, kernel_size, output_size, output_ratio, True,
                                 _random_samples)


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None,
                                       output_ratio=None, return_indices=False,
                                       _random_samples=None):
    return fractional_max_pool3d(input, kernel_size, output_size, output_ratio, True,
                                 _random_samples)
