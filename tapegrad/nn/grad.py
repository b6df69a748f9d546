"""``nn.grad``: the gradients of a convolution with respect to its input and its weight,
given the output's gradient (PyTorch's ``torch.nn.grad``).  A convolution is linear in
each of them, so each is the vector-Jacobian product of the convolution at a zero point,
taken with ``create_graph=True``: the result is differentiable in the other arguments.

>>> import tapegrad as tg
>>> g = tg.nn.grad.conv1d_input((1, 1, 3), tg.ones(1, 1, 2), tg.ones(1, 1, 2))
>>> g.tolist()
[[[1.0, 2.0, 1.0]]]
"""
from ..autograd import grad as _grad
from ..creation import zeros
from ..grad_mode import enable_grad
from ..tensor import Tensor
from . import functional as F

_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}


def _vjp(d, input, weight, grad_output, wrt, stride, padding, dilation, groups):
    if not isinstance(grad_output, Tensor):
        raise TypeError(f"conv{d}d grad: grad_output must be a Tensor, not "
                        f"{type(grad_output).__name__}")
    with enable_grad():
        out = _CONV[d](input, weight, None, stride, padding, dilation, groups)
        if tuple(out.shape) != tuple(grad_output.shape):
            raise RuntimeError(f"conv{d}d grad: grad_output has shape "
                               f"{list(grad_output.shape)}, but the convolution gives "
                               f"{list(out.shape)}")
        return _grad(out, wrt, grad_output, create_graph=True)[0]


def _input_grad(d, input_size, weight, grad_output, stride, padding, dilation, groups):
    x = zeros(*[int(s) for s in input_size], dtype=grad_output.dtype, requires_grad=True)
    return _vjp(d, x, weight, grad_output, x, stride, padding, dilation, groups)


def _weight_grad(d, input, weight_size, grad_output, stride, padding, dilation, groups):
    w = zeros(*[int(s) for s in weight_size], dtype=grad_output.dtype, requires_grad=True)
    return _vjp(d, input, w, grad_output, w, stride, padding, dilation, groups)


def conv1d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv1d with respect to an input of shape ``input_size``."""
    return _input_grad(1, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv1d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv1d with respect to a weight of shape ``weight_size``."""
    return _weight_grad(1, input, weight_size, grad_output, stride, padding, dilation, groups)


def conv2d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv2d with respect to an input of shape ``input_size``."""
    return _input_grad(2, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv2d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv2d with respect to a weight of shape ``weight_size``."""
    return _weight_grad(2, input, weight_size, grad_output, stride, padding, dilation, groups)


def conv3d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv3d with respect to an input of shape ``input_size``."""
    return _input_grad(3, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv3d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv3d with respect to a weight of shape ``weight_size``."""
    return _weight_grad(3, input, weight_size, grad_output, stride, padding, dilation, groups)
