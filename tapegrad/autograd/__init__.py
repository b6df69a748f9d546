"""tapegrad.autograd: backward, grad, grad modes, graph nodes, Variable."""
from ..grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from ..tensor import Tensor
from .engine import backward, grad
from .graph import AccumulateGrad, Node


def Variable(data, requires_grad=False):  # noqa: N802 (PyTorch's name)
    """PyTorch's deprecated Variable: returns a Tensor."""
    t = data.detach() if isinstance(data, Tensor) else Tensor(data)
    return t.requires_grad_(requires_grad) if requires_grad else t


__all__ = ["AccumulateGrad", "Node", "Variable", "backward", "enable_grad", "grad",
           "inference_mode", "is_grad_enabled", "no_grad", "set_grad_enabled"]
