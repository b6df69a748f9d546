"""tapegrad.autograd: backward, grad, grad modes, graph nodes, Variable, anomaly detection,
gradcheck."""
import sys
import types

from .. import grad_mode
from ..grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from ..tensor import Tensor
from . import forward_ad, functional, graph, hooks, profiler
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
from .multigrad import register_multi_grad_hook

graph.register_multi_grad_hook = register_multi_grad_hook  # where PyTorch keeps it

sys.modules[__name__ + ".grad_mode"] = grad_mode  # PyTorch's torch.autograd.grad_mode


class set_multithreading_enabled:  # noqa: N801 (PyTorch's name)
    """Accepted for PyTorch's API: tapegrad's backward runs on the calling thread always."""

    def __init__(self, mode):
        self.mode = bool(mode)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


kineto_available = profiler.kineto_available
graph.RemovableHandle = hooks.RemovableHandle  # (torch.autograd.graph's; hooks imports graph)


def is_multithreading_enabled():
    """True, as PyTorch's default answers (the backward here runs on the calling thread)."""
    return True


def Variable(data, requires_grad=False):  # noqa: N802 (PyTorch's name)
    """PyTorch's deprecated Variable: returns a Tensor."""
    t = data.detach() if isinstance(data, Tensor) else Tensor(data)
    return t.requires_grad_(requires_grad) if requires_grad else t


__all__ = ["AccumulateGrad", "Function", "FunctionCtx", "GradcheckError", "Node", "Variable",
           "backward", "forward_ad", "functional", "detect_anomaly", "enable_grad", "grad",
           "gradcheck", "gradgradcheck", "grad_mode",
           "inference_mode", "is_anomaly_check_nan_enabled", "is_anomaly_enabled",
           "is_grad_enabled", "no_grad", "set_detect_anomaly", "set_grad_enabled",
           "set_multithreading_enabled", "is_multithreading_enabled", "variable", "anomaly_mode",
           "profiler"]


# PyTorch's submodules reached by attribute: torch.autograd.variable.Variable,
# torch.autograd.anomaly_mode.detect_anomaly
variable = types.ModuleType(__name__ + ".variable", "PyTorch's autograd.variable.")
variable.Variable = Variable
anomaly_mode = types.ModuleType(__name__ + ".anomaly_mode", "PyTorch's autograd.anomaly_mode.")
anomaly_mode.detect_anomaly, anomaly_mode.set_detect_anomaly = detect_anomaly, set_detect_anomaly
for _m in (variable, anomaly_mode):
    sys.modules[_m.__name__] = _m
