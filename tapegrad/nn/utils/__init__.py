"""``nn.utils``: gradient clipping, parameters as one vector, and (``nn.utils.rnn``) padded
and packed batches of sequences, with PyTorch's names and semantics."""
import sys
import types

from ...func import functional_call
from . import fusion, parametrizations, parametrize, prune, rnn
from .clip_grad import (
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
    clip_grads_with_norm_,
    get_total_norm,
)
from .convert_parameters import parameters_to_vector, vector_to_parameters
from .fusion import (
    fuse_conv_bn_eval,
    fuse_conv_bn_weights,
    fuse_linear_bn_eval,
    fuse_linear_bn_weights,
)
from .spectral_norm import remove_spectral_norm, spectral_norm
from .weight_norm import remove_weight_norm, weight_norm


def _functional_call(module, parameters_and_buffers, args=None, kwargs=None, *,
                     tie_weights=True, strict=False):
    """``nn.utils.stateless.functional_call``: ``torch.func.functional_call``'s older name."""
    return functional_call(module, parameters_and_buffers, args, kwargs,
                           tie_weights=tie_weights, strict=strict)


stateless = types.ModuleType(__name__ + ".stateless", "PyTorch's nn.utils.stateless.")
stateless.functional_call = _functional_call
sys.modules[stateless.__name__] = stateless


def convert_conv2d_weight_memory_format(module, memory_format):
    """``module`` unchanged: tensors here have one (contiguous) memory layout, which every
    ``memory_format`` reads the same."""
    return module


convert_conv3d_weight_memory_format = convert_conv2d_weight_memory_format


def skip_init(module_cls, *args, **kwargs):
    """``module_cls(*args, **kwargs)`` (PyTorch leaves the parameters unset to be filled
    later; here they hold the usual start, which the caller overwrites just the same)."""
    kwargs.pop("device", None)
    return module_cls(*args, **kwargs)

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_",
           "get_total_norm", "parameters_to_vector", "remove_weight_norm", "rnn", "skip_init",
           "stateless",
           "vector_to_parameters", "weight_norm"]
__all__ += ["convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]
__all__ += ["fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval",
            "fuse_linear_bn_weights", "fusion", "parametrizations", "parametrize",
            "prune", "remove_spectral_norm", "spectral_norm"]
