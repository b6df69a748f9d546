"""Reductions: sum and mean, over everything or over dims (with keepdim).

A reduction over dims stores the map from each input element to its output element
as a strided map with stride 0 on the reduced dims (shape.strided_index); the
reverse rule is then a broadcast of gy back over the input.
"""
import numpy as np

from .. import dtypes
from .._jit import rule
from .._state import state
from ..tensor import _leaf, _wrap_dim, norm
from ._record import output, slot, tape_for_grad
from .shape import _c_strides, _s, _strided_meta, _u, strided_index
from .spec import Spec

NAMES = {}

# ---- sum / mean of all elements -------------------------------------------------------
SUM, MEAN = 40, 41
NAMES[SUM] = "SumBackward0"
NAMES[MEAN] = "MeanBackward0"


@rule
def sum_fwd(vals, o, a, n, scale, w):
    for p in range(w):
        vals[o + p] = 0.0
    for i in range(n):
        for p in range(w):
            vals[o + p] += vals[a + i * w + p]
    for p in range(w):
        vals[o + p] *= scale


@rule
def sum_rev(adj, o, a, n, scale, w):
    # y = scale * sum x  =>  gx[i] += scale * gy   (scale is 1, or 1/n for mean)
    for i in range(n):
        for p in range(w):
            adj[a + i * w + p] += adj[o + p] * scale


# ---- sum / mean over dims ---------------------------------------------------------------
SUM_DIM, MEAN_DIM = 42, 43
NAMES[SUM_DIM] = "SumBackward1"
NAMES[MEAN_DIM] = "MeanBackward1"


@rule
def sum_dim_fwd(vals, meta, o, a, n_in, n_out, k, scale, w):
    for j in range(n_out * w):
        vals[o + j] = 0.0
    for i in range(n_in):
        j = o + _u(strided_index(_s(i), meta, k)) * w
        for p in range(w):
            vals[j + p] += vals[a + i * w + p]
    for j in range(n_out * w):
        vals[o + j] *= scale


@rule
def sum_dim_rev(adj, meta, o, a, n_in, k, scale, w):
    # y[map(i)] += scale * x[i]  =>  gx[i] += scale * gy[map(i)]
    for i in range(n_in):
        j = o + _u(strided_index(_s(i), meta, k)) * w
        for p in range(w):
            adj[a + i * w + p] += adj[j + p] * scale


def _dims(input, dim, op):
    if dim is None:
        return None
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    out = sorted({_wrap_dim(d, input.ndim, op) for d in dims})
    return tuple(out) if input.ndim else ()


def _reduce(input, dim, keepdim, op, dtype):
    mean = op == "mean"
    d = np.asarray(input._data)
    if dtype is not None:
        d = d.astype(dtypes.to_dtype(dtype))
    if mean and d.dtype.kind != "f":
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating "
            f"point or complex dtype. Got: {dtypes.name(d.dtype)} (use .float() or "
            "dtype=tapegrad.float64)")
    dims = _dims(input, dim, op)
    npfn = np.mean if mean else np.sum
    with np.errstate(all="ignore"):
        if dims is None:
            v = npfn(d)
        else:
            v = npfn(d, axis=dims, keepdims=keepdim)
    v = norm(np.asarray(v, dtype=d.dtype if d.dtype.kind == "f" else np.int64))
    if not (input._rg and state.grad_enabled):
        return _leaf(v)
    tape = tape_for_grad()
    sx = slot(input, tape)
    if dims is None:  # an explicit dim, even naming every dim, is SumBackward1 in PyTorch
        return output(tape, v, MEAN if mean else SUM, sx)
    out_shape = tuple(1 if i in dims else s for i, s in enumerate(d.shape))
    k = tape.push_meta(_strided_meta(d.shape, _c_strides(out_shape)))
    return output(tape, v, MEAN_DIM if mean else SUM_DIM, sx, -1, k)


def sum(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A001 (PyTorch's name)
    """Sum of all elements, or over ``dim`` (an int or a tuple)."""
    return _reduce(input, dim, keepdim, "sum", dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    """Mean of all elements, or over ``dim``; floating inputs only, as PyTorch."""
    return _reduce(input, dim, keepdim, "mean", dtype)


# ---- spec rows ----------------------------------------------------------------------
SPECS = [
    Spec("sum", lambda x: x.sum(), lambda np_, x: np_.sum(x)),
    Spec("mean", lambda x: x.mean(), lambda np_, x: np_.mean(x)),
    Spec("sum_dim", lambda x: x.sum(0), lambda np_, x: np_.sum(x, axis=0),
         shapes=((3,), (2, 3), (2, 3, 4))),
    Spec("sum_dim_last_keep", lambda x: x.sum(-1, keepdim=True),
         lambda np_, x: np_.sum(x, axis=-1, keepdims=True), shapes=((3,), (2, 3), (2, 3, 4))),
    Spec("mean_dims", lambda x: x.mean((0, -1)), lambda np_, x: np_.mean(x, axis=(0, -1)),
         shapes=((2, 3), (2, 3, 4))),
]
