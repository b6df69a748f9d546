"""The lazy modules: a convolution or a normalisation whose input channel count is read
from its first input, as PyTorch's ``LazyConv2d``, ``LazyBatchNorm1d``...  Until then its
parameters are ``UninitializedParameter`` (its running statistics ``UninitializedBuffer``);
the first forward materializes them in place (the same objects, so an optimizer built
before sees them), runs ``reset_parameters`` and turns the module into its eager class
(``LazyConv2d`` becomes ``Conv2d``).  Loading a state_dict into a lazy module materializes
its parameters at the checkpoint's shapes, as PyTorch's.

>>> import tapegrad as tg
>>> conv = tg.nn.LazyConv2d(4, 3)
>>> conv(tg.ones(2, 3, 5, 5)).shape, type(conv).__name__, conv.in_channels
(torch.Size([2, 4, 3, 3]), 'Conv2d', 3)
"""
from ..tensor import Tensor
from .layers import (
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    Conv1d,
    Conv2d,
    Conv3d,
    ConvTranspose1d,
    ConvTranspose2d,
    ConvTranspose3d,
    InstanceNorm1d,
    InstanceNorm2d,
    InstanceNorm3d,
    _NormBase,
)
from .modules import Linear
from .parameter import UninitializedBuffer, UninitializedParameter, is_lazy


class _LazyMixin:
    """Shared by every lazy module; ``cls_to_become`` is the eager class it turns into."""

    cls_to_become = None

    def has_uninitialized_params(self):
        """Whether a parameter or buffer still waits for its shape."""
        return any(is_lazy(t) for t in
                   list(self._parameters.values()) + list(self._buffers.values()))

    def _uninitialize(self, bias, dtype):
        """Replace the eager constructor's empty weight (and bias) by uninitialized ones."""
        self.weight = UninitializedParameter(dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self._in_count() != 0:
            super().reset_parameters()

    def forward(self, input, *args, **kwargs):
        if self.has_uninitialized_params():
            self.initialize_parameters(input)
        self.__class__ = self.cls_to_become
        return self.forward(input, *args, **kwargs)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        for store in (self._parameters, self._buffers):
            for name, t in store.items():
                if is_lazy(t) and name in state_dict:
                    t.materialize(tuple(state_dict[name].shape))
        eager = self.cls_to_become
        if not self.has_uninitialized_params():
            self._set_count_from_weights()
            self.__class__ = eager
        return eager.load_state_dict(self, state_dict, strict, assign)


class _LazyConv(_LazyMixin):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        self.cls_to_become.__init__(self, 0, out_channels, kernel_size, stride, padding,
                                    dilation, groups, bias, padding_mode, device, dtype)
        self._uninitialize(bias, dtype)

    def _in_count(self):
        return self.in_channels

    def _set_count_from_weights(self):
        self.in_channels = self.weight.shape[0] if self.transposed else \
            self.weight.shape[1] * self.groups

    def initialize_parameters(self, input):
        d = self._d
        if input.ndim not in (d + 1, d + 2):
            raise RuntimeError(f"Expected {d + 1}D (unbatched) or {d + 2}D (batched) input to "
                               f"{type(self).__name__}, but got input of size: "
                               f"torch.Size({list(input.shape)})")
        self.in_channels = input.shape[1] if input.ndim == d + 2 else input.shape[0]
        if self.in_channels % self.groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        k = tuple(self.kernel_size)
        if self.transposed:
            self.weight.materialize((self.in_channels, self.out_channels // self.groups, *k))
        else:
            self.weight.materialize((self.out_channels, self.in_channels // self.groups, *k))
        if self.bias is not None:
            self.bias.materialize((self.out_channels,))
        self.reset_parameters()


class _LazyConvTranspose(_LazyConv):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0,
                 groups=1, bias=True, dilation=1, padding_mode="zeros", device=None,
                 dtype=None):
        self.cls_to_become.__init__(self, 0, out_channels, kernel_size, stride, padding,
                                    output_padding, groups, bias, dilation, padding_mode,
                                    device, dtype)
        self._uninitialize(bias, dtype)


class LazyLinear(_LazyMixin, Linear):
    """A Linear whose ``in_features`` is read from its first input."""

    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        Linear.__init__(self, 0, out_features, bias, device, dtype)
        self._uninitialize(bias, dtype)

    def _in_count(self):
        return self.in_features

    def _set_count_from_weights(self):
        self.in_features = self.weight.shape[1]

    def initialize_parameters(self, input):
        self.in_features = input.shape[-1]
        self.weight.materialize((self.out_features, self.in_features))
        if self.bias is not None:
            self.bias.materialize((self.out_features,))
        self.reset_parameters()


class _LazyNormBase(_LazyMixin, _NormBase):
    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 device=None, dtype=None, *, bias=True):
        self.cls_to_become.__init__(self, 0, eps, momentum, affine, track_running_stats,
                                    device, dtype)
        if affine:
            self.weight = UninitializedParameter(dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(dtype=dtype)
            else:
                self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", UninitializedBuffer(dtype=dtype))
            self.register_buffer("running_var", UninitializedBuffer(dtype=dtype))

    def _in_count(self):
        return self.num_features

    def _set_count_from_weights(self):
        held = self.weight if self.weight is not None else self.running_mean
        if isinstance(held, Tensor):
            self.num_features = held.shape[0]

    def initialize_parameters(self, input):
        self.num_features = input.shape[1]  # (PyTorch's, for unbatched inputs too)
        for t in (self.weight, self.bias, self.running_mean, self.running_var):
            if t is not None:
                t.materialize((self.num_features,))
        self.reset_parameters()


def _lazy(name, base, eager, doc):
    if base is _LazyNormBase:  # (PyTorch's LazyBatchNorm1d is a _BatchNorm, no BatchNorm1d)
        return type(name, (base, eager.__base__), {
            "cls_to_become": eager, "_dims": eager._dims, "__doc__": doc,
            "__module__": __name__})
    return type(name, (base, eager), {"cls_to_become": eager, "__doc__": doc,
                                      "__module__": __name__})


LazyConv1d = _lazy("LazyConv1d", _LazyConv, Conv1d, "A Conv1d whose in_channels is read "
                   "from its first input.")
LazyConv2d = _lazy("LazyConv2d", _LazyConv, Conv2d, "A Conv2d whose in_channels is read "
                   "from its first input.")
LazyConv3d = _lazy("LazyConv3d", _LazyConv, Conv3d, "A Conv3d whose in_channels is read "
                   "from its first input.")
LazyConvTranspose1d = _lazy("LazyConvTranspose1d", _LazyConvTranspose, ConvTranspose1d,
                            "A ConvTranspose1d whose in_channels is read from its first input.")
LazyConvTranspose2d = _lazy("LazyConvTranspose2d", _LazyConvTranspose, ConvTranspose2d,
                            "A ConvTranspose2d whose in_channels is read from its first input.")
LazyConvTranspose3d = _lazy("LazyConvTranspose3d", _LazyConvTranspose, ConvTranspose3d,
                            "A ConvTranspose3d whose in_channels is read from its first input.")
LazyBatchNorm1d = _lazy("LazyBatchNorm1d", _LazyNormBase, BatchNorm1d, "A BatchNorm1d whose "
                        "num_features is read from its first input.")
LazyBatchNorm2d = _lazy("LazyBatchNorm2d", _LazyNormBase, BatchNorm2d, "A BatchNorm2d whose "
                        "num_features is read from its first input.")
LazyBatchNorm3d = _lazy("LazyBatchNorm3d", _LazyNormBase, BatchNorm3d, "A BatchNorm3d whose "
                        "num_features is read from its first input.")
LazyInstanceNorm1d = _lazy("LazyInstanceNorm1d", _LazyNormBase, InstanceNorm1d, "An "
                           "InstanceNorm1d whose num_features is read from its first input.")
LazyInstanceNorm2d = _lazy("LazyInstanceNorm2d", _LazyNormBase, InstanceNorm2d, "An "
                           "InstanceNorm2d whose num_features is read from its first input.")
LazyInstanceNorm3d = _lazy("LazyInstanceNorm3d", _LazyNormBase, InstanceNorm3d, "An "
                           "InstanceNorm3d whose num_features is read from its first input.")
