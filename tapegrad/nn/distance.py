"""Distances between vectors (``nn.functional`` and ``tapegrad`` names): cosine_similarity,
pairwise_distance, pdist; composed from primitives with PyTorch's formulas, so their values
and gradients are PyTorch's (each vector normalised on its own, its norm clamped at eps)."""
import itertools

import numpy as np

from .. import ops
from ..ops._record import node
from ..tensor import Tensor


def _tensor(x, op, pos, name):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument '{name}' (position {pos}) must be Tensor, not "
                        f"{type(x).__name__}")
    return x


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """``<x1 / max(||x1||, eps), x2 / max(||x2||, eps)>`` along ``dim`` (broadcast).

    >>> import tapegrad as tg, tapegrad.nn.functional as F
    >>> float(F.cosine_similarity(tg.tensor([1.0, 0.0]), tg.tensor([1.0, 1.0]), dim=0))
    0.7071067811865475
    """
    _tensor(x1, "cosine_similarity", 1, "x1")
    _tensor(x2, "cosine_similarity", 2, "x2")
    return ops.sum((x1 / _clamped_norm(x1, dim, eps)) * (x2 / _clamped_norm(x2, dim, eps)), dim)


def _clamped_norm(x, dim, eps):
    # PyTorch clamps the norm at eps in place under no_grad: the value is clamped, its
    # gradient the unclamped norm's
    n = ops.norm(x, 2, dim, keepdim=True)
    return n + (ops.clamp_min(n, eps) - n).detach()


@node("NormBackward1")  # (PyTorch's: its kernel is one norm of x1 - x2 + eps)
def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """``||x1 - x2 + eps||_p`` over the last dim (broadcast)."""
    _tensor(x1, "pairwise_distance", 1, "x1")
    _tensor(x2, "pairwise_distance", 2, "x2")
    d = x1 - x2 + eps
    if d.ndim == 0:
        return ops.abs(d)
    return ops.norm(d, p, -1, keepdim=keepdim)


@node("PdistBackward0")
def pdist(input, p=2):
    """The p-norm distance of every pair of rows ``i < j`` of a 2-D input, in row order."""
    _tensor(input, "pdist", 1, "input")
    if input.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.ndim}D")
    n = input.shape[0]
    pairs = np.array(list(itertools.combinations(range(n), 2)), np.int64).reshape(-1, 2)
    if not len(pairs):
        return Tensor(np.zeros(0, input.dtype))
    a = ops.index_select(input, 0, pairs[:, 0])
    b = ops.index_select(input, 0, pairs[:, 1])
    return ops.norm(a - b, p, 1)
