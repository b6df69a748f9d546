"""Statistics composed from the primitives: nansum and nanmean, median and nanmedian,
kthvalue, mode, quantile and nanquantile, std_mean and var_mean, aminmax, count_nonzero,
histc, trapezoid, dist.

Order statistics pick their elements with one GATHER row at indices NumPy computed, so the
gradient goes to the picked element, as PyTorch's; quantile interpolates between two sorted
neighbours with ``lerp``, as PyTorch does, so its values and gradients are PyTorch's.
"""
import dataclasses
import math

import numpy as np

from .. import dtypes
from ..return_types import named
from ..tensor import Tensor, _leaf, _wrap_dim, host_values, norm
from . import arithmetic as ar
from . import control as cmp
from . import elementwise as ew
from . import linalg as la
from . import reductions as red
from . import search
from . import shape as sh
from . import std_sort
from ._record import named_result, no_derivative, node
from .registry import api
from .spec import Spec
from .spec import lib as _lib

MedianResult = named("median", ("values", "indices"))
NanmedianResult = named("nanmedian", ("values", "indices"))
KthvalueResult = named("kthvalue", ("values", "indices"))
ModeResult = named("mode", ("values", "indices"))
AminmaxResult = named("aminmax", ("min", "max"))
HistogramResult = named("histogram", ("hist", "bin_edges"))


def _tensor(x, op, pos=1, name="input"):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument '{name}' (position {pos}) must be Tensor, not "
                        f"{type(x).__name__}")
    return x


# ---- NaN-ignoring sums ---------------------------------------------------------------------
@api
@node("NansumBackward0")
def nansum(input, dim=None, keepdim=False, *, dtype=None, keepdims=None):
    """Sum treating NaN as zero (gradient 0 at the NaNs)."""
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    _tensor(input, "nansum")
    x = ew.where(cmp.isnan(input), 0.0, input) if input.dtype.kind == "f" else input
    return red.sum(x, dim, keepdim, dtype=dtype)


@api
def nanmean(input, dim=None, keepdim=False, *, dtype=None, keepdims=None):
    """Mean over the elements that are not NaN."""
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    _tensor(input, "nanmean")
    if input.dtype.kind != "f":
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype "
                           f"but got {dtypes.torch_name(input.dtype)}")
    count = red.sum(cmp.eq(input, input), dim, keepdim)  # (not NaN; traceable)
    total = nansum(input, dim, keepdim, dtype=dtype)
    return total / sh.to(count, total.dtype)


@api
def count_nonzero(input, dim=None):
    """Number of nonzero elements (over ``dim``: an int or a tuple), as int64."""
    _tensor(input, "count_nonzero")
    d = search.nonzero_pattern(input, "count_nonzero")
    if dim is None:
        return _leaf(np.asarray(np.count_nonzero(d), np.int64))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    dims = tuple(_wrap_dim(k, d.ndim, "count_nonzero") for k in dims)
    if len(set(dims)) != len(dims):
        raise RuntimeError(f"dim {dims[0]} appears multiple times in the list of dims")
    return _leaf(norm(np.asarray(np.count_nonzero(d, axis=dims), np.int64)))


# ---- order statistics ----------------------------------------------------------------------
def _pick(input, d, index, keepdim):
    """(values, indices) at ``index`` (int64, input's shape with size 1 at d)."""
    values = sh.gather(input, d, index)
    if not keepdim:
        values, index = sh.squeeze(values, d), np.squeeze(index, d)
    return values, _leaf(norm(index))


def _along(input, dim, op, values=None):
    """(input as >= 1-d, dim, its values, whether input was 0-d); ``values``: their reader
    (``host_values`` where nothing but them decides the result: mode)."""
    x = np.asarray(input._data) if values is None else values(input, op)
    if x.ndim == 0:
        return input.reshape(1), 0, x.reshape(1), True
    d = _wrap_dim(dim, x.ndim, op)
    if x.shape[d] == 0:  # (PyTorch's type and words: no element to pick)
        raise IndexError(f"{op}(): Expected reduction dim {d} to have non-zero size.")
    return input, d, x, False


def _order_index(t, x, d, k_of, nan_first, quick_select=False):
    """The index along d of the element of rank ``k_of(count of non-NaN)`` in each row (NaN
    sorts last); ``nan_first``: a row holding NaN picks its first NaN (median).  While
    tracing, the order is guarded as sort's (a NaN flags the point: the rank moves).
    ``quick_select``: among ties, the one ATen's quick select picks (kthvalue's)."""
    order = np.argsort(x, axis=d, kind="stable")
    sh._guard_order(t, d, order, False, 0 if quick_select else None)
    valid = np.sum(~np.isnan(x), axis=d, keepdims=True) if x.dtype.kind == "f" else \
        np.full(x.shape[:d] + (1,) + x.shape[d + 1:], x.shape[d])
    k = np.clip(k_of(valid), 0, x.shape[d] - 1)
    index = np.take_along_axis(order, k, axis=d)
    if quick_select and x.shape[d] > 1:
        keys = x.astype(np.int64) if x.dtype.kind in "bu" else x
        rank = int(k.flat[0])  # (one rank for every row)
        picked = sh._std_rows(keys, d, index, sh._tied_rows(keys, d, order),
                              lambda row: [std_sort.quick_select_index(row, rank)])
        index = index if picked is None else picked
    if nan_first and x.dtype.kind == "f":
        has_nan = valid < x.shape[d]
        first_nan = np.argmax(np.isnan(x), axis=d)[..., None] if d == x.ndim - 1 else \
            np.expand_dims(np.argmax(np.isnan(x), axis=d), d)
        index = np.where(has_nan, first_nan, index)
    return index.astype(np.int64)


def _median(input, dim, keepdim, op, nan_first):
    _tensor(input, op)
    ar.refuse("median_cpu" if dim is None else "median_out", input.dtype)
    if input.numel() == 0 and dim is None:  # PyTorch's: NaN, the median of nothing (its
        kind = input.dtype.kind  # int64 cast, the lowest value, for a signed integer dtype)
        if kind in "fc":  # (recorded: a backward gives the empty input a gradient)
            return named_result(input.reshape(-1).sum() + float("nan"),
                                "MedianBackward0" if op == "median" else "NanmedianBackward0",
                                input)
        return _leaf(np.full((), np.iinfo(input.dtype).min if kind == "i" else 0, input.dtype))
    result = MedianResult if op == "median" else NanmedianResult
    if dim is None:  # over every element: the value only
        flat = input.reshape(-1)
        index = _order_index(flat, np.asarray(flat._data), 0, lambda m: (m - 1) // 2,
                             nan_first)
        node = "MedianBackward0" if op == "median" else "NanmedianBackward0"
        if sh._record_on(flat):
            return named_result(_median_split(flat, index), node, input)
        return named_result(sh.gather(flat, 0, index).reshape(()), node, input)
    t, d, x, scalar = _along(input, dim, "median")  # (nanmedian's errors say median too)
    index = _order_index(t, x, d, lambda m: (m - 1) // 2, nan_first)
    values, indices = _pick(t, d, index, keepdim or scalar)
    if scalar:
        values, indices = values.reshape(()), _leaf(np.zeros((), np.int64))
    node = "MedianBackward1" if op == "median" else "NanmedianBackward1"
    return result(named_result(values, node, input), indices)


def _median_split(flat, index):
    """The median of all elements (at ``index``) with PyTorch's gradient: split evenly
    among the elements equal to it (the NaNs, when it is NaN), as max() of all elements
    splits it: the max of the ties with -inf elsewhere (the min with +inf elsewhere for
    a -inf median).  Recorded ops only, so a trace replays the ties of each point."""
    v = sh.gather(flat, 0, index).reshape(())
    tie = ew.where(cmp.isnan(v), cmp.isnan(flat), flat == v)
    inf = Tensor(np.asarray(np.inf, flat.dtype))
    high = red.max(ew.where(tie, flat, -inf))
    return ew.where(v == -inf, red.min(ew.where(tie, flat, inf)), high)


@api
def median(input, dim=None, keepdim=False, *, keepdims=None):
    """The lower median (of all elements, or ``(values, indices)`` along ``dim``); NaN if a
    row holds NaN."""
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    return _median(input, dim, keepdim, "median", True)


@api
def nanmedian(input, dim=None, keepdim=False, *, keepdims=None):
    """The lower median of the elements that are not NaN."""
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    return _median(input, dim, keepdim, "nanmedian", False)


@api
def kthvalue(input, k, dim=-1, keepdim=False, *, keepdims=None):
    """The ``k``-th smallest element along ``dim`` (k from 1): ``(values, indices)``."""
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    _tensor(input, "kthvalue")
    ar.refuse("kthvalue_cpu", input.dtype)
    t, d, x, scalar = _along(input, dim, "kthvalue")
    if not 1 <= k <= x.shape[d]:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    index = _order_index(t, x, d, lambda m: np.full_like(m, k - 1), False, True)
    values, indices = _pick(t, d, index, keepdim or scalar)
    if scalar:
        values, indices = values.reshape(()), _leaf(np.zeros((), np.int64))
    return KthvalueResult(named_result(values, "KthvalueBackward0", input), indices)


def _mode_index(row, std_order):
    """The position PyTorch's mode gives for one row: it std::sorts (value, position) pairs
    by value and takes the pair ending the first longest run (the smallest of equally
    frequent values).  Runs of up to 16 are insertion-sorted, stably, so that pair is the
    value's last occurrence; a longer row's ties come out in std::sort's order, rebuilt by
    std_sort when ``std_order`` (else the last occurrence: past std_sort.MAX_WORK)."""
    vals, counts = np.unique(row, return_counts=True)  # (sorted: NaN last, as PyTorch's)
    best = vals[np.argmax(counts)]  # np.unique sorts: argmax picks the smallest of ties
    same = np.isnan(row) if best != best else row == best
    if std_order and row.size > std_sort.THRESHOLD:
        order = std_sort.sort_order(row.tolist(), False)
        return [i for i in order if same[i]][-1]
    return np.nonzero(same)[0][-1]


@api
def mode(input, dim=-1, keepdim=False, *, keepdims=None):
    """The most frequent value along ``dim`` (the smallest of equally frequent ones) and the
    index PyTorch's CPU mode gives it (among ties, std::sort's order: _mode_index):
    ``(values, indices)``."""
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    _tensor(input, "mode")
    t, d, x, scalar = _along(input, dim, "mode", host_values)
    rows = np.moveaxis(x, d, -1)
    flat = rows.reshape(-1, rows.shape[-1])
    std_order = flat.size <= std_sort.MAX_WORK
    index = np.zeros(flat.shape[0], np.int64)
    for r, row in enumerate(flat):
        index[r] = _mode_index(row.astype(np.int64) if row.dtype.kind in "bu" else row,
                               std_order)
    index = np.moveaxis(index.reshape(rows.shape[:-1] + (1,)), -1, d)
    values, indices = _pick(t, d, np.ascontiguousarray(index), keepdim or scalar)
    if scalar:
        values, indices = values.reshape(()), _leaf(np.zeros((), np.int64))
    return ModeResult(named_result(values, "ModeBackward0", input), indices)


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(input, q, dim, keepdim, interpolation, op):
    _tensor(input, op)
    if input.numel() == 0:
        raise RuntimeError(f"{op}() input tensor must be non-empty")
    if input.dtype.kind != "f":
        raise RuntimeError(f"{op}() input tensor must be either float or double dtype")
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(f"{op}() interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest. Got {interpolation}")
    qa = host_values(q, op).astype(np.float64)
    if qa.ndim > 1:
        raise RuntimeError(f"{op}() q must be a scalar or 1D tensor")
    if ((qa < 0) | (qa > 1)).any():
        bad = qa[(qa < 0) | (qa > 1)].flat[0]
        raise RuntimeError(f"{op}() q must be in the range [0, 1] but got {bad:g}")
    x = input.reshape(-1) if dim is None else input
    d = 0 if dim is None else _wrap_dim(dim, max(input.ndim, 1), op)
    if x.ndim == 0:
        x = x.reshape(1)
    x = sh.movedim(x, d, -1)
    srt = sh.sort(x, -1)[0]  # NaN last
    xs = np.asarray(srt._data)
    n = xs.shape[-1]
    valid = np.sum(~np.isnan(xs), axis=-1, keepdims=True)
    count = valid if op == "nanquantile" else np.full_like(valid, n)
    rank = qa.reshape(-1) * np.maximum(count - 1, 0)  # (*rows, nq)
    bad = (valid == 0) if op == "nanquantile" else (valid < n)
    rank = np.where(bad, n - 1, rank)  # a NaN row takes its last (NaN) element, as PyTorch
    if interpolation == "nearest":
        rank = np.round(rank)  # half to even, as PyTorch
    lo = np.floor(rank).astype(np.int64)
    hi = np.minimum(np.ceil(rank).astype(np.int64), n - 1)
    v_lo, v_hi = sh.gather(srt, -1, lo), sh.gather(srt, -1, hi)
    if interpolation in ("lower", "nearest"):
        out = v_lo
    elif interpolation == "higher":
        out = v_hi
    else:
        w = 0.5 if interpolation == "midpoint" else Tensor((rank - lo).astype(input.dtype))
        out = ar.lerp(v_lo, v_hi, w)
    if keepdim:
        if dim is None:
            out = out.reshape((1,) * input.ndim + (-1,))
        else:
            out = sh.movedim(out.unsqueeze(-2), -2, d)  # rows with the size-1 dim back at d
    out = sh.movedim(out, -1, 0)  # the quantiles first, as PyTorch
    return out.reshape(out.shape[1:]) if qa.ndim == 0 else out


@api
@node("SqueezeBackward4")  # (PyTorch's last step, whatever q and dim)
def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear", keepdims=None):
    """The ``q``-quantiles (a number or a 1-D tensor in [0, 1]) of all elements or along
    ``dim``; a 1-D q puts its dimension first.  NaN where a row holds NaN.

    >>> import tapegrad as tg
    >>> float(tg.tensor([1.0, 2.0, 4.0]).quantile(0.75))
    3.0
    """
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    return _quantile(input, q, dim, keepdim, interpolation, "quantile")


@api
@node("SqueezeBackward4")
def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear", keepdims=None):
    """quantile over the elements that are not NaN."""
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    return _quantile(input, q, dim, keepdim, interpolation, "nanquantile")


# ---- moments, extremes ----------------------------------------------------------------
def _var_args(dim, unbiased, keepdim, correction):
    if isinstance(dim, bool):  # std_mean(x, True): the old (input, unbiased) spelling
        return None, dim, keepdim, correction
    return dim, unbiased, keepdim, correction


@api
def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None, keepdims=None):
    """``(std, mean)`` over all elements or ``dim``."""
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    dim, unbiased, keepdim, correction = _var_args(dim, unbiased, keepdim, correction)
    return _one_node("StdMeanBackward0", input,
                     red.std(input, dim, unbiased, keepdim, correction=correction),
                     red.mean(input, dim, keepdim))


@api
def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None, keepdims=None):
    """``(var, mean)`` over all elements or ``dim``."""
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    dim, unbiased, keepdim, correction = _var_args(dim, unbiased, keepdim, correction)
    return _one_node("VarMeanBackward0", input,
                     red.var(input, dim, unbiased, keepdim, correction=correction),
                     red.mean(input, dim, keepdim))


def _one_node(name, input, *outs):
    """``outs`` as outputs of PyTorch's one node ``name`` (std_mean's, var_mean's)."""
    return tuple(named_result(o, name, input) for o in outs)


@api
def aminmax(input, *, dim=None, keepdim=False, keepdims=None):
    """``(min, max)`` over all elements or ``dim``: the named tuple ``aminmax``."""
    keepdim = keepdim if keepdims is None else keepdims  # NumPy's spelling
    _tensor(input, "aminmax")
    if dim is None:
        if input.numel() == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                               "operation has no identity.")
        return _aminmax(input, red.amin(input), red.amax(input))
    d = _wrap_dim(dim, input.ndim, "aminmax")
    if input.ndim and input.shape[d] == 0:
        raise IndexError(f"aminmax: Expected reduction dim {d} to have non-zero size.")
    return _aminmax(input, red.amin(input, dim, keepdim), red.amax(input, dim, keepdim))


def _aminmax(input, lo, hi):  # (both results are PyTorch's one AminmaxBackward0 node's)
    return AminmaxResult(*(t if t._tok is None else named_result(t, "AminmaxBackward0", input)
                           for t in (lo, hi)))


@api
def histc(input, bins=100, min=0, max=0):  # noqa: A002 (PyTorch's names)
    """Histogram of ``bins`` equal bins over ``[min, max]`` (the data's range when both are
    0); elements outside are ignored.  Not differentiable."""
    _tensor(input, "histc")
    if bins <= 0:
        raise RuntimeError("torch.histc: bins must be > 0, but got " + str(bins) +
                           " for dimension 0")
    if input.dtype.kind != "f":
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for "
                                  f"'{dtypes.torch_name(input.dtype)}'")
    d = host_values(input, "histc").ravel()
    lo, hi = float(min), float(max)
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    if lo == hi and d.size:
        lo, hi = float(d.min()), float(d.max())
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise RuntimeError(f"torch.histc: range of [{lo:g}, {hi:g}] is not finite")
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    # PyTorch's bin of x: floor((x - lo) * bins / (hi - lo)) in the input's dtype, the edges
    # rounded to it, x == hi in the last bin.  (np.histogram places x by comparing it with
    # its rounded edges: 0.3 fell in bin 2 of 10 over [0, 1], PyTorch's bin 3.)
    lo, hi = d.dtype.type(lo), d.dtype.type(hi)
    x = d[(d >= lo) & (d <= hi)]
    at = np.minimum(((x - lo) * d.dtype.type(bins) / (hi - lo)).astype(np.int64), bins - 1)
    return _leaf(np.bincount(at, minlength=bins).astype(input.dtype))


@api
def histogram(input, bins, *, range=None, weight=None, density=False):  # noqa: A002
    """``(hist, bin_edges)``: counts (or ``weight`` sums, or a density) in ``bins`` equal
    bins over ``range`` (the data's by default), or between given edges (a 1-d tensor).
    No derivative, as PyTorch's (the results require grad when an input does; backward
    raises)."""
    _tensor(input, "histogram")
    if input.dtype.kind != "f":
        raise RuntimeError(f"torch.histogram: input tensor and bins tensors should have the "
                           f"same dtype, but got input {dtypes.torch_word(input.dtype)}")
    d = host_values(input, "histogram").ravel()
    w = None if weight is None else host_values(weight, "histogram").ravel()
    edges = host_values(bins, "histogram") if isinstance(bins, Tensor) else int(bins)
    rng = None if range is None else (float(range[0]), float(range[1]))
    if rng is None and not isinstance(bins, Tensor) and d.size:
        rng = (float(d.min()), float(d.max()))
    hist, out_edges = np.histogram(d, bins=edges, range=rng, weights=w, density=density)
    return HistogramResult(*no_derivative(  # (PyTorch's: both require grad, no derivative)
        "histogram", (norm(hist.astype(input.dtype)), norm(out_edges.astype(input.dtype))),
        input, bins, weight))


@api
def cov(input, *, correction=1, fweights=None, aweights=None):
    """Covariance of the rows of ``input`` (variables by observations; a 1-d input is one
    variable), with integer frequency and/or float observation weights, as NumPy's cov."""
    _tensor(input, "cov")
    if input.ndim > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {input.ndim} dimensions")
    x = input if input.ndim == 2 else sh.reshape(input, 1, -1)
    if x.dtype.kind != "f":
        x = sh.to(x, dtypes.default_float())
    n = x.shape[1]
    w = None
    if fweights is not None:
        w = fweights
    if aweights is not None:
        w = aweights if w is None else w * aweights
    if w is None:
        avg = red.mean(x, 1)
        w_sum, norm_factor = n, n - correction
    else:
        w = sh.to(w, x.dtype)
        w_sum = red.sum(w)
        avg = red.sum(x * w, 1) / w_sum
        if correction == 0:
            norm_factor = w_sum
        elif aweights is None:
            norm_factor = w_sum - correction
        else:
            norm_factor = w_sum - correction * red.sum(w * sh.to(aweights, x.dtype)) / w_sum
    if isinstance(norm_factor, Tensor):
        norm_factor = ew.clamp(norm_factor, min=0)
    else:
        norm_factor = max(norm_factor, 0)
    xm = x - sh.unsqueeze(avg, 1)
    c = la.matmul(xm if w is None else xm * w, sh.t(xm)) / norm_factor
    return sh.squeeze(c)


@api
def corrcoef(input):
    """Pearson correlation coefficients of the rows of ``input`` (clipped to [-1, 1])."""
    c = cov(input)
    if c.ndim == 0:
        return c / c
    sd = ew.sqrt(sh.diagonal(c))
    c = c / sh.unsqueeze(sd, 1) / sh.unsqueeze(sd, 0)
    return ew.clamp(c, -1.0, 1.0)


# ---- integration, distance -------------------------------------------------------------
@api
def trapezoid(y, x=None, *, dx=None, dim=-1):
    """The trapezoid rule along ``dim``, at sample points ``x`` or spacing ``dx`` (1)."""
    _tensor(y, "trapezoid", name="y")
    d = _wrap_dim(dim, y.ndim, "trapezoid")
    n = y.shape[d]
    if n == 0:
        return red.sum(y, d)
    lo, hi = sh.narrow(y, d, 0, n - 1), sh.narrow(y, d, 1, n - 1)
    if x is None:
        step = 1.0 if dx is None else dx
        # (PyTorch's last step multiplies by a number, dividing by 2 below: Mul/DivBackward1)
        return named_result((red.sum(y, d) - (sh.select(y, d, 0) + sh.select(y, d, n - 1)) *
                             0.5) * step, "MulBackward1")
    if not isinstance(x, Tensor):
        x = Tensor(x)
    xd = _wrap_dim(dim, x.ndim, "trapezoid") if x.ndim > 1 else 0
    m = x.shape[xd]
    dxs = sh.narrow(x, xd, 1, m - 1) - sh.narrow(x, xd, 0, m - 1)
    if x.ndim == 1 and y.ndim > 1:
        dxs = dxs.reshape((n - 1,) + (1,) * (y.ndim - 1 - d))
    return named_result(red.sum(dxs * (lo + hi), d) / 2.0, "DivBackward1")


@api
def trapz(y, x=None, *, dx=None, dim=-1):
    """trapezoid's old name."""
    return trapezoid(y, x, dx=dx, dim=dim)


@api
def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running trapezoid rule along ``dim`` (one element fewer)."""
    _tensor(y, "cumulative_trapezoid", name="y")
    d = _wrap_dim(dim, y.ndim, "cumulative_trapezoid")
    n = y.shape[d]
    lo, hi = sh.narrow(y, d, 0, n - 1), sh.narrow(y, d, 1, n - 1)
    if x is None:
        return red.cumsum((lo + hi) * ((1.0 if dx is None else dx) / 2.0), d)
    if not isinstance(x, Tensor):
        x = Tensor(x)
    xd = _wrap_dim(dim, x.ndim, "cumulative_trapezoid") if x.ndim > 1 else 0
    m = x.shape[xd]
    dxs = sh.narrow(x, xd, 1, m - 1) - sh.narrow(x, xd, 0, m - 1)
    if x.ndim == 1 and y.ndim > 1:
        dxs = dxs.reshape((n - 1,) + (1,) * (y.ndim - 1 - d))
    return red.cumsum(dxs * (lo + hi) / 2.0, d)


@api
@node("DistBackward0")
def dist(input, other, p=2):
    """The p-norm of ``input - other``."""
    _tensor(input, "dist")
    _tensor(other, "dist", 2, "other")
    return red.norm(input - other, p)


@api
@node("RenormBackward0")
def renorm(input, p, dim, maxnorm):
    """Each slice along ``dim`` whose p-norm exceeds ``maxnorm`` scaled down to it
    (``maxnorm / (norm + 1e-7)``, as PyTorch)."""
    _tensor(input, "renorm")
    if input.ndim <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {input.ndim} "
                           "dimensions")
    d = _wrap_dim(dim, input.ndim, "renorm")
    others = tuple(i for i in range(input.ndim) if i != d)
    norms = red.norm(input, p, others, keepdim=True)
    factor = ew.where(cmp.gt(norms, maxnorm), maxnorm / (norms + 1e-7), 1.0)
    return input * factor


def _quantile_ref(np_, x, q):
    n = x.shape[-1]
    s = np_.sort(x, -1)
    r = q * (n - 1)
    lo, hi = int(np.floor(r)), int(np.ceil(r))
    return s[..., lo] + (r - lo) * (s[..., hi] - s[..., lo])


_PICKED = ("the elements it picks are recorded as constant indices (a GATHER row): replay at "
           "other points keeps them, as sort's and topk's do")
def _two_or_more(x):
    """Random programs skip var over one element (nan, whose gradient conventions the HIPS
    oracle does not share), as reductions.py keeps var out of them."""
    if np.shape(x)[-1:] in ((), (0,), (1,)):
        raise ValueError("var over fewer than two elements")
    return True


SPECS = [
    Spec("nansum", lambda x: _lib(x).nansum(x, -1), lambda np_, x: np_.sum(x, -1),
         shapes=((3,), (2, 3))),
    Spec("nanmean", lambda x: _lib(x).nanmean(x), lambda np_, x: np_.mean(x),
         shapes=((3,), (2, 3))),
    Spec("median", lambda x: x.median(-1)[0], lambda np_, x: np_.sort(x, -1)[..., 1],
         shapes=((3,), (2, 4)), oracle=False, replay=False, notes=_PICKED),
    Spec("quantile", lambda x: x.quantile(0.3, dim=-1), lambda np_, x: _quantile_ref(
         np_, x, 0.3), shapes=((3,), (2, 4)), oracle=False, replay=False, notes=_PICKED),
    Spec("var_mean", lambda x: _lib(x).var_mean(x, -1)[0] * _lib(x).var_mean(x, -1)[1],
         lambda np_, x: _two_or_more(x) and np_.var(x, -1, ddof=1) * np_.mean(x, -1),
         shapes=((3,), (2, 3))),
    Spec("trapezoid", lambda x: _lib(x).trapezoid(x), lambda np_, x: np_.sum(
         x[..., 1:] + x[..., :-1], -1) / 2.0, shapes=((3,), (2, 3))),
    Spec("dist", lambda a, b: _lib(a).dist(a, b), lambda np_, a, b: np_.sqrt(np_.sum(
         (a - b) ** 2)), arity=2, shapes=((3,), (2, 3))),
]
SPECS = [dataclasses.replace(spec, shapes=spec.shapes[-1:]) for spec in SPECS]  # (one shape:
#                                           a composite's rows are checked by their own rows)
