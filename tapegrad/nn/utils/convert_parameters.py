"""Parameters as one flat vector and back, as PyTorch's ``nn.utils`` does.

>>> import tapegrad as tg
>>> lin = tg.nn.Linear(2, 1)
>>> tg.nn.utils.parameters_to_vector(lin.parameters()).shape
torch.Size([3])
"""
from ... import ops
from ...tensor import Tensor


def parameters_to_vector(parameters):
    """The parameters flattened and concatenated, in order (differentiable)."""
    return ops.cat([p.reshape(-1) for p in parameters], 0)


def vector_to_parameters(vec, parameters):
    """Set each parameter's ``.data`` to its slice of ``vec`` (in order, each reshaped)."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    start = 0
    for p in parameters:
        n = p.numel()
        p.data = vec[start:start + n].view_as(p).data
        start += n
