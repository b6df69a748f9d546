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
"""
import numpy as np

from ._jit import ensure_fresh, njit, rule
from .ops.elementwise import (
    ABS, ADD, ADD_C, COS, DIV, DIV_C, EXP, EXPM1, LOG, LOG1P, MUL, MUL_C, NEG, POW, POW_C,
    RDIV_C, RELU, RPOW_C, RSUB_C, SIGMOID, SIN, SQRT, SUB, SUB_C, TAN, TANH, abs_fwd,
    abs_rev, add_c_fwd, add_fwd, add_rev, cos_fwd, cos_rev, div_c_fwd, div_c_rev, div_fwd,
    div_rev, exp_fwd, exp_rev, expm1_fwd, expm1_rev, log1p_fwd, log1p_rev, log_fwd, log_rev,
    mul_c_fwd, mul_c_rev, mul_fwd, mul_rev, neg_fwd, neg_rev, pass_rev, pow_c_fwd, pow_c_rev,
    pow_fwd, pow_rev, rdiv_c_fwd, rdiv_c_rev, relu_fwd, relu_rev, rpow_c_fwd, rpow_c_rev,
    rsub_c_fwd, sigmoid_fwd, sigmoid_rev, sin_fwd, sin_rev, sqrt_fwd, sqrt_rev, sub_c_fwd,
    sub_fwd, sub_rev, tan_fwd, tan_rev, tanh_fwd, tanh_rev)
from .ops.custom import CUSTOM_OUT
from .ops.control import (
    CMP, CMP_C, GUARD, GUARD_EQ, cmp_c_fwd, cmp_fwd, guard_eq_fwd, guard_fwd)
from .ops.reductions import (
    MEAN, MEAN_DIM, SUM, SUM_DIM, sum_dim_fwd, sum_dim_rev, sum_fwd, sum_rev)
from .ops.shape import (
    CAT, EXPAND, GATHER, MASKED_FILL, MASKED_FILL_T, SCATTER, STACK, STRIDED, VIEW, cat_fwd,
    cat_rev, expand_rev, gather_fwd, gather_rev, masked_fill_fwd, masked_fill_rev, reach_input,
    scatter_fwd, scatter_rev, strided_fwd, strided_rev)
from .ops.elementwise import (  # issue 3: elementwise
    ACOS, ASIN, ATAN, ATAN2, CEIL, CLAMP, COSH, ERF, FLOOR, LOG_SIGMOID, MAXIMUM, MINIMUM, ROUND,
    ROUND_DEC, SIGN, SINH, SOFTPLUS, WHERE, acos_fwd, acos_rev, asin_fwd, asin_rev, atan2_fwd,
    atan2_rev, atan_fwd, atan_rev, ceil_fwd, clamp_fwd, clamp_rev, cosh_fwd, cosh_rev, erf_fwd,
    erf_rev, floor_fwd, log_sigmoid_fwd, log_sigmoid_rev, maximum_fwd, maximum_rev, round_dec_fwd,
    round_fwd, sign_fwd, sinh_fwd, sinh_rev, softplus_fwd, softplus_rev, where_fwd, where_rev)
from .ops.linalg import BMM, DOT, MM, MV, matmul_fwd, matmul_rev
from .ops.linalg import ADDMM, LINEAR, linear_fwd, linear_rev
from .ops.reductions import (  # issue 3: reductions
    AMAX, AMIN, ARGMAX, ARGMIN, CUMSUM, LOGSUMEXP, MAX, MAX_ALL, MAX_AMAX, MAX_DIM, MAX_INDEX,
    MIN, MIN_DIM, NORM, PROD, PROD_DIM, STD, VAR, arg_extreme_fwd, cumsum_fwd, cumsum_rev,
    extreme_fwd, extreme_rev, logsumexp_fwd, logsumexp_rev, norm_fwd, norm_rev, prod_fwd,
    prod_rev, var_fwd, var_rev)
from .ops.reductions import (
    LOG_SOFTMAX, NLL, SOFTMAX, log_softmax_fwd, nll_fwd, nll_rev, softmax_fwd, softmax_rev)
from .tape import FREED


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


@njit
def _reverse_sweep(rows, offs, vals, consts, meta, adj, reach, start, stop, w):
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
        if op != LINEAR and op != ADDMM:  # (linear_rev reaches its inputs itself)
            if reach[a] == 0:  # (tested here: a call passing the arrays costs ~26 ns a row)
                reach_input(adj, reach, offs, a, w)
            if b >= 0 and reach[b] == 0:
                reach_input(adj, reach, offs, b, w)
        uw, ne, na, n, oo, ao, bo = _spans(offs, o, a, b, w)
        if op == MUL:
            mul_rev(adj, vals, oo, ao, bo, n)
        elif op == ADD:
            add_rev(adj, vals, oo, ao, bo, n)
        elif op == MUL_C:
            mul_c_rev(adj, oo, ao, consts[k], n)
        elif op == ADD_C or op == SUB_C or op == VIEW:
            pass_rev(adj, oo, ao, n)
        elif op == SIN:
            sin_rev(adj, vals, oo, ao, n)
        elif op == COS:
            cos_rev(adj, vals, oo, ao, n)
        elif op == SUB:
            sub_rev(adj, vals, oo, ao, bo, n)
        elif op == DIV:
            div_rev(adj, vals, oo, ao, bo, n)
        elif op == EXP:
            exp_rev(adj, vals, oo, ao, n)
        elif op == LOG:
            log_rev(adj, vals, oo, ao, n)
        elif op == TANH:
            tanh_rev(adj, vals, oo, ao, n)
        elif op == SIGMOID:
            sigmoid_rev(adj, vals, oo, ao, n)
        elif op == RELU:
            relu_rev(adj, vals, oo, ao, n)
        elif op == POW_C:
            pow_c_rev(adj, vals, oo, ao, consts[k], n)
        elif op == DIV_C:
            div_c_rev(adj, oo, ao, consts[k], n)
        elif op == RSUB_C or op == NEG:
            neg_rev(adj, oo, ao, n)
        elif op == RDIV_C:
            rdiv_c_rev(adj, vals, oo, ao, n)
        elif op == POW:
            pow_rev(adj, vals, oo, ao, bo, n)
        elif op == RPOW_C:
            rpow_c_rev(adj, vals, oo, ao, consts[k], n)
        elif op == ABS:
            abs_rev(adj, vals, oo, ao, n)
        elif op == LOG1P:
            log1p_rev(adj, vals, oo, ao, n)
        elif op == EXPM1:
            expm1_rev(adj, vals, oo, ao, n)
        elif op == SQRT:
            sqrt_rev(adj, vals, oo, ao, n)
        elif op == TAN:
            tan_rev(adj, vals, oo, ao, n)
        elif op == SUM:
            sum_rev(adj, oo, ao, na, 1.0, uw)
        elif op == MEAN:
            sum_rev(adj, oo, ao, na, 1.0 / na, uw)
        elif op == SUM_DIM:
            sum_dim_rev(adj, meta, oo, ao, na, k, 1.0, uw)
        elif op == MEAN_DIM:
            sum_dim_rev(adj, meta, oo, ao, na, k, ne / na, uw)
        elif op == EXPAND:
            expand_rev(adj, meta, oo, ao, ne, na, k, uw)
        elif op == STRIDED:
            strided_rev(adj, adj, meta, oo, ao, ne, k + 1, uw)
        elif op == GATHER:
            gather_rev(adj, meta, oo, ao, ne, k, uw)
        elif op == SCATTER:
            scatter_rev(adj, meta, oo, ao, na, k, uw)
        elif op == CAT or op == STACK:
            cat_rev(adj, reach, offs, meta, oo, k, uw)
        elif op == LINEAR or op == ADDMM:
            linear_rev(adj, reach, vals, offs, meta, o, a, b, k, w)
        elif op == MASKED_FILL or op == MASKED_FILL_T:
            masked_fill_rev(adj, vals, oo, ao, bo, n)
        elif op == MM or op == MV or op == DOT or op == BMM:
            matmul_rev(adj, vals, meta, oo, ao, bo, k, uw)
        elif op == WHERE:
            reach_input(adj, reach, offs, k, w)  # the condition: its rows are swept (freed) too
            where_rev(adj, vals, oo, ao, bo, np.uint64(offs[k]) * uw, n)
        elif op == MAXIMUM:
            maximum_rev(adj, vals, oo, ao, bo, n, 1.0)
        elif op == MINIMUM:
            maximum_rev(adj, vals, oo, ao, bo, n, -1.0)
        elif op == CLAMP:
            clamp_rev(adj, vals, oo, ao, consts[k], consts[k + 1], n)
        elif op == SIGN or op == FLOOR or op == CEIL or op == ROUND or op == ROUND_DEC:
            pass  # piecewise constant: zero gradient
        elif op == ATAN2:
            atan2_rev(adj, vals, oo, ao, bo, n)
        elif op == ASIN:
            asin_rev(adj, vals, oo, ao, n)
        elif op == ACOS:
            acos_rev(adj, vals, oo, ao, n)
        elif op == ATAN:
            atan_rev(adj, vals, oo, ao, n)
        elif op == SINH:
            sinh_rev(adj, vals, oo, ao, n)
        elif op == COSH:
            cosh_rev(adj, vals, oo, ao, n)
        elif op == ERF:
            erf_rev(adj, vals, oo, ao, n)
        elif op == SOFTPLUS:
            softplus_rev(adj, vals, oo, ao, consts[k], consts[k + 1], n)
        elif op == LOG_SIGMOID:
            log_sigmoid_rev(adj, vals, oo, ao, n)
        elif op == PROD or op == PROD_DIM:
            prod_rev(adj, vals, meta, oo, ao, na, ne, k, uw)
        elif op == MAX or op == MIN:
            extreme_rev(adj, vals, meta, oo, ao, na, ne, k, MAX_ALL, uw)
        elif op == MAX_DIM or op == MIN_DIM:
            extreme_rev(adj, vals, meta, oo, ao, na, ne, k, MAX_INDEX, uw)
        elif op == AMAX or op == AMIN:
            extreme_rev(adj, vals, meta, oo, ao, na, ne, k, MAX_AMAX, uw)
        elif op == ARGMAX or op == ARGMIN:
            pass  # an index: no gradient
        elif op == LOGSUMEXP:
            logsumexp_rev(adj, vals, meta, oo, ao, na, k, uw)
        elif op == LOG_SOFTMAX or op == SOFTMAX:
            softmax_rev(adj, vals, meta, oo, ao, k, uw, op == LOG_SOFTMAX)
        elif op == NLL:
            nll_rev(adj, meta, oo, ao, k, uw)
        elif op == NORM:
            norm_rev(adj, vals, meta, oo, ao, na, ne, k + 1, consts[meta[k]], uw)
        elif op == VAR or op == STD:
            var_rev(adj, vals, meta, oo, ao, na, ne, k + 1, consts[meta[k]], op == STD, uw)
        elif op == CUMSUM:
            cumsum_rev(adj, meta, oo, ao, ne, k, uw)
        elif op == CMP or op == CMP_C:
            pass  # piecewise constant: no gradient
        elif op == CUSTOM_OUT:
            pass  # marks its custom op's hub reached (in0); the op's backward runs in Python
        else:
            return r
    return -1


@njit
def _free_swept(rows, reach):
    """Mark every row the sweep went through as freed (after it succeeded); returns how
    many rows of the tape are freed now."""
    freed = 0
    for r in range(len(rows)):
        o = rows[r, 1]
        if o >= 0 and reach[o]:
            rows[r, 0] |= FREED
        if rows[r, 0] & FREED:
            freed += 1
    return freed


@njit
def _forward_replay(rows, offs, vals, consts, meta, start, stop, w, bad):
    for r in range(start, stop):
        op = rows[r, 0] & (FREED - 1)
        a = rows[r, 2]
        b = rows[r, 3]
        k = rows[r, 4]
        o = rows[r, 1]
        if o < 0:
            if op == GUARD:
                guard_fwd(vals, meta, offs[a] * w, k, w, bad)
            elif op == GUARD_EQ:
                guard_eq_fwd(vals, consts, meta, offs[a] * w, k, w, bad)
            else:
                return r
            continue
        uw, ne, na, n, oo, ao, bo = _spans(offs, o, a, b, w)
        if op == MUL:
            mul_fwd(vals, oo, ao, bo, n)
        elif op == ADD:
            add_fwd(vals, oo, ao, bo, n)
        elif op == MUL_C:
            mul_c_fwd(vals, oo, ao, consts[k], n)
        elif op == ADD_C:
            add_c_fwd(vals, oo, ao, consts[k], n)
        elif op == SUB_C:
            sub_c_fwd(vals, oo, ao, consts[k], n)
        elif op == VIEW:
            vals[oo:oo + n] = vals[ao:ao + n]
        elif op == SIN:
            sin_fwd(vals, oo, ao, n)
        elif op == COS:
            cos_fwd(vals, oo, ao, n)
        elif op == SUB:
            sub_fwd(vals, oo, ao, bo, n)
        elif op == DIV:
            div_fwd(vals, oo, ao, bo, n)
        elif op == EXP:
            exp_fwd(vals, oo, ao, n)
        elif op == LOG:
            log_fwd(vals, oo, ao, n)
        elif op == TANH:
            tanh_fwd(vals, oo, ao, n)
        elif op == SIGMOID:
            sigmoid_fwd(vals, oo, ao, n)
        elif op == RELU:
            relu_fwd(vals, oo, ao, n)
        elif op == POW_C:
            pow_c_fwd(vals, oo, ao, consts[k], n)
        elif op == DIV_C:
            div_c_fwd(vals, oo, ao, consts[k], n)
        elif op == RSUB_C:
            rsub_c_fwd(vals, oo, ao, consts[k], n)
        elif op == NEG:
            neg_fwd(vals, oo, ao, n)
        elif op == RDIV_C:
            rdiv_c_fwd(vals, oo, ao, consts[k], n)
        elif op == POW:
            pow_fwd(vals, oo, ao, bo, n)
        elif op == RPOW_C:
            rpow_c_fwd(vals, oo, ao, consts[k], n)
        elif op == ABS:
            abs_fwd(vals, oo, ao, n)
        elif op == LOG1P:
            log1p_fwd(vals, oo, ao, n)
        elif op == EXPM1:
            expm1_fwd(vals, oo, ao, n)
        elif op == SQRT:
            sqrt_fwd(vals, oo, ao, n)
        elif op == TAN:
            tan_fwd(vals, oo, ao, n)
        elif op == SUM:
            sum_fwd(vals, oo, ao, na, 1.0, uw)
        elif op == MEAN:
            sum_fwd(vals, oo, ao, na, 1.0 / na, uw)
        elif op == SUM_DIM:
            sum_dim_fwd(vals, meta, oo, ao, na, ne, k, 1.0, uw)
        elif op == MEAN_DIM:
            sum_dim_fwd(vals, meta, oo, ao, na, ne, k, ne / na, uw)
        elif op == EXPAND:
            strided_fwd(vals, meta, oo, ao, ne, k, uw)
        elif op == STRIDED:
            strided_fwd(vals, meta, oo, ao, ne, k + 1, uw)
        elif op == GATHER:
            gather_fwd(vals, meta, oo, ao, ne, k, uw)
        elif op == SCATTER:
            scatter_fwd(vals, meta, oo, ao, na, ne, k, uw)
        elif op == CAT or op == STACK:
            cat_fwd(vals, offs, meta, oo, k, uw)
        elif op == MASKED_FILL or op == MASKED_FILL_T:
            masked_fill_fwd(vals, oo, ao, bo, consts[k], n)
        elif op == MM or op == MV or op == DOT or op == BMM:
            matmul_fwd(vals, meta, oo, ao, bo, k, uw)
        elif op == LINEAR or op == ADDMM:
            linear_fwd(vals, offs, meta, oo, ao, bo, k, uw)
        elif op == WHERE:
            where_fwd(vals, oo, ao, bo, np.uint64(offs[k]) * uw, n)
        elif op == MAXIMUM:
            maximum_fwd(vals, oo, ao, bo, n, 1.0)
        elif op == MINIMUM:
            maximum_fwd(vals, oo, ao, bo, n, -1.0)
        elif op == CLAMP:
            clamp_fwd(vals, oo, ao, consts[k], consts[k + 1], n)
        elif op == SIGN:
            sign_fwd(vals, oo, ao, n)
        elif op == FLOOR:
            floor_fwd(vals, oo, ao, n)
        elif op == CEIL:
            ceil_fwd(vals, oo, ao, n)
        elif op == ROUND:
            round_fwd(vals, oo, ao, n)
        elif op == ROUND_DEC:
            round_dec_fwd(vals, oo, ao, consts[k], n)
        elif op == ATAN2:
            atan2_fwd(vals, oo, ao, bo, n)
        elif op == ASIN:
            asin_fwd(vals, oo, ao, n)
        elif op == ACOS:
            acos_fwd(vals, oo, ao, n)
        elif op == ATAN:
            atan_fwd(vals, oo, ao, n)
        elif op == SINH:
            sinh_fwd(vals, oo, ao, n)
        elif op == COSH:
            cosh_fwd(vals, oo, ao, n)
        elif op == ERF:
            erf_fwd(vals, oo, ao, n)
        elif op == SOFTPLUS:
            softplus_fwd(vals, oo, ao, consts[k], consts[k + 1], n)
        elif op == LOG_SIGMOID:
            log_sigmoid_fwd(vals, oo, ao, n)
        elif op == PROD or op == PROD_DIM:
            prod_fwd(vals, meta, oo, ao, na, ne, k, uw)
        elif op == MAX or op == MAX_DIM or op == AMAX:
            extreme_fwd(vals, meta, oo, ao, na, ne, k, 1.0, uw)
        elif op == MIN or op == MIN_DIM or op == AMIN:
            extreme_fwd(vals, meta, oo, ao, na, ne, k, -1.0, uw)
        elif op == ARGMAX or op == ARGMIN:
            arg_extreme_fwd(vals, meta, oo, ao, na, ne, k, 1.0 if op == ARGMAX else -1.0, uw)
        elif op == LOGSUMEXP:
            logsumexp_fwd(vals, meta, oo, ao, na, ne, k, uw)
        elif op == LOG_SOFTMAX:
            log_softmax_fwd(vals, meta, oo, ao, k, uw)
        elif op == NLL:
            nll_fwd(vals, meta, oo, ao, k, uw)
        elif op == SOFTMAX:
            softmax_fwd(vals, meta, oo, ao, k, uw)
        elif op == NORM:
            norm_fwd(vals, meta, oo, ao, na, ne, k + 1, consts[meta[k]], uw)
        elif op == VAR or op == STD:
            var_fwd(vals, meta, oo, ao, na, ne, k + 1, consts[meta[k]], op == STD, uw)
        elif op == CUMSUM:
            cumsum_fwd(vals, meta, oo, ao, ne, k, uw)
        elif op == CMP:
            cmp_fwd(vals, oo, ao, bo, n, k)
        elif op == CMP_C:
            cmp_c_fwd(vals, oo, ao, consts[meta[k + 1]], n, meta[k])
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


@njit
def _replay_blocks(fwd, rev, offs, vals0, consts, meta, fill, in_elems, out_slot, X, V, G,
                   bad, block, first, last, vals_buf, adj_buf):
    """Value (and, if G has rows, gradient) at rows of X, blocks ``first..last-1`` of
    ``block`` points each.  Threads run disjoint block ranges (nogil): batch replay.

    The tape comes as replay.py's plan: ``fwd`` rows run forward, ``rev`` (the rows the
    output reaches) backward; a slot may alias part of another one (a contiguous slice).
    Slots in ``fill`` (constants) are filled from ``vals0``; X is (B, m): column c is
    arena element ``in_elems[c]``; V (B,) gets the value of the size-1 slot ``out_slot``;
    G (B, m) its gradient; bad (B,) 1 + the first diverging guard, or 0.  Within a block
    the arena is op-major (w points per element).  ``vals_buf`` and ``adj_buf`` hold at
    least ``len(vals0) * block`` values (the caller's, reused between calls).  Returns -1,
    or a reverse row that could not run.
    """
    B = X.shape[0]
    nv = len(vals0)
    reach = np.ones(len(offs) - 1, np.uint8)  # rev holds only reached rows
    flags = np.empty(block, np.int64)
    filled = 0  # the w the constants are laid out for
    for blk in range(first, last):
        b0 = blk * block
        w = min(block, B - b0)
        vals = vals_buf[:nv * w]
        if w != filled:
            for s in fill:
                for e in range(offs[s], offs[s + 1]):
                    for p in range(w):
                        vals[e * w + p] = vals0[e]
            filled = w
        _move_points(X, vals, in_elems, b0, w, True)
        flags[:w] = 0
        _forward_replay(fwd, offs, vals, consts, meta, 0, len(fwd), w, flags)
        oe = offs[out_slot] * w
        for p in range(w):
            V[b0 + p] = vals[oe + p]
            bad[b0 + p] = flags[p]
        if G.shape[0] == 0:
            continue
        adj = adj_buf[:nv * w]
        adj[:] = 0.0  # one pass: measured faster than zeroing each span after its row
        for p in range(w):
            adj[oe + p] = 1.0
        r = _reverse_sweep(rev, offs, vals, consts, meta, adj, reach, 0, len(rev), w)
        if r >= 0:
            return r
        _move_points(G, adj, in_elems, b0, w, False)
    return -1


ensure_fresh(_reverse_sweep, _free_swept, _forward_replay, _replay_blocks)
