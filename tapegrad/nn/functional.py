"""Activations and losses, composed from primitives (so they need no rules of their own)."""
from .. import ops
from .._state import state
from ..tensor import Tensor

relu = ops.relu
sigmoid = ops.sigmoid
tanh = ops.tanh


def _max_detached(x, dim):
    # the shift that keeps exp() finite; a constant, so it adds nothing to the gradient
    import numpy as np
    m = np.max(np.asarray(x._data), axis=dim, keepdims=True)
    return Tensor(np.where(np.isfinite(m), m, 0.0).astype(x.dtype))


def _check_dim(x, dim, op):
    if dim is None:
        raise TypeError(f"{op}(): pass dim= explicitly (PyTorch's implicit dim is deprecated)")
    return dim


def log_softmax(input, dim=None, dtype=None):
    """``x - logsumexp(x, dim)``, computed after subtracting the max (no overflow).

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> F.log_softmax(tg.tensor([0.0, 0.0]), dim=0).exp()
    tensor([0.5000, 0.5000])
    """
    _check_dim(input, dim, "log_softmax")
    x = input.to(dtype) if dtype is not None else input
    shifted = x - _max_detached(x, dim)
    return shifted - shifted.exp().sum(dim, keepdim=True).log()


def softmax(input, dim=None, dtype=None):
    """``exp(x) / sum(exp(x), dim)``, computed after subtracting the max (no overflow).

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> F.softmax(tg.tensor([1.0, 1.0]), dim=0)
    tensor([0.5000, 0.5000])
    """
    _check_dim(input, dim, "softmax")
    x = input.to(dtype) if dtype is not None else input
    e = (x - _max_detached(x, dim)).exp()
    return e / e.sum(dim, keepdim=True)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """Mean squared error: ``mean((input - target) ** 2)`` (or ``sum``, or ``none``)."""
    if tuple(input.shape) != tuple(target.shape) and state.grad_enabled:
        import warnings
        warnings.warn(
            f"Using a target size ({tuple(target.shape)}) that is different to the input size "
            f"({tuple(input.shape)}). This will likely lead to incorrect results due to "
            "broadcasting. Please ensure they have the same size.", stacklevel=2)
    sq = (input - target) ** 2
    if reduction == "mean":
        return sq.mean()
    if reduction == "sum":
        return sq.sum()
    if reduction == "none":
        return sq
    raise ValueError(f"{reduction} is not a valid value for reduction "
                     "(use 'mean', 'sum' or 'none')")


Tensor.softmax = lambda x, dim=None, dtype=None: softmax(x, dim, dtype)
Tensor.log_softmax = lambda x, dim=None, dtype=None: log_softmax(x, dim, dtype)
