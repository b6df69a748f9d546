"""``scatter_reduce``: reduce ``src``'s elements into ``input`` along ``dim`` at ``index``
with "sum", "prod", "mean", "amax" or "amin" (``include_self``: whether input's own values
take part).  The forward is NumPy's ``ufunc.at`` (exact); the backward is PyTorch's formula
(``scatter_reduce_backward``) in tapegrad ops, through one custom-op row: amax/amin share a
tie's gradient equally among the elements equal to the result, as PyTorch does.

>>> import tapegrad as tg
>>> tg.zeros(3).scatter_reduce(0, tg.tensor([0, 1, 0]), tg.tensor([1.0, 2.0, 3.0]), "amax")
tensor([3., 2., 0.])
"""
import numpy as np

from .autograd.function import Function
from .ops import EXPORTS as _OPS
from .ops.combine import _index_arg, _targets
from .tensor import Tensor, _leaf, _wrap_dim, norm

where = _OPS["where"]
_UFUNC = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum,
          "amin": np.minimum}


def _identity(reduce, dtype):
    if reduce in ("amax", "amin"):
        big = np.inf if dtype.kind == "f" else np.iinfo(dtype).max
        return -big if reduce == "amax" else big
    return 1 if reduce == "prod" else 0


def _forward_values(x, pos, s, reduce, include_self):
    """(result, flat mask of the positions some src element reaches, counts for mean)."""
    out = np.array(x, copy=True).reshape(-1)
    reached = np.zeros(out.size, np.bool_)
    reached[pos] = True
    if not include_self:
        out[reached] = _identity(reduce, out.dtype)
    _UFUNC[reduce].at(out, pos, s.reshape(-1))
    counts = np.bincount(pos, minlength=out.size) + (1 if include_self else 0)
    counts = np.where(reached, np.maximum(counts, 1), 1)
    if reduce == "mean":
        out = out / counts if out.dtype.kind == "f" else out // counts
    return out.reshape(x.shape), reached.reshape(x.shape), counts.reshape(x.shape)


def _others_product(x, pos, s, include_self):
    """For each input element and each src element, the product of the other factors of
    its output (no division: exact where a factor is zero)."""
    xf, sf = x.reshape(-1), s.reshape(-1)
    self_others = np.zeros_like(xf)
    src_others = np.zeros_like(sf)
    for p in np.unique(pos):
        members = np.flatnonzero(pos == p)
        factors = np.concatenate(([xf[p]] if include_self else [], sf[members]))
        for j in range(len(factors)):
            prod = np.prod(np.delete(factors, j))
            if include_self and j == 0:
                self_others[p] = prod
            else:
                src_others[members[j - (1 if include_self else 0)]] = prod
    return self_others.reshape(x.shape), src_others.reshape(s.shape)


class ScatterReduce(Function):
    node_name = "ScatterReduceBackward0"  # (PyTorch's node name)

    @staticmethod
    def forward(ctx, input, src, pos, reduce, include_self):
        x, s = np.asarray(input._data), np.asarray(src._data)
        out, reached, counts = _forward_values(x, pos, s, reduce, include_self)
        result = _leaf(norm(out))
        ctx.args = (pos, reduce, include_self, reached, counts, x, s)
        ctx.save_for_backward(input, src, result)
        return result

    @staticmethod
    def backward(ctx, g):
        pos, reduce, include_self, reached, counts, x, s = ctx.args
        input, src, result = ctx.saved_tensors
        flat = g.reshape(-1)
        at = Tensor(pos)
        dt = input.dtype
        if reduce in ("sum", "mean"):
            per = g / Tensor(counts.astype(dt)) if reduce == "mean" else g
            g_self, g_src = per, per.reshape(-1)[at].reshape(tuple(src.shape))
        elif reduce == "prod":
            if (x[reached] != 0).all() and (s != 0).all():  # PyTorch's differentiable form
                gr = g * result
                g_self = gr / input
                g_src = gr.reshape(-1)[at].reshape(tuple(src.shape)) / src
            else:
                so, oo = _others_product(x, pos, s, include_self)
                g_self = where(Tensor(reached), g * Tensor(so), g)
                g_src = flat[at].reshape(tuple(src.shape)) * Tensor(oo)
        else:  # amax / amin: ties share the gradient
            res = np.asarray(result._data)
            self_is = (x == res).astype(dt)
            src_is = (s == res.reshape(-1)[pos].reshape(s.shape)).astype(dt)
            n = self_is.reshape(-1).copy()
            np.add.at(n, pos, src_is.reshape(-1))
            share = g / Tensor(n.reshape(x.shape))
            g_self = share * Tensor(self_is)
            g_src = share.reshape(-1)[at].reshape(tuple(src.shape)) * Tensor(src_is)
        if not include_self:
            g_self = where(Tensor(reached), 0.0, g_self)
        return g_self, g_src, None, None, None


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """``input`` with ``src``'s elements reduced into it along ``dim`` at ``index``."""
    if reduce not in _UFUNC:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")
    if not isinstance(src, Tensor) or src.dtype != input.dtype:
        raise RuntimeError("scatter_reduce(): Expected self.dtype to be equal to src.dtype")
    d = _wrap_dim(dim, input.ndim, "scatter_reduce")
    idx = _index_arg(index, "scatter_reduce")
    pos = _targets(tuple(input.shape), d, idx, "scatter_reduce").reshape(-1)
    if tuple(src.shape) != idx.shape:  # the leading block of src, as PyTorch reads it
        src = src[tuple(slice(0, n) for n in idx.shape)]
    if input.dtype.kind != "f":
        x, s = np.asarray(input._data), np.asarray(src._data)
        return _leaf(norm(_forward_values(x, pos, s, reduce, include_self)[0]))
    return ScatterReduce.apply(input, src, pos, reduce, bool(include_self))


Tensor.scatter_reduce = scatter_reduce

__all__ = ["scatter_reduce"]
