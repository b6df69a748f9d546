"""Searching and counting: nonzero, argwhere, bucketize, searchsorted, unique,
unique_consecutive, isin, bincount (integer or bool results with PyTorch's dtypes and shapes,
never differentiable), and masked_select (a GATHER row: its gradient goes to the selected
elements).
"""
import numpy as np

from .. import dtypes
from ..tensor import Tensor, _leaf, host_values, norm
from . import control as cmp
from . import shape as sh
from ._record import no_derivative, node
from .registry import api
from .strided import broadcast_shape


def _tensor(x, op, pos=1, name="input"):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument '{name}' (position {pos}) must be Tensor, not "
                        f"{type(x).__name__}")
    return x


def _ints(a):
    return _leaf(norm(np.ascontiguousarray(np.asarray(a, np.int64))))


def _nonzero(x):
    return cmp.ne(x, 0.0)


def nonzero_pattern(x, op):
    """``x``'s values, read where only its pattern of nonzero elements decides op's result
    (which elements, how many): that pattern is what is guarded while tracing."""
    return host_values(x, op, decides=_nonzero)


@api
def nonzero(input, *, as_tuple=False):
    """Indices of the nonzero elements: an ``(n, ndim)`` int64 tensor, or one index tensor
    per dimension with ``as_tuple=True``.

    >>> import tapegrad as tg
    >>> tg.tensor([0.0, 2.0, 3.0]).nonzero().tolist()
    [[1], [2]]
    """
    d = nonzero_pattern(_tensor(input, "nonzero"), "nonzero")
    if as_tuple:
        if d.ndim == 0:
            return (_ints(np.nonzero(d.reshape(1))[0]),)
        return tuple(_ints(i) for i in np.nonzero(d))
    return _ints(np.argwhere(d))


@api
def argwhere(input):
    """``nonzero(input)``: the ``(n, ndim)`` indices of the nonzero elements."""
    return _ints(np.argwhere(nonzero_pattern(_tensor(input, "argwhere"), "argwhere")))


@api
@node("MaskedSelectBackward0")
def masked_select(input, mask):
    """The elements where ``mask`` (bool, broadcast with input) holds, as a 1-D tensor."""
    _tensor(input, "masked_select")
    _tensor(mask, "masked_select", 2, "mask")
    if mask.dtype != np.bool_:
        raise RuntimeError(f"masked_select: expected BoolTensor for mask (got "
                           f"{dtypes.torch_name(mask.dtype)})")
    shape = broadcast_shape("masked_select", tuple(mask.shape), tuple(input.shape))
    x = sh.expand(input, *shape) if tuple(input.shape) != shape else input
    m = np.broadcast_to(nonzero_pattern(mask, "masked_select"), shape)
    return x.reshape(-1)[Tensor(np.flatnonzero(m))]


def _sorted_check(sorted_sequence, op):
    if sorted_sequence.ndim == 0:
        raise RuntimeError(f"{op}(): input value can be a scalar only when sorted_sequence "
                           "tensor dimension is 1, but we got sorted_sequence dim 0")


@api(method=False)
def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None,
                 sorter=None):
    """Where ``input``'s values would go in ``sorted_sequence`` (its last dim; leading dims
    match input's) to keep it sorted: indices of the first element ``>=`` (``> `` with
    ``right=True`` or ``side='right'``)."""
    _tensor(sorted_sequence, "searchsorted", 1, "sorted_sequence")
    _sorted_check(sorted_sequence, "searchsorted")
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but "
                               f"got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites,"
                               " got side of left while right was True")
        right = side == "right"
    seq = host_values(sorted_sequence, "searchsorted")
    if sorter is not None:
        seq = np.take_along_axis(seq, host_values(sorter, "searchsorted").astype(np.int64), -1)
    vals = host_values(input, "searchsorted")
    how = "right" if right else "left"
    if seq.ndim == 1:
        out = np.searchsorted(seq, vals, side=how)
    else:
        if seq.shape[:-1] != vals.shape[:-1]:
            raise RuntimeError(
                "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                "dimensions of boundaries tensor and input value tensor must match, but we got "
                f"boundaries tensor {list(seq.shape)} and input value tensor {list(vals.shape)}")
        s2, v2 = seq.reshape(-1, seq.shape[-1]), vals.reshape(-1, vals.shape[-1])
        out = np.stack([np.searchsorted(s, v, side=how) for s, v in zip(s2, v2)]).reshape(
            vals.shape)
    out = np.asarray(out, np.int32 if out_int32 else np.int64)
    return _leaf(norm(out))


@api(method=False)
def bucketize(input, boundaries, *, out_int32=False, right=False):
    """The bucket of each element among the sorted 1-D ``boundaries``: the index of the first
    boundary ``>=`` it (``>`` with ``right=True``)."""
    _tensor(boundaries, "bucketize", 2, "boundaries")
    if boundaries.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim("
                           f"{boundaries.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


def _no_derivative(name, vals, input):
    """unique's values: PyTorch's node (``Unique2Backward0``, ``UniqueDimBackward0``,
    ``UniqueConsecutiveBackward0``) whose backward raises NotImplementedError."""
    node = "".join(w.capitalize() for w in name.strip("_").split("_")) + "Backward0"
    error = NotImplementedError(f"the derivative for '{name}' is not implemented.")
    return no_derivative(name, norm(vals), input, node_name=node, error=error)


@api
def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """The distinct elements (sorted), and optionally the inverse indices and the counts;
    with ``dim``, the distinct slices along it."""
    _tensor(input, "unique")
    d = host_values(input, "unique")
    if dim is None:
        _, first, inv, counts = np.unique(d, return_index=True, return_inverse=True,
                                          return_counts=True, equal_nan=False)
        vals = d.reshape(-1)[first]  # (each NaN its own, and of 0.0 and -0.0 the first met,
        inv = inv.reshape(d.shape)   # as PyTorch's; return_index sorts stably)
    else:
        axis = dim % max(d.ndim, 1)
        vals, inv, counts = np.unique(d, return_inverse=True, return_counts=True, axis=axis)
        inv = inv.reshape(-1)
    name = "_unique2" if dim is None else "unique_dim"
    out = [_no_derivative(name, vals.astype(d.dtype), input)]
    if return_inverse:
        out.append(_ints(inv))
    if return_counts:
        out.append(_ints(counts))
    return out[0] if len(out) == 1 else tuple(out)


@api
def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Each run of equal consecutive elements (or slices along ``dim``) kept once."""
    _tensor(input, "unique_consecutive")
    d = host_values(input, "unique_consecutive")
    axis = 0 if dim is None else dim % max(d.ndim, 1)
    x = d.reshape(-1) if dim is None else np.moveaxis(d, axis, 0)
    if x.shape[0] == 0:
        change = np.zeros(0, bool)
    else:
        flat = x.reshape(x.shape[0], -1)
        change = np.concatenate(([True], (flat[1:] != flat[:-1]).any(axis=1)))
    starts = np.flatnonzero(change)
    vals = x[starts]
    if dim is not None:
        vals = np.moveaxis(vals, 0, axis)
    out = [_no_derivative("unique_consecutive", np.ascontiguousarray(vals), input)]
    if return_inverse:
        inv = np.cumsum(change) - 1
        out.append(_ints(inv.reshape(d.shape) if dim is None else inv))
    if return_counts:
        out.append(_ints(np.diff(np.append(starts, x.shape[0]))))
    return out[0] if len(out) == 1 else tuple(out)


@api(method=False)
def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """True where an element of ``elements`` is among ``test_elements`` (either may be a
    number)."""
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        raise TypeError("isin() received an invalid combination of arguments: expected a "
                        "Tensor for elements or test_elements")
    e = host_values(elements, "isin")
    return _leaf(norm(np.isin(e, host_values(test_elements, "isin"), invert=invert)))


@api
def bincount(input, weights=None, minlength=0):
    """Counts of each value of a 1-D tensor of non-negative ints (weighted sums with
    ``weights``)."""
    _tensor(input, "bincount")
    d = host_values(input, "bincount")  # (the counts follow the values: no row)
    if d.ndim != 1 or d.dtype.kind not in "iub":
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if d.size and d.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return _ints(np.bincount(d, minlength=minlength))
    w = host_values(weights, "bincount")
    dt = w.dtype if w.dtype.kind == "f" else np.float64
    return no_derivative("bincount", norm(np.bincount(d, weights=w, minlength=minlength)
                                          .astype(dt)), weights)
