"""Reductions: sum and mean, over everything or over dims (with keepdim).

A reduction over dims stores the map from each input element to its output element
as a strided map with stride 0 on the reduced dims (shape.strided_index); the
reverse rule is then a broadcast of gy back over the input.
"""
import builtins
import math

import numpy as np

from .. import _libm as libm
from .. import dtypes
from .._eager import sum_last
from .._errors import with_note
from .._fp import quiet
from .._jit import rule
from .._rules import _s, _u, add_into
from .._state import state
from ..arena import _F64, _ndarray
from ..return_types import named
from ..tensor import COMPLEX_HOOKS, Tensor, _leaf, _wrap_dim, _wrap_dims
from ..tensor import norm as _stored  # (``norm`` is the vector norm below)
from . import control
from . import elementwise as E
from . import layout
from . import shape as S
from ._record import output, slot, tape_for_grad
from .registry import ZERO, api, declare, no_gradient
from .spec import Spec
from .strided import _c_strides, _strided_meta, strided_index, strided_rev, strided_runs

# ---- sum / mean of all elements -------------------------------------------------------
SUM, MEAN = 40, 41


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


def sum_vjp(r, g):
    shape = r.shape(r.a)
    if r.op == MEAN:
        g = g / float(builtins.max(1, int(np.prod(shape, dtype=np.int64))))
    return [(r.a, S.expand(g, *shape) if shape else g)]


def _all_layout(lay, R):
    lay.slots(R[:, 2], "in0")
    lay.check_each(lay.sizes(R[:, 1], "out") != 1,
                   lambda i: "a full reduction has one output element")


declare(SUM, "SumBackward0", fwd=sum_fwd, rev=sum_rev, vjp=sum_vjp, check=_all_layout,
        tan=sum_fwd, curv=ZERO)


declare(MEAN, "MeanBackward0", fwd=sum_fwd, rev=sum_rev, vjp=sum_vjp, check=_all_layout,
        tan=sum_fwd, curv=ZERO)


# the layouts of rows reducing in0 into out by a strided map (meta: [*head, map])
_MAP = layout.reduction()
_ARG_MAP = layout.reduction(map_at=2, head=("inner", "size"))
_P_MAP = layout.reduction(map_at=1, consts_at=0)  # [const index of p or the scale, map]


def _even_groups(lay, R):
    """var's and std's map (checked by ``_P_MAP``) reduces whole dims: its dims of nonzero
    stride (and more than one element) send their elements one to one onto the n_out
    outputs, so every output gets n_in / n_out elements.  ``_group_mean`` divides each
    group's sum by that count, and var_rev's gradient, 2 scale (x - mean) gy, is the
    derivative only where the mean is the group's: a crafted row mapping all six elements
    to the first of two outputs (another row's map) took the sum / 3 as the mean, and
    its gradient was silently off by 1/3 at every element."""
    n_out, n_in, k = lay.size[R[:, 1]], lay.size[R[:, 2]], R[:, 4] + 1
    nd = lay.meta[k]
    bad = (n_in > 0) & (nd == 0) & (n_out != 1)  # (all to one output)
    for d in np.unique(nd[(n_in > 0) & (nd > 0)]).tolist():
        at = np.flatnonzero((nd == d) & (n_in > 0))
        f = lay.meta[(k[at] + 2)[:, None] + np.arange(2 * d)]
        kept = (f[:, d:] != 0) & (f[:, :d] > 1)
        size, stride = np.where(kept, f[:, :d], 1), np.where(kept, np.abs(f[:, d:]), 0)
        order = np.argsort(stride, axis=1)  # (spans < 2**53 each: _P_MAP's range check)
        size, stride = (np.take_along_axis(a, order, axis=1) for a in (size, stride))
        span = (size - 1) * stride
        before = np.cumsum(span, axis=1) - span  # what the dims of smaller stride reach
        nested = ((stride > before) | (stride == 0)).all(axis=1)
        bad[at] |= ~nested | (np.prod(size, axis=1) != n_out[at])
    lay.check_each(bad, lambda i: f"the map at meta[{int(k[i])}] does not send equally many "
                                  f"of the {int(n_in[i])} input elements to each of the "
                                  f"{int(n_out[i])} outputs (a reduction over whole dims)")


# ---- sum / mean over dims ---------------------------------------------------------------
SUM_DIM, MEAN_DIM = 42, 43


@rule
def sum_dim_fwd(vals, meta, o, a, n_in, n_out, k, scale, w):
    for j in range(n_out * w):
        vals[o + j] = 0.0
    strided_rev(vals, vals, meta, a, o, n_in, k, w)  # y[map(i)] += x[i]: a map's reverse
    for j in range(n_out * w):
        vals[o + j] *= scale


@rule
def sum_dim_rev(adj, meta, o, a, n_in, k, scale, w, fa):
    # y[map(i)] += scale * x[i]  =>  gx[i] += scale * gy[map(i)]
    # (fa: eager, a's span not zeroed, written here: _rules.add_into)
    starts, length, step = strided_runs(meta, k, _s(n_in))
    if w == 1 and step == 0:  # a sum over the last dim: each run gets one product, fa's
        if fa:  # test out of the loops (ADBench GMM: (K, n, d) -> (K, n), 1.1-1.5x faster)
            for r in range(len(starts)):
                x = a + _u(r * length)
                g = adj[o + _u(starts[r])] * scale + 0.0
                for i in range(length):
                    adj[x + _u(i)] = g
        else:
            for r in range(len(starts)):
                x = a + _u(r * length)
                g = adj[o + _u(starts[r])] * scale
                for i in range(length):
                    adj[x + _u(i)] += g
        return
    if w == 1:  # eager sweeps: without the loop over points, ~2x faster (as strided_rev)
        for r in range(len(starts)):
            x = a + _u(r * length)
            j = o + _u(starts[r])
            for i in range(length):
                add_into(adj, x + _u(i), adj[j + _u(i * step)] * scale, fa)
        return
    for r in range(len(starts)):
        x = a + _u(r * length) * w
        for i in range(length):
            j = o + _u(starts[r] + i * step) * w
            for p in range(w):
                adj[x + _u(i) * w + p] += adj[j + p] * scale


def sum_dim_vjp(r, g):
    gx = r.spread(g, r.k)
    if r.op == MEAN_DIM:
        gx = gx * (r.numel(r.o) / builtins.max(1, r.numel(r.a)))
    return [(r.a, gx)]


declare(SUM_DIM, "SumBackward1", aux="meta", fwd=sum_dim_fwd, rev=sum_dim_rev, vjp=sum_dim_vjp,
        check=_MAP, tan=sum_dim_fwd, curv=ZERO)


declare(MEAN_DIM, "MeanBackward1", aux="meta", fwd=sum_dim_fwd, rev=sum_dim_rev, vjp=sum_dim_vjp,
        check=_MAP, tan=sum_dim_fwd, curv=ZERO)


def _dims(input, dim, op):
    """sum/mean's dims: None for all (SumBackward0); an explicit dim, even ``[]`` naming every
    dim, is a sorted tuple (SumBackward1), () for a 0-d input."""
    if dim is None:
        return None
    dims = _red_dims(input, dim, op)
    return dims if dims is not None else tuple(range(input.ndim))


def _reduce(input, dim, keepdim, op, dtype):
    mean = op == "mean"
    d = np.asarray(input._data)
    if dtype is not None:
        if np.dtype(dtype).kind == "c":  # sum(x, dtype=cfloat): of x made complex
            z = input.to(dtype)
            return z.mean(dim, keepdim) if mean else z.sum(dim, keepdim)
        d = d.astype(dtypes.to_dtype(dtype))
    if mean and d.dtype.kind != "f":
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating "
            f"point or complex dtype. Got: {dtypes.torch_name(d.dtype)}")  # (PyTorch's words)
    nd = d.ndim
    if type(dim) is int and -nd <= dim < nd:  # the common case, without _dims' checks
        dims = (dim % nd,)
    else:
        dims = _dims(input, dim, op)
    if d.dtype.kind == "f":  # ufunc.reduce itself: np.sum and np.mean add 1.3-2.9 us a call
        # (many short rows: NumPy's values, compiled: tapegrad/_eager.py)
        v = sum_last(d, keepdim) if dims == (nd - 1,) else None
        with quiet():
            if v is None:
                v = np.add.reduce(d, axis=dims, keepdims=keepdim and dims is not None)
            if mean:
                v = np.true_divide(v, d.size // v.size if d.size else 0, dtype=d.dtype)
        v = _stored(np.asarray(v))
    else:
        with quiet():
            # (integers add up in int64, or in the dtype asked for, as PyTorch's)
            out = np.int64 if dtype is None else d.dtype
            v = np.sum(d, dtype=out) if dims is None else \
                np.sum(d, axis=dims, keepdims=keepdim, dtype=out)
        v = _stored(np.asarray(v, dtype=out))
    if not (input._rg and state.grad_enabled):
        return _leaf(v)
    tape = tape_for_grad()
    sx = slot(input, tape, False)  # (their rules read no value: a result kept aside stays so)
    if dims is None:  # an explicit dim, even naming every dim, is SumBackward1 in PyTorch
        return output(tape, v, MEAN if mean else SUM, sx)
    out_shape = tuple(1 if i in dims else s for i, s in enumerate(d.shape))
    k = tape.push_meta(_strided_meta(d.shape, _c_strides(out_shape)))
    return output(tape, v, MEAN_DIM if mean else SUM_DIM, sx, -1, k)


@api
def sum(input, dim=None, keepdim=False, *, dtype=None, keepdims=None):  # noqa: A001
    """Sum of all elements, or over ``dim`` (an int or a tuple)."""
    if dim is None and dtype is None and type(d := getattr(input, "_data", None)) is _ndarray \
            and d.dtype is _F64:
        return _total(input, d, SUM)
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    return _reduce(input, dim, keepdim, "sum", dtype)


@api
def mean(input, dim=None, keepdim=False, *, dtype=None, keepdims=None):
    """Mean of all elements, or over ``dim``; floating inputs only, as PyTorch."""
    if dim is None and dtype is None and type(d := getattr(input, "_data", None)) is _ndarray \
            and d.dtype is _F64:
        return _total(input, d, MEAN)
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    return _reduce(input, dim, keepdim, "mean", dtype)


def _total(input, d, code):
    """sum/mean of every element of ``input``, whose values ``d`` are a float64 array: their
    common case, computed and recorded as _reduce does without its dims and dtype logic
    (issue 20: a 2,000-value script's loss)."""
    with quiet():
        v = np.add.reduce(d, None)
        if code == MEAN:
            v = np.true_divide(v, d.size, dtype=d.dtype)
    v = float(v)
    if not (input._rg and state.grad_enabled):
        return _leaf(v)
    tape = tape_for_grad()
    return output(tape, v, code, slot(input, tape, False))


# ---- what the reductions below share -------------------------------------------------
# Each stores a strided map from input element to output element (as SUM_DIM does; over
# everything it is the empty map [0, 0], which sends every element to output 0), after
# the op's own parameters in the meta.  Rules that need per-group work space (counts,
# means, shifts) allocate it: n_out * w values.
def _red_dims(input, dim, op):
    """The reduced dims as a sorted tuple, or None for all (``dim`` None or ``()``)."""
    if dim is None:
        return None
    wrapped = _wrap_dims(dim, input.ndim, op)
    if not wrapped or input.ndim == 0:
        return None
    return tuple(sorted(wrapped))


def _red_map(shape, dims):
    if dims is None:
        return (0, 0)
    kept = tuple(1 if i in dims else s for i, s in enumerate(shape))
    return _strided_meta(shape, _c_strides(kept))


def _red_value(v, dtype):
    """A reduction's NumPy result in tapegrad's storage, with ``dtype``."""
    v = np.asarray(v, dtype=dtype)
    if v.ndim == 0 and v.dtype == np.float64:
        return float(v)
    return v if v.flags.c_contiguous else np.ascontiguousarray(v)


def _red_record(input, v, code, dims, head=(), consts=()):
    """One row ``code`` when input requires grad; meta: [const index, *head, map]."""
    if not (input._rg and state.grad_enabled):
        return _leaf(v)
    tape = tape_for_grad()
    sx = slot(input, tape)
    ks = [tape.const_run(*(float(c) for c in consts))] if consts else []  # (read at ks[0] + i)
    k = tape.push_meta((*ks, *head, *_red_map(input.shape, dims)))
    return output(tape, v, code, sx, -1, k)


def _npred(fn, d, dims, keepdim, **kw):
    with quiet():
        if dims is None:
            v = fn(d, **kw)
            return np.reshape(v, (1,) * d.ndim) if keepdim else v
        return fn(d, axis=dims, keepdims=keepdim, **kw)


def _float_input(input, op, what="a floating point"):
    if input.dtype.kind == "c":
        raise COMPLEX_HOOKS["unsupported"](op)
    if input.dtype.kind != "f":
        raise RuntimeError(f"{op}: Expected {what} tensor as input. Got "
                           f"{dtypes.torch_name(input.dtype)}")  # (PyTorch's words)


@rule
def _beats(x, y, s):
    # x takes the running extreme y's place: larger (s = 1) or smaller (s = -1); the first
    # nan wins and stays (PyTorch's max/min propagate nan and return its index)
    return (x != x and y == y) or s * x > s * y


@rule
def _group(meta, k, i, w):
    # offset of input element i's output group (op-major: times w)
    return _u(strided_index(_s(i), meta, k)) * w


# ---- prod ----------------------------------------------------------------------------
PROD, PROD_DIM = 44, 45


@rule
def prod_fwd(vals, meta, o, a, n_in, n_out, k, w):
    for j in range(n_out * w):
        vals[o + j] = 1.0
    for i in range(n_in):
        j = o + _group(meta, k, i, w)
        for p in range(w):
            vals[j + p] *= vals[a + i * w + p]


@rule
def prod_rev(adj, vals, meta, o, a, n_in, n_out, k, w):
    # gx = gy * (product of the others): y / x without zeros; with one zero only the zero
    # gets the product of the rest; with more, nothing (PyTorch's prod_backward)
    zeros = np.zeros(n_out * w)
    rest = np.ones(n_out * w)
    for i in range(n_in):
        j = _group(meta, k, i, w)
        for p in range(w):
            x = vals[a + i * w + p]
            if x == 0.0:
                zeros[j + p] += 1.0
            else:
                rest[j + p] *= x
    for i in range(n_in):
        j = _group(meta, k, i, w)
        for p in range(w):
            x = vals[a + i * w + p]
            gy = adj[o + j + p]
            if zeros[j + p] == 0.0:
                adj[a + i * w + p] += gy * (vals[o + j + p] / x)
            else:  # (a nan or inf gy still gives nan times the 0, as PyTorch's products)
                adj[a + i * w + p] += gy * (rest[j + p] if zeros[j + p] == 1.0 and x == 0.0
                                            else 0.0)


def prod_vjp(r, g):
    # gx_i = g * the product of the group's other entries (PyTorch's rule), written as
    # functions that equal it near this point, so they differentiate again: with N the
    # product of the group's nonzeros and Z of its zeros, N * Z / x_i at a nonzero; at a
    # zero, N in a group with one zero, N * (the other zero) with two (as (1 + x_o) - 1,
    # from a product), and 0 with three or more.  Zeros are this point's (refused while
    # tracing: a replayed point may hold others).
    r.point_only()
    x = r.x
    zero = np.asarray(x._data) == 0
    if not zero.any():
        return [(r.a, r.spread(g * r.out, r.k) / x)]
    out_shape = r.shape(r.o)

    def group_prod(t):  # the product over x's group, spread back over x's shape
        return r.spread(r.emit(r.op, t, r.k, out_shape), r.k)

    z = _leaf(zero)
    nonzero = E.where(z, 1.0, x)
    n, zp = group_prod(nonzero), group_prod(E.where(z, x, 1.0))
    count = np.asarray(group_prod(_leaf(np.where(zero, 2.0, 1.0)))._data)  # 2 ** zeros
    dt = x.dtype
    at_nonzero = _leaf((~zero).astype(dt))
    one = _leaf((zero & (count == 2.0)).astype(dt))  # a zero alone in its group
    two = _leaf((zero & (count == 4.0)).astype(dt))  # one of a group's two zeros
    shifted = E.where(z, x + 1.0, 1.0)
    other = group_prod(shifted) / shifted - 1.0  # the group's other zero (two zeros)
    gx = at_nonzero * (n * zp / nonzero) + one * n + two * (n * other)
    return [(r.a, r.spread(g, r.k) * gx)]


@rule
def prod_tan(tan, vals, meta, o, a, n_in, n_out, k, w):
    # t prod = sum_i (product of the others) t_i, zeros handled as prod_rev does
    zeros = np.zeros(n_out * w)
    rest = np.ones(n_out * w)
    for j in range(n_out * w):
        tan[o + j] = 0.0
    for i in range(n_in):
        j = _group(meta, k, i, w)
        for p in range(w):
            x = vals[a + i * w + p]
            zeros[j + p] += 1.0 if x == 0.0 else 0.0
            rest[j + p] *= 1.0 if x == 0.0 else x
    for i in range(n_in):
        j = _group(meta, k, i, w)
        for p in range(w):
            x = vals[a + i * w + p]
            t = tan[a + i * w + p]
            z = zeros[j + p]
            if z == 0.0:
                tan[o + j + p] += t * (vals[o + j + p] / x)
            elif z == 1.0 and x == 0.0:
                tan[o + j + p] += t * rest[j + p]


declare(PROD, "ProdBackward0", saves="ao", aux="meta", fwd=prod_fwd, rev=prod_rev, vjp=prod_vjp,
        check=_MAP, tan=prod_tan)


declare(PROD_DIM, "ProdBackward1", saves="ao", aux="meta", fwd=prod_fwd, rev=prod_rev, vjp=prod_vjp,
        check=_MAP, tan=prod_tan)


@api
def prod(input, dim=None, keepdim=False, *, dtype=None, keepdims=None):
    """Product of all elements, or over one ``dim``.

    >>> import tapegrad as tg
    >>> tg.tensor([[1.0, 2.0], [3.0, 4.0]]).prod(1).tolist()
    [2.0, 12.0]
    """
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    d = np.asarray(input._data)
    if dtype is not None:
        d = d.astype(dtypes.to_dtype(dtype))
    if dim is not None and not isinstance(dim, int):
        raise TypeError(f"prod(): argument 'dim' must be int, not {type(dim).__name__}")
    dims = _red_dims(input, dim, "prod")
    out_dtype = d.dtype if d.dtype.kind == "f" or dtype is not None else np.int64
    v = _red_value(_npred(np.prod, d, dims, keepdim), out_dtype)
    return _red_record(input, v, PROD if dim is None else PROD_DIM, dims)


# ---- max / min: of all, with dim (values, indices), amax / amin ------------------------
MAX, MIN, MAX_DIM, MIN_DIM, AMAX, AMIN = 46, 47, 48, 49, 50, 51
MAX_ALL, MAX_AMAX, MAX_INDEX = 0, 1, 2  # how extreme_rev hands out gy (see there)


@rule
def extreme_fwd(vals, meta, o, a, n_in, n_out, k, s, w):
    # y = max (s = 1) or min (s = -1) of each group; nan propagates
    for j in range(n_out * w):
        vals[o + j] = -s * np.inf
    for i in range(n_in):
        j = o + _group(meta, k, i, w)
        for p in range(w):
            x = vals[a + i * w + p]
            if _beats(x, vals[j + p], s):
                vals[j + p] = x


@rule
def _ties(x, y, nan_ties):
    return x == y or (nan_ties and x != x and y != y)


@rule
def extreme_rev(adj, vals, meta, o, a, n_in, n_out, k, mode, w):
    # MAX_ALL: gy split evenly among the elements equal to y, nans tying with a nan y;
    # MAX_AMAX: split evenly among x == y (a nan y has none: nan everywhere, as PyTorch);
    # MAX_INDEX: all of gy to the first element equal to y (the index max(dim) returns)
    cnt = np.zeros(n_out * w)
    if mode == MAX_INDEX and w == 1:  # eager sweeps: the map's runs, no div/mod an element
        _first_tie_rev(adj, vals, meta, o, a, n_in, k, cnt)  # (min(dim=1) over 10^5: ~4x)
        return
    for i in range(n_in):
        j = _group(meta, k, i, w)
        for p in range(w):
            if _ties(vals[a + i * w + p], vals[o + j + p], mode != MAX_AMAX):
                if mode == MAX_INDEX and cnt[j + p] == 0.0:
                    adj[a + i * w + p] += adj[o + j + p]
                cnt[j + p] += 1.0
    if mode == MAX_INDEX:
        return
    for i in range(n_in):
        j = _group(meta, k, i, w)
        for p in range(w):
            # (gy / cnt) * mask, as PyTorch: a nan or inf gy reaches the others as nan
            c = cnt[j + p]
            share = adj[o + j + p] / c if c > 0.0 else np.nan
            tie = _ties(vals[a + i * w + p], vals[o + j + p], mode != MAX_AMAX)
            adj[a + i * w + p] += share * (1.0 if tie else 0.0)


@rule
def _first_tie_rev(adj, vals, meta, o, a, n_in, k, seen):
    # extreme_rev's MAX_INDEX at one point: gy to the first x (in input order) equal to y
    starts, length, step = strided_runs(meta, k, _s(n_in))
    for r in range(len(starts)):
        x = a + _u(r * length)
        for i in range(length):
            j = _u(starts[r] + i * step)
            if seen[j] == 0.0 and _ties(vals[x + _u(i)], vals[o + j], True):
                adj[x + _u(i)] += adj[o + j]
                seen[j] = 1.0


def extreme_vjp(r, g):
    if not r.tracing or r.op in (MAX_DIM, MIN_DIM):
        return [(r.a, r.unit_weighted(g, r.k))]
    # traced: g shared evenly among the elements equal to the extreme of their group
    tie = r.f(r.x == r.spread(r.out, r.k))
    count = r.emit(SUM_DIM, tie, r.k, r.shape(r.o))
    return [(r.a, r.spread(g / count, r.k) * tie)]


@rule
def extreme_tan(tan, vals, meta, o, a, n_in, n_out, k, mode, w):
    # the tangents of the elements extreme_rev gives gy to, with its shares: the first tie
    # (MAX_INDEX), or the mean over the ties (nan where there is none)
    cnt = np.zeros(n_out * w)
    for j in range(n_out * w):
        tan[o + j] = 0.0
    for i in range(n_in):
        j = _group(meta, k, i, w)
        for p in range(w):
            if _ties(vals[a + i * w + p], vals[o + j + p], mode != MAX_AMAX):
                if mode == MAX_INDEX and cnt[j + p] == 0.0:
                    tan[o + j + p] = tan[a + i * w + p]
                cnt[j + p] += 1.0
    for i in range(n_in if mode != MAX_INDEX else 0):
        j = _group(meta, k, i, w)
        for p in range(w):
            c = cnt[j + p]
            tie = _ties(vals[a + i * w + p], vals[o + j + p], mode != MAX_AMAX)
            share = tan[a + i * w + p] / c if c > 0.0 else np.nan
            tan[o + j + p] += share * (1.0 if tie else 0.0)


declare(MAX, "MaxBackward1", saves="ao", aux="meta", fwd=extreme_fwd, rev=extreme_rev,
        vjp=extreme_vjp, check=_MAP, tan=extreme_tan,
        curv=ZERO)  # (piecewise linear)


declare(MIN, "MinBackward1", saves="ao", aux="meta", fwd=extreme_fwd, rev=extreme_rev,
        vjp=extreme_vjp, check=_MAP, tan=extreme_tan,
        curv=ZERO)  # (piecewise linear)


declare(MAX_DIM, "MaxBackward0", frees=True, aux="meta", fwd=extreme_fwd, rev=extreme_rev,
        vjp=extreme_vjp, check=_MAP, tan=extreme_tan,
        curv=ZERO)  # (piecewise linear)


declare(MIN_DIM, "MinBackward0", frees=True, aux="meta", fwd=extreme_fwd, rev=extreme_rev,
        vjp=extreme_vjp, check=_MAP, tan=extreme_tan,
        curv=ZERO)  # (piecewise linear)


declare(AMAX, "AmaxBackward0", saves="ao", aux="meta", fwd=extreme_fwd, rev=extreme_rev,
        vjp=extreme_vjp, check=_MAP, tan=extreme_tan,
        curv=ZERO)  # (piecewise linear)


declare(AMIN, "AminBackward0", saves="ao", aux="meta", fwd=extreme_fwd, rev=extreme_rev,
        vjp=extreme_vjp, check=_MAP, tan=extreme_tan,
        curv=ZERO)  # (piecewise linear)


# argmax / argmin: no gradient.  Eagerly they record nothing; while tapegrad.trace records,
# an ARGMAX row computes the index at every replayed point (meta: [inner, size, map]), so
# replay never hands back the traced point's index.
ARGMAX, ARGMIN = 52, 53
# seen only while tracing; PyTorch has no node here


@rule
def arg_extreme_fwd(vals, meta, o, a, n_in, n_out, k, s, w):
    # the index along the reduced dim of each group's first extreme (or first nan) element
    inner, size = _u(meta[k]), _u(meta[k + 1])
    best = np.empty(n_out * w)
    for j in range(n_out * w):
        best[j] = -s * np.inf
        vals[o + j] = 0.0
    for i in range(n_in):
        j = _group(meta, k + 2, i, w)
        for p in range(w):
            x = vals[a + i * w + p]
            if _beats(x, best[j + p], s):
                best[j + p] = x
                vals[o + j + p] = float((i // inner) % size)


declare(ARGMAX, "ArgmaxBackward0", aux="meta", fwd=arg_extreme_fwd, vjp=no_gradient, check=_ARG_MAP,
        tan=ZERO, curv=ZERO)


declare(ARGMIN, "ArgminBackward0", aux="meta", fwd=arg_extreme_fwd, vjp=no_gradient, check=_ARG_MAP,
        tan=ZERO, curv=ZERO)


MaxResult = named("max", ("values", "indices"))
MinResult = named("min", ("values", "indices"))


def _check_nonempty(input, dim, op):
    if dim is None and input.numel() == 0:
        if op in ("argmax", "argmin"):  # (PyTorch's type and words differ for these two)
            raise IndexError(f"{op}(): Expected reduction dim to be specified for "
                             "input.numel() == 0.")
        raise RuntimeError(f"{op}(): Expected reduction dim to be specified for input.numel() "
                           "== 0. Specify the reduction dim with the 'dim' argument.")
    for d in dim or ():
        if input.ndim and input.shape[d] == 0:
            raise IndexError(f"{op}(): Expected reduction dim {d} to have non-zero size.")


def _index_of(input, idx, dim, keepdim, code):
    """The int64 indices of max/min/argmax/argmin: a constant, or an ARGMAX row while
    tracing a traced input."""
    v = _red_value(idx, np.int64)
    tape = state.tracing
    if tape is None or not _traced(input, tape):
        return _leaf(v)
    shape = tuple(input.shape)
    if dim is None:
        inner, size, dims = 1, input.numel() or 1, None
    else:
        inner, size, dims = int(np.prod(shape[dim + 1:])), shape[dim] if shape else 1, (dim,)
    k = tape.push_meta((inner, size, *_red_map(shape, dims)))
    return output(tape, v, code, slot(input, tape), -1, k)


def _traced(t, tape):
    return t._rg and (t._gen == tape.gen or t._tok is not None)


def _extreme(input, dim, keepdim, other, largest):
    op = "max" if largest else "min"
    if isinstance(dim, Tensor) or isinstance(other, Tensor):
        return (E.maximum if largest else E.minimum)(input, dim if other is None else other)
    d = np.asarray(input._data)
    if dim is None:
        _check_nonempty(input, None, op)
        v = _red_value(_npred(np.max if largest else np.min, d, None, False), d.dtype)
        return _red_record(input, v, MAX if largest else MIN, None)
    w = _wrap_dim(dim, input.ndim, op)
    _check_nonempty(input, (w,), op)
    dims = (w,) if input.ndim else None
    if d.ndim:
        idx, v = _extreme_at(d, w, keepdim, largest)
    else:
        idx, v = np.zeros(()), d
    v = _red_value(v, d.dtype)
    values = _red_record(input, v, MAX_DIM if largest else MIN_DIM, dims)
    indices = _index_of(input, idx, w if d.ndim else None, keepdim, ARGMAX if largest else ARGMIN)
    return (MaxResult if largest else MinResult)(values, indices)


def _extreme_at(d, w, keepdim, largest):
    """max/min(dim)'s (indices, values) of ndarray ``d`` along axis ``w``: NumPy's argmax /
    argmin (the first extreme, or the first nan), and the values read at those indices, as
    PyTorch returns them (the value at the index: -0.0 or 0.0 as there, the nan itself).
    One pass over ``d`` and a gather, not a second reduction (k-means' (1000, 100)
    ``min(dim=1)``: 77 -> 25 us; ``dim=0`` 130 -> 85)."""
    idx = (np.argmax if largest else np.argmin)(d, axis=w, keepdims=True)
    if d.ndim == 2:  # (take_along_axis costs ~2.5 us more on small arrays)
        v = d[idx, np.arange(d.shape[1])] if w == 0 else d[np.arange(d.shape[0])[:, None], idx]
    else:
        v = np.take_along_axis(d, idx, w)
    if not keepdim:
        idx, v = idx.squeeze(w), v.squeeze(w)
    return idx, v


@api
def max(input, dim=None, keepdim=False, *, other=None, keepdims=None):  # noqa: A001
    """Largest element; with ``dim``, the named tuple ``(values, indices)``; with a Tensor
    second argument, ``maximum``.  Ties: over all elements the gradient is split evenly
    among them, with ``dim`` it goes to the returned (first) index, as in PyTorch.

    >>> import tapegrad as tg
    >>> tg.tensor([[1.0, 5.0], [7.0, 2.0]]).max(1).indices.tolist()
    [1, 0]
    """
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    return _extreme(input, dim, keepdim, other, True)


@api
def min(input, dim=None, keepdim=False, *, other=None, keepdims=None):  # noqa: A001
    """Smallest element; with ``dim``, the named tuple ``(values, indices)``."""
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    return _extreme(input, dim, keepdim, other, False)


def _amax(input, dim, keepdim, largest):
    op = "amax" if largest else "amin"
    dims = _red_dims(input, dim, op)
    _check_nonempty(input, dims, op)
    d = np.asarray(input._data)
    v = _red_value(_npred(np.max if largest else np.min, d, dims, keepdim), d.dtype)
    return _red_record(input, v, AMAX if largest else AMIN, dims)


@api
def amax(input, dim=(), keepdim=False, *, keepdims=None):
    """Largest element over ``dim`` (an int or tuple; all by default); ties share the
    gradient evenly, as PyTorch's AmaxBackward0."""
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    return _amax(input, dim, keepdim, True)


@api
def amin(input, dim=(), keepdim=False, *, keepdims=None):
    """Smallest element over ``dim``; ties share the gradient evenly."""
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    return _amax(input, dim, keepdim, False)


def _argextreme(input, dim, keepdim, largest):
    op = "argmax" if largest else "argmin"
    d = np.asarray(input._data)
    if d.dtype.kind == "b":
        raise RuntimeError(f"{op}(): does not support bool input")
    fn = np.argmax if largest else np.argmin
    code = ARGMAX if largest else ARGMIN
    if dim is None:
        _check_nonempty(input, None, op)
        idx = fn(d)
        if keepdim:
            idx = np.reshape(idx, (1,) * d.ndim)
        return _index_of(input, idx, None, keepdim, code)
    w = _wrap_dim(dim, input.ndim, op)
    _check_nonempty(input, (w,), op)
    if d.ndim == 0:
        return _index_of(input, np.zeros((), np.int64), None, keepdim, code)
    return _index_of(input, fn(d, axis=w, keepdims=keepdim), w, keepdim, code)


@api
def argmax(input, dim=None, keepdim=False, *, keepdims=None):
    """Index of the first largest element (flat, or along ``dim``); not differentiable.

    >>> import tapegrad as tg
    >>> int(tg.tensor([1.0, 3.0, 3.0]).argmax())
    1
    """
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    return _argextreme(input, dim, keepdim, True)


@api
def argmin(input, dim=None, keepdim=False, *, keepdims=None):
    """Index of the first smallest element (flat, or along ``dim``); not differentiable."""
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    return _argextreme(input, dim, keepdim, False)


# ---- logsumexp -----------------------------------------------------------------------
LOGSUMEXP = 54


@rule
def _groups(meta, k, n_in):
    # each input element's output group, in order: the reduction map walked by its runs
    # (strided_runs: no div/mod per element, as _group costs; ADBench GMM d = 2, K = 5:
    # a logsumexp over 5 of (5, 1000) took 185 us forward, 86 us reverse)
    starts, length, step = strided_runs(meta, k, _s(n_in))
    g = np.empty(len(starts) * length, np.uint64)
    for r in range(len(starts)):
        for i in range(length):
            g[r * length + i] = _u(starts[r] + i * step)
    return g


@rule
def _group_shift(vals, groups, a, n_out, w):
    # each group's max, or 0 where that is not finite (all -inf, an inf, a nan)
    m = np.empty(n_out * w)
    for j in range(n_out * w):
        m[j] = -np.inf
    for i in range(len(groups)):
        j = groups[i] * w
        for p in range(w):
            if _beats(vals[a + _u(i) * w + p], m[j + p], 1.0):
                m[j + p] = vals[a + _u(i) * w + p]
    for j in range(n_out * w):
        if not np.isfinite(m[j]):
            m[j] = 0.0
    return m


@rule
def _logsumexp_fwd1(vals, meta, o, a, n_in, n_out, k):
    # logsumexp_fwd at one point, walking the reduction map by its runs (no group array):
    # the same comparisons and adds in the same order (input order); ADBench GMM's
    # logsumexp over the K components of (K, n) is K runs of n outputs
    starts, length, step = strided_runs(meta, k, _s(n_in))
    m = np.empty(n_out)
    for j in range(n_out):
        m[j] = -np.inf
    for r in range(len(starts)):
        x = a + _u(r * length)
        j0 = _u(starts[r])
        for i in range(length):
            v = vals[x + _u(i)]
            j = j0 + _u(i * step)
            if _beats(v, m[j], 1.0):
                m[j] = v
    for j in range(n_out):
        if not np.isfinite(m[j]):
            m[j] = 0.0
        vals[o + _u(j)] = 0.0
    for r in range(len(starts)):
        x = a + _u(r * length)
        j0 = _u(starts[r])
        for i in range(length):
            j = j0 + _u(i * step)
            vals[o + j] += libm.exp(vals[x + _u(i)] - m[j])  # (Numba's np.exp: the same
    for j in range(n_out):  # function through a bridge, 2.3 ns an exp against 5: _libm.py)
        vals[o + _u(j)] = m[j] + np.log(vals[o + _u(j)])


@rule
def logsumexp_fwd(vals, meta, o, a, n_in, n_out, k, w):
    # y = m + log(sum exp(x - m)), m the group's max: no overflow, no underflow to -inf
    if w == 1:
        _logsumexp_fwd1(vals, meta, o, a, n_in, n_out, k)
        return
    groups = _groups(meta, k, n_in)
    m = _group_shift(vals, groups, a, n_out, w)
    for j in range(n_out * w):
        vals[o + j] = 0.0
    for i in range(len(groups)):
        j = groups[i] * w
        for p in range(w):
            vals[o + j + p] += np.exp(vals[a + _u(i) * w + p] - m[j + p])
    for j in range(n_out * w):
        vals[o + j] = m[j] + np.log(vals[o + j])


@rule
def logsumexp_rev(adj, vals, meta, o, a, n_in, k, w):
    # d logsumexp = softmax(x) dx = exp(x - y) dx
    if w == 1:  # one point: the map walked by its runs, no group array (_logsumexp_fwd1)
        starts, length, step = strided_runs(meta, k, _s(n_in))
        for r in range(len(starts)):
            x = a + _u(r * length)
            j0 = o + _u(starts[r])
            for i in range(length):
                e = x + _u(i)
                j = j0 + _u(i * step)
                adj[e] += adj[j] * libm.exp(vals[e] - vals[j])  # (as _logsumexp_fwd1)
        return
    groups = _groups(meta, k, n_in)
    for i in range(len(groups)):
        j = o + groups[i] * w
        for p in range(w):
            e = a + _u(i) * w + p
            adj[e] += adj[j + p] * np.exp(vals[e] - vals[j + p])


def logsumexp_vjp(r, g):
    return [(r.a, r.spread(g, r.k) * E.exp(r.x - r.spread(r.out, r.k)))]


@rule
def logsumexp_curv(tadj, adj, vals, tan, meta, o, a, n_in, k, w):
    # ga = gy exp(x - y): ga' = gy exp(x - y) (tx - ty)
    for i in range(n_in):
        j = o + _group(meta, k, i, w)
        for p in range(w):
            e = a + i * w + p
            tadj[e] += adj[j + p] * np.exp(vals[e] - vals[j + p]) * (tan[e] - tan[j + p])


@rule
def logsumexp_tan(tan, vals, meta, o, a, n_in, n_out, k, w):
    # t logsumexp = sum softmax(x) tx = sum exp(x - y) tx
    for j in range(n_out * w):
        tan[o + j] = 0.0
    for i in range(n_in):
        j = o + _group(meta, k, i, w)
        for p in range(w):
            tan[j + p] += tan[a + i * w + p] * np.exp(vals[a + i * w + p] - vals[j + p])


declare(LOGSUMEXP, "LogsumexpBackward0", saves="ao", aux="meta", fwd=logsumexp_fwd,
        rev=logsumexp_rev, vjp=logsumexp_vjp, check=_MAP, tan=logsumexp_tan, curv=logsumexp_curv)


@api
def logsumexp(input, dim, keepdim=False, *, keepdims=None):
    """``log(sum(exp(input), dim))``, computed after subtracting the max (no overflow).

    >>> import tapegrad as tg
    >>> round(float(tg.tensor([1000.0, 1000.0]).logsumexp(0)), 4)
    1000.6931
    """
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    d = np.asarray(input._data)
    if d.dtype.kind != "f":
        d = d.astype(np.float64)
    dims = _red_dims(input, dim, "logsumexp")
    with quiet():
        m = _npred(np.max, d, dims, True) if d.size else np.zeros((1,) * d.ndim, d.dtype)
        m = np.where(np.isfinite(m), m, 0).astype(d.dtype)
        v = np.log(_npred(np.sum, np.exp(d - m), dims, True)) + m
    if not keepdim:
        v = v.reshape([s for i, s in enumerate(d.shape) if dims is not None and i not in dims])
    return _red_record(input, _red_value(v, d.dtype), LOGSUMEXP, dims)


# ---- norm: vector p-norms over all elements or over dims --------------------------------
NORM = 55  # meta: [const index of p, map]


@rule
def _norm_term(acc, x, p):
    # a group's running value after element x: max/min |x| for p = +-inf, else sum |x|^p
    ax = np.abs(x)
    if p == np.inf:
        return ax if _beats(ax, acc, 1.0) else acc
    if p == -np.inf:
        return ax if _beats(ax, acc, -1.0) else acc
    if p == 0.0:
        return acc + (1.0 if x != 0.0 else 0.0)
    if p == 1.0:
        return acc + ax
    if p == 2.0:
        return acc + x * x
    return acc + ax ** p


@rule
def norm_fwd(vals, meta, o, a, n_in, n_out, k, p, w):
    for j in range(n_out * w):
        vals[o + j] = np.inf if p == -np.inf else 0.0
    for i in range(n_in):
        j = o + _group(meta, k, i, w)
        for q in range(w):
            vals[j + q] = _norm_term(vals[j + q], vals[a + i * w + q], p)
    if p != 0.0 and p != 1.0 and np.isfinite(p):
        for j in range(n_out * w):
            vals[o + j] = np.sqrt(vals[o + j]) if p == 2.0 else vals[o + j] ** (1.0 / p)


@rule
def _sgn(x):
    return 1.0 if x > 0.0 else (-1.0 if x < 0.0 else 0.0)


@rule
def _norm_grad(x, y, gy, p, cnt):
    # p = 1: sgn(x) gy;  2: x gy / y;  +-inf: sgn(x) gy / (number of |x| equal to y);
    # else x |x|^(p-2) gy / y^(p-1);  0 where y = 0 (PyTorch's masks)
    if p == 1.0:
        return _sgn(x) * gy
    if not np.isfinite(p):
        ax = np.abs(x)
        share = gy / cnt if cnt > 0.0 else np.nan
        return _sgn(x) * (share * (1.0 if ax == y or ax != ax else 0.0))
    if y == 0.0:
        return 0.0
    if p == 2.0:
        return x * (gy / y)
    if x == 0.0:
        return 0.0  # PyTorch: sgn(0) |0|^(p-1) = 0, masked to 0 for p < 1 too
    return x * np.abs(x) ** (p - 2.0) * gy / y ** (p - 1.0)


@rule
def norm_rev(adj, vals, meta, o, a, n_in, n_out, k, p, w):
    if p == 0.0:
        return  # a count: no gradient
    cnt = np.zeros(n_out * w)  # for +-inf: how many |x| share the extreme
    for i in range(n_in if not np.isfinite(p) else 0):
        j = _group(meta, k, i, w)
        for q in range(w):
            ax = np.abs(vals[a + i * w + q])
            if ax == vals[o + j + q] or ax != ax:
                cnt[j + q] += 1.0
    for i in range(n_in):
        j = _group(meta, k, i, w)
        for q in range(w):
            adj[a + i * w + q] += _norm_grad(vals[a + i * w + q], vals[o + j + q],
                                             adj[o + j + q], p, cnt[j + q])


def norm_vjp(r, g):
    p = r.c(r.m(r.k))
    if p == 0.0:
        return []  # a count
    if p == 1.0:
        return [(r.a, r.spread(g, r.k + 1) * E.sign(r.x))]
    if not math.isfinite(p):  # max |x|: piecewise linear
        return [(r.a, r.unit_weighted(g, r.k + 1))]
    x = r.x
    y = r.spread(r.out, r.k + 1)
    gs = r.spread(g, r.k + 1)
    safe = r.f(y == 0)  # PyTorch: 0 where the norm is 0
    if p == 2.0:
        return [(r.a, gs * x / (y + safe))]
    # sgn(x) |x|^(p-1), its base 1 at x = 0 (0 there, not 0 inf, for p < 2 as PyTorch's)
    ax = E.abs(x) + r.f(x == 0)
    return [(r.a, gs * E.sign(x) * ax ** (p - 1.0) / (y + safe) ** (p - 1.0))]


@rule
def norm_tan(tan, vals, meta, o, a, n_in, n_out, k, p, w):
    # sum_i (d y / d x_i) t_i: _norm_grad is linear in its gy, so it takes t_i for it
    cnt = np.zeros(n_out * w)  # for +-inf: how many |x| share the extreme
    for j in range(n_out * w):
        tan[o + j] = 0.0
    if p == 0.0:
        return  # a count
    for i in range(n_in if not np.isfinite(p) else 0):
        j = _group(meta, k, i, w)
        for q in range(w):
            ax = np.abs(vals[a + i * w + q])
            cnt[j + q] += 1.0 if ax == vals[o + j + q] or ax != ax else 0.0
    for i in range(n_in):
        j = _group(meta, k, i, w)
        for q in range(w):
            tan[o + j + q] += _norm_grad(vals[a + i * w + q], vals[o + j + q],
                                         tan[a + i * w + q], p, cnt[j + q])


declare(NORM, "LinalgVectorNormBackward0", saves="ao", aux="meta", fwd=norm_fwd, rev=norm_rev,
        vjp=norm_vjp, check=_P_MAP, tan=norm_tan)


NUCLEAR = []  # linalg.matrix_norm(A, "nuc", ...): an SVD, bound from tapegrad/linalg.py


def norm_dtype(x, dtype, op):
    """PyTorch's checks of a norm's ``dtype=``: a floating (or complex) input, converted to
    it without narrowing, a real dtype for a real input and a complex one for a complex.
    Returns the dtype the norm is computed in (a complex one's real part: of the moduli)."""
    dt, kind, name = np.dtype(dtypes.to_dtype(dtype)), x.dtype.kind, dtypes.torch_name
    if kind not in "fc":
        raise RuntimeError(f"{op}: Expected a floating point or complex tensor as input. Got "
                           f"{name(x.dtype)}")
    if (kind == "c") != (dt.kind == "c"):
        which = "complex" if kind == "c" else "real"
        raise RuntimeError(f"{op}: dtype should be {which} for {which} inputs, but got "
                           f"{name(dt)}")
    if not np.can_cast(x.dtype, dt, "safe"):
        raise RuntimeError(f"{op}: the dtype of the input ({name(x.dtype)}) should be "
                           f"convertible without narrowing to the specified dtype ({name(dt)})")
    return np.finfo(dt).dtype


@api
def norm(input, p="fro", dim=None, keepdim=False, dtype=None, *, keepdims=None):
    """Vector p-norm over all elements or over ``dim``: p a number (2, 1, inf, -inf, 0, or
    any other positive order) or "fro" (= 2); "nuc" is the matrix nuclear norm
    (``linalg.matrix_norm``).  At 0 the gradient is 0, as in PyTorch.

    >>> import tapegrad as tg
    >>> float(tg.tensor([3.0, 4.0]).norm())
    5.0
    """
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    if isinstance(p, str):
        if p == "nuc":
            return NUCLEAR[0](input, dim, keepdim, dtype)
        if p != "fro":
            raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
        p = 2.0
    if p is None:
        p = 2.0
    p = float(p)
    _float_input(input, "linalg.vector_norm", "a floating point or complex")
    d = np.asarray(input._data)
    if dtype is not None:
        d = d.astype(norm_dtype(input, dtype, "linalg.vector_norm"))
    dims = _red_dims(input, dim, "norm")
    if p == 0:  # a count: the input unused (PyTorch's .grad stays None), the result
        input = control.stopped(input)  # requiring grad as PyTorch's
    ad = np.abs(d)
    with quiet():
        if p == np.inf or p == -np.inf:
            if d.size == 0 and p == np.inf:
                v = _npred(np.sum, ad, dims, keepdim)  # 0, as PyTorch
            else:
                v = _npred(np.max if p > 0 else np.min, ad, dims, keepdim)
        elif p == 0:
            v = _npred(np.sum, (d != 0).astype(d.dtype), dims, keepdim)
        elif p == 1:
            v = _npred(np.sum, ad, dims, keepdim)
        elif p == 2:
            v = np.sqrt(_npred(np.sum, d * d, dims, keepdim))
        else:
            v = _npred(np.sum, ad ** p, dims, keepdim) ** (1.0 / p)
    return _red_record(input, _red_value(v, d.dtype), NORM, dims, consts=(p,))


# ---- var / std (with correction) ------------------------------------------------------
VAR, STD = 56, 57  # meta: [const index of scale = 1 / max(0, N - correction), map]


@rule
def _group_mean(vals, meta, a, n_in, n_out, k, w):
    # each group's mean: sum / N, divided as NumPy does (nan for an empty group)
    m = np.zeros(n_out * w)
    for i in range(n_in):
        j = _group(meta, k, i, w)
        for p in range(w):
            m[j + p] += vals[a + i * w + p]
    size = n_in // n_out if n_out > 0 else 0
    for j in range(n_out * w):
        m[j] = m[j] / size if size > 0 else np.nan
    return m


@rule
def var_fwd(vals, meta, o, a, n_in, n_out, k, scale, root, w):
    # y = scale * sum (x - mean)^2; std (root): its square root
    m = _group_mean(vals, meta, a, n_in, n_out, k, w)
    for j in range(n_out * w):
        vals[o + j] = 0.0
    for i in range(n_in):
        j = _group(meta, k, i, w)
        for p in range(w):
            dx = vals[a + i * w + p] - m[j + p]
            vals[o + j + p] += dx * dx
    # (scale nan: a nan correction, which PyTorch's forward divides by max(0, nan) = 0 and
    # its backward by nan: inf here, nan in var_rev)
    s = np.inf if scale != scale else scale
    for j in range(n_out * w):
        v = vals[o + j] * s
        vals[o + j] = np.sqrt(v) if root else v


@rule
def var_rev(adj, vals, meta, o, a, n_in, n_out, k, scale, root, w):
    # var: gx = 2 scale (x - mean) gy;  std: gx = scale (x - mean) gy / y, 0 where y = 0.
    # dof <= 0 (scale inf): PyTorch gives gy * inf off the mean whatever the side, nan on it
    m = _group_mean(vals, meta, a, n_in, n_out, k, w)
    for i in range(n_in):
        j = _group(meta, k, i, w)
        for p in range(w):
            dx = vals[a + i * w + p] - m[j + p]
            gy = adj[o + j + p]
            y = vals[o + j + p]
            if not root:
                dx = abs(dx) if scale == np.inf else dx  # dof <= 0: +-inf by gy's sign alone
                adj[a + i * w + p] += 2.0 * scale * dx * gy
            elif y != 0.0:
                adj[a + i * w + p] += scale * dx * gy / y


def var_vjp(r, g):
    scale = r.c(r.m(r.k))
    k_map = r.k + 1
    x = r.x
    mean = r.emit(SUM_DIM, x, k_map, r.shape(r.o)) * (r.numel(r.o) / builtins.max(1, r.numel(r.a)))
    dx = x - r.spread(mean, k_map)
    if r.op == VAR:
        dx = dx.abs() if scale == np.inf else dx  # as var_rev
        return [(r.a, r.spread(g, k_map) * dx * (2.0 * scale))]
    y = r.out
    safe = r.f(y == 0)  # 0 where std is 0, as var_rev
    return [(r.a, r.spread(g / (y + safe), k_map) * dx * scale)]


@rule
def var_tan(tan, vals, meta, o, a, n_in, n_out, k, scale, root, w):
    # var: sum 2 scale (x - mean) tx;  std: sum scale (x - mean) tx / y, 0 where y = 0
    m = _group_mean(vals, meta, a, n_in, n_out, k, w)
    for j in range(n_out * w):
        tan[o + j] = 0.0
    for i in range(n_in):
        j = _group(meta, k, i, w)
        for p in range(w):
            dx = vals[a + i * w + p] - m[j + p]
            t = tan[a + i * w + p]
            y = vals[o + j + p]
            if not root:
                dx = abs(dx) if scale == np.inf else dx  # as var_rev
                tan[o + j + p] += 2.0 * scale * dx * t
            elif y != 0.0:
                tan[o + j + p] += scale * dx * t / y


declare(VAR, "VarBackward0", saves="a", aux="meta", fwd=var_fwd, rev=var_rev, vjp=var_vjp,
        check=layout.both(_P_MAP, _even_groups), tan=var_tan)


declare(STD, "StdBackward0", saves="ao", aux="meta", fwd=var_fwd, rev=var_rev, vjp=var_vjp,
        check=layout.both(_P_MAP, _even_groups), tan=var_tan)


def _var(input, dim, unbiased, keepdim, correction, root):
    op = "std" if root else "var"
    if isinstance(dim, bool):  # var(x, False): the old unbiased argument
        dim, unbiased = None, dim
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    elif isinstance(correction, bool) or not isinstance(correction, (int, float, np.integer,
                                                                      np.floating)):
        raise TypeError(f"{op}(): argument 'correction' must be Number, not "
                        f"{type(correction).__name__}")
    if input.dtype.kind != "f":
        raise with_note(RuntimeError("std and var only support floating point and complex "
                                     "dtypes"),
                        f"{op}: got {dtypes.name(input.dtype)}; use .double() first")
    d = np.asarray(input._data)
    dims = _red_dims(input, dim, op)
    n = d.size if dims is None else int(np.prod([d.shape[i] for i in dims]))
    dof = n - correction
    # dof <= 0: inf or nan, as PyTorch; a nan correction: nan (var_fwd divides by 0 then)
    scale = 1.0 / dof if dof > 0 else np.nan if dof != dof else np.inf
    with quiet():
        dev = d - _npred(np.mean, d, dims, True)
        v = _npred(np.sum, dev * dev, dims, keepdim) * d.dtype.type(np.inf if dof != dof
                                                                   else scale)
        if root:
            v = np.sqrt(v)
    return _red_record(input, _red_value(v, d.dtype), STD if root else VAR, dims,
                       consts=(scale,))


@api
def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None, keepdims=None):
    """Variance over all elements or ``dim``, dividing by ``N - correction`` (default 1).

    >>> import tapegrad as tg
    >>> float(tg.tensor([1.0, 2.0, 3.0]).var())
    1.0
    """
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    return _var(input, dim, unbiased, keepdim, correction, False)


@api
def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None, keepdims=None):
    """Standard deviation, ``sqrt(var)``; its gradient is 0 where it is 0, as PyTorch's."""
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    return _var(input, dim, unbiased, keepdim, correction, True)


# ---- cumsum ------------------------------------------------------------------------
CUMSUM = 58  # meta: [inner, size]: element i sits at (i // inner) % size along the dim


def _cumsum_layout(lay, R):
    n_out, n = lay.sizes(R[:, 1], "out"), lay.sizes(R[:, 2], "in0")
    f = lay.fields(R[:, 4], 2)
    # (a cumsum over an empty dim, or along a dim of an empty tensor, records a 0: its
    # rows have no elements, and the rules' loops never divide by it)
    lay.at_least(f, ("inner", "size"))
    lay.check_each((n > 0) & (f < 1).any(axis=1),
                   lambda i: f"inner, size = {f[i].tolist()} must be >= 1 for {int(n[i])} "
                             "elements")
    tile, big = layout.product(*f.T)
    lay.check_each((n_out != n) | np.where(big, n != 0, n % np.maximum(tile, 1) != 0),
                   lambda i: f"inner, size = {f[i].tolist()} do not tile in0 of {int(n[i])} "
                             "elements")


@rule
def cumsum_fwd(vals, meta, o, a, n, k, w):
    inner, size = _u(meta[k]), _u(meta[k + 1])
    for i in range(n):
        first = (i // inner) % size == 0
        for p in range(w):
            x = vals[a + i * w + p]
            vals[o + i * w + p] = x if first else vals[o + (i - inner) * w + p] + x


@rule
def cumsum_rev(adj, meta, o, a, n, k, w):
    # y[i] = sum_{j <= i} x[j]  =>  gx[i] = sum_{j >= i} gy[j]: a cumsum from the end
    inner, size = _u(meta[k]), _u(meta[k + 1])
    acc = np.empty(n * w)
    for t in range(n):
        i = n - 1 - t
        last = (i // inner) % size == size - 1
        for p in range(w):
            g = adj[o + i * w + p]
            acc[i * w + p] = g if last else acc[(i + inner) * w + p] + g
            adj[a + i * w + p] += acc[i * w + p]


def cumsum_vjp(r, g):
    shape = r.shape(r.a)
    inner, size = r.m(r.k), r.m(r.k + 1)
    if not shape:
        return [(r.a, g)]
    d = next(d for d in range(len(shape))
             if shape[d] == size and int(np.prod(shape[d + 1:], dtype=np.int64)) == inner)
    return [(r.a, S.flip(cumsum(S.flip(g, d), d), d))]  # a cumsum from the end


declare(CUMSUM, "CumsumBackward0", aux="meta", fwd=cumsum_fwd, rev=cumsum_rev, vjp=cumsum_vjp,
        check=_cumsum_layout, tan=cumsum_fwd, curv=ZERO)


@api
def cumsum(input, dim, *, dtype=None):
    """Cumulative sum along ``dim``.

    >>> import tapegrad as tg
    >>> tg.tensor([1.0, 2.0, 3.0]).cumsum(0).tolist()
    [1.0, 3.0, 6.0]
    """
    d = np.asarray(input._data)
    if dtype is not None:
        d = d.astype(dtypes.to_dtype(dtype))
    elif d.dtype.kind in "biu":
        d = d.astype(np.int64)
    w = _wrap_dim(dim, input.ndim, "cumsum")
    v = _red_value(np.cumsum(d, axis=w) if d.ndim else d, d.dtype)
    if not (input._rg and state.grad_enabled):
        return _leaf(v)
    shape = tuple(input.shape) or (1,)
    tape = tape_for_grad()
    sx = slot(input, tape)
    k = tape.push_meta((int(np.prod(shape[w + 1:])), shape[w]))
    return output(tape, v, CUMSUM, sx, -1, k)


def _first_extreme(np_, x, axis, keepdims=False, largest=True):
    """max/min along ``axis`` with the gradient on the first extreme element (PyTorch's
    max(dim)), written so that HIPS autograd differentiates it the same way."""
    idx = (np_.argmax if largest else np_.argmin)(x, axis=axis)
    n = np.shape(x)[axis]
    pos = np.arange(n).reshape((n,) + (1,) * (np.ndim(x) - axis % np.ndim(x) - 1))
    return np_.sum(x * (pos == np.expand_dims(idx, axis)), axis=axis, keepdims=keepdims)


def _cumsum_ref(np_, x, axis):
    # a 0-d x is its own cumsum in PyTorch (NumPy makes it 1-d, HIPS autograd fails on it)
    return x if np.ndim(x) == 0 else np_.cumsum(x, axis=axis)


def _std_ref(np_, x, **kw):
    """std with PyTorch's convention: gradient 0 where the std is 0."""
    v = np_.var(x, **kw)
    return np_.where(v > 0, np_.sqrt(np_.where(v > 0, v, 1.0)), 0.0)


def _logsumexp_ref(np_, x, axis, keepdims=False):
    # Shifted by the max, as the rule computes it (as _log_softmax_ref): unshifted, a single
    # entry of 1e-35 gives log(exp(x)) = 0 where the rule gives x, and a later sign() differs
    m = np_.max(x, axis=axis, keepdims=True)
    y = m + np_.log(np_.sum(np_.exp(x - m), axis=axis, keepdims=True))
    return y if keepdims else np_.squeeze(y, axis)


# ---- spec rows ----------------------------------------------------------------------
SPECS = [
    # a sum (0-d) times (plus) an array: elementwise.py's MUL_S, ADD_S rows (a traced one:
    # EXPAND); here, not among the elementwise rows, which broadcast their two operands
    Spec("mul_0d", lambda a, b: a.sum() * b, lambda np_, a, b: np_.sum(a) * b, arity=2,
         shapes=((3,), (2, 3))),
    Spec("add_0d", lambda a, b: b + a.sum(), lambda np_, a, b: b + np_.sum(a), arity=2,
         shapes=((3,), (2, 3))),
    Spec("sum", lambda x: x.sum(), lambda np_, x: np_.sum(x)),
    Spec("mean", lambda x: x.mean(), lambda np_, x: np_.mean(x)),
    Spec("sum_dim", lambda x: x.sum(0), lambda np_, x: np_.sum(x, axis=0),
         shapes=((3,), (2, 3), (2, 3, 4))),
    Spec("sum_dim_last_keep", lambda x: x.sum(-1, keepdim=True),
         lambda np_, x: np_.sum(x, axis=-1, keepdims=True), shapes=((3,), (2, 3), (2, 3, 4))),
    Spec("mean_dims", lambda x: x.mean((0, -1)), lambda np_, x: np_.mean(x, axis=(0, -1)),
         shapes=((2, 3), (2, 3, 4))),
    Spec("prod", lambda x: x.prod(), lambda np_, x: np_.prod(x), domain=(0.5, 2.0),
         shapes=((3,), (2, 3))),
    Spec("prod_dim", lambda x: x.prod(1), lambda np_, x: np_.prod(x, axis=1),
         domain=(-2.0, -0.5), shapes=((2, 3), (2, 3, 4))),
    Spec("prod_dim_keep", lambda x: x.prod(-1, keepdim=True),
         lambda np_, x: np_.prod(x, axis=-1, keepdims=True), domain=(0.5, 2.0),
         shapes=((3,), (2, 3))),
    Spec("max", lambda x: x.max(), lambda np_, x: np_.max(x), shapes=((3,), (2, 3))),
    Spec("min", lambda x: x.min(), lambda np_, x: np_.min(x), shapes=((3,), (2, 3))),
    Spec("max_dim", lambda x: x.max(1).values, lambda np_, x: _first_extreme(np_, x, 1),
         shapes=((2, 3), (2, 3, 4))),
    Spec("min_dim_keep", lambda x: x.min(0, keepdim=True)[0],
         lambda np_, x: _first_extreme(np_, x, 0, True, largest=False),
         shapes=((3,), (2, 3))),
    Spec("amax", lambda x: x.amax((0, -1)), lambda np_, x: np_.max(x, axis=(0, -1)),
         shapes=((2, 3), (2, 3, 4))),
    Spec("amin_keep", lambda x: x.amin(1, keepdim=True),
         lambda np_, x: np_.min(x, axis=1, keepdims=True), shapes=((2, 3), (2, 3, 4))),
    Spec("logsumexp", lambda x: x.logsumexp(-1), lambda np_, x: _logsumexp_ref(np_, x, -1),
         shapes=((3,), (2, 3), (2, 3, 4))),
    Spec("logsumexp_dims", lambda x: x.logsumexp((0, 1), keepdim=True),
         lambda np_, x: _logsumexp_ref(np_, x, (0, 1), True), shapes=((2, 3), (2, 3, 4))),
    Spec("norm", lambda x: x.norm(), lambda np_, x: np_.sqrt(np_.sum(x * x)),
         domain=(0.5, 2.0), shapes=((3,), (2, 3))),
    Spec("norm_dim", lambda x: x.norm(dim=-1, keepdim=True),
         lambda np_, x: np_.sqrt(np_.sum(x * x, axis=-1, keepdims=True)), domain=(-2.0, -0.5),
         shapes=((3,), (2, 3))),
    Spec("norm1", lambda x: x.norm(1), lambda np_, x: np_.sum(np_.abs(x)),
         shapes=((3,), (2, 3))),
    Spec("norm_inf", lambda x: x.norm(float("inf"), dim=0),
         lambda np_, x: np_.max(np_.abs(x), axis=0), shapes=((3,), (2, 3))),
    Spec("norm_p3", lambda x: x.norm(3), lambda np_, x: np_.sum(np_.abs(x) ** 3) ** (1 / 3),
         domain=(0.5, 2.0), shapes=((3,), (2, 3))),
    Spec("var", lambda a, b: (a * b).var(), lambda np_, a, b: np_.var(a * b, ddof=1),
         arity=2, shapes=((3,), (2, 3)),
         notes="arity 2 keeps it out of the random programs, where var(one element) = nan "
               "meets ops whose conventions for a nan gradient differ in the HIPS oracle"),
    Spec("var_pop", lambda x: x.var(correction=0), lambda np_, x: np_.var(x),
         shapes=((3,), (2, 3))),
    Spec("var_dim", lambda x: x.var(1, correction=0, keepdim=True),
         lambda np_, x: np_.var(x, axis=1, keepdims=True), shapes=((2, 3), (2, 3, 4))),
    Spec("std", lambda a, b: (a * b).std(), lambda np_, a, b: _std_ref(np_, a * b, ddof=1),
         arity=2, shapes=((3,), (2, 3)),
         notes="arity 2 keeps std out of the random programs, where constant arrays make "
               "its gradient a rounding artefact (mean by pairwise vs sequential sums)"),
    Spec("std_dim", lambda a, b: (a * b).std(0, correction=0),
         lambda np_, a, b: _std_ref(np_, a * b, axis=0), arity=2, shapes=((2, 3), (2, 3, 4))),
    Spec("cumsum", lambda x: x.cumsum(0), lambda np_, x: _cumsum_ref(np_, x, 0),
         shapes=((3,), (2, 3))),
    Spec("cumsum_last", lambda x: x.cumsum(-1), lambda np_, x: _cumsum_ref(np_, x, -1),
         shapes=((2, 3, 4),)),
]
