"""The compiled interpreters: pure dispatch, no math (the rules live in ops/*.py).

``_reverse_sweep`` walks rows ``stop-1 .. start`` backwards.  A row whose output was
not reached (``reach[out] == 0``) is skipped; otherwise its inputs become reached and
its rule accumulates into ``adj``.  It returns -1 when done, or the index of a row it
cannot run (freed by an earlier sweep, or an opcode without a compiled branch), so
Python can raise or run a Python backward and continue below that row.

``_forward_replay`` recomputes every row's output from its inputs, in order.

Both take ``w``, the number of points side by side: slot ``s`` spans
``[offs[s]*w, offs[s+1]*w)`` and each of its elements holds ``w`` consecutive values
(op-major batch layout).  Eager backward uses ``w = 1``; elementwise rules just see
``n*w`` values, rules that move elements take ``w``.

The one-point interpreters (a plan lowered for one point) live in ``_point.py``, cached apart.
"""
import numpy as np

from . import _rules as K
from ._jit import borrowed, njit, rule, stamp_together
from ._rules import _u
from .ops import control as C
from .ops import custom as U
from .ops import elementwise as E
from .ops import linalg as L
from .ops import nn as N
from .ops import reductions as R
from .ops import shape as S
from .ops import strided as T
from .tape import CONST, FREED


@rule
def _spans(offs, o, a, b, w):
    """A row's arena spans at w points per element: (w, elements of the output, elements
    of the first input, values of the output, and the offsets of out, in0, in1).
    Unsigned: Numba then emits no negative-index wraparound test per element, and the
    rules' loops vectorise (4-9x faster than int64 indices)."""
    uw = np.uint64(w)
    ne = np.uint64(offs[o + 1] - offs[o])
    na = np.uint64(offs[a + 1] - offs[a])
    bo = np.uint64(offs[b]) * uw if b >= 0 else np.uint64(0)
    return uw, ne, na, ne * uw, np.uint64(offs[o]) * uw, np.uint64(offs[a]) * uw, bo


@rule
def _writes_once(op):
    # rows whose reverse rule writes each adjoint of each input once (elementwise, or a
    # sum over dims): a first-reached input is written by the rule (_rules.add_into)
    return op == E.ADD or op == E.SUB or op == E.MUL or op == E.POW_C or op == R.SUM_DIM or \
        op == R.MEAN_DIM or op == E.TANH


@njit
def _reverse_sweep(rows, offs, vals, consts, meta, adj, reach, start, stop, w):
    # (the caller holds the arrays: no atomic reference counts around the rules, _jit.borrowed)
    rows, offs, vals, consts = borrowed(rows), borrowed(offs), borrowed(vals), borrowed(consts)
    meta, adj, reach = borrowed(meta), borrowed(adj), borrowed(reach)
    for r in range(stop - 1, start - 1, -1):
        o = rows[r, 1]
        if o < 0 or reach[o] == 0:  # guard rows have no output
            continue
        op = rows[r, 0]
        if op & FREED:
            return r
        a = rows[r, 2]
        b = rows[r, 3]
        k = rows[r, 4]
        # (matmul_rev and linear_rev reach their inputs themselves: codes MM..ADDMM; no
        # gradient flows back through a stop or a comparison, so the rows above them are
        # not swept: ops/control.py)
        # an input first reached by a row that writes each of its adjoints once is written
        # by it, not zeroed first and added to (fa, fb: _rules.add_into; eager sweeps)
        fa = False
        fb = False
        if not L.MM <= op <= L.ADDMM and op != C.STOP_GRAD and op != C.CMP and \
                op != C.CMP_C:
            # (an add folded into a sum of squares writes u's and v's adjoints once too)
            once = w == 1 and a != b and (_writes_once(op) or op == T.SQSUM and b >= 0)
            if reach[a] == 0:  # (tested here: a call passing the arrays costs ~26 ns a row)
                if once:
                    reach[a] = 1
                    fa = True
                else:
                    K.reach_input(adj, reach, offs, a, w)
            if b >= 0 and reach[b] == 0:
                if once:
                    reach[b] = 1
                    fb = True
                else:
                    K.reach_input(adj, reach, offs, b, w)
        uw, ne, na, n, oo, ao, bo = _spans(offs, o, a, b, w)
        # (an input whose reach is CONST is a constant no one reads the adjoint of: engine.py)
        if op == E.MUL:
            if reach[a] != CONST and reach[b] != CONST:
                E.mul_rev(adj, vals, oo, ao, bo, n, fa, fb)
            else:
                E.mul_half_rev(adj, vals, oo, ao, bo, n, reach[a] != CONST, reach[b] != CONST,
                               fa, fb)
        elif op == E.ADD:
            if reach[a] != CONST and reach[b] != CONST:
                E.add_rev(adj, vals, oo, ao, bo, n, fa, fb)
            else:
                E.add_half_rev(adj, oo, ao, bo, n, reach[a] != CONST, reach[b] != CONST, 1.0,
                               fa, fb)
        elif op == E.MUL_C:
            E.mul_c_rev(adj, oo, ao, consts[k], n)
        elif op == E.MUL_S:
            rn, rw = E.repeats(offs, a, b, k, ne, uw)
            E.mul_s_rev(adj, vals, oo, ao, bo, rn, rw, k, reach[a] != CONST, reach[b] != CONST)
        elif op == E.ADD_S or op == E.SUB_S:
            rn, rw = E.repeats(offs, a, b, k, ne, uw)
            E.add_s_rev(adj, oo, ao, bo, rn, rw, k, reach[a] != CONST, reach[b] != CONST,
                        -1.0 if op == E.SUB_S else 1.0)
        elif op == E.ADD_C or op == E.SUB_C or op == S.VIEW:
            E.pass_rev(adj, oo, ao, n)
        elif op == E.SIN:
            E.sin_rev(adj, vals, oo, ao, n)
        elif op == E.COS:
            E.cos_rev(adj, vals, oo, ao, n)
        elif op == E.SUB:
            if reach[a] != CONST and reach[b] != CONST:
                E.sub_rev(adj, vals, oo, ao, bo, n, fa, fb)
            else:
                E.add_half_rev(adj, oo, ao, bo, n, reach[a] != CONST, reach[b] != CONST, -1.0,
                               fa, fb)
        elif op == E.DIV:
            E.div_rev(adj, vals, oo, ao, bo, n)
        elif op == E.EXP:
            E.exp_rev(adj, vals, oo, ao, n)
        elif op == E.LOG:
            E.log_rev(adj, vals, oo, ao, n)
        elif op == E.LOG2:
            E.log2_rev(adj, vals, oo, ao, n)
        elif op == E.TANH:
            E.tanh_rev(adj, vals, oo, ao, n, fa)
        elif op == E.SIGMOID:
            E.sigmoid_rev(adj, vals, oo, ao, n)
        elif op == E.RELU:
            E.relu_rev(adj, vals, oo, ao, n)
        elif op == E.POW_C:
            E.pow_c_rev(adj, vals, oo, ao, consts[k], n, fa)
        elif op == E.DIV_C:
            E.div_c_rev(adj, oo, ao, consts[k], n)
        elif op == E.RSUB_C or op == E.NEG:
            E.neg_rev(adj, oo, ao, n)
        elif op == E.RDIV_C:
            E.rdiv_c_rev(adj, vals, oo, ao, n)
        elif op == E.POW:
            E.pow_rev(adj, vals, oo, ao, bo, n)
        elif op == E.RPOW_C:
            E.rpow_c_rev(adj, vals, oo, ao, consts[k], n)
        elif op == E.ABS:
            E.abs_rev(adj, vals, oo, ao, n)
        elif op == E.LOG1P:
            E.log1p_rev(adj, vals, oo, ao, n)
        elif op == E.EXPM1:
            E.expm1_rev(adj, vals, oo, ao, n)
        elif op == E.SQRT:
            E.sqrt_rev(adj, vals, oo, ao, n)
        elif op == E.TAN:
            E.tan_rev(adj, vals, oo, ao, n)
        elif op == R.SUM:
            R.sum_rev(adj, oo, ao, na, 1.0, uw)
        elif op == R.MEAN:
            R.sum_rev(adj, oo, ao, na, 1.0 / na, uw)
        elif op == R.SUM_DIM:
            R.sum_dim_rev(adj, meta, oo, ao, na, k, 1.0, uw, fa)
        elif op == R.MEAN_DIM:
            R.sum_dim_rev(adj, meta, oo, ao, na, k, ne / na, uw, fa)
        elif op == T.EXPAND:
            T.expand_rev(adj, meta, oo, ao, ne, na, k, uw)
        elif op == T.BCAST:  # (na: f's size, out's; out's slot is empty where an SQSUM
            # row makes out's values itself, replay._unstored_squares)
            T.bcast_rev_row(adj, reach, vals, offs, meta, oo, ao, bo, na,
                            np.uint64(offs[b + 1] - offs[b]), k, uw, reach[a] != CONST,
                            reach[b] != CONST)
        elif op == T.SQSUM:  # (meta[k] bit 0: u's adjoint not stored; the map at k + 1)
            da = reach[a] != CONST and meta[k] & 1 == 0
            db = b >= 0 and reach[b] != CONST
            if da or db:
                nx, uf, us, kb = T.sq_operands(offs, meta, a, b, k, uw)
                T.sqsum_rev(adj, vals, meta, oo, ao, bo, b >= 0, nx, k + 1, uw, da, db, fa, fb,
                            uf, us, kb)
        elif op == T.STRIDED:
            T.strided_rev(adj, adj, meta, oo, ao, ne, k + 1, uw)
        elif op == S.GATHER:
            S.gather_rev(adj, meta, oo, ao, ne, k, uw)
        elif op == S.SCATTER:
            S.scatter_rev(adj, meta, oo, ao, na, k, uw)
        elif op == S.PUT:
            S.put_rev(adj, meta, oo, ao, bo, ne, k, uw)
        elif op == S.CAT or op == S.STACK:
            S.cat_rev(adj, reach, offs, meta, oo, k, uw)
        elif op == L.LINEAR or op == L.ADDMM:
            L.linear_rev(adj, reach, vals, offs, meta, o, a, b, k, w)
        elif op == N.LSTM_CELL:
            N.lstm_cell_rev(adj, reach, vals, offs, meta, oo, ao, bo, k, uw, reach[a] != CONST,
                            reach[b] != CONST)
        elif op == N.LSTM_H:
            N.lstm_h_rev(adj, reach, vals, offs, meta, oo, ao, bo, k, uw, reach[a] != CONST,
                         reach[b] != CONST)
        elif op == N.GRU_CELL:
            N.gru_cell_rev(adj, reach, vals, offs, meta, oo, ao, bo, k, uw, reach[a] != CONST,
                           reach[b] != CONST)
        elif op == S.MASKED_FILL or op == S.MASKED_FILL_T:
            S.masked_fill_rev(adj, vals, oo, ao, bo, n)
        elif op == L.MM or op == L.MV or op == L.DOT or op == L.BMM:
            L.matmul_rev(adj, reach, vals, offs, meta, o, a, b, k, w)
        elif op == E.WHERE:
            K.reach_input(adj, reach, offs, k, w)  # the condition: its rows are swept (freed) too
            E.where_rev(adj, vals, oo, ao, bo, np.uint64(offs[k]) * uw, n)
        elif op == E.MAXIMUM:
            E.maximum_rev(adj, vals, oo, ao, bo, n, 1.0)
        elif op == E.MINIMUM:
            E.maximum_rev(adj, vals, oo, ao, bo, n, -1.0)
        elif op == E.CLAMP:
            E.clamp_rev(adj, vals, oo, ao, consts[k], consts[k + 1], n)
        elif op == E.SIGN or op == E.FLOOR or op == E.CEIL or op == E.ROUND or op == E.ROUND_DEC:
            pass  # piecewise constant: zero gradient
        elif op == E.ATAN2:
            E.atan2_rev(adj, vals, oo, ao, bo, n)
        elif op == E.ASIN:
            E.asin_rev(adj, vals, oo, ao, n)
        elif op == E.ACOS:
            E.acos_rev(adj, vals, oo, ao, n)
        elif op == E.ATAN:
            E.atan_rev(adj, vals, oo, ao, n)
        elif op == E.SINH:
            E.sinh_rev(adj, vals, oo, ao, n)
        elif op == E.COSH:
            E.cosh_rev(adj, vals, oo, ao, n)
        elif op == E.ERF:
            E.erf_rev(adj, vals, oo, ao, n)
        elif op == E.SOFTPLUS:
            E.softplus_rev(adj, vals, oo, ao, consts[k], consts[k + 1], n)
        elif op == E.LOG_SIGMOID:
            E.log_sigmoid_rev(adj, vals, oo, ao, n)
        elif op == R.PROD or op == R.PROD_DIM:
            R.prod_rev(adj, vals, meta, oo, ao, na, ne, k, uw)
        elif op == R.MAX or op == R.MIN:
            R.extreme_rev(adj, vals, meta, oo, ao, na, ne, k, R.MAX_ALL, uw)
        elif op == R.MAX_DIM or op == R.MIN_DIM:
            R.extreme_rev(adj, vals, meta, oo, ao, na, ne, k, R.MAX_INDEX, uw)
        elif op == R.AMAX or op == R.AMIN:
            R.extreme_rev(adj, vals, meta, oo, ao, na, ne, k, R.MAX_AMAX, uw)
        elif op == R.ARGMAX or op == R.ARGMIN:
            pass  # an index: no gradient
        elif op == R.LOGSUMEXP:
            R.logsumexp_rev(adj, vals, meta, oo, ao, na, k, uw)
        elif op == N.LOG_SOFTMAX or op == N.SOFTMAX:
            N.softmax_rev(adj, vals, meta, oo, ao, k, uw, op == N.LOG_SOFTMAX)
        elif op == N.NLL:
            N.nll_rev(adj, meta, oo, ao, k, uw)
        elif op == R.NORM:
            R.norm_rev(adj, vals, meta, oo, ao, na, ne, k + 1, consts[meta[k]], uw)
        elif op == R.VAR or op == R.STD:
            R.var_rev(adj, vals, meta, oo, ao, na, ne, k + 1, consts[meta[k]], op == R.STD, uw)
        elif op == R.CUMSUM:
            R.cumsum_rev(adj, meta, oo, ao, ne, k, uw)
        elif op == C.CMP or op == C.CMP_C:
            pass  # piecewise constant: no gradient
        elif op == C.STOP_GRAD:
            pass  # detach: no gradient
        elif op == U.CUSTOM_OUT:
            pass  # marks its custom op's hub reached (in0); the op's backward runs in Python
        else:
            return r
    return -1


@njit
def _free_swept(rows, meta, reach, lo, hi, frees, by_name):
    """Mark the rows of ``lo .. hi-1`` the sweep went through (after it succeeded) as
    freed where PyTorch's node holds a saved tensor: ``frees[op]`` 1, or 2 / 3 where the
    row's name (its aux, or ``meta[aux]``) decides by ``by_name``; an unknown op is freed
    (engine._free_tables).  Returns how many rows it freed that were not freed before."""
    freed = 0
    nf = len(frees)
    for r in range(lo, hi):
        o = rows[r, 1]
        op = rows[r, 0]
        if o < 0 or not reach[o] or op & FREED:
            continue
        f = frees[op] if op < nf else 1
        if f == 2:
            f = by_name[rows[r, 4]]
        elif f == 3:
            f = by_name[meta[rows[r, 4]]]
        if f:
            rows[r, 0] = op | FREED
            freed += 1
    return freed


@rule
def _fold_reads(rows, meta, kind, p0, p1, arr, r, acc, most):
    """``acc`` folded with ``arr[s]`` over the slots row r reads (in0, in1, and its aux or
    meta slots: ``kind``/``p0``/``p1`` per opcode, from the registry), by max when ``most``,
    else by min; a row of kind 4 (an unknown reader) gives the extreme, 1 or 0."""
    op = rows[r, 0] & (FREED - 1)
    a = rows[r, 2]
    b = rows[r, 3]
    if a >= 0:
        acc = max(acc, arr[a]) if most else min(acc, arr[a])
    if b >= 0:
        acc = max(acc, arr[b]) if most else min(acc, arr[b])
    kd = kind[op] if op < len(kind) else 4
    k = rows[r, 4]
    if kd == 1:
        acc = max(acc, arr[k]) if most else min(acc, arr[k])
    elif kd == 2:
        for p in (p0[op], p1[op]):
            if p >= 0 and meta[k + p] >= 0:
                acc = max(acc, arr[meta[k + p]]) if most else min(acc, arr[meta[k + p]])
    elif kd == 3:
        for i in range(meta[k + p0[op]]):
            s = meta[k + p1[op] + i]
            acc = max(acc, arr[s]) if most else min(acc, arr[s])
    elif kd == 4:
        acc = 1 if most else 0
    return acc


@njit
def _spans_of_slots(rows, meta, kind, p0, p1, low, prod, start):
    """For rows ``start ..``: ``prod[o]``, the last row writing slot o, and ``low[o]``, a
    lower bound of every row in o's graph (the rows o depends on), from the slots each row
    reads.  A backward from o sweeps rows ``low[o] .. prod[o]`` only (autograd/span.py)."""
    for r in range(start, len(rows)):
        o = rows[r, 1]
        if o >= 0:
            low[o] = _fold_reads(rows, meta, kind, p0, p1, low, r, min(low[o], r), False)
            prod[o] = max(prod[o], r)


@njit
def _needed_slots(rows, meta, kind, p0, p1, dep, run, lo, hi):
    """For rows ``lo .. hi-1``, in order: a row reading a slot with ``dep`` set (at first
    the targets of a backward given ``inputs``, set by the caller) sets ``run`` and ``dep``
    of its output: PyTorch's nodes "needed" for the inputs, the only ones it runs
    (``run``), and the slots whose gradient reaches a target (``dep``)."""
    for r in range(lo, hi):
        o = rows[r, 1]
        if o >= 0 and _fold_reads(rows, meta, kind, p0, p1, dep, r, 0, True):
            run[o] = 1
            dep[o] = 1


@njit
def _forward_replay(rows, offs, vals, consts, meta, start, stop, w, bad):
    # (the caller holds the arrays: no atomic reference counts around the rules, _jit.borrowed)
    rows, offs, vals, consts = borrowed(rows), borrowed(offs), borrowed(vals), borrowed(consts)
    meta, bad = borrowed(meta), borrowed(bad)
    for r in range(start, stop):
        op = rows[r, 0] & (FREED - 1)
        a = rows[r, 2]
        b = rows[r, 3]
        k = rows[r, 4]
        o = rows[r, 1]
        if o < 0:
            if op == C.GUARD:
                C.guard_fwd(vals, meta, offs[a] * w, k, w, bad)
            elif op == C.GUARD_EQ:
                C.guard_eq_fwd(vals, consts, meta, offs[a] * w, k, w, bad)
            else:
                return r
            continue
        uw, ne, na, n, oo, ao, bo = _spans(offs, o, a, b, w)
        if op == E.MUL:
            E.mul_fwd(vals, oo, ao, bo, n)
        elif op == E.ADD:
            E.add_fwd(vals, oo, ao, bo, n)
        elif op == E.MUL_C:
            E.mul_c_fwd(vals, oo, ao, consts[k], n)
        elif op == E.MUL_S:
            rn, rw = E.repeats(offs, a, b, k, ne, uw)
            E.mul_s_fwd(vals, oo, ao, bo, rn, rw, k)
        elif op == E.ADD_S or op == E.SUB_S:
            rn, rw = E.repeats(offs, a, b, k, ne, uw)
            E.add_s_fwd(vals, oo, ao, bo, rn, rw, k, -1.0 if op == E.SUB_S else 1.0)
        elif op == E.ADD_C:
            E.add_c_fwd(vals, oo, ao, consts[k], n)
        elif op == E.SUB_C:
            E.sub_c_fwd(vals, oo, ao, consts[k], n)
        elif op == S.VIEW:
            vals[oo:oo + n] = vals[ao:ao + n]
        elif op == E.SIN:
            E.sin_fwd(vals, oo, ao, n)
        elif op == E.COS:
            E.cos_fwd(vals, oo, ao, n)
        elif op == E.SUB:
            E.sub_fwd(vals, oo, ao, bo, n)
        elif op == E.DIV:
            E.div_fwd(vals, oo, ao, bo, n)
        elif op == E.EXP:
            E.exp_fwd(vals, oo, ao, n)
        elif op == E.LOG:
            E.log_fwd(vals, oo, ao, n)
        elif op == E.LOG2:
            E.log2_fwd(vals, oo, ao, n)
        elif op == E.TANH:
            E.tanh_fwd(vals, oo, ao, n)
        elif op == E.SIGMOID:
            E.sigmoid_fwd(vals, oo, ao, n)
        elif op == E.RELU:
            E.relu_fwd(vals, oo, ao, n)
        elif op == E.POW_C:
            E.pow_c_fwd(vals, oo, ao, consts[k], n)
        elif op == E.DIV_C:
            E.div_c_fwd(vals, oo, ao, consts[k], n)
        elif op == E.RSUB_C:
            E.rsub_c_fwd(vals, oo, ao, consts[k], n)
        elif op == E.NEG:
            E.neg_fwd(vals, oo, ao, n)
        elif op == E.RDIV_C:
            E.rdiv_c_fwd(vals, oo, ao, consts[k], n)
        elif op == E.POW:
            E.pow_fwd(vals, oo, ao, bo, n)
        elif op == E.RPOW_C:
            E.rpow_c_fwd(vals, oo, ao, consts[k], n)
        elif op == E.ABS:
            E.abs_fwd(vals, oo, ao, n)
        elif op == E.LOG1P:
            E.log1p_fwd(vals, oo, ao, n)
        elif op == E.EXPM1:
            E.expm1_fwd(vals, oo, ao, n)
        elif op == E.SQRT:
            E.sqrt_fwd(vals, oo, ao, n)
        elif op == E.TAN:
            E.tan_fwd(vals, oo, ao, n)
        elif op == R.SUM:
            R.sum_fwd(vals, oo, ao, na, 1.0, uw)
        elif op == R.MEAN:
            R.sum_fwd(vals, oo, ao, na, 1.0 / na, uw)
        elif op == R.SUM_DIM:
            R.sum_dim_fwd(vals, meta, oo, ao, na, ne, k, 1.0, uw)
        elif op == R.MEAN_DIM:
            R.sum_dim_fwd(vals, meta, oo, ao, na, ne, k, ne / na, uw)
        elif op == T.EXPAND:
            T.strided_fwd(vals, meta, oo, ao, ne, k, uw)
        elif op == T.BCAST:
            T.bcast_fwd(vals, meta, oo, ao, bo, ne, k, uw)
        elif op == T.SQSUM:
            nx, uf, us, kb = T.sq_operands(offs, meta, a, b, k, uw)
            T.sqsum_fwd(vals, meta, oo, ao, bo, b >= 0, nx, ne, k + 1, uw, uf, us, kb)
        elif op == T.STRIDED:
            T.strided_fwd(vals, meta, oo, ao, ne, k + 1, uw)
        elif op == S.GATHER:
            S.gather_fwd(vals, meta, oo, ao, ne, k, uw)
        elif op == S.SCATTER:
            S.scatter_fwd(vals, meta, oo, ao, na, ne, k, uw)
        elif op == S.PUT:
            S.put_fwd(vals, meta, oo, ao, bo, ne, k, uw)
        elif op == S.CAT or op == S.STACK:
            S.cat_fwd(vals, offs, meta, oo, k, uw)
        elif op == S.MASKED_FILL or op == S.MASKED_FILL_T:
            S.masked_fill_fwd(vals, oo, ao, bo, consts[k], n)
        elif op == L.MM or op == L.MV or op == L.DOT or op == L.BMM:
            L.matmul_fwd(vals, meta, oo, ao, bo, k, uw)
        elif op == L.LINEAR or op == L.ADDMM:
            L.linear_fwd(vals, offs, meta, oo, ao, bo, k, uw)
        elif op == N.LSTM_CELL:
            N.lstm_cell_fwd(vals, offs, meta, oo, ao, bo, k, uw)
        elif op == N.LSTM_H:
            N.lstm_h_fwd(vals, offs, meta, oo, ao, bo, k, uw)
        elif op == N.GRU_CELL:
            N.gru_cell_fwd(vals, offs, meta, oo, ao, bo, k, uw)
        elif op == E.WHERE:
            E.where_fwd(vals, oo, ao, bo, np.uint64(offs[k]) * uw, n)
        elif op == E.MAXIMUM:
            E.maximum_fwd(vals, oo, ao, bo, n, 1.0)
        elif op == E.MINIMUM:
            E.maximum_fwd(vals, oo, ao, bo, n, -1.0)
        elif op == E.CLAMP:
            E.clamp_fwd(vals, oo, ao, consts[k], consts[k + 1], n)
        elif op == E.SIGN:
            E.sign_fwd(vals, oo, ao, n)
        elif op == E.FLOOR:
            E.floor_fwd(vals, oo, ao, n)
        elif op == E.CEIL:
            E.ceil_fwd(vals, oo, ao, n)
        elif op == E.ROUND:
            E.round_fwd(vals, oo, ao, n)
        elif op == E.ROUND_DEC:
            E.round_dec_fwd(vals, oo, ao, consts[k], n)
        elif op == E.ATAN2:
            E.atan2_fwd(vals, oo, ao, bo, n)
        elif op == E.ASIN:
            E.asin_fwd(vals, oo, ao, n)
        elif op == E.ACOS:
            E.acos_fwd(vals, oo, ao, n)
        elif op == E.ATAN:
            E.atan_fwd(vals, oo, ao, n)
        elif op == E.SINH:
            E.sinh_fwd(vals, oo, ao, n)
        elif op == E.COSH:
            E.cosh_fwd(vals, oo, ao, n)
        elif op == E.ERF:
            E.erf_fwd(vals, oo, ao, n)
        elif op == E.SOFTPLUS:
            E.softplus_fwd(vals, oo, ao, consts[k], consts[k + 1], n)
        elif op == E.LOG_SIGMOID:
            E.log_sigmoid_fwd(vals, oo, ao, n)
        elif op == R.PROD or op == R.PROD_DIM:
            R.prod_fwd(vals, meta, oo, ao, na, ne, k, uw)
        elif op == R.MAX or op == R.MAX_DIM or op == R.AMAX:
            R.extreme_fwd(vals, meta, oo, ao, na, ne, k, 1.0, uw)
        elif op == R.MIN or op == R.MIN_DIM or op == R.AMIN:
            R.extreme_fwd(vals, meta, oo, ao, na, ne, k, -1.0, uw)
        elif op == R.ARGMAX or op == R.ARGMIN:
            R.arg_extreme_fwd(vals, meta, oo, ao, na, ne, k, 1.0 if op == R.ARGMAX else -1.0, uw)
        elif op == R.LOGSUMEXP:
            R.logsumexp_fwd(vals, meta, oo, ao, na, ne, k, uw)
        elif op == N.LOG_SOFTMAX:
            N.log_softmax_fwd(vals, meta, oo, ao, k, uw)
        elif op == N.NLL:
            N.nll_fwd(vals, meta, oo, ao, k, uw)
        elif op == N.SOFTMAX:
            N.softmax_fwd(vals, meta, oo, ao, k, uw)
        elif op == R.NORM:
            R.norm_fwd(vals, meta, oo, ao, na, ne, k + 1, consts[meta[k]], uw)
        elif op == R.VAR or op == R.STD:
            R.var_fwd(vals, meta, oo, ao, na, ne, k + 1, consts[meta[k]], op == R.STD, uw)
        elif op == R.CUMSUM:
            R.cumsum_fwd(vals, meta, oo, ao, ne, k, uw)
        elif op == C.CMP:
            C.cmp_fwd(vals, oo, ao, bo, n, k)
        elif op == C.CMP_C:
            C.cmp_c_fwd(vals, oo, ao, consts[meta[k + 1]], n, meta[k])
        elif op == C.STOP_GRAD:
            C.stop_grad_fwd(vals, oo, ao, n)
        else:
            return r
    return -1


@njit
def _tangent_sweep(rows, offs, vals, tan, consts, meta, reach, start, stop, w):
    """Forward mode: rows ``start .. stop-1`` in order, each row's tangent rule setting
    ``tan[out] = J tan[in]`` where some input carries a tangent (``reach``; ``tan`` starts
    zeroed, so an input without one contributes nothing).  Returns -1, or the row it cannot
    run (no tangent rule, a custom op whose jvp is Python's, a link to an older tape)."""
    for r in range(start, stop):
        o = rows[r, 1]
        if o < 0:  # guard rows
            continue
        op = rows[r, 0] & (FREED - 1)
        a = rows[r, 2]
        b = rows[r, 3]
        k = rows[r, 4]
        # (cat's, addmm's and the cells' inputs sit in meta too: those rows always run)
        if op != S.CAT and op != S.STACK and op != L.ADDMM and op != U.CUSTOM and \
                op != N.LSTM_CELL and op != N.LSTM_H and op != N.GRU_CELL and \
                not (reach[a] or (b >= 0 and reach[b])):
            continue
        reach[o] = 1
        uw, ne, na, n, oo, ao, bo = _spans(offs, o, a, b, w)
        if op == E.MUL:
            E.mul_tan(tan, vals, oo, ao, bo, n)
        elif op == E.ADD:
            E.add_fwd(tan, oo, ao, bo, n)
        elif op == E.SUB:
            E.sub_fwd(tan, oo, ao, bo, n)
        elif op == E.MUL_C:
            E.mul_c_fwd(tan, oo, ao, consts[k], n)
        elif op == E.MUL_S:
            rn, rw = E.repeats(offs, a, b, k, ne, uw)
            E.mul_s_tan(tan, vals, oo, ao, bo, rn, rw, k)
        elif op == E.ADD_S or op == E.SUB_S:
            rn, rw = E.repeats(offs, a, b, k, ne, uw)
            E.add_s_tan(tan, oo, ao, bo, rn, rw, k, -1.0 if op == E.SUB_S else 1.0)
        elif op == E.DIV_C:
            E.div_c_fwd(tan, oo, ao, consts[k], n)
        elif op == E.ADD_C or op == E.SUB_C or op == S.VIEW:
            E.pass_tan(tan, oo, ao, n)
        elif op == E.RSUB_C or op == E.NEG:
            E.neg_tan(tan, oo, ao, n)
        elif op == E.DIV:
            E.div_tan(tan, vals, oo, ao, bo, n)
        elif op == E.RDIV_C:
            E.rdiv_c_tan(tan, vals, oo, ao, n)
        elif op == E.POW:
            E.pow_tan(tan, vals, oo, ao, bo, n)
        elif op == E.POW_C:
            E.pow_c_tan(tan, vals, oo, ao, consts[k], n)
        elif op == E.RPOW_C:
            E.rpow_c_tan(tan, vals, oo, ao, consts[k], n)
        elif op == E.SIN:
            E.sin_tan(tan, vals, oo, ao, n)
        elif op == E.COS:
            E.cos_tan(tan, vals, oo, ao, n)
        elif op == E.EXP:
            E.exp_tan(tan, vals, oo, ao, n)
        elif op == E.LOG:
            E.log_tan(tan, vals, oo, ao, n)
        elif op == E.LOG2:
            E.log2_tan(tan, vals, oo, ao, n)
        elif op == E.TANH:
            E.tanh_tan(tan, vals, oo, ao, n)
        elif op == E.SIGMOID:
            E.sigmoid_tan(tan, vals, oo, ao, n)
        elif op == E.RELU:
            E.relu_tan(tan, vals, oo, ao, n)
        elif op == E.ABS:
            E.abs_tan(tan, vals, oo, ao, n)
        elif op == E.LOG1P:
            E.log1p_tan(tan, vals, oo, ao, n)
        elif op == E.EXPM1:
            E.expm1_tan(tan, vals, oo, ao, n)
        elif op == E.SQRT:
            E.sqrt_tan(tan, vals, oo, ao, n)
        elif op == E.TAN:
            E.tan_tan(tan, vals, oo, ao, n)
        elif op == R.SUM:
            R.sum_fwd(tan, oo, ao, na, 1.0, uw)
        elif op == R.MEAN:
            R.sum_fwd(tan, oo, ao, na, 1.0 / na, uw)
        elif op == R.SUM_DIM:
            R.sum_dim_fwd(tan, meta, oo, ao, na, ne, k, 1.0, uw)
        elif op == R.MEAN_DIM:
            R.sum_dim_fwd(tan, meta, oo, ao, na, ne, k, ne / na, uw)
        elif op == T.EXPAND:
            T.strided_fwd(tan, meta, oo, ao, ne, k, uw)
        elif op == T.STRIDED:
            T.strided_fwd(tan, meta, oo, ao, ne, k + 1, uw)
        elif op == S.GATHER:
            S.gather_fwd(tan, meta, oo, ao, ne, k, uw)
        elif op == S.SCATTER:
            S.scatter_fwd(tan, meta, oo, ao, na, ne, k, uw)
        elif op == S.PUT:
            S.put_fwd(tan, meta, oo, ao, bo, ne, k, uw)
        elif op == S.CAT or op == S.STACK:
            S.cat_fwd(tan, offs, meta, oo, k, uw)
        elif op == S.MASKED_FILL or op == S.MASKED_FILL_T:
            S.masked_fill_tan(tan, vals, oo, ao, bo, n)
        elif op == L.MM or op == L.MV or op == L.DOT or op == L.BMM:
            L.matmul_tan(tan, vals, meta, oo, ao, bo, k, uw)
        elif op == L.LINEAR or op == L.ADDMM:
            L.linear_tan(tan, vals, offs, meta, oo, ao, bo, k, uw)
        elif op == N.LSTM_CELL:
            N.lstm_cell_tan(tan, vals, offs, meta, oo, ao, bo, k, uw)
        elif op == N.LSTM_H:
            N.lstm_h_tan(tan, vals, offs, meta, oo, ao, bo, k, uw)
        elif op == N.GRU_CELL:
            N.gru_cell_tan(tan, vals, offs, meta, oo, ao, bo, k, uw)
        elif op == E.WHERE:
            E.where_tan(tan, vals, oo, ao, bo, np.uint64(offs[k]) * uw, n)
        elif op == E.MAXIMUM:
            E.maximum_tan(tan, vals, oo, ao, bo, n, 1.0)
        elif op == E.MINIMUM:
            E.maximum_tan(tan, vals, oo, ao, bo, n, -1.0)
        elif op == E.CLAMP:
            E.clamp_tan(tan, vals, oo, ao, consts[k], consts[k + 1], n)
        elif op == E.ATAN2:
            E.atan2_tan(tan, vals, oo, ao, bo, n)
        elif op == E.ASIN:
            E.asin_tan(tan, vals, oo, ao, n)
        elif op == E.ACOS:
            E.acos_tan(tan, vals, oo, ao, n)
        elif op == E.ATAN:
            E.atan_tan(tan, vals, oo, ao, n)
        elif op == E.SINH:
            E.sinh_tan(tan, vals, oo, ao, n)
        elif op == E.COSH:
            E.cosh_tan(tan, vals, oo, ao, n)
        elif op == E.ERF:
            E.erf_tan(tan, vals, oo, ao, n)
        elif op == E.SOFTPLUS:
            E.softplus_tan(tan, vals, oo, ao, consts[k], consts[k + 1], n)
        elif op == E.LOG_SIGMOID:
            E.log_sigmoid_tan(tan, vals, oo, ao, n)
        elif op == R.CUMSUM:
            R.cumsum_fwd(tan, meta, oo, ao, ne, k, uw)
        elif op == R.PROD or op == R.PROD_DIM:
            R.prod_tan(tan, vals, meta, oo, ao, na, ne, k, uw)
        elif op == R.MAX or op == R.MIN:
            R.extreme_tan(tan, vals, meta, oo, ao, na, ne, k, R.MAX_ALL, uw)
        elif op == R.MAX_DIM or op == R.MIN_DIM:
            R.extreme_tan(tan, vals, meta, oo, ao, na, ne, k, R.MAX_INDEX, uw)
        elif op == R.AMAX or op == R.AMIN:
            R.extreme_tan(tan, vals, meta, oo, ao, na, ne, k, R.MAX_AMAX, uw)
        elif op == R.LOGSUMEXP:
            R.logsumexp_tan(tan, vals, meta, oo, ao, na, ne, k, uw)
        elif op == R.NORM:
            R.norm_tan(tan, vals, meta, oo, ao, na, ne, k + 1, consts[meta[k]], uw)
        elif op == R.VAR or op == R.STD:
            R.var_tan(tan, vals, meta, oo, ao, na, ne, k + 1, consts[meta[k]], op == R.STD, uw)
        elif op == N.LOG_SOFTMAX or op == N.SOFTMAX:
            N.softmax_tan(tan, vals, meta, oo, ao, k, uw, op == N.LOG_SOFTMAX)
        elif op == N.NLL:
            N.nll_fwd(tan, meta, oo, ao, k, uw)
        elif op == E.SIGN or op == E.FLOOR or op == E.CEIL or op == E.ROUND or \
                op == E.ROUND_DEC or op == R.ARGMAX or op == R.ARGMIN or op == C.CMP or \
                op == C.CMP_C or op == C.STOP_GRAD:
            reach[o] = 0  # piecewise constant, or detached: no tangent
        else:
            reach[o] = 0
            return r
    return -1


@njit
def _hvp_sweep(rows, offs, vals, tan, consts, meta, adj, tadj, reach, treach, start, stop, w):
    """Forward over reverse: the reverse sweep of rows ``stop-1 .. start`` into ``adj`` and,
    row by row beside it, its tangent into ``tadj``: the same reverse rule run on ``tadj``
    (the tangent of the output adjoint) plus the op's second-order part, which reads the
    forward tangents ``tan`` (``_tangent_sweep``'s).  ``tadj`` of an input is then the
    Hessian-vector product.  Returns -1, or the row it cannot run (no rule)."""
    for r in range(stop - 1, start - 1, -1):
        o = rows[r, 1]
        if o < 0 or reach[o] == 0:
            continue
        if _reverse_sweep(rows, offs, vals, consts, meta, adj, reach, r, r + 1, w) >= 0:
            return r
        _reverse_sweep(rows, offs, vals, consts, meta, tadj, treach, r, r + 1, w)
        op = rows[r, 0] & (FREED - 1)
        a = rows[r, 2]
        b = rows[r, 3]
        k = rows[r, 4]
        uw, ne, na, n, oo, ao, bo = _spans(offs, o, a, b, w)
        if op == E.MUL:
            E.mul_curv(tadj, adj, vals, tan, oo, ao, bo, n)
        elif op == E.MUL_S:
            rn, rw = E.repeats(offs, a, b, k, ne, uw)
            E.mul_s_curv(tadj, adj, vals, tan, oo, ao, bo, rn, rw, k)
        elif op == E.ADD or op == E.ADD_S or op == E.SUB or op == E.SUB_S or op == E.MUL_C or \
                op == E.DIV_C or op == E.ADD_C or op == E.SUB_C or op == S.VIEW or \
                op == E.RSUB_C or op == E.NEG or op == R.SUM or op == R.MEAN or \
                op == R.SUM_DIM or op == R.MEAN_DIM or \
                op == T.EXPAND or op == T.STRIDED or op == S.GATHER or op == S.SCATTER or \
                op == S.PUT or op == S.CAT or op == S.STACK or op == R.CUMSUM or op == N.NLL:
            pass  # linear: no second-order part
        elif op == R.MAX or op == R.MIN or op == R.MAX_DIM or op == R.MIN_DIM or \
                op == R.AMAX or op == R.AMIN:
            pass  # piecewise linear
        elif op == E.RELU or op == E.ABS or op == E.MAXIMUM or op == E.MINIMUM or \
                op == E.CLAMP or op == E.WHERE or op == S.MASKED_FILL or \
                op == S.MASKED_FILL_T or op == E.SIGN or op == E.FLOOR or op == E.CEIL or \
                op == E.ROUND or op == E.ROUND_DEC or op == R.ARGMAX or op == R.ARGMIN or \
                op == C.CMP or op == C.CMP_C or op == C.STOP_GRAD:
            pass  # piecewise linear or constant: none either
        elif op == E.DIV:
            E.div_curv(tadj, adj, vals, tan, oo, ao, bo, n)
        elif op == R.LOGSUMEXP:
            R.logsumexp_curv(tadj, adj, vals, tan, meta, oo, ao, na, k, uw)
        elif op == N.LOG_SOFTMAX or op == N.SOFTMAX:
            N.softmax_curv(tadj, adj, vals, tan, meta, oo, ao, k, uw, op == N.LOG_SOFTMAX)
        elif op == L.MM or op == L.MV or op == L.DOT or op == L.BMM:
            L.matmul_curv(tadj, adj, tan, meta, oo, ao, bo, k, uw)
        elif op == L.LINEAR or op == L.ADDMM:
            L.linear_curv(tadj, adj, tan, meta, oo, ao, bo, k, uw)
        elif op == E.POW_C:
            E.pow_c_curv(tadj, adj, vals, tan, oo, ao, consts[k], n)
        elif op == E.RDIV_C:
            E.rdiv_c_curv(tadj, adj, vals, tan, oo, ao, n)
        elif op == E.RPOW_C:
            E.rpow_c_curv(tadj, adj, vals, tan, oo, ao, consts[k], n)
        elif op == E.EXP:
            E.exp_curv(tadj, adj, vals, tan, oo, ao, n)
        elif op == E.LOG:
            E.log_curv(tadj, adj, vals, tan, oo, ao, n)
        elif op == E.LOG2:
            E.log2_curv(tadj, adj, vals, tan, oo, ao, n)
        elif op == E.LOG1P:
            E.log1p_curv(tadj, adj, vals, tan, oo, ao, n)
        elif op == E.EXPM1:
            E.expm1_curv(tadj, adj, vals, tan, oo, ao, n)
        elif op == E.SQRT:
            E.sqrt_curv(tadj, adj, vals, tan, oo, ao, n)
        elif op == E.SIN:
            E.sin_curv(tadj, adj, vals, tan, oo, ao, n)
        elif op == E.COS:
            E.cos_curv(tadj, adj, vals, tan, oo, ao, n)
        elif op == E.TAN:
            E.tan_curv(tadj, adj, vals, tan, oo, ao, n)
        elif op == E.TANH:
            E.tanh_curv(tadj, adj, vals, tan, oo, ao, n)
        elif op == E.SIGMOID:
            E.sigmoid_curv(tadj, adj, vals, tan, oo, ao, n)
        elif op == E.ATAN:
            E.atan_curv(tadj, adj, vals, tan, oo, ao, n)
        elif op == E.SINH:
            E.sinh_curv(tadj, adj, vals, tan, oo, ao, n)
        elif op == E.COSH:
            E.cosh_curv(tadj, adj, vals, tan, oo, ao, n)
        elif op == E.ASIN:
            E.asin_curv(tadj, adj, vals, tan, oo, ao, n)
        elif op == E.ACOS:
            E.acos_curv(tadj, adj, vals, tan, oo, ao, n)
        elif op == E.ERF:
            E.erf_curv(tadj, adj, vals, tan, oo, ao, n)
        elif op == E.SOFTPLUS:
            E.softplus_curv(tadj, adj, vals, tan, oo, ao, consts[k], consts[k + 1], n)
        elif op == E.LOG_SIGMOID:
            E.log_sigmoid_curv(tadj, adj, vals, tan, oo, ao, n)
        else:
            return r
    return -1


@rule
def _move_points(P, arena, in_elems, b0, w, load):
    """Points b0..b0+w-1 between P (point-major: X, or G) and the op-major arena: column
    c is arena element ``in_elems[c]``.  ``load``: P into the arena; else the arena into P.
    Column by column, so the arena side is one contiguous run per column, in tiles of 256
    points so the P lines a column touches stay in L1 (measured 1.2-1.4x faster than
    the former point-by-point / 8-point-tile loops at 100 columns x 32 points, 10 x 256
    and 1000 x 8)."""
    m = np.uint64(P.shape[1])
    uw = np.uint64(w)
    Pf = P.reshape(-1)
    q0 = np.uint64(b0) * m
    for p0 in range(np.uint64(0), uw, np.uint64(256)):
        p1 = min(p0 + np.uint64(256), uw)
        for c in range(m):
            e = np.uint64(in_elems[c]) * uw
            if load:
                for p in range(p0, p1):
                    arena[e + p] = Pf[q0 + p * m + c]
            else:
                for p in range(p0, p1):
                    Pf[q0 + p * m + c] = arena[e + p]


LAZY_VALUES = 1 << 16  # adjoints of a block from which replay zeroes them slot by slot


@rule
def _shared_slots(offs):
    """The plan's slots (even numbers: replay's ``_Plan``) whose span overlaps another's: a
    slice aliasing a run of its source, and that source.  Their adjoints are zeroed and
    reached before a lazy sweep (``_lazy_reach``): zeroing one on first touch would wipe
    what the other holds."""
    ns = (len(offs) - 1) // 2
    starts = np.empty(ns, np.int64)
    for s in range(ns):
        starts[s] = offs[2 * s]
    order = np.argsort(starts)
    shared = np.zeros(ns, np.bool_)
    end = np.int64(-1)  # the furthest end of the slots before, and whose it is
    last = np.int64(-1)
    for s in order:
        if offs[2 * s + 1] == offs[2 * s]:
            continue
        if offs[2 * s] < end:
            shared[s] = True
            shared[last] = True
        if offs[2 * s + 1] > end:
            end = offs[2 * s + 1]
            last = s
    return 2 * np.nonzero(shared)[0]


@rule
def _zero_span(adj, offs, s, w):
    for i in range(_u(offs[s]) * _u(w), _u(offs[s + 1]) * _u(w)):
        adj[i] = 0.0


@rule
def _lazy_reach(adj, reach, offs, shared, fill, in_elems, out_elems, w):
    """A block's reverse sweep over a large arena (LAZY_VALUES) without zeroing every
    adjoint first: as in an eager sweep, a slot's adjoints are zeroed when a row first
    reaches it (in cache), or written by that row (_writes_once, one point); a whole pass
    over the arena was ~7% of ADBench GMM's gradient at d = 10, K = 25 (2.1M values).
    Reached beforehand: the shared slots and the output's, zeroed; the inputs' elements
    are zeroed (an input no row reaches has a zero gradient)."""
    reach[:] = 0
    for s in shared:
        _zero_span(adj, offs, s, w)
        reach[s] = 1
    if len(out_elems) > 0:
        lo = out_elems.min()
        hi = out_elems.max() + 1
        for s in range(0, len(offs) - 1, 2):
            if offs[s] < hi and offs[s + 1] > lo and offs[s + 1] > offs[s]:
                _zero_span(adj, offs, s, w)
                reach[s] = 1
    for s in fill:
        reach[s] = CONST
    for e in in_elems:
        for p in range(_u(e) * _u(w), _u(e + 1) * _u(w)):
            adj[p] = 0.0


@njit
def _replay_blocks(fwd, rev, offs, vals0, consts, meta, fill, in_elems, out_slot, X, V, G,
                   bad, block, first, last, vals_buf, adj_buf, filled):
    """Value (and, if G has rows, gradient) at rows of X, blocks ``first..last-1`` of
    ``block`` points each.  Threads run disjoint block ranges (nogil): batch replay.

    The tape comes as replay's plan (tapegrad/replay): ``fwd`` rows run forward, ``rev``
    (the rows the output reaches) backward; a slot may alias part of another one (a
    contiguous slice).
    Slots in ``fill`` (constants) are filled from ``vals0``; X is (B, m): column c is
    arena element ``in_elems[c]``; V (B,) gets the value of the size-1 slot ``out_slot``;
    G (B, m) its gradient; bad (B,) 1 + the first diverging guard, or 0.  Within a block
    the arena is op-major (w points per element).  ``vals_buf`` and ``adj_buf`` hold at
    least ``len(vals0) * block`` values (the caller's, reused between calls); ``filled``: the
    w whose constants vals_buf holds already (the caller's last call of this plan with
    these buffers: no row writes a constant), or 0.  Returns -1,
    a reverse row that could not run, or ``-2 - r`` for a forward row r that could not.

    The scalar case of ``_seeded_blocks``: one output element, seeded by 1.
    """
    out = np.empty(1, np.int64)
    out[0] = offs[out_slot]
    seeds = np.ones((1, 1 if G.shape[0] > 0 else 0, 1))
    return _seeded_blocks(fwd, rev, offs, vals0, consts, meta, fill, in_elems, out, X, seeds,
                          V.reshape((len(V), 1)), G.reshape((G.shape[0], 1, G.shape[1])),
                          bad, block, first, last, vals_buf, vals_buf, adj_buf, filled)


@njit
def _seeded_blocks(fwd, rev, offs, vals0, consts, meta, fill, in_elems, out_elems, X, U, V, G,
                   bad, block, first, last, vals_buf, wide_buf, adj_buf, filled):
    """Values of a vector output and k vector-Jacobian products per point, blocks
    ``first..last-1`` of ``block`` points: ``_replay_blocks`` with the output's m elements
    (arena elements ``out_elems``) seeded by the rows of U (k, m) instead of a 1.

    U is (B, k, m), or (1, k, m) for the same seeds at every point (k = m, the identity:
    the Jacobian).  V (B, m) gets the output, G (B, k, n) row j of U times the Jacobian;
    k = 0 runs the forward only.  One forward per block at w points, then (k > 1) its
    values are copied k times side by side (lane p * k + j) and ONE reverse sweep at
    w * k lanes runs the k seeds together: a row is dispatched once for all of them.
    ``wide_buf`` (k > 1) and ``adj_buf`` hold at least ``len(vals0) * block * k`` values.
    Returns as ``_replay_blocks`` does.
    """
    B = X.shape[0]
    nv = len(vals0)
    m = len(out_elems)
    k = U.shape[1]
    each = U.shape[0] > 1  # seeds per point, or one set for all
    G2 = G.reshape((G.shape[0] * k, G.shape[2]))  # row b * k + j: lane j of point b
    reach = np.ones(len(offs) - 1, np.uint8)  # rev holds only reached rows
    for s in fill:  # constants: rules that check skip their adjoints (mul's, sub's)
        reach[s] = CONST
    lazy = nv * min(block, B) * k >= LAZY_VALUES
    shared = _shared_slots(offs) if lazy else fill[:0]
    flags = np.empty(block, np.int64)
    # row 0 as an int64, not the literal 0: a literal argument types as Literal[int](0) and
    # Numba would compile both interpreters once more for it (~40 s each, cold)
    row0 = np.int64(0)
    # (filled: the w the constants are laid out for)
    for blk in range(first, last):
        b0 = blk * block
        w = min(block, B - b0)
        vals = vals_buf[:nv * w]
        if w != filled:
            for s in fill:
                if w == 1:  # (one point: a slice copy, not a loop over w)
                    vals[offs[s]:offs[s + 1]] = vals0[offs[s]:offs[s + 1]]
                    continue
                for e in range(offs[s], offs[s + 1]):
                    for p in range(w):
                        vals[e * w + p] = vals0[e]
            filled = w
        _move_points(X, vals, in_elems, b0, w, True)
        flags[:w] = 0
        r = _forward_replay(fwd, offs, vals, consts, meta, row0, len(fwd), w, flags)
        if r >= 0:
            return -2 - r
        for p in range(w):
            bad[b0 + p] = flags[p]
        for i in range(m):
            e = out_elems[i] * w
            for p in range(w):
                V[b0 + p, i] = vals[e + p]
        if k == 0:
            continue
        lanes = w * k
        wide = vals
        if k > 1:
            wide = wide_buf[:nv * lanes]
            for e in range(nv):
                for p in range(w):
                    v = vals[e * w + p]
                    for j in range(k):
                        wide[e * lanes + p * k + j] = v
        adj = adj_buf[:nv * lanes]
        if lazy:
            _lazy_reach(adj, reach, offs, shared, fill, in_elems, out_elems, lanes)
        else:
            adj[:] = 0.0  # one pass: measured faster than zeroing each span after its row
        for i in range(m):
            e = out_elems[i] * lanes
            for p in range(w):
                q = b0 + p if each else 0
                for j in range(k):
                    adj[e + p * k + j] = U[q, j, i]
        r = _reverse_sweep(rev, offs, wide, consts, meta, adj, reach, row0, len(rev), lanes)
        if r >= 0:
            return r
        _move_points(G2, adj, in_elems, b0 * k, lanes, False)
    return -1



KERNELS = (_reverse_sweep, _free_swept, _spans_of_slots, _needed_slots, _forward_replay,
           _replay_blocks, _seeded_blocks, _tangent_sweep, _hvp_sweep)
stamp_together(*KERNELS)  # (their cache checked, and stamped, when first used)
