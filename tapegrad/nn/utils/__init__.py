"""``nn.utils``: gradient clipping, parameters as one vector, and (``nn.utils.rnn``) padded
and packed batches of sequences, with PyTorch's names and semantics."""
from . import rnn
from .clip_grad import (
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
    clip_grads_with_norm_,
    get_total_norm,
)
from .convert_parameters import parameters_to_vector, vector_to_parameters
from .weight_norm import remove_weight_norm, weight_norm

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_",
           "get_total_norm", "parameters_to_vector", "remove_weight_norm", "rnn",
           "vector_to_parameters", "weight_norm"]
