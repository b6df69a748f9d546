"""The layers of convolutional and embedding models: Flatten/Unflatten, Conv1d/2d/3d,
Max/AvgPool1d/2d, AdaptiveAvgPool1d/2d, BatchNorm1d/2d/3d, LayerNorm, GroupNorm and
Embedding.  Each computes through ``nn.functional``; parameters start as PyTorch's do (the
same distributions from tapegrad's generator), and ``extra_repr`` prints as PyTorch's.

>>> import tapegrad as tg
>>> tg.nn.Conv2d(1, 8, 3, padding=1)
Conv2d(1, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))
"""
import math
import warnings

import numpy as np

from .. import dtypes
from ..device import check as check_device
from ..grad_mode import no_grad
from ..tensor import Tensor, _wrap_dim
from . import functional as F
from . import init
from .modules import Module
from .parameter import Parameter
from .windows import _conv_padding, _ntuple


def _dtype(dtype):
    return np.dtype(dtype) if dtype is not None else dtypes.default_float()


def _empty(shape, dtype):
    return Parameter(np.zeros(shape, _dtype(dtype)))


# ---- reshaping -----------------------------------------------------------------------------
class Flatten(Module):
    """Flatten dims ``start_dim``..``end_dim`` into one (by default all but the batch)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dim ``dim`` into ``unflattened_size`` (one entry may be -1)."""

    def __init__(self, dim, unflattened_size):
        super().__init__()
        if not isinstance(dim, int):
            raise TypeError(f"invalid argument type for dim parameter: {type(dim).__name__}")
        self.dim, self.unflattened_size = dim, tuple(unflattened_size)

    def forward(self, input):
        return unflatten(input, self.dim, self.unflattened_size)

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


def unflatten(input, dim, sizes):
    """``input`` with dim ``dim`` split into ``sizes`` (one entry may be -1)."""
    shape = list(input.shape)
    d = _wrap_dim(dim, input.ndim, "unflatten")
    sizes = [int(s) for s in sizes]
    known = math.prod(s for s in sizes if s != -1)
    if sizes.count(-1) > 1:
        raise RuntimeError("unflatten: only one dimension can be inferred")
    if -1 in sizes and known and shape[d] % known == 0:
        sizes[sizes.index(-1)] = shape[d] // known
    if math.prod(sizes) != shape[d] or -1 in sizes:
        raise RuntimeError(f"unflatten: Provided sizes {sizes} don't multiply up to the size "
                           f"of dim {dim} ({shape[d]}) in the input tensor")
    return input.reshape(*shape[:d], *sizes, *shape[d + 1:])


# ---- convolution ---------------------------------------------------------------------------
_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


class _ConvNd(Module):
    _d, _transposed = 0, False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", device=None,
                 dtype=None):
        super().__init__()
        check_device(device, type(self).__name__)
        d, name = self._d, type(self).__name__
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {set(_PADDING_MODES)}, but got "
                             f"padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = _ntuple(kernel_size, d, "kernel_size", name)
        self.stride = _ntuple(stride, d, "stride", name)
        self.dilation = _ntuple(dilation, d, "dilation", name)
        if isinstance(padding, str):
            _conv_padding(padding, d, self.kernel_size, self.dilation, self.stride, name)
            self.padding = padding
        else:
            self.padding = _ntuple(padding, d, "padding", name)
        self.transposed, self.output_padding = self._transposed, (0,) * d
        self.groups, self.padding_mode = groups, padding_mode
        channels = (in_channels, out_channels // groups) if self.transposed else \
            (out_channels, in_channels // groups)
        self.weight = _empty((*channels, *self.kernel_size), dtype)
        if bias:
            self.bias = _empty((out_channels,), dtype)
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """PyTorch's start: kaiming_uniform_(a=sqrt(5)) for the weight, which is
        U(-1/sqrt(fan_in), 1/sqrt(fan_in)), and the same bound for the bias."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        conv = (None, F.conv1d, F.conv2d, F.conv3d)[self._d]
        if self.padding_mode == "zeros":
            return conv(input, self.weight, self.bias, self.stride, self.padding,
                        self.dilation, self.groups)
        pads = _conv_padding(self.padding, self._d, self.kernel_size, self.dilation,
                             self.stride, type(self).__name__)
        flat = [p for lo_hi in reversed(pads) for p in lo_hi]
        return conv(F.pad(input, flat, mode=self.padding_mode), self.weight, self.bias,
                    self.stride, 0, self.dilation, self.groups)

    def extra_repr(self):
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        if isinstance(self.padding, str) or self.padding != (0,) * self._d:
            s += f", padding={self.padding}"
        if self.dilation != (1,) * self._d:
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * self._d:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class Conv1d(_ConvNd):
    """1-D convolution over (N, C, L) or (C, L)."""
    _d = 1


class Conv2d(_ConvNd):
    """2-D convolution over (N, C, H, W) or (C, H, W)."""
    _d = 2


class Conv3d(_ConvNd):
    """3-D convolution over (N, C, D, H, W) or (C, D, H, W)."""
    _d = 3


class _ConvTransposeNd(_ConvNd):
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                 device=None, dtype=None):
        name = type(self).__name__
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {name}')
        if isinstance(padding, str):
            raise ValueError(f"{name}: padding must be an int or a tuple of ints, got "
                             f"'{padding}'")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, device, dtype)
        self.output_padding = _ntuple(output_padding, self._d, "output_padding", name)

    def _output_padding(self, input, output_size):
        """``output_padding``, or the one that gives ``output_size``."""
        if output_size is None:
            return self.output_padding
        d = self._d
        want = [int(o) for o in list(output_size)[-d:]]
        if len(want) != d:
            raise ValueError(f"ConvTranspose{d}D: for {input.ndim}D input, output_size must "
                             f"have {d} or {d + 2} elements (got {len(list(output_size))})")
        spatial = list(input.shape[-d:])
        low = [(n - 1) * s - 2 * p + e * (k - 1) + 1 for n, s, p, e, k in
               zip(spatial, self.stride, self.padding, self.dilation, self.kernel_size,
                   strict=True)]
        high = [lo + s - 1 for lo, s in zip(low, self.stride, strict=True)]
        if any(not lo <= w <= hi for w, lo, hi in zip(want, low, high, strict=True)):
            raise ValueError(f"requested an output size of {want}, but valid sizes range from "
                             f"{low} to {high} (for an input of torch.Size({spatial}))")
        return tuple(w - lo for w, lo in zip(want, low, strict=True))

    def forward(self, input, output_size=None):
        conv = (None, F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[self._d]
        return conv(input, self.weight, self.bias, self.stride, self.padding,
                    self._output_padding(input, output_size), self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    """1-D transposed convolution over (N, C, L) or (C, L)."""
    _d = 1


class ConvTranspose2d(_ConvTransposeNd):
    """2-D transposed convolution over (N, C, H, W) or (C, H, W) (DCGAN's generator)."""
    _d = 2


class ConvTranspose3d(_ConvTransposeNd):
    """3-D transposed convolution over (N, C, D, H, W) or (C, D, H, W)."""
    _d = 3


# ---- pooling -------------------------------------------------------------------------------
class _MaxPoolNd(Module):
    _fn = None

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input):
        return type(self)._fn(input, self.kernel_size, self.stride, self.padding, self.dilation,
                              ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"
                f", dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    _fn = F.max_pool1d


class MaxPool2d(_MaxPoolNd):
    _fn = F.max_pool2d


class MaxPool3d(_MaxPoolNd):
    _fn = F.max_pool3d


class _AvgPoolNd(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolNd):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True):
        Module.__init__(self)
        self.kernel_size = _ntuple(kernel_size, 1, "kernel_size", "AvgPool1d")
        self.stride = _ntuple(stride if stride is not None else kernel_size, 1, "stride",
                              "AvgPool1d")
        self.padding = _ntuple(padding, 1, "padding", "AvgPool1d")
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)


class AvgPool2d(_AvgPoolNd):
    def forward(self, input):
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class AvgPool3d(_AvgPoolNd):
    def forward(self, input):
        return F.avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class _AdaptiveAvgPoolNd(Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    def forward(self, input):
        return F.adaptive_avg_pool3d(input, self.output_size)


class _AdaptiveMaxPoolNd(Module):
    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    extra_repr = _AdaptiveAvgPoolNd.extra_repr


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    def forward(self, input):
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    def forward(self, input):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    def forward(self, input):
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class _LPPoolNd(Module):
    """The ``norm_type``-norm of each sliding window."""

    _fn = None

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type, self.kernel_size = norm_type, kernel_size
        self.stride, self.ceil_mode = stride, ceil_mode

    def forward(self, input):
        return type(self)._fn(input, float(self.norm_type), self.kernel_size, self.stride,
                              self.ceil_mode)

    def extra_repr(self):
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPoolNd):
    _fn = F.lp_pool1d


class LPPool2d(_LPPoolNd):
    _fn = F.lp_pool2d


class LPPool3d(_LPPoolNd):
    _fn = F.lp_pool3d


class ChannelShuffle(Module):
    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self):
        return f"groups={self.groups}"


class Unfold(Module):
    """The sliding blocks of (N, C, H, W) as columns (``F.unfold``)."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        Module.__init__(self)  # (Fold's too)
        self.kernel_size, self.dilation = kernel_size, dilation
        self.padding, self.stride = padding, stride

    def forward(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Fold(Module):
    """Columns summed back into (N, C, H, W) of ``output_size`` (``F.fold``)."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        Unfold.__init__(self, kernel_size, dilation, padding, stride)  # (its fields)
        self.output_size = output_size

    def forward(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                      self.stride)

    def extra_repr(self):
        return f"output_size={self.output_size}, " + Unfold.extra_repr(self)


# ---- normalisation -------------------------------------------------------------------------
class _NormBase(Module):
    """BatchNorm and InstanceNorm's parameters, buffers and their resets (PyTorch's)."""

    _dims = ()

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        check_device(device, type(self).__name__)
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        dt = _dtype(dtype)
        if affine:
            self.weight = Parameter(np.ones(num_features, dt))
            if bias:
                self.bias = Parameter(np.zeros(num_features, dt))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", Tensor(np.zeros(num_features, dt)))
            self.register_buffer("running_var", Tensor(np.ones(num_features, dt)))
            self.register_buffer("num_batches_tracked", Tensor(np.array(0, np.int64)))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)

    _version = 2  # (1 had no num_batches_tracked)

    def _upgrade_state(self, state_dict, prefix, version):
        """A state_dict of version 1 (or without _metadata) may lack num_batches_tracked:
        this module's own count is kept (PyTorch's upgrade)."""
        key = prefix + "num_batches_tracked"
        if (version is None or version < 2) and self.track_running_stats and \
                key not in state_dict:
            n = self.num_batches_tracked
            state_dict[key] = n if n is not None else Tensor(np.array(0, np.int64))

    def reset_running_stats(self):
        if self.track_running_stats:
            with no_grad():
                self.running_mean.zero_()
                self.running_var.fill_(1.0)
                self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.weight is not None:
            init.ones_(self.weight)
        if self.bias is not None:
            init.zeros_(self.bias)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class _BatchNorm(_NormBase):
    def forward(self, input):
        if input.ndim not in self._dims:
            want = " or ".join(f"{d}D" for d in self._dims)
            raise ValueError(f"expected {want} input (got {input.ndim}D input)")
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            with no_grad():
                self.num_batches_tracked.add_(1)
            if self.momentum is None:  # a cumulative average
                factor = 1.0 / float(self.num_batches_tracked.item())
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        keep = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if keep else None,
                            self.running_var if keep else None, self.weight, self.bias,
                            use_batch, factor, self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, L) over the batch (and L), per channel."""
    _dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of (N, C, H, W) per channel."""
    _dims = (4,)


class BatchNorm3d(_BatchNorm):
    """Batch normalisation of (N, C, D, H, W) per channel."""
    _dims = (5,)


class LayerNorm(Module):
    """Normalisation over the trailing ``normalized_shape`` dims, with an elementwise scale
    (and shift, unless ``bias=False``) if ``elementwise_affine``."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True,
                 device=None, dtype=None):
        super().__init__()
        check_device(device, "LayerNorm")
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        _affine(self, elementwise_affine, bias, self.normalized_shape, _dtype(dtype))

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")


class _InstanceNorm(_NormBase):
    """Normalisation of each channel of each sample over its positions; no affine map and
    no running statistics unless asked (PyTorch's defaults)."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False,
                 track_running_stats=False, device=None, dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)

    def forward(self, input):
        plain = self._dims[0] - 1  # the dims of an unbatched input
        if input.ndim not in (plain, plain + 1):
            raise ValueError(f"expected {plain}D or {plain + 1}D input (got {input.ndim}D "
                             "input)")
        feature_dim = input.ndim - plain
        if input.shape[feature_dim] != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match "
                                 f"num_features ({self.num_features}), but got: "
                                 f"{input.shape[feature_dim]}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. You "
                          "can silence this warning by not passing in num_features, which is "
                          "not used because affine=False", stacklevel=2)
        x = input if input.ndim == plain + 1 else input.unsqueeze(0)
        y = F.instance_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                            self.training or not self.track_running_stats,
                            self.momentum if self.momentum is not None else 0.0, self.eps)
        return y if input.ndim == plain + 1 else y.squeeze(0)


class InstanceNorm1d(_InstanceNorm):
    """Instance normalisation of (N, C, L) or (C, L)."""
    _dims = (3,)


class InstanceNorm2d(_InstanceNorm):
    """Instance normalisation of (N, C, H, W) or (C, H, W) (style transfer's norm)."""
    _dims = (4,)


class InstanceNorm3d(_InstanceNorm):
    """Instance normalisation of (N, C, D, H, W) or (C, D, H, W)."""
    _dims = (5,)


class RMSNorm(Module):
    """``x / sqrt(mean(x^2) + eps)`` over the trailing ``normalized_shape`` dims, times an
    elementwise ``weight`` (ones at the start) if ``elementwise_affine``."""

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None,
                 dtype=None):
        super().__init__()
        check_device(device, "RMSNorm")
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        self.register_parameter("weight", Parameter(np.ones(self.normalized_shape,
                                                            _dtype(dtype)))
                                if elementwise_affine else None)

    def forward(self, input):
        return F.rms_norm(input, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


class LocalResponseNorm(Module):
    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


def _affine(m, affine, bias, shape, dt):
    """A norm layer's ``weight`` (ones) and ``bias`` (zeros) of ``shape``, or None each."""
    m.register_parameter("weight", Parameter(np.ones(shape, dt)) if affine else None)
    m.register_parameter("bias", Parameter(np.zeros(shape, dt)) if affine and bias else None)


class GroupNorm(Module):
    """Normalisation over groups of channels (and all positions), per sample."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None,
                 dtype=None, *, bias=True):
        super().__init__()
        check_device(device, "GroupNorm")
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups "
                             f"({num_groups})")
        self.num_groups, self.num_channels = num_groups, num_channels
        self.eps, self.affine = eps, affine
        _affine(self, affine, bias, num_channels, _dtype(dtype))

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}"
                f", bias={self.bias is not None}")


# ---- embedding -----------------------------------------------------------------------------
def _given_table(weight, num_embeddings, embedding_dim, freeze):
    """Embedding's and EmbeddingBag's ``_weight``: a Parameter (frozen: no grad), of the
    table's shape."""
    if list(weight.shape) != [num_embeddings, embedding_dim]:
        raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
    return Parameter(weight, requires_grad=not freeze)


class Embedding(Module):
    """A lookup table of ``num_embeddings`` vectors, initialised N(0, 1) (row
    ``padding_idx``, if given, zero and never updated by gradients)."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None,
                 _freeze=False, device=None, dtype=None):
        super().__init__()
        check_device(device, "Embedding")
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        if padding_idx is not None:
            if padding_idx > 0:
                assert padding_idx < num_embeddings, "Padding_idx must be within num_embeddings"
            elif padding_idx < 0:
                assert padding_idx >= -num_embeddings, \
                    "Padding_idx must be within num_embeddings"
                padding_idx = num_embeddings + padding_idx
        self.padding_idx, self.max_norm, self.norm_type = padding_idx, max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        if _weight is None:
            self.weight = _empty((num_embeddings, embedding_dim), dtype)
            self.reset_parameters()
        else:
            self.weight = _given_table(_weight, num_embeddings, embedding_dim, _freeze)

    def reset_parameters(self):
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                w = np.array(self.weight._data)
                w[self.padding_idx] = 0
                self.weight.copy_(Tensor(w))

    def forward(self, input):
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm,
                           self.norm_type, self.scale_grad_by_freq, self.sparse)

    def extra_repr(self):
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq:
            s += ", scale_grad_by_freq=True"
        if self.sparse:
            s += ", sparse=True"
        return s

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None, max_norm=None,
                        norm_type=2.0, scale_grad_by_freq=False, sparse=False):
        """An Embedding holding ``embeddings`` (2-D), frozen unless ``freeze=False``."""
        assert embeddings.ndim == 2, "Embeddings parameter is expected to be 2-dimensional"
        rows, cols = embeddings.shape
        return cls(rows, cols, _weight=embeddings, _freeze=freeze, padding_idx=padding_idx,
                   max_norm=max_norm, norm_type=norm_type,
                   scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


class EmbeddingBag(Module):
    """Sums, means or maxima of bags of embeddings (``F.embedding_bag``); the table starts
    N(0, 1), as Embedding's."""

    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, mode="mean", sparse=False, _weight=None,
                 include_last_offset=False, padding_idx=None, device=None, dtype=None,
                 _freeze=False):
        super().__init__()
        check_device(device, "EmbeddingBag")
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.mode, self.sparse = scale_grad_by_freq, mode, sparse
        self.include_last_offset = include_last_offset
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise AssertionError("padding_idx must be within num_embeddings")
            padding_idx %= num_embeddings
        self.padding_idx = padding_idx
        if _weight is None:
            self.weight = _empty((num_embeddings, embedding_dim), dtype)
            Embedding.reset_parameters(self)
        else:
            self.weight = _given_table(_weight, num_embeddings, embedding_dim, _freeze)

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, max_norm=None, norm_type=2.0,
                        scale_grad_by_freq=False, mode="mean", sparse=False,
                        include_last_offset=False, padding_idx=None):
        """An EmbeddingBag holding ``embeddings`` (2-D), frozen unless ``freeze=False``."""
        assert embeddings.ndim == 2, "Embeddings parameter is expected to be 2-dimensional"
        rows, cols = embeddings.shape
        return cls(rows, cols, _weight=embeddings, _freeze=freeze, max_norm=max_norm,
                   norm_type=norm_type, scale_grad_by_freq=scale_grad_by_freq, mode=mode,
                   sparse=sparse, include_last_offset=include_last_offset,
                   padding_idx=padding_idx)

    def forward(self, input, offsets=None, per_sample_weights=None):
        return F.embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type,
                               self.scale_grad_by_freq, self.mode, self.sparse,
                               per_sample_weights, self.include_last_offset, self.padding_idx)

    def extra_repr(self):
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq:
            s += ", scale_grad_by_freq=True"
        s += f", mode='{self.mode}'"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        return s


class Bilinear(Module):
    """``y = x1^T W x2 + b`` per output feature; weight and bias start
    U(-1/sqrt(in1), 1/sqrt(in1)), as PyTorch's."""

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None,
                 dtype=None):
        super().__init__()
        check_device(device, "Bilinear")
        self.in1_features, self.in2_features = in1_features, in2_features
        self.out_features = out_features
        self.weight = _empty((out_features, in1_features, in2_features), dtype)
        if bias:
            self.bias = _empty((out_features,), dtype)
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.weight.shape[1])
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")
