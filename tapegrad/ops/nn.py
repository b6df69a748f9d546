"""The primitives of ``nn.functional``: log_softmax and softmax over one dim (numerically
stable, one row each), nll (the second half of cross_entropy, for class indices), and the
gates of an LSTM or GRU step (one row each, nn/rnn.py's cells).  The PyTorch-facing
functions that compose them live in ``tapegrad/nn/functional.py``.
"""
import math

import numpy as np

from .. import _eager
from .. import _libm as libm
from .. import dtypes
from .._fp import quiet
from .._jit import rule
from .._rules import _s, _u, reach_input
from .._state import state
from ..tape import CONST
from ..tensor import _leaf
from ..tensor import norm as _stored
from . import elementwise as E
from . import shape as S
from ._record import output, slot, tape_for_grad
from .reductions import _beats
from . import layout
from .registry import ZERO, declare, meta_at
from .spec import Spec
from .spec import lib as _lib
from .strided import VIEW_NAMES

# ---- log_softmax over one dim (the first half of cross_entropy) -------------------------
LOG_SOFTMAX = 59  # meta: [outer, size, inner]: element (i, j, l) sits at (i size + j) inner + l


@rule
def _softmax_groups(vals, meta, o, a, k, w, log):
    # along the dim, one group at a time (_softmax_group)
    outer, size, inner = _u(meta[k]), _u(meta[k + 1]), _u(meta[k + 2])
    step = inner * w
    for i in range(outer):
        for q in range(inner * w):
            g = i * size * step + q
            _softmax_group(vals, o + g, a + g, size, step, log, False)


# Softmax groups of up to SMALL_GROUP elements at one point (the one-point interpreters,
# _point._point_forward and _point_reverse) run with ``small`` True: a literal, so their
# loops take SMALL_GROUP steps, a trip count the compiler knows, unrolled, each step
# skipped past the group's size.  The loops sized at run time cost ~40 ns more per group
# there (bench_fastest_west's west graph, groups of 4: its one-point reverse 2.4x faster).
# The same code and the same order either way: the results are equal bit for bit.
SMALL_GROUP = 8


@rule(inline=True)
def _softmax_group(vals, o, a, size, step, log, small):
    # m the group's max (a group with a nan or an inf, or of -infs only, is all nan, as in
    # PyTorch): log_softmax y = (x - m) - log(sum exp(x - m)); softmax
    # y = exp(x - m) / sum exp(x - m), n exp calls as the eager forward (_softmax_row) and
    # PyTorch compute it (the exp of log_softmax's values took 2n exp and a log)
    n = np.uint64(SMALL_GROUP) if small else size
    m = -np.inf
    for j in range(n):
        if j < size and _beats(vals[a + j * step], m, 1.0):
            m = vals[a + j * step]
    s = 0.0
    for j in range(n):
        if j < size:
            x = vals[a + j * step] - m  # (libm's exp at one point: the same function)
            e = libm.exp(x) if small else np.exp(x)
            s += e
            if not log:
                vals[o + j * step] = e
    if log:
        ls = np.log(s)
        for j in range(n):
            if j < size:
                vals[o + j * step] = (vals[a + j * step] - m) - ls
    else:
        for j in range(n):
            if j < size:
                vals[o + j * step] /= s


@rule(inline=True)
def _point_group(meta, k):
    # a softmax row at one point that _softmax_group runs with small: one group, contiguous
    return meta[k] == 1 and meta[k + 2] == 1 and meta[k + 1] <= SMALL_GROUP


@rule(inline=True)
def softmax_point_fwd(vals, meta, o, a, k, log):
    # the forward of a (LOG_)SOFTMAX row at one point (w = 1)
    if _point_group(meta, k):
        _softmax_group(vals, o, a, _u(meta[k + 1]), np.uint64(1), log, True)
    else:
        _softmax_groups(vals, meta, o, a, k, np.uint64(1), log)


@rule
def log_softmax_fwd(vals, meta, o, a, k, w):
    _softmax_groups(vals, meta, o, a, k, w, True)


@rule
def softmax_rev(adj, vals, meta, o, a, k, w, log):
    # along the dim, one group at a time (_softmax_group_rev)
    outer, size, inner = _u(meta[k]), _u(meta[k + 1]), _u(meta[k + 2])
    step = inner * w
    for i in range(outer):
        for q in range(inner * w):
            g = i * size * step + q
            _softmax_group_rev(adj, vals, o + g, a + g, size, step, log, False)


@rule(inline=True)
def _softmax_group_rev(adj, vals, o, a, size, step, log, small):
    # from the saved output y (PyTorch's rules): log_softmax: gx = gy - exp(y) * sum(gy);
    # softmax: gx = y * (gy - sum(gy * y)); ``small`` as in _softmax_group
    n = np.uint64(SMALL_GROUP) if small else size
    s = 0.0
    for j in range(n):
        if j < size:
            e = o + j * step
            s += adj[e] if log else adj[e] * vals[e]
    for j in range(n):
        if j < size:
            e = j * step
            y = vals[o + e]
            z = (libm.exp(y) if small else np.exp(y)) if log else 0.0
            adj[a + e] += adj[o + e] - z * s if log else y * (adj[o + e] - s)


@rule(inline=True)
def softmax_point_rev(adj, vals, meta, o, a, k, log):
    # the reverse of a (LOG_)SOFTMAX row at one point (w = 1)
    if _point_group(meta, k):
        _softmax_group_rev(adj, vals, o, a, _u(meta[k + 1]), np.uint64(1), log, True)
    else:
        softmax_rev(adj, vals, meta, o, a, k, np.uint64(1), log)


def _softmax_dim(r):
    # the dim of a (LOG_)SOFTMAX row, from its meta (outer, size, inner)
    shape = r.shape(r.a)
    size, inner = r.m(r.k + 1), r.m(r.k + 2)
    return next(d for d in range(len(shape))
                if shape[d] == size and int(np.prod(shape[d + 1:], dtype=np.int64)) == inner)


def log_softmax_vjp(r, g):
    # gx = g - exp(y) * sum(g) along the row's dim
    return [(r.a, g - E.exp(r.out) * g.sum(_softmax_dim(r), keepdim=True))]


def _softmax_layout(lay, R):
    dims = lay.fields(R[:, 4], 3)
    lay.at_least(dims, ("outer", "size", "inner"))
    na, no = lay.sizes(R[:, 2], "in0"), lay.sizes(R[:, 1], "out")
    n, big = layout.product(*dims.T)
    lay.check_each(big | (n != na) | (na != no), lambda i: f"outer, size, inner = "
                   f"{dims[i].tolist()} for in0 of {int(na[i])} and out of {int(no[i])} elements")
    # (the groups: with size 0, 2**62 of them took forever)
    lay.work += float(np.sum(dims[:, 0].astype(np.float64) * dims[:, 2]))


@rule
def softmax_curv(tadj, adj, vals, tan, meta, o, a, k, w, log):
    # the tangent of softmax_rev at fixed gy, with ty the output's tangent:
    # log_softmax: ga' = -exp(y) ty sum(gy);  softmax: ga' = ty (gy - sum(gy y)) - y sum(gy ty)
    outer, size, inner = _u(meta[k]), _u(meta[k + 1]), _u(meta[k + 2])
    step = inner * w
    for i in range(outer):
        for q in range(inner * w):
            g = i * size * step + q
            s = 0.0
            st = 0.0
            for j in range(size):
                e = o + g + j * step
                s += adj[e] if log else adj[e] * vals[e]
                st += adj[e] * tan[e]
            for j in range(size):
                e = g + j * step
                y, ty, gy = vals[o + e], tan[o + e], adj[o + e]
                tadj[a + e] += -np.exp(y) * ty * s if log else ty * (gy - s) - y * st


@rule
def softmax_tan(tan, vals, meta, o, a, k, w, log):
    # along the dim, from the saved output y:
    # log_softmax: ty = tx - sum(exp(y) tx);  softmax: ty = y * (tx - sum(y tx))
    outer, size, inner = _u(meta[k]), _u(meta[k + 1]), _u(meta[k + 2])
    step = inner * w
    for i in range(outer):
        for q in range(inner * w):
            g = i * size * step + q
            s = 0.0
            for j in range(size):
                e = g + j * step
                s += tan[a + e] * (np.exp(vals[o + e]) if log else vals[o + e])
            for j in range(size):
                e = g + j * step
                tan[o + e] = tan[a + e] - s if log else vals[o + e] * (tan[a + e] - s)


declare(LOG_SOFTMAX, "LogSoftmaxBackward0", saves="o", aux="meta", check=_softmax_layout,
        fwd=log_softmax_fwd,
        rev=softmax_rev, vjp=log_softmax_vjp, tan=softmax_tan, curv=softmax_curv)


def _reduce_dim(ufunc, d, dim):
    """``ufunc.reduce(d, axis=dim, keepdims=True)``.  NumPy reduces a short last axis one
    row at a time (max over (256, 10): 12-17 us); over the first axis of the transposed
    copy, whole rows at a time, it takes 3.5 us."""
    size = d.shape[dim]
    if dim != d.ndim - 1 or size > 16 or d.size < 32 * size:
        return ufunc.reduce(d, axis=dim, keepdims=True)
    return ufunc.reduce(d.reshape(-1, size).T.copy(), axis=0).reshape(d.shape[:-1] + (1,))


def log_softmax(input, dim):
    """``log(softmax(input, dim))`` as one row (nn.functional.log_softmax checks ``dim``
    and handles 0-d inputs and ``dtype``).

    >>> import tapegrad as tg
    >>> tg.tensor([0.0, 0.0]).log_softmax(0).exp().tolist()
    [0.5, 0.5]
    """
    return _softmax_row(input, dim, LOG_SOFTMAX)


def softmax(input, dim):
    """``exp(x) / sum(exp(x))`` along ``dim``, as one row (nn.functional.softmax checks
    ``dim`` and handles 0-d inputs and ``dtype``).

    >>> import tapegrad as tg
    >>> tg.tensor([0.0, 0.0]).softmax(0).tolist()
    [0.5, 0.5]
    """
    return _softmax_row(input, dim, SOFTMAX)


def _softmax_row(input, dim, code):
    """The LOG_SOFTMAX or SOFTMAX row of ``input`` along ``dim``, computed after
    subtracting the max: a group holding a nan or an inf, or only -infs, is nan (PyTorch)."""
    d = np.asarray(input._data)
    if d.dtype.kind != "f":
        op = "log_softmax" if code == LOG_SOFTMAX else "softmax"
        # (PyTorch names the kernel it would have run: its last-dim one, or the general one)
        op += "_lastdim" if d.ndim <= 1 or dim in (-1, d.ndim - 1) else ""
        raise NotImplementedError(f'"{op}_kernel_impl" not implemented '
                                  f"for '{dtypes.torch_name(d.dtype)}'")  # (PyTorch's words)
    with quiet():
        if d.size:
            if code == LOG_SOFTMAX:
                v = _log_softmax_values(d, dim)
            else:
                v = d - _reduce_dim(np.maximum, d, dim)
                np.exp(v, out=v)
                v /= _reduce_dim(np.add, v, dim)
        else:
            v = d.copy()
    if not (input._rg and state.grad_enabled):
        return _leaf(v)
    tape = tape_for_grad()
    sx = slot(input, tape, False)  # (softmax_rev reads the output only)
    shape = d.shape
    k = tape.push_meta((math.prod(shape[:dim]), shape[dim], math.prod(shape[dim + 1:])))
    return output(tape, v, code, sx, -1, k)


def _log_softmax_values(d, dim):
    """A LOG_SOFTMAX row's values: ``d`` less its max along ``dim``, less the log of that's
    exp summed (ufunc methods: NumPy's np.max / np.sum wrappers cost a us each)."""
    v = d - _reduce_dim(np.maximum, d, dim)
    v -= np.log(_reduce_dim(np.add, np.exp(v), dim))
    return v


# ---- softmax: one row (meta as LOG_SOFTMAX's) ----------------------------------------------
SOFTMAX = 70


@rule
def softmax_fwd(vals, meta, o, a, k, w):
    _softmax_groups(vals, meta, o, a, k, w, False)


def softmax_vjp(r, g):
    # gx = y * (g - sum(g * y)) along the row's dim
    return [(r.a, r.out * (g - (g * r.out).sum(_softmax_dim(r), keepdim=True)))]


declare(SOFTMAX, "SoftmaxBackward0", saves="o", aux="meta", fwd=softmax_fwd, rev=softmax_rev,
        vjp=softmax_vjp, check=_softmax_layout, tan=softmax_tan, curv=softmax_curv)


# ---- nll: the second half of cross_entropy, for class indices ---------------------------
# y = -sum_i x.flat[idx[i]] / div (div: the count for mean, 1 for sum); one row instead of
# a gather, a mean and a negation.  meta: [n, div, name, idx...] (from ``name`` on, a
# GATHER row's layout: the adjoint scatters through it, autograd/higher.py).
NLL = 69


@rule
def nll_fwd(vals, meta, o, a, k, w):
    n, div = _u(meta[k]), meta[k + 1]
    for p in range(w):
        vals[o + p] = 0.0
    for i in range(n):
        j = a + _u(meta[k + 3 + _s(i)]) * w
        for p in range(w):
            vals[o + p] += vals[j + p]
    for p in range(w):
        vals[o + p] = -(vals[o + p] / div)


@rule
def nll_rev(adj, meta, o, a, k, w):
    n, div = _u(meta[k]), meta[k + 1]
    for i in range(n):
        j = a + _u(meta[k + 3 + _s(i)]) * w
        for p in range(w):
            adj[j + p] -= adj[o + p] / div


def nll_vjp(r, g):
    # gx = -g / div at each picked element: a scatter through the row's GATHER-layout meta
    n, div = r.m(r.k), r.m(r.k + 1)
    return [(r.a, r.emit(S.SCATTER, S.expand(-g / float(div), n), r.k + 2, r.shape(r.a)))]


def _nll_layout(lay, R):
    k = R[:, 4]
    n = lay.fields(k, 3)[:, :1]
    lay.at_least(n, ("n",))
    lay.check_each(lay.sizes(R[:, 1], "out") != 1, lambda i: "the loss is one element")
    lay.indices(k + 3, n[:, 0], lay.sizes(R[:, 2], "in0"))
    lay.work += float(np.sum(n, dtype=np.float64))  # (the picks, into a loss of one element)


declare(NLL, "NllLossBackward0", frees=True, aux="meta", fwd=nll_fwd, rev=nll_rev, vjp=nll_vjp,
        check=_nll_layout, tan=nll_fwd, curv=ZERO)


def nll(input, index, div):
    """``-sum(input.flat[index]) / div`` as one NLL row (nn.functional checks the targets:
    every index is in range)."""
    v = _nll_value(np.asarray(input._data), index, div)
    if not (input._rg and state.grad_enabled):
        return _leaf(v)
    tape = tape_for_grad()
    sx = slot(input, tape, False)  # (nll_rev reads no values)
    return output(tape, v, NLL, sx, -1, _nll_meta(tape, index, div))


def _nll_value(logp, index, div):
    with quiet():
        return _stored(-(np.add.reduce(logp.reshape(-1)[index]) / div))


def _nll_meta(tape, index, div):
    return tape.push_meta(np.concatenate(([index.size, div, _GATHER_NAME], index)))


_GATHER_NAME = VIEW_NAMES.index("GatherBackward0")


def log_softmax_nll(input, index, div):
    """``nll(log_softmax(input, 1), index, div)`` of a 2-D float ``input``: the same two rows
    (LOG_SOFTMAX, NLL) and values, recorded in one call with no Tensor for the
    log-probabilities (cross_entropy's common case, a small training step's loss: issue 20)."""
    d = input._data
    with quiet():
        logp = _log_softmax_values(d, 1)
    v = _nll_value(logp, index, div)
    if not (input._rg and state.grad_enabled):
        return _leaf(v)
    tape = tape_for_grad()
    sx = slot(input, tape, False)  # (softmax_rev reads the output only)
    k = tape.push_meta((d.shape[0], d.shape[1], 1))
    sp = tape.push_array(logp, True, True)
    tape.rbuf.extend((LOG_SOFTMAX, sp, sx, -1, k))
    return output(tape, v, NLL, sp, -1, _nll_meta(tape, index, div))


# ---- recurrent cells: an LSTM's or a GRU's gates and new state, one row a step ---------------
# in0 = xg (B, G H): the input's projection x W_ih^T + b_ih; in1 = hg (B, G H): the state's,
# h W_hh^T + b_hh (G = 4 gates i, f, g, o for LSTM_CELL, 3 gates r, z, n for GRU_CELL, in
# PyTorch's order); meta: [H, slot of the state the gates act on (c for LSTM, h for GRU),
# (B, H)].  LSTM_CELL's output is c' (B, H), LSTM_H's h' = o tanh(c') (its state slot c');
# GRU's h' (B, H).  The gate functions are PyTorch's; the two GEMMs stay LINEAR / ADDMM
# rows, so a step of an LSTM is 3 rows (the GEMM, c', h'), of a GRU 2, not 12-15 (issue 20).
# The rules recompute the gates from in0 and in1 (cheap beside the GEMMs), so no gate
# tensor is kept.
LSTM_CELL, GRU_CELL, LSTM_H = 124, 125, 126


@rule(inline=True)
def _cell_dims(offs, meta, k, w):
    # H, the state's slot, its value offset and its element count (B H)
    H, sc = _u(meta[k]), meta[k + 1]
    return H, sc, _u(offs[sc]) * w, _u(offs[sc + 1]) - _u(offs[sc])


@rule(inline=True)
def _lstm_ifg(vals, z, y, Hw):
    # the gates i, f = sigmoid and g = tanh at one element (z in xg, y in hg; gates Hw apart)
    return (_eager._sigmoid_of(vals[z] + vals[y]),
            _eager._sigmoid_of(vals[z + Hw] + vals[y + Hw]),
            math.tanh(vals[z + Hw + Hw] + vals[y + Hw + Hw]))


@rule
def lstm_cell_fwd(vals, offs, meta, o, a, b, k, w):
    # c' = f c + i g, with i, f = sigmoid and g = tanh of xg + hg
    H, _, c, n = _cell_dims(offs, meta, k, w)
    Hw = H * w
    for bh in range(0, n, H):  # a row of the state: e // H and e % H without dividing
        for j in range(H):
            e = bh + j
            z0 = (bh * 4 + j) * w
            for p in range(w):
                z = a + z0 + p
                y = b + z0 + p
                i, f, g = _lstm_ifg(vals, z, y, Hw)
                vals[o + e * w + p] = f * vals[c + e * w + p] + i * g


@rule
def lstm_cell_rev(adj, reach, vals, offs, meta, o, a, b, k, w, da, db):
    # g_i = gy g, g_f = gy c, g_g = gy i, each times its nonlinearity's derivative;
    # g_c = gy f.  xg and hg get the same adjoint (their sum is the gates' input)
    H, sc, c, n = _cell_dims(offs, meta, k, w)
    reach_input(adj, reach, offs, sc, w)
    dc = reach[sc] != CONST
    Hw = H * w
    for bh in range(0, n, H):  # a row of the state: e // H and e % H without dividing
        for j in range(H):
            e = bh + j
            z0 = (bh * 4 + j) * w
            for p in range(w):
                z = a + z0 + p
                y = b + z0 + p
                i, f, g = _lstm_ifg(vals, z, y, Hw)
                gy = adj[o + e * w + p]
                gi = gy * g * i * (1.0 - i)
                gf = gy * vals[c + e * w + p] * f * (1.0 - f)
                gg = gy * i * (1.0 - g * g)
                if da:
                    adj[z] += gi
                    adj[z + Hw] += gf
                    adj[z + Hw + Hw] += gg
                if db:
                    adj[y] += gi
                    adj[y + Hw] += gf
                    adj[y + Hw + Hw] += gg
                if dc:
                    adj[c + e * w + p] += gy * f


@rule
def lstm_cell_tan(tan, vals, offs, meta, o, a, b, k, w):
    # tc' = tf c + f tc + ti g + i tg
    H, _, c, n = _cell_dims(offs, meta, k, w)
    Hw = H * w
    for bh in range(0, n, H):  # a row of the state: e // H and e % H without dividing
        for j in range(H):
            e = bh + j
            z0 = (bh * 4 + j) * w
            for p in range(w):
                z = a + z0 + p
                y = b + z0 + p
                i, f, g = _lstm_ifg(vals, z, y, Hw)
                ti = i * (1.0 - i) * (tan[z] + tan[y])
                tf = f * (1.0 - f) * (tan[z + Hw] + tan[y + Hw])
                tg = (1.0 - g * g) * (tan[z + Hw + Hw] + tan[y + Hw + Hw])
                tan[o + e * w + p] = tf * vals[c + e * w + p] + f * tan[c + e * w + p] + \
                    ti * g + i * tg


def lstm_cell_vjp(r, g):
    # lstm_cell_rev's rule in tensor ops (create_graph)
    H, sc = r.m(r.k), r.m(r.k + 1)
    c = r.w.tensor(sc)
    z = r.x + r.y
    i, f, gt = z[:, :H].sigmoid(), z[:, H:2 * H].sigmoid(), z[:, 2 * H:3 * H].tanh()
    g = g.reshape(c.shape)
    gz = S.cat([g * gt * i * (1.0 - i), g * c * f * (1.0 - f), g * i * (1.0 - gt * gt),
                _zeros(g, H)], 1)
    return [(r.a, gz), (r.b, gz), (sc, g * f)]


def _zeros(g, m):
    # the adjoint of the gates a rule does not read: zeros (B, m), a constant
    return _leaf(np.zeros((g.shape[0], m), np.asarray(g._data).dtype))


# LSTM_H: h' = o tanh(c'), o = sigmoid of the gates' last quarter; the same row layout, its
# state slot c' (LSTM_CELL's output), so c' is an input of h' as in PyTorch's graph (a hook
# or retain_grad on c' sees the gradient that comes through h')
@rule
def lstm_h_fwd(vals, offs, meta, o, a, b, k, w):
    H, _, c, n = _cell_dims(offs, meta, k, w)
    H3w = (H + H + H) * w
    for bh in range(0, n, H):  # a row of the state: e // H and e % H without dividing
        for j in range(H):
            e = bh + j
            z0 = (bh * 4 + j) * w + H3w
            for p in range(w):
                q = _eager._sigmoid_of(vals[a + z0 + p] + vals[b + z0 + p])
                vals[o + e * w + p] = q * math.tanh(vals[c + e * w + p])


@rule
def lstm_h_rev(adj, reach, vals, offs, meta, o, a, b, k, w, da, db):
    # g_o = gy tanh(c') o (1 - o) into both projections;  g_c' = gy o (1 - tanh(c')^2)
    H, sc, c, n = _cell_dims(offs, meta, k, w)
    reach_input(adj, reach, offs, sc, w)
    dc = reach[sc] != CONST
    H3w = (H + H + H) * w
    for bh in range(0, n, H):  # a row of the state: e // H and e % H without dividing
        for j in range(H):
            e = bh + j
            z0 = (bh * 4 + j) * w + H3w
            for p in range(w):
                q = _eager._sigmoid_of(vals[a + z0 + p] + vals[b + z0 + p])
                t = math.tanh(vals[c + e * w + p])
                gy = adj[o + e * w + p]
                go = gy * t * q * (1.0 - q)
                if da:
                    adj[a + z0 + p] += go
                if db:
                    adj[b + z0 + p] += go
                if dc:
                    adj[c + e * w + p] += gy * q * (1.0 - t * t)


@rule
def lstm_h_tan(tan, vals, offs, meta, o, a, b, k, w):
    # th' = to tanh(c') + o (1 - tanh(c')^2) tc'
    H, _, c, n = _cell_dims(offs, meta, k, w)
    H3w = (H + H + H) * w
    for bh in range(0, n, H):  # a row of the state: e // H and e % H without dividing
        for j in range(H):
            e = bh + j
            z0 = (bh * 4 + j) * w + H3w
            for p in range(w):
                q = _eager._sigmoid_of(vals[a + z0 + p] + vals[b + z0 + p])
                t = math.tanh(vals[c + e * w + p])
                tq = q * (1.0 - q) * (tan[a + z0 + p] + tan[b + z0 + p])
                tan[o + e * w + p] = tq * t + q * (1.0 - t * t) * tan[c + e * w + p]


def lstm_h_vjp(r, g):
    # lstm_h_rev's rule in tensor ops (create_graph)
    H, sc = r.m(r.k), r.m(r.k + 1)
    c = r.w.tensor(sc)
    q = (r.x[:, 3 * H:] + r.y[:, 3 * H:]).sigmoid()
    t = c.tanh()
    g = g.reshape(c.shape)
    go = g * t * q * (1.0 - q)
    gz = S.cat([_zeros(g, 3 * H), go], 1)
    return [(r.a, gz), (r.b, gz), (sc, g * q * (1.0 - t * t))]


@rule(inline=True)
def _gru_rzn(vals, x, y, Hw):
    # r, z = sigmoid(xr + hr), sigmoid(xz + hz), hn and n = tanh(xn + r hn) at one element
    r = _eager._sigmoid_of(vals[x] + vals[y])
    hn = vals[y + Hw + Hw]
    z = _eager._sigmoid_of(vals[x + Hw] + vals[y + Hw])
    return r, z, hn, math.tanh(vals[x + Hw + Hw] + r * hn)


@rule
def gru_cell_fwd(vals, offs, meta, o, a, b, k, w):
    # r, z = sigmoid(xr + hr), sigmoid(xz + hz);  n = tanh(xn + r hn);  h' = (1 - z) n + z h
    H, _, s, n = _cell_dims(offs, meta, k, w)
    Hw = H * w
    for bh in range(0, n, H):  # a row of the state: e // H and e % H without dividing
        for j in range(H):
            e = bh + j
            z0 = (bh * 3 + j) * w
            for p in range(w):
                x = a + z0 + p
                y = b + z0 + p
                r, z, hn, m = _gru_rzn(vals, x, y, Hw)
                vals[o + e * w + p] = (1.0 - z) * m + z * vals[s + e * w + p]


@rule
def gru_cell_rev(adj, reach, vals, offs, meta, o, a, b, k, w, da, db):
    # g_n = gy (1 - z) (1 - n^2);  g_z = gy (h - n) z (1 - z);  g_r = g_n hn r (1 - r);
    # g_h = gy z;  xg gets (g_r, g_z, g_n), hg (g_r, g_z, g_n r)
    H, ss, s, n = _cell_dims(offs, meta, k, w)
    reach_input(adj, reach, offs, ss, w)
    ds = reach[ss] != CONST
    Hw = H * w
    for bh in range(0, n, H):  # a row of the state: e // H and e % H without dividing
        for j in range(H):
            e = bh + j
            z0 = (bh * 3 + j) * w
            for p in range(w):
                x = a + z0 + p
                y = b + z0 + p
                r, z, hn, m = _gru_rzn(vals, x, y, Hw)
                gy = adj[o + e * w + p]
                gn = gy * (1.0 - z) * (1.0 - m * m)
                gz = gy * (vals[s + e * w + p] - m) * z * (1.0 - z)
                gr = gn * hn * r * (1.0 - r)
                if da:
                    adj[x] += gr
                    adj[x + Hw] += gz
                    adj[x + Hw + Hw] += gn
                if db:
                    adj[y] += gr
                    adj[y + Hw] += gz
                    adj[y + Hw + Hw] += gn * r
                if ds:
                    adj[s + e * w + p] += gy * z


@rule
def gru_cell_tan(tan, vals, offs, meta, o, a, b, k, w):
    # th' = (1 - z) tn + z th + tz (h - n), tn = (1 - n^2)(txn + tr hn + r thn)
    H, _, s, n = _cell_dims(offs, meta, k, w)
    Hw = H * w
    for bh in range(0, n, H):  # a row of the state: e // H and e % H without dividing
        for j in range(H):
            e = bh + j
            z0 = (bh * 3 + j) * w
            for p in range(w):
                x = a + z0 + p
                y = b + z0 + p
                r, z, hn, m = _gru_rzn(vals, x, y, Hw)
                tr = r * (1.0 - r) * (tan[x] + tan[y])
                tz = z * (1.0 - z) * (tan[x + Hw] + tan[y + Hw])
                tm = (1.0 - m * m) * (tan[x + Hw + Hw] + tr * hn + r * tan[y + Hw + Hw])
                tan[o + e * w + p] = (1.0 - z) * tm + z * tan[s + e * w + p] + \
                    tz * (vals[s + e * w + p] - m)


def gru_cell_vjp(r, g):
    # gru_cell_rev's rule in tensor ops (create_graph)
    H, ss = r.m(r.k), r.m(r.k + 1)
    h = r.w.tensor(ss)
    x, y = r.x, r.y
    rg = (x[:, :H] + y[:, :H]).sigmoid()
    z = (x[:, H:2 * H] + y[:, H:2 * H]).sigmoid()
    hn = y[:, 2 * H:]
    m = (x[:, 2 * H:] + rg * hn).tanh()
    g = g.reshape(h.shape)
    gn = g * (1.0 - z) * (1.0 - m * m)
    gz = g * (h - m) * z * (1.0 - z)
    gr = gn * hn * rg * (1.0 - rg)
    return [(r.a, S.cat([gr, gz, gn], 1)), (r.b, S.cat([gr, gz, gn * rg], 1)), (ss, g * z)]


def _cell_layout(gates, outs):
    """in0 and in1 hold ``gates`` times the state's elements (a multiple of H >= 1), the
    output ``outs`` times; every slot is older than the output."""
    def check(lay, R):
        o, a, b, k = R[:, 1], R[:, 2], R[:, 3], R[:, 4]
        head = lay.fields(k, 2)
        lay.at_least(head[:, :1], ("H",), lo=1)
        H, sc = head[:, 0], head[:, 1]
        ns = lay.sizes(sc, "state")
        no, na, nb = lay.sizes(o, "out"), lay.sizes(a, "in0"), lay.sizes(b, "in1")
        lay.check_each((ns % H != 0) | (na != gates * ns) | (nb != gates * ns) |
                       (no != outs * ns),
                       lambda i: f"in0 ({int(na[i])} elements), in1 ({int(nb[i])}) and out "
                                 f"({int(no[i])}) do not fit {gates} gates and {outs} outputs "
                                 f"of a state of {int(ns[i])} elements and H = {int(H[i])}")
        for x, what in ((a, "in0"), (b, "in1"), (sc, "state")):
            lay.before(x, o, what)
        lay.holds_slots(k + 1)
    return check


declare(LSTM_CELL, "AddBackward0", saves="ab", aux="meta", meta_slots=meta_at(1),
        fwd=lstm_cell_fwd, rev=lstm_cell_rev, vjp=lstm_cell_vjp, check=_cell_layout(4, 1),
        tan=lstm_cell_tan)
declare(LSTM_H, "MulBackward0", saves="ab", aux="meta", meta_slots=meta_at(1),
        fwd=lstm_h_fwd, rev=lstm_h_rev, vjp=lstm_h_vjp, check=_cell_layout(4, 1),
        tan=lstm_h_tan)
declare(GRU_CELL, "AddBackward0", saves="ab", aux="meta", meta_slots=meta_at(1),
        fwd=gru_cell_fwd, rev=gru_cell_rev, vjp=gru_cell_vjp, check=_cell_layout(3, 1),
        tan=gru_cell_tan)


def _sigmoid(v):
    return E._sigmoid_np(v)


def _cell_shapes(name, G, xg, hg, s):
    """H, the state's columns, once ``xg`` and ``hg`` are (B, G H) for a state ``s`` (B, H):
    the row's rules index the gates by B and H alone.  Shapes NumPy broadcasts instead (a
    1-D projection, a state of one row, G H - 1 gate columns for H = 2) recorded rows whose
    rules read and wrote past the projections' slots (others' values and adjoints)."""
    if not (xg.ndim == hg.ndim == s.ndim == 2 and tuple(xg.shape) == tuple(hg.shape) ==
            (s.shape[0], G * s.shape[1])):
        raise RuntimeError(f"{name}: the gates' projections must both be (B, {G} * H) for a "
                           f"state (B, H) = {tuple(s.shape)}, got {tuple(xg.shape)} and "
                           f"{tuple(hg.shape)}")
    return s.shape[1]


def lstm_cell(xg, hg, c):
    """``(h', c')`` of one LSTM step from the gates' two projections (B, 4H) and the cell
    state c (B, H), all 2-D of one float dtype: an LSTM_CELL row (c') and an LSTM_H row
    (h', reading c', as PyTorch's graph has it)."""
    H = _cell_shapes("lstm_cell", 4, xg, hg, c)
    with quiet():
        z = xg._data + hg._data
        s = _sigmoid(z)
        c2 = s[:, H:2 * H] * c._data
        c2 += s[:, :H] * _eager.tanh(z[:, 2 * H:3 * H])
        h2 = _eager.tanh(c2)
        h2 *= s[:, 3 * H:]
    c2 = _cell_row(c2, LSTM_CELL, xg, hg, c, H)
    return _cell_row(h2, LSTM_H, xg, hg, c2, H), c2


def gru_cell(xg, hg, h):
    """h' (B, H) of one GRU step from the gates' two projections (B, 3H) and h (B, H), all
    2-D of one float dtype: one GRU_CELL row."""
    H = _cell_shapes("gru_cell", 3, xg, hg, h)
    x, y, hd = xg._data, hg._data, h._data
    with quiet():
        rz = _sigmoid(x[:, :2 * H] + y[:, :2 * H])
        m = _eager.tanh(x[:, 2 * H:] + rz[:, :H] * y[:, 2 * H:])
        z = rz[:, H:]
        v = (1.0 - z) * m + z * hd
    return _cell_row(v, GRU_CELL, xg, hg, h, H)


def _cell_row(v, code, xg, hg, s, H):
    if not ((xg._rg or hg._rg or s._rg) and state.grad_enabled):
        return _leaf(v)
    tape = tape_for_grad()
    sa, sb, ss = slot(xg, tape), slot(hg, tape), slot(s, tape)
    k = tape.push_meta((H, ss))
    return output(tape, v, code, sa, sb, k, keep=False)


# ---- spec rows ----------------------------------------------------------------------
def _nll_target(shape):
    """Class indices for an (N, C, d1, ...) input: varied, every one in range."""
    n, c = shape[0], shape[1]
    i = np.arange(n)[:, None] + 2 * np.arange(int(np.prod(shape[2:])))[None, :]
    return (i % c).reshape((n,) + tuple(shape[2:]))


def _nll_spec(reduction):
    def fn(x):
        lib = _lib(x)
        return lib.nn.functional.nll_loss(x, lib.tensor(_nll_target(tuple(x.shape))),
                                          reduction=reduction)

    def ref(np_, x):  # (N, C, d1, d2, ...) as (N, C, d): x[i, t[i, l], l]
        n, c = x.shape[0], x.shape[1]
        t = _nll_target(x.shape).reshape(n, -1)
        d = t.shape[1]
        picked = np_.reshape(x, (n, c, d))[np.arange(n)[:, None], t, np.arange(d)[None, :]]
        return -(np_.mean(picked) if reduction == "mean" else np_.sum(picked))
    return fn, ref


def _log_softmax_ref(np_, x, axis):
    # Shifted by the max, as the rule computes it: a single entry then gives exactly 0
    # (unshifted, x - log(exp(x)) can round to 1e-17, which a later sign() turns into 1).
    z = x - np_.max(x, axis=axis, keepdims=True)
    return z - np_.log(np_.sum(np_.exp(z), axis=axis, keepdims=True))


SPECS = [
    Spec("log_softmax", lambda x: x.log_softmax(-1), lambda np_, x: _log_softmax_ref(np_, x, -1),
         shapes=((3,), (2, 3), (2, 3, 4))),
    Spec("log_softmax_dim", lambda x: x.log_softmax(1), lambda np_, x: _log_softmax_ref(np_, x, 1),
         shapes=((2, 3), (2, 3, 4))),
    Spec("softmax", lambda x: x.softmax(-1), lambda np_, x: np_.exp(_log_softmax_ref(np_, x, -1)),
         shapes=((3,), (2, 3), (2, 3, 4))),
    Spec("softmax_dim", lambda x: x.softmax(0), lambda np_, x: np_.exp(_log_softmax_ref(np_, x, 0)),
         shapes=((2, 3), (2, 3, 4))),
    Spec("nll_loss", *_nll_spec("mean"), shapes=((4, 3), (2, 3, 4))),
    Spec("nll_loss_sum", *_nll_spec("sum"), shapes=((4, 3), (3, 5))),
]
