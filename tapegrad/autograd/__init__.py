"""tapegrad.autograd: backward, grad, grad modes, graph nodes, Variable, anomaly detection,
gradcheck."""
import sys

from .. import grad_mode
from ..grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from ..tensor import Tensor
from . import forward_ad, functional
from .anomaly import (
    detect_anomaly,
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    set_detect_anomaly,
)
from .engine import backward, grad
from .function import Function, FunctionCtx
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .graph import AccumulateGrad, Node

sys.modules[__name__ + ".grad_mode"] = grad_mode  # PyTorch's torch.autograd.grad_mode


def Variable(data, requires_grad=False):  # noqa: N802 (PyTorch's name)
    """PyTorch's deprecated Variable: returns a Tensor."""
    t = data.detach() if isinstance(data, Tensor) else Tensor(data)
    return t.requires_grad_(requires_grad) if requires_grad else t


__all__ = ["AccumulateGrad", "Function", "FunctionCtx", "GradcheckError", "Node", "Variable",
           "backward", "forward_ad", "functional", "detect_anomaly", "enable_grad", "grad",
           "gradcheck", "gradgradcheck", "grad_mode",
           "inference_mode", "is_anomaly_check_nan_enabled", "is_anomaly_enabled",
           "is_grad_enabled", "no_grad", "set_detect_anomaly", "set_grad_enabled"]
