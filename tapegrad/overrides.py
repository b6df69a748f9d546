"""``torch.overrides``, for code written against PyTorch's ``__torch_function__``
protocol: tapegrad has no such overrides, so nothing ever dispatches (``has_torch_function``
is False and ``handle_torch_function`` calls the public function)."""
from . import autograd
from .nn.functional import (
    handle_torch_function,
    has_torch_function,
    has_torch_function_unary,
    has_torch_function_variadic,
)
from .tensor import Tensor


def is_tensor_like(inp):
    """True for a Tensor or an object whose type defines ``__torch_function__``."""
    return type(inp) is Tensor or hasattr(inp, "__torch_function__")


def is_tensor_method_or_property(func):
    return getattr(Tensor, getattr(func, "__name__", ""), None) is func


def get_ignored_functions():
    return set()


def get_overridable_functions():
    return {}


def get_testing_overrides():
    return {}


class TorchFunctionMode:
    """A mode whose ``__torch_function__`` is never called (nothing dispatches)."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


__all__ = ["TorchFunctionMode", "get_ignored_functions", "get_overridable_functions",
           "get_testing_overrides", "handle_torch_function", "has_torch_function",
           "has_torch_function_unary", "has_torch_function_variadic", "is_tensor_like",
           "is_tensor_method_or_property"]

# torch.autograd has these three too (its module imports them from torch.overrides): bound
# from here, the floor above autograd
for _f in (is_tensor_like, has_torch_function, handle_torch_function):
    setattr(autograd, _f.__name__, _f)
