"""Padding, convolution and pooling, composed from primitives: every sliding window of an
input is one strided view (one STRIDED row whose map holds the window strides, so its reverse
rule accumulates the overlaps), and a convolution is the weight times that view (one
BmmBackward0 row, groups included) plus the bias.  Pooling reduces the same view
with max (the gradient to the first maximum of a window, as PyTorch's max_pool) or sum.
Padding is a CAT row per padded dim (constant) or an index_select (reflect, replicate,
circular).  Arguments are checked before anything is recorded, with PyTorch's messages.

>>> import tapegrad as tg, tapegrad.nn.functional as F
>>> F.conv2d(tg.ones(1, 1, 3, 3), tg.ones(1, 1, 2, 2)).tolist()
[[[[4.0, 4.0], [4.0, 4.0]]]]
"""
import math

import numpy as np

from .. import dtypes, ops
from ..ops._record import named_result
from ..ops.shape import _strided
from ..tensor import Tensor, host_values
from ._refusals import non_float

_WINDOW = "IndexBackward0"  # the node name of a window view (PyTorch has none: inside conv)


def _check_tensor(x, op, name="input"):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument '{name}' must be Tensor, not {type(x).__name__}")


def _float_input(x, op):
    _check_tensor(x, op)
    if x.dtype.kind != "f":
        raise non_float(x, op, f"{op}(): expected a floating point input, got {x.dtype} "
                        "(convert it with .double() or .float())")


def _ntuple(v, d, name, op):
    """An int or a sequence of ``d`` ints, as a tuple of ``d`` ints."""
    if isinstance(v, (int, np.integer)):
        return (int(v),) * d
    v = tuple(int(e) for e in v)
    if len(v) == 1:
        return v * d
    if len(v) != d:
        raise RuntimeError(f"{op}: expected {name} to be a single integer value or a list of "
                           f"{d} values to match the convolution dimensions, but got "
                           f"{name}={list(v)}")
    return v


def _size(shape):
    return "x".join(str(s) for s in shape)


# ---- pad -----------------------------------------------------------------------------------
def pad(input, pad, mode="constant", value=None):
    """Pad the last ``len(pad) // 2`` dims: ``pad = (left, right, top, bottom, ...)`` from the
    last dim backwards; negative amounts crop.  ``mode``: 'constant' (``value``, default 0),
    'reflect', 'replicate' or 'circular'.

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> F.pad(tg.tensor([1.0, 2.0]), (1, 2)).tolist()
    [0.0, 1.0, 2.0, 0.0, 0.0]
    """
    _check_tensor(input, "pad")
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.ndim:
        raise RuntimeError("Padding length should be less than or equal to two times the "
                           f"input dimension but got padding length {len(pad)} and input of "
                           f"dimension {input.ndim}")
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode != "constant" and value not in (None, 0, 0.0):
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument.")
    pairs = [(input.ndim - 1 - i, pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)]
    if mode == "constant":
        y = _pad_constant(input, pairs, 0.0 if value is None else value)
        return named_result(y, "ConstantPadNdBackward0", input)
    for d, lo, hi in pairs:
        n = input.shape[d]
        if mode == "reflect" and (lo >= n or hi >= n):
            raise RuntimeError(f"Argument #4: Padding size should be less than the "
                               f"corresponding input dimension, but got: padding ({lo}, {hi}) "
                               f"at dimension {d} of input {list(input.shape)}")
        if mode == "circular" and (lo > n or hi > n):
            raise RuntimeError("Padding value causes wrapping around more than once.")
    y = input
    for d, lo, hi in pairs:
        y = y.index_select(d, Tensor(_pad_index(y.shape[d], lo, hi, mode)))
    if mode == "circular":  # (PyTorch's is a copy into slices)
        return named_result(y, "torch::autograd::CopySlices", input)
    kind = "ReflectionPad" if mode == "reflect" else "ReplicationPad"
    return named_result(y, f"{kind}{len(pairs)}DBackward0", input)


def _pad_index(n, lo, hi, mode):
    """The source index along a dim of size ``n`` of each position padded by ``lo``, ``hi``."""
    i = np.arange(-lo, n + hi)
    if mode == "replicate":
        return np.clip(i, 0, n - 1)
    if mode == "circular":
        return i % n
    period = 2 * (n - 1) if n > 1 else 1  # reflect: ... 2 1 | 0 1 2 ... n-1 | n-2 ...
    i = np.abs(i) % period
    return np.where(i >= n, period - i, i)


def _pad_constant(x, pairs, value):
    """``x`` padded by ``(dim, before, after)`` triples with ``value`` (negative: cropped)."""
    for d, lo, hi in pairs:
        if lo < 0 or hi < 0:
            n = x.shape[d]
            start, stop = max(-lo, 0), n - max(-hi, 0)
            if stop < start:
                raise RuntimeError(f"The input size {n}, plus negative padding {lo} and {hi} "
                                   f"resulted in a negative output size, which is invalid. "
                                   f"Check dimension {d} of your input.")
            x = x.narrow(d, start, stop - start)
        lo, hi = max(lo, 0), max(hi, 0)
        if lo == 0 and hi == 0:
            continue
        parts = []
        for k in (lo, hi):
            shape = list(x.shape)
            shape[d] = k
            parts.append(Tensor(np.full(shape, value, dtype=x.dtype)))
        x = ops.cat([parts[0], x, parts[1]], d)
    return x


# ---- the window view -----------------------------------------------------------------------
def _windows(x, dims, merge):
    """A strided view of ``x`` (its C-order values) as one STRIDED row: ``dims`` lists the
    view's (size, stride in elements); the copy's shape merges consecutive dims, ``merge``
    giving how many go into each."""
    src = np.ascontiguousarray(np.asarray(x._data))
    item = src.itemsize
    view = np.lib.stride_tricks.as_strided(src, [n for n, _ in dims],
                                           [st * item for _, st in dims], writeable=False)
    shape, i = [], 0
    for m in merge:
        shape.append(math.prod(n for n, _ in dims[i:i + m]))
        i += m
    return _strided(x, src, view, _WINDOW, tuple(shape), alias=False)


def _spatial_strides(x):
    """The element strides of the spatial dims of a C-contiguous (N, C, *spatial) ``x``."""
    shape = tuple(x.shape)
    return [math.prod(shape[i + 1:]) for i in range(2, len(shape))]


# ---- convolution ---------------------------------------------------------------------------
def _conv_padding(padding, d, k, dil, stride, op, functional=False):
    """(before, after) per spatial dim for an int, a tuple, 'valid' or 'same'.  The layers'
    constructors refuse a bad string with ValueError, the functions with RuntimeError (and
    other words), as PyTorch's."""
    if isinstance(padding, str):
        if padding == "valid":
            return [(0, 0)] * d
        exc = RuntimeError if functional else ValueError
        if padding != "same":
            raise exc(f"Invalid padding string: '{padding}'" if functional else
                      f"Invalid padding string '{padding}', should be one of "
                      "{'same', 'valid'}")
        if any(s != 1 for s in stride):
            raise exc("padding='same' is not supported for strided convolutions")
        total = [di * (ki - 1) for di, ki in zip(dil, k, strict=True)]
        return [(t // 2, t - t // 2) for t in total]
    return [(p, p) for p in _ntuple(padding, d, "padding", op)]


def _common_dtype(input, weight, bias):
    """The three cast to one float dtype (differentiable ToCopy rows).  PyTorch raises on a
    float32 input meeting float64 weights; tapegrad's parameters are float64 by default, so,
    as its matmul and linear do, the narrower operand is promoted instead while float64 is
    the default (ops.linalg._stand_in); any other mix is refused in PyTorch's words."""
    if weight.dtype != input.dtype and not ops.linalg._stand_in(input, weight):
        raise RuntimeError(f"expected scalar type {dtypes.torch_name(input.dtype)} but found "
                           f"{dtypes.torch_name(weight.dtype)}")
    if bias is not None and bias.dtype != input.dtype and not ops.linalg._stand_in(input, bias):
        c = dtypes.C_NAMES
        raise RuntimeError(f"Input type ({c.get(input.dtype.name, input.dtype.name)}) and bias "
                           f"type ({c.get(bias.dtype.name, bias.dtype.name)}) should be the "
                           "same")
    ts = [t for t in (input, weight, bias) if t is not None]
    wide = np.result_type(*[t.dtype for t in ts])
    return [t if t is None or t.dtype == wide else t.to(wide) for t in (input, weight, bias)]


def _conv_args(input, weight, bias, stride, dilation, groups, d, op, channels):
    """The checks a convolution and its transpose share: the input's batched shape, the
    stride and the dilation (``channels`` names the weight's first two dims)."""
    _float_input(input, op)
    _check_tensor(weight, op, "weight")
    if bias is not None:
        _check_tensor(bias, op, "bias")
    if input.ndim not in (d + 1, d + 2):
        raise RuntimeError(f"Expected {d + 1}D (unbatched) or {d + 2}D (batched) input to "
                           f"{op}, but got input of size: {list(input.shape)}")
    if weight.ndim != d + 2:
        raise RuntimeError(f"{op}: expected a {d + 2}-D weight ({channels}, *kernel_size), "
                           f"got weight of size {list(weight.shape)}")
    shape = tuple(input.shape) if input.ndim == d + 2 else (1,) + tuple(input.shape)
    stride = _ntuple(stride, d, "stride", op)
    dil = _ntuple(dilation, d, "dilation", op)
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(e <= 0 for e in dil):
        raise RuntimeError("dilation should be greater than zero")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    return shape, stride, dil


def _conv(input, weight, bias, stride, padding, dilation, groups, d):
    op = f"conv{d}d"
    shape, stride, dil = _conv_args(input, weight, bias, stride, dilation, groups, d, op,
                                    "out_channels, in_channels / groups")
    n_out, cg = weight.shape[:2]
    k = tuple(weight.shape[2:])
    if shape[1] != cg * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(weight.shape)}, "
                           f"expected input{list(shape)} to have {cg * groups} channels, "
                           f"but got {shape[1]} channels instead")
    if n_out % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by "
                           f"{groups} at dimension 0, but got weight of size "
                           f"{list(weight.shape)} instead")
    if bias is not None and tuple(bias.shape) != (n_out,):
        raise RuntimeError(f"Given weight of size {list(weight.shape)}, expected bias to be "
                           f"1-dimensional with {n_out} elements, but got bias of size "
                           f"{list(bias.shape)} instead")
    pads = _conv_padding(padding, d, k, dil, stride, op, functional=True)
    padded = [n + lo + hi for n, (lo, hi) in zip(shape[2:], pads, strict=True)]
    eff = [di * (ki - 1) + 1 for di, ki in zip(dil, k, strict=True)]
    if any(p < e for p, e in zip(padded, eff, strict=True)):
        raise RuntimeError(f"Calculated padded input size per channel: "
                           f"({' x '.join(map(str, padded))}). Kernel size: "
                           f"({' x '.join(map(str, eff))}). Kernel size can't be greater than "
                           "actual input size")
    input, weight, bias = _common_dtype(input, weight, bias)  # (checks done: now record)
    x = input if input.ndim == d + 2 else input.unsqueeze(0)
    xp = _pad_constant(x, [(2 + i, lo, hi) for i, (lo, hi) in enumerate(pads)], 0.0)
    out = [(p - e) // s + 1 for p, e, s in zip(padded, eff, stride, strict=True)]
    n, c = x.shape[:2]
    chan, sp = math.prod(padded), _spatial_strides(xp)
    # the windows as (N, G, Cg * K, L): per sample and group, one row per (channel, kernel
    # offset), one column per output position; the weight (G, O / G, Cg * K) times it is
    # then (N, G, O / G, L), in the output's order: one BmmBackward0 row, no transpose
    dims = ([(n, c * chan), (groups, cg * chan), (cg, chan)] +
            [(ki, di * e) for ki, di, e in zip(k, dil, sp, strict=True)] +
            [(o, s * e) for o, s, e in zip(out, stride, sp, strict=True)])
    cols = _windows(xp, dims, [1, 1, 1 + d, d])
    y = weight.reshape(groups, n_out // groups, -1).matmul(cols).reshape(n, n_out, *out)
    if bias is not None:
        y = y + bias.reshape(n_out, *([1] * d))
    y = named_result(y, "ConvolutionBackward0", x, weight, bias)
    return y if input.ndim == d + 2 else y.squeeze(0)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-D convolution (cross-correlation) of ``input`` (N, C, L) or (C, L) with ``weight``
    (O, C / groups, K); ``padding`` an int, a tuple, 'valid' or 'same'."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D convolution (cross-correlation) of ``input`` (N, C, H, W) or (C, H, W) with
    ``weight`` (O, C / groups, kH, kW); ``padding`` an int, a pair, 'valid' or 'same'.

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> F.conv2d(tg.ones(2, 3, 5, 5), tg.ones(4, 3, 3, 3), padding=1).shape
    torch.Size([2, 4, 5, 5])
    """
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-D convolution of ``input`` (N, C, D, H, W) or (C, D, H, W) with ``weight``."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 3)


def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation,
                    d):
    """The transposed convolution as a convolution: the input with ``stride - 1`` zeros
    between neighbours (a CAT with zeros and a reshape per dim), padded by
    ``dilation * (k - 1) - padding`` (plus ``output_padding`` after; negative crops), and
    the weight's in/out channels swapped per group and its kernel flipped."""
    op = f"conv_transpose{d}d"
    shape, stride, dil = _conv_args(input, weight, bias, stride, dilation, groups, d, op,
                                    "in_channels, out_channels / groups")
    pad = _ntuple(padding, d, "padding", op)
    out_pad = _ntuple(output_padding, d, "output_padding", op)
    c_in, og = weight.shape[:2]
    k = tuple(weight.shape[2:])
    if shape[1] != c_in:
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight.shape)}, expected "
                           f"input{list(shape)} to have {c_in} channels, but got {shape[1]} "
                           "channels instead")
    if c_in % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by "
                           f"{groups} at dimension 0, but got weight of size "
                           f"{list(weight.shape)} instead")
    if bias is not None and tuple(bias.shape) != (og * groups,):
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight.shape)}, expected "
                           f"bias to be 1-dimensional with {og * groups} elements, but got "
                           f"bias of size {list(bias.shape)} instead")
    if any(o >= s and o >= e for o, s, e in zip(out_pad, stride, dil, strict=True)):
        names = ("depth", "height", "width")[3 - d:] if d > 1 else ("width",)
        parts = [f"output_padding_{n}: {o}" for n, o in zip(names, out_pad, strict=True)] + \
            [f"stride_{n}: {s}" for n, s in zip(names, stride, strict=True)] + \
            [f"dilation_{n}: {e}" for n, e in zip(names, dil, strict=True)]
        raise RuntimeError("output padding must be smaller than either stride or dilation, "
                           "but got " + " ".join(parts))
    out = [(n - 1) * s - 2 * p + e * (ki - 1) + o + 1
           for n, s, p, e, ki, o in zip(shape[2:], stride, pad, dil, k, out_pad, strict=True)]
    if any(o <= 0 for o in out):
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, shape[2:]))})."
                           f" Calculated output size per channel: "
                           f"({' x '.join(map(str, out))}). Output size is too small")
    input, weight, bias = _common_dtype(input, weight, bias)  # (checks done: now record)
    x = x0 = input if input.ndim == d + 2 else input.unsqueeze(0)
    for i, s in enumerate(stride):
        if s > 1 and x.shape[2 + i] > 1:  # s - 1 zeros after each element, the last's cut
            dim, n = 2 + i, x.shape[2 + i]
            zeros = list(x.shape[:dim + 1]) + [s - 1] + list(x.shape[dim + 1:])
            spread = ops.cat([x.unsqueeze(dim + 1), Tensor(np.zeros(zeros, x.dtype))], dim + 1)
            x = spread.reshape(*x.shape[:dim], n * s, *x.shape[dim + 1:]).narrow(
                dim, 0, (n - 1) * s + 1)
    edges = [e * (ki - 1) - p for e, ki, p in zip(dil, k, pad, strict=True)]
    x = _pad_constant(x, [(2 + i, lo, lo + o) for i, (lo, o) in
                          enumerate(zip(edges, out_pad, strict=True))], 0.0)
    w = weight.reshape(groups, c_in // groups, og, *k).transpose(1, 2)
    w = w.reshape(og * groups, c_in // groups, *k).flip(list(range(2, d + 2)))
    y = named_result(_conv(x, w, bias, 1, 0, dil, groups, d), "ConvolutionBackward0", x0,
                     weight, bias)
    return y if input.ndim == d + 2 else y.squeeze(0)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                     groups=1, dilation=1):
    """1-D transposed convolution of (N, C_in, L) or (C_in, L) with ``weight``
    (C_in, C_out / groups, K)."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 1)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                     groups=1, dilation=1):
    """2-D transposed convolution ("deconvolution") of (N, C_in, H, W) or (C_in, H, W) with
    ``weight`` (C_in, C_out / groups, kH, kW).

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> F.conv_transpose2d(tg.ones(1, 2, 3, 3), tg.ones(2, 4, 4, 4), stride=2, padding=1).shape
    torch.Size([1, 4, 6, 6])
    """
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 2)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                     groups=1, dilation=1):
    """3-D transposed convolution of (N, C_in, D, H, W) or (C_in, D, H, W)."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 3)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """The sliding blocks of (N, C, H, W) or (C, H, W) as columns: (N, C * kH * kW, L),
    L the number of block positions (im2col; one STRIDED row).

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> F.unfold(tg.ones(1, 2, 3, 3), 2).shape
    torch.Size([1, 8, 4])
    """
    _float_input(input, "unfold")
    if input.ndim not in (3, 4):
        raise RuntimeError(f"Input Error: Only 3D or 4D input Tensors are supported (got "
                           f"{input.ndim}D)")
    k = _ntuple(kernel_size, 2, "kernel_size", "unfold")
    dil = _ntuple(dilation, 2, "dilation", "unfold")
    pads = [(p, p) for p in _ntuple(padding, 2, "padding", "unfold")]
    stride = _ntuple(stride, 2, "stride", "unfold")
    shape = tuple(input.shape) if input.ndim == 4 else (1,) + tuple(input.shape)
    padded = [n + lo + hi for n, (lo, hi) in zip(shape[2:], pads, strict=True)]
    out = [(p - (di * (ki - 1) + 1)) // s + 1
           for p, di, ki, s in zip(padded, dil, k, stride, strict=True)]
    if any(o <= 0 for o in out):
        raise RuntimeError(f"Given input with spatial size ({', '.join(map(str, shape[2:]))}), "
                           f"kernel_size={list(k)}, dilation={list(dil)}, padding="
                           f"{[p for p, _ in pads]}, calculated shape of the array of sliding "
                           f"blocks as ({', '.join(map(str, out))}), but its components must "
                           "be at least one.")
    x = input if input.ndim == 4 else input.unsqueeze(0)
    xp = _pad_constant(x, [(2 + i, lo, hi) for i, (lo, hi) in enumerate(pads)], 0.0)
    n, c = shape[:2]
    chan, sp = math.prod(padded), _spatial_strides(xp)
    dims = ([(n, c * chan), (c, chan)] +
            [(ki, di * e) for ki, di, e in zip(k, dil, sp, strict=True)] +
            [(o, s * e) for o, s, e in zip(out, stride, sp, strict=True)])
    cols = _windows(xp, dims, [1, 3, 2])
    return named_result(cols if input.ndim == 4 else cols.squeeze(0), "Im2ColBackward0", input)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """The inverse layout of ``unfold`` (col2im): columns (N, C * kH * kW, L) or
    (C * kH * kW, L) summed into (N, C, H, W), overlapping blocks adding up (one
    index_add row)."""
    _float_input(input, "fold")
    if input.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                           f"batch size and non-zero dimensions for input, but got: "
                           f"{list(input.shape)}")
    size = _ntuple(output_size, 2, "output_size", "fold")
    k = _ntuple(kernel_size, 2, "kernel_size", "fold")
    dil = _ntuple(dilation, 2, "dilation", "fold")
    pad = _ntuple(padding, 2, "padding", "fold")
    stride = _ntuple(stride, 2, "stride", "fold")
    x = input if input.ndim == 3 else input.unsqueeze(0)
    n, ck, length = x.shape
    if ck % (k[0] * k[1]):
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the "
                           f"product of kernel_size, but got input.size(1)={ck} and "
                           f"kernel_size=({k[0]}, {k[1]}).")
    blocks = [(o + 2 * p - (e * (kk - 1) + 1)) // s + 1
              for o, p, e, kk, s in zip(size, pad, dil, k, stride, strict=True)]
    if length != blocks[0] * blocks[1]:
        raise RuntimeError(f"Given output_size=({size[0]}, {size[1]}), kernel_size=({k[0]}, "
                           f"{k[1]}), dilation=({dil[0]}, {dil[1]}), padding=({pad[0]}, "
                           f"{pad[1]}), stride=({stride[0]}, {stride[1]}), expected size of "
                           f"input's dimension 2 to match the calculated number of sliding "
                           f"blocks {blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but "
                           f"got input.size(2)={length}.")
    c = ck // (k[0] * k[1])
    hp, wp = size[0] + 2 * pad[0], size[1] + 2 * pad[1]
    # the padded output position of every (channel, kernel row, kernel col, block row,
    # block col) entry of the columns
    ch, ki, kj, bi, bj = np.indices((c, k[0], k[1], blocks[0], blocks[1]))
    rows = bi * stride[0] + ki * dil[0]
    cols = bj * stride[1] + kj * dil[1]
    target = ((ch * hp + rows) * wp + cols).reshape(-1)
    out = Tensor(np.zeros((n, c * hp * wp), x.dtype)).index_add(
        1, Tensor(target.astype(np.int64)), x.reshape(n, -1))
    out = out.reshape(n, c, hp, wp).narrow(2, pad[0], size[0]).narrow(3, pad[1], size[1])
    return named_result(out if input.ndim == 3 else out.squeeze(0), "Col2ImBackward0", input)


# ---- pooling -------------------------------------------------------------------------------
def _pool_args(input, kernel_size, stride, padding, dilation, ceil_mode, d, op):
    """Checked arguments of a pooling op: (x batched, k, stride, pads, out)."""
    _float_input(input, op)
    if input.ndim not in (d + 1, d + 2) or input.numel() == 0:
        if d == 2:
            raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
        raise RuntimeError(f"{op}: Expected {d + 1}D or {d + 2}D (batch mode) tensor with "
                           f"optional 0 dim batch size for input, but got:{list(input.shape)}")
    shape = tuple(input.shape) if input.ndim == d + 2 else (1,) + tuple(input.shape)
    k = _ntuple(kernel_size, d, "kernel_size", op)
    stride = k if stride is None or (not isinstance(stride, int) and len(stride) == 0) else \
        _ntuple(stride, d, "stride", op)
    p = _ntuple(padding, d, "padding", op)
    dil = _ntuple(dilation, d, "dilation", op)
    if any(e <= 0 for e in k + stride + dil):
        raise RuntimeError(f"{op}: kernel_size, stride and dilation must be greater than "
                           f"zero, but got kernel_size={list(k)}, stride={list(stride)}, "
                           f"dilation={list(dil)}")
    eff = [di * (ki - 1) + 1 for di, ki in zip(dil, k, strict=True)]
    for pi, ki, di in zip(p, k, dil, strict=True):
        if pi < 0 or pi > (di * (ki - 1) + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                               f"pad={pi}, kernel_size={ki} and dilation={di}")
    out = []
    for n, e, s, pi in zip(shape[2:], eff, stride, p, strict=True):
        span = n + 2 * pi - e
        o = (-(-span // s) if ceil_mode else span // s) + 1
        if ceil_mode and (o - 1) * s >= n + pi:  # the last window must start inside
            o -= 1
        out.append(o)
    if any(o <= 0 for o in out):
        raise RuntimeError(f"Given input size: ({_size(shape[1:])}). Calculated output size: "
                           f"({_size([shape[1], *out])}). Output size is too small")
    pads = [(pi, max(0, (o - 1) * s + e - n - pi))
            for n, e, s, pi, o in zip(shape[2:], eff, stride, p, out, strict=True)]
    x = input if input.ndim == d + 2 else input.unsqueeze(0)  # (checks done: now record)
    return x, k, stride, dil, pads, out


def _pooled(x, k, stride, dil, pads, out, value):
    """(N, C, *out, prod(k)): the windows of ``x`` padded with ``value``."""
    xp = _pad_constant(x, [(2 + i, lo, hi) for i, (lo, hi) in enumerate(pads)], value)
    n, c = x.shape[:2]
    chan, sp = math.prod(xp.shape[2:]), _spatial_strides(xp)
    dims = ([(n, c * chan), (c, chan)] +
            [(o, s * e) for o, s, e in zip(out, stride, sp, strict=True)] +
            [(ki, di * e) for ki, di, e in zip(k, dil, sp, strict=True)])
    return _windows(xp, dims, [1, 1] + [1] * len(k) + [len(k)])


def _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, d):
    op = f"max_pool{d}d"
    x, k, stride, dil, pads, out = _pool_args(input, kernel_size, stride, padding, dilation,
                                              ceil_mode, d, op)
    values, idx = _pooled(x, k, stride, dil, pads, out, -np.inf).max(-1)
    batched = input.ndim == d + 2
    if not batched:
        values = values.squeeze(0)
    values = _pool_result(values, "MaxPool", d, "WithIndicesBackward0", input)
    if not return_indices:
        return values
    # the flat index into each input plane of the window element max chose (in NumPy: the
    # choices are guarded while tracing, or replay gave the traced point's indices)
    offs = np.unravel_index(host_values(idx, op), k)
    pos = np.indices(out)
    coords = [pos[i] * stride[i] - pads[i][0] + offs[i] * dil[i] for i in range(d)]
    flat = np.ravel_multi_index(coords, tuple(x.shape[2:]))
    indices = Tensor(flat.astype(np.int64))
    return values, (indices if batched else indices.squeeze(0))


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """Max over sliding windows of (N, C, L) or (C, L); ``return_indices``: also the flat
    index of each maximum in its input row."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode,
                     return_indices, 1)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """Max over sliding windows of (N, C, H, W) or (C, H, W); the gradient goes to the first
    maximum of each window, as PyTorch's.

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> F.max_pool2d(tg.arange(16.0).reshape(1, 4, 4), 2).tolist()
    [[[5.0, 7.0], [13.0, 15.0]]]
    """
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode,
                     return_indices, 2)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """Max over sliding windows of (N, C, D, H, W) or (C, D, H, W)."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode,
                     return_indices, 3)


def _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
              divisor_override, d):
    op = f"avg_pool{d}d"
    x, k, stride, _, pads, out = _pool_args(input, kernel_size, stride, padding, 1,
                                            ceil_mode, d, op)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    total = _pooled(x, k, stride, (1,) * d, pads, out, 0.0).sum(-1)
    if divisor_override is not None:
        y = total / float(divisor_override)
    else:
        div = _avg_divisor(x.shape[2:], k, stride, pads, out, count_include_pad)
        y = total / (float(div.flat[0]) if (div == div.flat[0]).all() else
                     Tensor(div.astype(x.dtype)))
    y = y if input.ndim == d + 2 else y.squeeze(0)
    return _pool_result(y, "AvgPool", d, "Backward0", input)


def _pool_result(values, kind, d, tail, input):
    """``values`` as PyTorch's pooling node of ``d`` dims, ``{kind}{d}D{tail}`` of
    ``input``; PyTorch's 1-d poolings are 2-d ones of the unsqueezed input, squeezed (a
    SqueezeBackward1 over the 2-d node, whose create_graph gradient requires grad:
    autograd/higher.py _ZERO_CURVATURE)."""
    if d != 1:
        return named_result(values, f"{kind}{d}D{tail}", input)
    return named_result(values.unsqueeze(-2), f"{kind}2D{tail}", input).squeeze(-2)


def _avg_divisor(shape, k, stride, pads, out, count_include_pad):
    """PyTorch's divisor of each window: its size within the padded input (clipped to the
    input itself unless ``count_include_pad``)."""
    div = np.ones(())
    for n, ki, s, (p, _), o in zip(shape, k, stride, pads, out, strict=True):
        start = np.arange(o) * s - p
        end = np.minimum(start + ki, n + p)
        size = end - start
        if not count_include_pad:
            size = np.minimum(end, n) - np.maximum(start, 0)
        div = np.multiply.outer(div, size)
    return div


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    """Mean over sliding windows of (N, C, L) or (C, L)."""
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     None, 1)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """Mean over sliding windows of (N, C, H, W) or (C, H, W).

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> F.avg_pool2d(tg.arange(16.0).reshape(1, 4, 4), 2).tolist()
    [[[2.5, 4.5], [10.5, 12.5]]]
    """
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, 2)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """Mean over sliding windows of (N, C, D, H, W) or (C, D, H, W)."""
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, 3)


def _adaptive_sizes(input, output_size, d, op):
    """The checked spatial sizes of an adaptive pooling's input and output (an output entry
    None keeps the input's)."""
    _float_input(input, op)
    if input.ndim not in (d + 1, d + 2):
        raise RuntimeError(f"{op}(): Expected {d + 1}D or {d + 2}D tensor, but got "
                           f"{list(input.shape)}")
    sizes = (output_size,) * d if isinstance(output_size, int) or output_size is None else \
        tuple(output_size)
    if len(sizes) != d:
        raise RuntimeError(f"{op}: output_size must be {d}")
    spatial = tuple(input.shape[input.ndim - d:])
    sizes = [n if o is None else int(o) for o, n in zip(sizes, spatial, strict=True)]
    if any(o <= 0 for o in sizes):
        raise RuntimeError(f"{op}: elements of output_size must be greater than or equal to 1 "
                           f"but received {sizes}")
    return spatial, sizes


def _adaptive_avg_pool(input, output_size, d):
    spatial, sizes = _adaptive_sizes(input, output_size, d, f"adaptive_avg_pool{d}d")
    if all(o == 1 for o in sizes):  # (PyTorch's too: one mean, MeanBackward1)
        return input.mean(tuple(range(input.ndim - d, input.ndim)), keepdim=True)
    y = input
    for i, (n, o) in enumerate(zip(spatial, sizes, strict=True)):
        dim = input.ndim - d + i
        if o == n:
            continue
        if o == 1:
            y = y.mean(dim, keepdim=True)
            continue
        # the mean of each window along this dim, as a product with an averaging matrix:
        # window j covers [floor(j n / o), ceil((j + 1) n / o))
        m = np.zeros((n, o), dtype=input.dtype)
        for j in range(o):
            lo, hi = (j * n) // o, -(-((j + 1) * n) // o)
            m[lo:hi, j] = 1.0 / (hi - lo)
        y = y.movedim(dim, -1).matmul(Tensor(m)).movedim(-1, dim)
    return _pool_result(y, "AdaptiveAvgPool", d, "Backward0", input)


def adaptive_avg_pool1d(input, output_size):
    """Mean over ``output_size`` windows covering (N, C, L) or (C, L)."""
    return _adaptive_avg_pool(input, output_size, 1)


def adaptive_avg_pool2d(input, output_size):
    """Mean over ``output_size`` windows covering (N, C, H, W) or (C, H, W) (an entry None
    keeps that size)."""
    return _adaptive_avg_pool(input, output_size, 2)


def adaptive_avg_pool3d(input, output_size):
    """Mean over ``output_size`` windows covering (N, C, D, H, W) or (C, D, H, W)."""
    return _adaptive_avg_pool(input, output_size, 3)


def _adaptive_windows(n, o):
    """Adaptive pooling's windows along a dim of size ``n``: window j covers
    [floor(j n / o), ceil((j + 1) n / o)); as an (o, widest) index matrix whose short rows
    repeat their last index (which changes no maximum, nor which one comes first)."""
    lo = (np.arange(o) * n) // o
    hi = -(-((np.arange(o) + 1) * n) // o)
    width = int((hi - lo).max())
    return np.minimum(lo[:, None] + np.arange(width)[None, :], hi[:, None] - 1)


def _adaptive_max_pool(input, output_size, return_indices, d):
    spatial, sizes = _adaptive_sizes(input, output_size, d, f"adaptive_max_pool{d}d")
    # every window's elements as flat indices into the input's plane, in row-major scan
    # order (the first maximum is PyTorch's choice, and its index)
    wins = [_adaptive_windows(n, o) for n, o in zip(spatial, sizes, strict=True)]
    flat = np.zeros([1] * (2 * d), np.int64)
    for i, (w, n) in enumerate(zip(wins, spatial, strict=True)):
        shape = [1] * (2 * d)
        shape[i], shape[d + i] = w.shape
        flat = flat * n + w.reshape(shape)
    flat = flat.reshape(*sizes, -1)
    x = input.reshape(*input.shape[:input.ndim - d], -1)
    picked = x.index_select(x.ndim - 1, Tensor(flat.reshape(-1))).reshape(
        *x.shape[:-1], *flat.shape)
    values, arg = picked.max(-1)
    values = _pool_result(values, "AdaptiveMaxPool", d, "Backward0", input)
    if not return_indices:
        return values
    index = np.take_along_axis(np.broadcast_to(flat, tuple(arg.shape) + flat.shape[-1:]),
                               host_values(arg, f"adaptive_max_pool{d}d")[..., None], -1)[..., 0]
    return values, Tensor(index.astype(np.int64))


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """Max over ``output_size`` windows covering (N, C, L) or (C, L)."""
    return _adaptive_max_pool(input, output_size, return_indices, 1)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Max over ``output_size`` windows covering (N, C, H, W) or (C, H, W); with
    ``return_indices`` also the flat index of each maximum in its plane."""
    return _adaptive_max_pool(input, output_size, return_indices, 2)


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=True):
    return adaptive_max_pool1d(input, output_size, True)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=True):
    return adaptive_max_pool2d(input, output_size, True)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=True):
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=True):
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=True):
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Max over ``output_size`` windows covering (N, C, D, H, W) or (C, D, H, W)."""
    return _adaptive_max_pool(input, output_size, return_indices, 3)


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=True):
    return adaptive_max_pool3d(input, output_size, True)


def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, d):
    """``(sum of x^p over each window)^(1/p)``, PyTorch's way: the window mean of x^p times
    the window size (a negative mean, from odd p, taken as 0)."""
    k = _ntuple(kernel_size, d, "kernel_size", f"lp_pool{d}d")
    pool = (None, avg_pool1d, avg_pool2d, avg_pool3d)[d]
    out = pool(input.pow(norm_type), k, stride, 0, ceil_mode)
    return (out.sign() * out.abs().relu()).mul(math.prod(k)).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The p-norm of each sliding window of (N, C, L) or (C, L)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The p-norm of each sliding window of (N, C, H, W) or (C, H, W)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The p-norm of each sliding window of (N, C, D, H, W) or (C, D, H, W)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3)


def channel_shuffle(input, groups):
    """(N, C, *) with its channels regrouped: (groups, C / groups) read transposed."""
    _check_tensor(input, "channel_shuffle")
    if input.ndim < 3:
        raise RuntimeError(f"channel_shuffle expects input to have at least 3 dimensions, but "
                           f"got input with sizes {list(input.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value "
                           f"of groups:{groups}")
    n, c = input.shape[:2]
    if c % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels "
                           f"and {groups} groups.")
    rest = tuple(input.shape[2:])
    return input.reshape(n, groups, c // groups, *rest).transpose(1, 2).reshape(n, c, *rest)
