"""tapegrad: PyTorch's autograd semantics on a flat Wengert tape swept by Numba.

>>> import tapegrad as tg
>>> x = tg.tensor(2.0, requires_grad=True)
>>> y = (x * x).sin()
>>> y.backward()
>>> round(float(x.grad), 6)
-2.614574
"""
from . import autograd, nn, optim
from .autograd import grad
from .replay import DivergenceError, Traced, batch_grad, compile, load, trace
from .creation import (
    arange, as_tensor, eye, from_numpy, full, full_like, linspace, manual_seed, ones, ones_like,
    rand, randn, tensor, zeros, zeros_like)
from .dtypes import bool, double, float, float32, float64, int, int32, int64, long
from .grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .ops import (
    abs, add, cos, div, eq, exp, expand, expm1, flatten, ge, gt, le, log, log1p, lt, mean, mul,
    ne, neg, permute, pow, relu, reshape, sigmoid, sin, sqrt, squeeze, sub, sum, tan, tanh,
    transpose, unsqueeze)
from .ops import (
    broadcast_to, cat, chunk, concat, concatenate, flip, gather, index_select, masked_fill,
    moveaxis, movedim, narrow, roll, select, split, stack, swapaxes, swapdims, t, tile, unbind)
from .ops import (
    acos, amax, amin, arccos, arcsin, arctan, arctan2, argmax, argmin, asin, atan, atan2, bmm,
    ceil, clamp, clamp_max, clamp_min, clip, cosh, cumsum, dot, einsum, erf, floor, ger,
    log_sigmoid, logsumexp, matmul, max, maximum, min, minimum, mm, mv, norm, outer, prod, round,
    sign, sinh, softplus, std, var, where)
from .tensor import Size, Tensor
from .warmup import warmup
from . import viz

softmax = nn.functional.softmax
log_softmax = nn.functional.log_softmax
def is_tensor(obj):
    """True for a tapegrad Tensor."""
    return isinstance(obj, Tensor)


__version__ = "0.1.0"

__all__ = [
    "DivergenceError", "Size", "Tensor", "Traced", "abs", "add", "arange", "as_tensor", "autograd", "batch_grad", "bool", "compile", "cos", "div",
    "double", "enable_grad", "eq", "exp", "expand", "expm1", "eye", "flatten", "float",
    "float32", "float64", "from_numpy", "full", "full_like", "ge", "grad", "gt",
    "inference_mode", "int", "int32", "int64", "is_grad_enabled", "is_tensor", "le",
    "linspace", "load", "log", "log1p", "log_softmax", "long", "lt", "manual_seed", "mean", "mul", "ne",
    "neg", "nn", "no_grad", "optim", "ones", "ones_like", "permute", "pow", "rand", "randn", "relu",
    "reshape", "set_grad_enabled", "sigmoid", "sin", "softmax", "sqrt", "squeeze", "sub", "sum",
    "tan", "tanh", "tensor", "trace", "transpose", "unsqueeze", "warmup", "zeros", "zeros_like",
    # shapes and indexing
    "broadcast_to", "cat", "chunk", "concat", "concatenate", "flip", "gather", "index_select",
    "masked_fill", "moveaxis", "movedim", "narrow", "roll", "select", "split", "stack",
    "swapaxes", "swapdims", "t", "tile", "unbind",
    # linear algebra, reductions, elementwise (issue 3)
    "acos", "amax", "amin", "arccos", "arcsin", "arctan", "arctan2", "argmax", "argmin", "asin",
    "atan", "atan2", "bmm", "ceil", "clamp", "clamp_max", "clamp_min", "clip", "cosh", "cumsum",
    "dot", "einsum", "erf", "floor", "ger", "log_sigmoid", "logsumexp", "matmul", "max",
    "maximum", "min", "minimum", "mm", "mv", "norm", "outer", "prod", "round", "sign", "sinh",
    "softplus", "std", "var", "where",
    # seeing graphs (issue 6)
    "viz",
]
