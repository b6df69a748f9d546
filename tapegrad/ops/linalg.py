"""Linear algebra: matmul and its spellings (``@``, mm, mv, dot, bmm), outer, einsum.

Every product is one row of the MATMUL family (MM, MV, DOT, BMM: one rule, four names for
the graph views) computing ``nb`` products ``(M, K) @ (K, N)``.  Its meta holds
``[nb, M, K, N, need_a, need_b, a_off_0, b_off_0, a_off_1, b_off_1, ...]``: the element
offset of each batch's operands inside their slots, so broadcast batch dims cost no copy
(a repeated offset just accumulates twice in the reverse rule).  1-D operands are the
``(1, K)`` / ``(K, 1)`` matrices of PyTorch's rules: the same flat values.  ``need_a`` /
``need_b`` say whether an operand requires grad: a constant operand (the data in
``x @ W``) gets no adjoint product, a third of a layer's backward.

Rules: products of at least ``_BLAS_MIN`` multiply-adds call BLAS through ``np.dot``
(Numba needs SciPy for that): on contiguous 2-D views of the arena when each element holds
one point (``w == 1``, eager backward), and on a gathered copy of each point's matrices in
batch replay (``w > 1``: each element holds ``w`` values side by side), so both make the
same BLAS call and batch replay equals a loop of single points exactly.  Smaller products
run plain loops, whose inner loop over the points vectorises.

``nn.functional.linear`` of a 2-D input is its own row (LINEAR / ADDMM): ``x @ W.T + b``
with no transposed copy of W and no bias broadcast, as PyTorch's mm / addmm.
"""
import numpy as np

from .. import _blas as blas
from .. import dtypes
from .._errors import with_note
from .._fp import quiet
from .._jit import rule
from .._rules import _s, _u, claim_input, reach_input
from .._state import state
from ..tensor import Tensor, _leaf
from . import shape as S
from ._record import as_tensor_arg, named_result, output, slot, tape_for_grad
from . import layout
from .registry import api, declare, meta_at
from .spec import Spec
from .spec import lib as _lib
from .strided import broadcast_shape

_BLAS_MIN = 4096  # M*K*N from which a product calls BLAS (below, the loop is faster)


# ---- matmul family: y[i] = A[i] @ B[i] for each batch i --------------------------------
MM, MV, DOT, BMM = 80, 81, 82, 83
# PyTorch shows UnsafeViewBackward0 over it for batched matmul


# B is (K, N), or with ``bt`` stored transposed as (N, K): F.linear's weight, used as is
@rule
def _b_strides(K, N, bt):
    # element (k, n) of B sits at (k sk + n sn) * w from its start
    return (_u(1), K) if bt else (N, _u(1))


@rule
def _mm_loop1(vals, o, a, b, M, K, N, bt):
    # _mm_loop at one point (w == 1): each sum in a register, k ascending as there (the
    # same sums), not added in the arena.  Four rows at a time (each B value loaded once
    # for four sums, four chains of adds in flight; ADBench GMM d = 2: 100 x (1000, 2) @
    # (2, 2), 0.70x the time of one sum at a time), the last M mod 4 rows one at a time
    sk, sn = _b_strides(K, N, bt)
    one, two, three, four = _u(1), _u(2), _u(3), _u(4)  # (unsigned as M, K, N)
    m0 = _u(0)
    while m0 + four <= M:
        r0, r1, r2, r3 = (a + m0 * K, a + (m0 + one) * K, a + (m0 + two) * K,
                          a + (m0 + three) * K)
        yr = o + m0 * N
        for n in range(N):
            vals[yr + n] = 0.0
            y0 = vals[yr + n]  # (the arena's dtype: a float32 one sums in float32 too)
            y1, y2, y3 = y0, y0, y0
            for kk in range(K):
                bv = vals[b + kk * sk + n * sn]
                y0 += vals[r0 + kk] * bv
                y1 += vals[r1 + kk] * bv
                y2 += vals[r2 + kk] * bv
                y3 += vals[r3 + kk] * bv
            vals[yr + three * N + n] = y3
            vals[yr + two * N + n] = y2
            vals[yr + N + n] = y1
            vals[yr + n] = y0
        m0 += four
    for m in range(m0, M):
        ar = a + m * K
        yr = o + m * N
        for n in range(N):
            vals[yr + n] = 0.0
            acc = vals[yr + n]
            for kk in range(K):
                acc += vals[ar + kk] * vals[b + kk * sk + n * sn]
            vals[yr + n] = acc


@rule
def _mm_loop1_rev(adj, vals, o, a, b, M, K, N, need_a, need_b, bt):
    # _mm_loop_rev at one point, each adjoint summed in a register in _mm_loop_rev's order
    # (gA over n, gB over m): the same sums; the operands' adjoint spans are disjoint.
    # Four adjoints at a time: gA four rows of one column (each B value loaded once for
    # four sums), gB a 2 x 2 block (each operand value loaded once for two sums; ADBench
    # GMM d = 2: gB sums over 1,000 rows), an odd last row or column clamped onto the one
    # before it, its twin sums equal, stored twice
    sk, sn = _b_strides(K, N, bt)
    one, two = _u(1), _u(2)  # (unsigned as M, K, N: a mixed sum would be a float)
    if need_a:  # gA four rows at a time (as _mm_loop1), the last M mod 4 one at a time
        three, four = _u(3), _u(4)
        m0 = _u(0)
        while m0 + four <= M:
            g = o + m0 * N
            for kk in range(K):
                r = a + m0 * K + kk
                a0, a1, a2, a3 = adj[r], adj[r + K], adj[r + two * K], adj[r + three * K]
                for n in range(N):
                    bv = vals[b + kk * sk + n * sn]
                    a0 += adj[g + n] * bv
                    a1 += adj[g + N + n] * bv
                    a2 += adj[g + two * N + n] * bv
                    a3 += adj[g + three * N + n] * bv
                adj[r + three * K] = a3
                adj[r + two * K] = a2
                adj[r + K] = a1
                adj[r] = a0
            m0 += four
        for m in range(m0, M):
            for kk in range(K):
                acc = adj[a + m * K + kk]
                for n in range(N):
                    acc += adj[o + m * N + n] * vals[b + kk * sk + n * sn]
                adj[a + m * K + kk] = acc
    if need_b:
        for k0 in range(_u(0), K, two):
            k1 = min(k0 + one, K - one)
            for n0 in range(_u(0), N, two):
                n1 = min(n0 + one, N - one)
                b00, b01 = adj[b + k0 * sk + n0 * sn], adj[b + k0 * sk + n1 * sn]
                b10, b11 = adj[b + k1 * sk + n0 * sn], adj[b + k1 * sk + n1 * sn]
                for m in range(M):
                    x0, x1 = vals[a + m * K + k0], vals[a + m * K + k1]
                    g0, g1 = adj[o + m * N + n0], adj[o + m * N + n1]
                    b00 += x0 * g0
                    b01 += x0 * g1
                    b10 += x1 * g0
                    b11 += x1 * g1
                adj[b + k1 * sk + n1 * sn] = b11
                adj[b + k1 * sk + n0 * sn] = b10
                adj[b + k0 * sk + n1 * sn] = b01
                adj[b + k0 * sk + n0 * sn] = b00


@rule
def _mm_loop(vals, o, a, b, M, K, N, w, bt):
    # y[m, n] = sum_k a[m, k] b[k, n], k ascending, for each of the w points
    if w == 1:
        _mm_loop1(vals, o, a, b, M, K, N, bt)
        return
    sk, sn = _b_strides(K, N, bt)
    for m in range(M):
        yr = o + m * N * w
        for j in range(N * w):
            vals[yr + j] = 0.0
        for kk in range(K):
            ar = a + (m * K + kk) * w
            for n in range(N):
                br = b + (kk * sk + n * sn) * w
                for p in range(w):
                    vals[yr + n * w + p] += vals[ar + p] * vals[br + p]


@rule
def _mm_loop_rev(adj, vals, o, a, b, M, K, N, w, need_a, need_b, bt):
    # gA[m, k] += sum_n gY[m, n] B[k, n];  gB[k, n] += sum_m A[m, k] gY[m, n]
    if w == 1 and (not need_a or not need_b or a + M * K <= b or b + K * N <= a):
        _mm_loop1_rev(adj, vals, o, a, b, M, K, N, need_a, need_b, bt)
        return
    sk, sn = _b_strides(K, N, bt)
    for m in range(M):
        yr = o + m * N * w
        for kk in range(K):
            ar = a + (m * K + kk) * w
            for n in range(N):
                br = b + (kk * sk + n * sn) * w
                for p in range(w):
                    if need_a:
                        adj[ar + p] += adj[yr + n * w + p] * vals[br + p]
                    if need_b:
                        adj[br + p] += vals[ar + p] * adj[yr + n * w + p]


@rule
def _mat(src, base, rows, cols, w, p):
    # point p's (rows, cols) matrix in an op-major range: a view when w == 1, else a copy
    if w == 1:
        return src[base:base + rows * cols].reshape((rows, cols))
    m = np.empty(rows * cols, src.dtype)
    for e in range(rows * cols):
        m[e] = src[base + e * w + p]
    return m.reshape((rows, cols))


@rule
def _mat_t(src, base, rows, cols, w, p):
    # point p's (rows, cols) matrix transposed, as a contiguous (cols, rows) copy: gA = gy
    # B^T's BLAS call on two row-major operands (OpenBLAS's NT product of (1000, 20) @
    # (20, 20)^T took 1.6x its NN product's time, ADBench GMM d = 20; equal at d = 32, 64)
    t = np.empty((cols, rows), src.dtype)
    for r in range(rows):
        for c in range(cols):
            t[c, r] = src[base + (r * cols + c) * w + p]
    return t


@rule
def _put(dst, base, m, w, p, accumulate):
    # write (or add) matrix m as point p's values of an op-major range
    flat = m.reshape(m.size)
    if w == 1:  # one contiguous span: a loop over its view, which vectorises (Numba's
        span = dst[base:base + m.size]  # `dst[a:b] += flat` copies flat first: 3x slower)
        for e in range(m.size):
            span[e] = span[e] + flat[e] if accumulate else flat[e]
        return
    for e in range(m.size):
        if accumulate:
            dst[base + e * w + p] += flat[e]
        else:
            dst[base + e * w + p] = flat[e]


@rule
def _mm_blas(vals, o, a, b, M, K, N, w, bt):
    # the same BLAS call per point whatever w is: batch replay equals single points exactly
    # (w == 1: BLAS writes the arena directly, as NumPy's out=: no temporary and no copy;
    # ADBench GMM d = 10: 25 x (1000, 10) @ (10, 10), ~15% less)
    for p in range(w):
        A = _mat(vals, a, M, K, w, p)
        if w == 1 and bt:
            np.dot(A, _mat(vals, b, N, K, w, p).T, vals[o:o + M * N].reshape((M, N)))
        elif w == 1:
            np.dot(A, _mat(vals, b, K, N, w, p), vals[o:o + M * N].reshape((M, N)))
        else:
            y = np.dot(A, _mat(vals, b, N, K, w, p).T) if bt else \
                np.dot(A, _mat(vals, b, K, N, w, p))
            _put(vals, o, y, w, p, False)


# A weight gradient's product sums over the long dim (rows of gY and A): OpenBLAS (SciPy's,
# as Numba calls it) runs such an A^T B product of at most ~10^6 multiply-adds by its small
# matrix kernel, ~25% faster than its general one above (ADBench GMM d = 64, 5 x (64, 1000)
# @ (1000, 64): 1,279 us whole, 899 us in blocks of 128 rows; d = 32: 2,639 vs 1,582 us).  So
# the sum is made in blocks of _SUM_MNK multiply-adds, added in order: deterministic, the
# same in eager and replay, its last bits those of a blocked sum (tests/test_matmul_sum.py).
# Not where a block would be under _SUM_ROWS rows (gA's products, sums of K or N terms).
_SUM_MNK = 1 << 19
_SUM_ROWS = 64
# Where the sum is not split (a short S, P * Q large), the product is made in blocks of
# out's rows of at most _SMALL_MNK multiply-adds, each one gemm (blas.tn_cols): the small
# matrix kernel again, the same sum over S (bit for bit while S is within one of OpenBLAS's
# K-blocks).  Paid off with blocks of at least _COLS_MIN rows and Q <= _COLS_Q (MLP, gW1 of
# (256, 256)^T @ (256, 100): 153 -> 141-149 us float32, 287 -> 262-271 us float64; slower
# with (256, 512)^T @ (256, 128) and (64, 1024)^T @ (64, 256))
_SMALL_MNK = 10**6
_COLS_MIN = 32
_COLS_Q = 128


@rule
def _sum_dot(X, Y, out):
    # out = X^T @ Y, X (S, P) and Y (S, Q), the sum over S in blocks (see _SUM_MNK); row
    # blocks of row-major operands, transposed: no copy (and no strided view for Numba)
    S, P, Q = X.shape[0], X.shape[1], Y.shape[1]
    blk = _SUM_MNK // max(P * Q, 1)
    if blk < _SUM_ROWS or S <= blk:
        h = _SMALL_MNK // max(S * Q, 1)
        if h < _COLS_MIN or P <= h or Q > _COLS_Q:
            np.dot(X.T, Y, out)
            return
        nb = (P + h - 1) // h
        h = (P + nb - 1) // nb  # (blocks of one size: no small last one)
        for p in range(0, P, h):
            blas.tn_cols(X, Y, out, p, min(p + h, P))
        return
    np.dot(X[:blk].T, Y[:blk], out)
    t = np.empty((P, Q), out.dtype)
    for s in range(blk, S, blk):
        e = min(s + blk, S)
        np.dot(X[s:e].T, Y[s:e], t)
        for i in range(P):
            for j in range(Q):
                out[i, j] += t[i, j]


@rule
def _dot_into(adj, base, A, B, w, p, write, tn):
    """Adjoint span at ``base`` += A @ B, or with ``tn`` A^T @ B (a weight gradient: in
    blocks, _sum_dot); with ``write`` (w == 1, the span reached first here: linear_rev),
    BLAS writes it directly, as NumPy's out=: no temporary, no add."""
    M, N = A.shape[1] if tn else A.shape[0], B.shape[1]
    y = adj[base:base + M * N].reshape((M, N)) if write else np.empty((M, N), A.dtype)
    if tn:
        _sum_dot(A, B, y)
    else:
        np.dot(A, B, y)
    if not write:
        _put(adj, base, y, w, p, True)


# BLAS takes ~100x as long per multiply-add with a subnormal operand (the CPU's microcode
# assists).  A softmax's weights underflow: ADBench GMM d = 64, K = 25 has 2.8% of its
# batched product's adjoints subnormal, and that product's backward took 43 ms instead of 9.
# So the adjoint rows holding a nonzero value below _TINY (float32: _TINY32) are taken out
# of the BLAS call (zeroed in a copy: the other rows' products are the same call's, bit for
# bit) and their products made apart, scaled by a power of two into the normal range and
# scaled back (rounded once instead of underflowing step by step: values below 2^-960 may
# differ in their last bits from the unsplit call's; without such rows nothing changes).
_TINY = 2.0 ** -960
_TINY32 = 2.0 ** -100
# The scalings by s and back touch subnormals, an assist each too (~100 cycles a value in
# a scalar loop: ADBench GMM d = 64, ~70 tiny rows of 1000 a product, ~3 ms of the
# backward's 14): float64 subnormals are scaled from their integer mantissas (the bits
# below _NORMAL) and a product landing below 2^-1022 is rounded to its mantissa by rint, not
# by a multiply.  Both are exact as the multiplies (s is a power of two; rint rounds half to
# even as the multiply does): the same bits.
_ABS, _NORMAL, _SIGN = 0x7FFFFFFFFFFFFFFF, 1 << 52, -(1 << 63)


# the split pays from about this many multiply-adds on tiny values (a row's N values, each
# in K + N of them): below (ADBench GMM d = 10, 20: a few tiny rows a product) its own
# work costs more than the assists it saves
_TINY_WORK = 8192


@rule
def _tiny_rows(g, K):
    # the rows of g (M, N) holding a value 0 < |v| < _TINY, or none when too few to pay
    # for the split: the tiny values of g's first and last columns counted first (no pass
    # over g: ~2% of ADBench GMM d = 10 and 20), each standing for N / 2 of a row's
    M, N = g.shape
    tiny = _TINY if g.itemsize == 8 else _TINY32
    t = 0
    for m in range(M):
        v0, v1 = abs(g[m, 0]), abs(g[m, N - 1])
        t += (1 if 0.0 < v0 < tiny else 0) + (1 if 0.0 < v1 < tiny else 0)
    if t * N * (K + N) < 2 * _TINY_WORK:
        return np.empty(0, np.int64)
    rows = np.empty(M, np.int64)
    n = 0
    for m in range(M):
        t = 0
        for j in range(N):
            v = abs(g[m, j])
            t += 1 if 0.0 < v < tiny else 0  # (no branch: the loop vectorises)
        if t:
            rows[n] = m
            n += 1
    return rows[:n]


@rule
def _scaled_rows(g, rows):
    # (g's rows ``rows`` times s, s): s = 2^e >= 1 bringing their largest |value| to
    # [0.5, 1), at most 1 / _TINY (float32: 1 / _TINY32), so that no value overflows
    N = g.shape[1]
    mx = 0.0
    for i in range(len(rows)):
        for j in range(N):
            mx = max(mx, abs(g[rows[i], j]))
    cap = 1.0 / (_TINY if g.itemsize == 8 else _TINY32)
    s = 1.0
    while mx * s < 0.25 and s < cap:
        s *= 2.0
    gs = np.empty((len(rows), N), g.dtype)
    if g.itemsize == 8:  # (float32 subnormals are not met: _TINY32 is far above them)
        bits, sub = g.reshape(g.size).view(np.int64), s * 2.0 ** -1074
        for i in range(len(rows)):
            for j in range(N):
                b = bits[rows[i] * N + j]
                if b & _ABS < _NORMAL:  # subnormal or zero: mantissa * 2^-1074 * s
                    v = np.float64(b & _ABS) * sub
                    gs[i, j] = -v if b < 0 else v
                else:
                    gs[i, j] = g[rows[i], j] * s
        return gs, s
    for i in range(len(rows)):
        for j in range(N):
            gs[i, j] = g[rows[i], j] * s
    return gs, s


@rule
def _rows_of(x, rows):
    out = np.empty((len(rows), x.shape[1]), x.dtype)
    for i in range(len(rows)):
        for j in range(x.shape[1]):
            out[i, j] = x[rows[i], j]
    return out


@rule
def _small_dot(X, Y, blas):
    # X @ Y: BLAS, or for the few tiny rows' small products plain loops (a BLAS call and
    # its result's allocation cost more there: ADBench GMM d = 10)
    if blas:
        return np.dot(X, Y)
    out = np.zeros((X.shape[0], Y.shape[1]), X.dtype)
    for m in range(X.shape[0]):
        for k in range(X.shape[1]):
            x = X[m, k]
            for n in range(Y.shape[1]):
                out[m, n] += x * Y[k, n]
    return out


@rule
def _all_finite(x):
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            if not np.isfinite(x[i, j]):
                return False
    return True


@rule
def _rows_replaced(adj, base, gz, Bt, ys, rows, inv, w, p, write):
    # the adjoint span at ``base`` (+)= gz @ Bt, its rows ``rows`` ys * inv instead (+ 0.0:
    # never -0.0, as a BLAS sum); written by BLAS directly where _dot_into would
    M, K = gz.shape[0], Bt.shape[1]
    direct = write and w == 1
    y = adj[base:base + M * K].reshape((M, K)) if direct else np.empty((M, K), gz.dtype)
    np.dot(gz, Bt, y)
    if y.itemsize == 8:  # |ys| below lim: a product below 2^-1022, made as its mantissa
        bits = y.reshape(y.size).view(np.int64)  # (rint of |ys| in units of 2^-1074)
        lim, up = 2.0 ** -1022 / inv, inv * 2.0 ** 537  # (2^1074 inv in two factors)
        for i in range(len(rows)):
            for j in range(K):
                v = ys[i, j]
                if abs(v) < lim:
                    r = np.int64(np.rint(abs(v) * 2.0 ** 537 * up))
                    bits[rows[i] * K + j] = r | _SIGN if v < 0 and r != 0 else r
                else:
                    y[rows[i], j] = v * inv + 0.0
    else:
        for i in range(len(rows)):
            for j in range(K):
                y[rows[i], j] = ys[i, j] * inv + 0.0
    if not direct:
        _put(adj, base, y, w, p, not write)


@rule
def _mm_blas_rev_tiny(adj, vals, gy, rows, a, b, M, K, N, w, p, need_a, need_b, bt, set_a,
                      set_b):
    # _mm_blas_rev at point p with gy's rows ``rows`` tiny (_tiny_rows); False (nothing
    # written) if a scaled product overflows: the caller makes the plain call
    gs, s = _scaled_rows(gy, rows)
    A = _mat(vals, a, M, K, w, p)
    As = _rows_of(A, rows)
    blas = len(rows) * K * N >= _BLAS_MIN
    Bt = _mat(vals, b, N, K, w, p) if bt else _mat_t(vals, b, K, N, w, p)  # B^T (N, K)
    if bt:  # B stored as (N, K)
        ya_s = _small_dot(gs, Bt, blas)
        yb_s = _small_dot(gs.T, As, blas)  # gB^T (N, K)
    else:
        ya_s = _small_dot(gs, Bt, blas)
        yb_s = _small_dot(As.T, gs, blas)  # gB (K, N)
    if not (_all_finite(ya_s) and _all_finite(yb_s)):
        return False
    inv = 1.0 / s
    gz = gy  # the tiny rows zeroed in place (no copy of gy), put back at the end
    kept = _rows_of(gy, rows)
    for i in range(len(rows)):
        for j in range(N):
            gz[rows[i], j] = 0.0
    if need_a:  # gA: the zeroed call's rows, the tiny ones their own
        _rows_replaced(adj, a, gz, Bt, ya_s, rows, inv, w, p, set_a)
    if need_b:  # gB: a sum over gy's rows: the zeroed call's plus the tiny rows' terms
        X, Y = (gz, A) if bt else (A, gz)
        yb = np.empty((X.shape[1], Y.shape[1]), gz.dtype)
        _sum_dot(X, Y, yb)
        half = s * 2.0 ** -54  # |t| below |y| 2^-54 is below half y's ulp: y + t == y, and
        for i in range(yb.shape[0]):  # t is not made (a subnormal result: an assist each)
            for j in range(yb.shape[1]):
                if not abs(yb_s[i, j]) < abs(yb[i, j]) * half:
                    yb[i, j] += yb_s[i, j] * inv
        _put(adj, b, yb, w, p, not set_b)
    for i in range(len(rows)):
        for j in range(N):
            gz[rows[i], j] = kept[i, j]
    return True


@rule
def _mm_blas_rev(adj, vals, o, a, b, M, K, N, w, need_a, need_b, bt, set_a, set_b):
    # gA += gY B^T;  gB += A^T gY, or gB^T += gY^T A  (adj of a and b may be one slot: x @ x)
    for p in range(w):
        gy = _mat(adj, o, M, N, w, p)
        rows = _tiny_rows(gy, K)
        if len(rows) and _mm_blas_rev_tiny(adj, vals, gy, rows, a, b, M, K, N, w, p, need_a,
                                           need_b, bt, set_a, set_b):
            continue
        if need_a and bt:
            _dot_into(adj, a, gy, _mat(vals, b, N, K, w, p), w, p, set_a, False)
        elif need_a:
            _dot_into(adj, a, gy, _mat_t(vals, b, K, N, w, p), w, p, set_a, False)
        if need_b and bt:
            _dot_into(adj, b, gy, _mat(vals, a, M, K, w, p), w, p, set_b, True)
        elif need_b:
            _dot_into(adj, b, _mat(vals, a, M, K, w, p), gy, w, p, set_b, True)


@rule
def _mm(vals, o, a, b, M, K, N, w, bt):
    if M * K * N >= _BLAS_MIN:
        _mm_blas(vals, o, a, b, M, K, N, w, bt)
    else:
        _mm_loop(vals, o, a, b, M, K, N, w, bt)


@rule
def _mm_rev(adj, vals, o, a, b, M, K, N, w, need_a, need_b, bt):
    if M * K * N >= _BLAS_MIN:
        _mm_blas_rev(adj, vals, o, a, b, M, K, N, w, need_a, need_b, bt, False, False)
    else:
        _mm_loop_rev(adj, vals, o, a, b, M, K, N, w, need_a, need_b, bt)


@rule
def matmul_fwd(vals, meta, o, a, b, k, w):
    nb, M, K, N = _u(meta[k]), _u(meta[k + 1]), _u(meta[k + 2]), _u(meta[k + 3])
    for i in range(nb):
        ai = a + _u(meta[k + 6 + 2 * _s(i)]) * w
        bi = b + _u(meta[k + 7 + 2 * _s(i)]) * w
        _mm(vals, o + i * M * N * w, ai, bi, M, K, N, w, False)


@rule
def _tiles(meta, k, nb, j, size, n):
    # operand j's batches (meta offsets k + 6 + j, every other one) are 0, size, 2 size, ...
    # and fill its n-element slot: each adjoint element gets exactly one product
    if nb * size != n:
        return False
    for i in range(nb):
        if meta[k + 6 + j + 2 * _s(i)] != i * size:
            return False
    return True


@rule
def _claim_operand(adj, reach, offs, meta, k, s, j, size, w, direct):
    # claim_input for operand j (slot s): directly written only where each of its
    # adjoints comes from one product (not a broadcast operand's, summed over batches)
    n = _s(_u(offs[s + 1]) - _u(offs[s]))
    return claim_input(adj, reach, offs, s, w, direct and _tiles(meta, k, _s(meta[k]), j, size, n))


@rule
def matmul_rev(adj, reach, vals, offs, meta, so, sa, sb, k, w):
    # Y = A B  =>  dA = dY B^T, dB = A^T dY, per batch (broadcast operands accumulate).
    # It reaches its own inputs, as linear_rev: in an eager sweep an adjoint reached first
    # here takes its BLAS products directly (no zeroing, temporary and add: a third of
    # ADBench GMM's batched product's backward, 100 x (1000, 32) @ (32, 32))
    nb, M, K, N = _u(meta[k]), _u(meta[k + 1]), _u(meta[k + 2]), _u(meta[k + 3])
    need_a, need_b = meta[k + 4] != 0, meta[k + 5] != 0
    uw = _u(w)
    o, a, b = _u(offs[so]) * uw, _u(offs[sa]) * uw, _u(offs[sb]) * uw
    direct = w == 1 and M * K * N >= _BLAS_MIN and sa != sb  # (x @ x: one span, two sums)
    set_a = need_a and _claim_operand(adj, reach, offs, meta, k, sa, 0, M * K, w, direct)
    set_b = need_b and _claim_operand(adj, reach, offs, meta, k, sb, 1, K * N, w, direct)
    if not need_a:  # (a constant operand: reached, as every row's inputs, but no product)
        reach_input(adj, reach, offs, sa, w)
    if not need_b:
        reach_input(adj, reach, offs, sb, w)
    for i in range(nb):
        ai = a + _u(meta[k + 6 + 2 * _s(i)]) * uw
        bi = b + _u(meta[k + 7 + 2 * _s(i)]) * uw
        oi = o + i * M * N * uw
        if set_a or set_b:
            _mm_blas_rev(adj, vals, oi, ai, bi, M, K, N, uw, need_a, need_b, False, set_a, set_b)
        else:
            _mm_rev(adj, vals, oi, ai, bi, M, K, N, uw, need_a, need_b, False)


def matmul_vjp(r, g):
    # every product is a batch of (M, K) @ (K, N) with batch offsets into a and b (meta)
    nb, M, K, N, need_a, need_b = (r.m(r.k + i) for i in range(6))
    offsets = np.array([r.m(r.k + 6 + i) for i in range(2 * nb)], np.int64).reshape(nb, 2)
    ia, ib = offsets[:, 0] // max(1, M * K), offsets[:, 1] // max(1, K * N)
    a = S.reshape(r.x, -1, M, K)
    b = S.reshape(r.y, -1, K, N)
    G = S.reshape(g, nb, M, N)
    out = []
    if need_a:
        bb = b if np.array_equal(ib, np.arange(len(ib))) else b[Tensor(ib)]
        out.append((r.a, _batch_sum(r, matmul(G, bb.mT), ia, a.shape[0], r.shape(r.a))))
    if need_b:
        aa = a if np.array_equal(ia, np.arange(len(ia))) else a[Tensor(ia)]
        out.append((r.b, _batch_sum(r, matmul(aa.mT, G), ib, b.shape[0], r.shape(r.b))))
    return out


def _batch_sum(r, t, index, n, shape):
    """Sum the batch entries of ``t`` (nb, P, Q) that share an operand batch ``index``
    (broadcast batch dims): a SCATTER row when any operand batch was used twice."""
    if np.array_equal(index, np.arange(n)):
        return S.reshape(t, *shape)
    P, Q = t.shape[1], t.shape[2]
    flat = (index[:, None] * (P * Q) + np.arange(P * Q)[None, :]).ravel()
    tape = tape_for_grad()
    k = tape.push_meta([0, *flat.tolist()])  # GATHER's meta layout: [name, index...]
    return S.reshape(r.emit(S.SCATTER, t, k, (n * P * Q,)), *shape)


def _matmul_layout(lay, R):
    # meta: [nb, M, K, N, need_a, need_b, (a offset, b offset) per batch]
    o, a, b, k = R[:, 1], R[:, 2], R[:, 3], R[:, 4]
    head = lay.fields(k, 6)
    lay.at_least(head[:, :4], ("nb", "M", "K", "N"))
    nb, M, K, N, need_a, need_b = head.T
    na, nb_, no = lay.sizes(a, "in0"), lay.sizes(b, "in1"), lay.sizes(o, "out")
    lay.needs_grad(need_a, a, "need_a")
    lay.needs_grad(need_b, b, "need_b")
    n, big = layout.product(nb, M, N)
    lay.check_each(big | (n != no), lambda i: "{} products of ({}, {}) @ ({}, {}) for an "
                   "output of {}".format(*head[i, [0, 1, 2, 2, 3]].tolist(), int(no[i])))
    lay.window(k + 6, nb, 2)
    MK, big_a = layout.product(M, K)
    KN, big_b = layout.product(K, N)
    for row, at in lay.ragged(k + 6, nb, "batch offsets", width=2):
        oa, ob = lay.meta[at], lay.meta[at + 1]
        lay._first_of(row, (oa < 0) | (ob < 0) | big_a[row] | big_b[row] |
                      (oa > na[row] - MK[row]) | (ob > nb_[row] - KN[row]),
                      lambda i: f"a batch at offsets in meta[{int(k[i]) + 6}:"
                                f"{int(k[i]) + 6 + 2 * int(nb[i])}] reads past in0 "
                                f"({int(na[i])} elements) or in1 ({int(nb_[i])})")
    # (offsets may repeat: one block read at every batch; empty products loop too)
    lay.work += float(np.sum(nb * (np.prod(head[:, 1:4].astype(np.float64), axis=1) + 1)))


@rule
def _mm_tan(tan, vals, o, a, b, M, K, N, w, bt):
    # t(A B) = tA B + A tB, k ascending, for each of the w points
    sk, sn = _b_strides(K, N, bt)
    for m in range(M):
        for n in range(N):
            for p in range(w):
                t = 0.0
                for kk in range(K):
                    ar = a + (m * K + kk) * w + p
                    br = b + (kk * sk + n * sn) * w + p
                    t += tan[ar] * vals[br] + vals[ar] * tan[br]
                tan[o + (m * N + n) * w + p] = t


@rule
def _mm_curv(tadj, adj, tan, o, a, b, M, K, N, w, bt):
    # the tangent of _mm's reverse rule at fixed gy: dA' = dY tB^T, dB' = tA^T dY
    sk, sn = _b_strides(K, N, bt)
    for m in range(M):
        for n in range(N):
            for p in range(w):
                gy = adj[o + (m * N + n) * w + p]
                for kk in range(K):
                    ar = a + (m * K + kk) * w + p
                    br = b + (kk * sk + n * sn) * w + p
                    tadj[ar] += gy * tan[br]
                    tadj[br] += gy * tan[ar]


@rule
def matmul_curv(tadj, adj, tan, meta, o, a, b, k, w):
    nb, M, K, N = _u(meta[k]), _u(meta[k + 1]), _u(meta[k + 2]), _u(meta[k + 3])
    for i in range(nb):
        ai = a + _u(meta[k + 6 + 2 * _s(i)]) * w
        bi = b + _u(meta[k + 7 + 2 * _s(i)]) * w
        _mm_curv(tadj, adj, tan, o + i * M * N * w, ai, bi, M, K, N, w, False)


@rule
def linear_curv(tadj, adj, tan, meta, o, a, b, k, w):
    # bilinear in x and W (the bias enters linearly: no second-order part)
    M, K, N = _u(meta[k]), _u(meta[k + 1]), _u(meta[k + 2])
    _mm_curv(tadj, adj, tan, o, a, b, M, K, N, w, True)


@rule
def matmul_tan(tan, vals, meta, o, a, b, k, w):
    nb, M, K, N = _u(meta[k]), _u(meta[k + 1]), _u(meta[k + 2]), _u(meta[k + 3])
    for i in range(nb):
        ai = a + _u(meta[k + 6 + 2 * _s(i)]) * w
        bi = b + _u(meta[k + 7 + 2 * _s(i)]) * w
        _mm_tan(tan, vals, o + i * M * N * w, ai, bi, M, K, N, w, False)


declare(MM, "MmBackward0", saves="AB", aux="meta", fwd=matmul_fwd, rev=matmul_rev, vjp=matmul_vjp,
        check=_matmul_layout, tan=matmul_tan, curv=matmul_curv)


declare(MV, "MvBackward0", saves="AB", aux="meta", fwd=matmul_fwd, rev=matmul_rev, vjp=matmul_vjp,
        check=_matmul_layout, tan=matmul_tan, curv=matmul_curv)


declare(DOT, "DotBackward0", saves="AB", aux="meta", fwd=matmul_fwd, rev=matmul_rev,
        vjp=matmul_vjp, check=_matmul_layout, tan=matmul_tan, curv=matmul_curv)


declare(BMM, "BmmBackward0", saves="AB", aux="meta", fwd=matmul_fwd, rev=matmul_rev,
        vjp=matmul_vjp, check=_matmul_layout, tan=matmul_tan, curv=matmul_curv)


# ---- linear: F.linear's 2-D case, y = x @ W^T (+ b), in one row -------------------------
# in0 = x (M, K), in1 = W (N, K); meta: [M, K, N, need_x, need_w, need_b, bias slot or -1].
# No W^T is materialised, no bias broadcast or add row: PyTorch's addmm / mm.
LINEAR, ADDMM = 84, 85


@rule
def linear_fwd(vals, offs, meta, o, a, b, k, w):
    M, K, N, sb = _u(meta[k]), _u(meta[k + 1]), _u(meta[k + 2]), meta[k + 6]
    _mm(vals, o, a, b, M, K, N, w, True)  # per point the same BLAS call as eager: x @ W^T
    if sb >= 0:  # + bias[n] on every row
        c = _u(offs[sb]) * w
        for m in range(M):
            for j in range(N * w):
                vals[o + m * N * w + j] += vals[c + j]


@rule
def linear_rev(adj, reach, vals, offs, meta, so, sx, sw, k, w):
    # gx += gy W;  gW += gy^T x;  gb += the sum of gy's rows.  It reaches its own inputs
    # (slots sx, sw and the bias): an adjoint reached first here takes its BLAS product
    # directly (claim_input), and a constant operand's is not touched
    M, K, N = _u(meta[k]), _u(meta[k + 1]), _u(meta[k + 2])
    need_x, need_w, sb = meta[k + 3] != 0, meta[k + 4] != 0, meta[k + 6]
    uw = _u(w)
    o, a, b = _u(offs[so]) * uw, _u(offs[sx]) * uw, _u(offs[sw]) * uw
    blas = M * K * N >= _BLAS_MIN
    direct = blas and w == 1
    set_x = need_x and claim_input(adj, reach, offs, sx, w, direct)
    set_w = need_w and claim_input(adj, reach, offs, sw, w, direct)
    if blas:
        _mm_blas_rev(adj, vals, o, a, b, M, K, N, uw, need_x, need_w, True, set_x, set_w)
    else:
        _mm_loop_rev(adj, vals, o, a, b, M, K, N, uw, need_x, need_w, True)
    if sb >= 0 and meta[k + 5] != 0:  # column sums in float64 whatever adj's dtype (as
        reach_input(adj, reach, offs, sb, w)  # expand_rev's), then once into adj
        c = _u(offs[sb]) * uw
        acc = np.zeros(N * uw)
        for m in range(M):
            for j in range(N * uw):
                acc[j] += adj[o + m * N * uw + j]
        for j in range(N * uw):
            adj[c + j] += acc[j]


def linear_vjp(r, g):
    # y = x W^T + b: gx = g W, gW = g^T x, gb = the sum of g's rows
    M, N, need_x, need_w, need_b, sb = (r.m(r.k + i) for i in (0, 2, 3, 4, 5, 6))
    g = S.reshape(g, M, N)
    out = []
    if need_x:
        out.append((r.a, matmul(g, r.y)))
    if need_w:
        out.append((r.b, matmul(g.mT, r.x)))
    if need_b:
        out.append((sb, g.sum(0)))
    return out


def _linear_layout(bias):
    def check(lay, R):
        o, a, b = R[:, 1], R[:, 2], R[:, 3]
        head = lay.fields(R[:, 4], 7)
        lay.at_least(head[:, :3], ("M", "K", "N"))
        M, K, N, need_x, need_w, need_b, sb = head.T
        no, na, nw = lay.sizes(o, "out"), lay.sizes(a, "in0"), lay.sizes(b, "in1")
        lay.needs_grad(need_x, a, "need_x")
        lay.needs_grad(need_w, b, "need_w")
        (MN, big1), (MK, big2), (NK, big3) = (layout.product(M, N), layout.product(M, K),
                                              layout.product(N, K))
        lay.check_each(big1 | big2 | big3 | (no != MN) | (na != MK) | (nw != NK),
                       lambda i: f"x ({int(na[i])} elements) @ W.T ({int(nw[i])}) -> out "
                                 f"({int(no[i])}) does not fit M, K, N = {head[i, :3].tolist()}")
        if not bias:
            lay.check_each(sb != -1, lambda i: f"a linear row without bias has bias slot "
                                               f"{int(sb[i])}")
        else:
            n_b = lay.sizes(sb, "bias")
            lay.check_each((n_b != N) | (sb >= o), lambda i: f"bias slot {int(sb[i])} has "
                           f"{int(n_b[i])} elements, not N = {int(N[i])} (or is not older "
                           "than the output)")
            lay.needs_grad(need_b, sb, "need_b")
            lay.holds_slots(R[:, 4] + 6)
        lay.work += float(np.sum(np.prod(head[:, :3].astype(np.float64), axis=1)))
    return check


@rule
def linear_tan(tan, vals, offs, meta, o, a, b, k, w):
    # t(x W^T + bias) = tx W^T + x tW^T + t bias
    M, K, N, sb = _u(meta[k]), _u(meta[k + 1]), _u(meta[k + 2]), meta[k + 6]
    _mm_tan(tan, vals, o, a, b, M, K, N, w, True)
    if sb >= 0:
        c = _u(offs[sb]) * w
        for m in range(M):
            for j in range(N * w):
                tan[o + m * N * w + j] += tan[c + j]


declare(LINEAR, "MmBackward0", saves="AB", aux="meta", fwd=linear_fwd, rev=linear_rev,
        vjp=linear_vjp, check=_linear_layout(bias=False), tan=linear_tan, curv=linear_curv)


declare(ADDMM, "AddmmBackward0", saves="AB", aux="meta", meta_slots=meta_at(6), fwd=linear_fwd,
        rev=linear_rev, vjp=linear_vjp, check=_linear_layout(bias=True), tan=linear_tan,
        curv=linear_curv)


_ADDMM_K = 256  # (OpenBLAS's K-block on x86-64: 384 and more; _addmm)
_GEMM = {}  # dtype -> SciPy's BLAS gemm (scipy.linalg.blas on first use: ~0.3 s of import)


def _addmm(x, w, b):
    """``x @ w.T + b`` (2-D x, w of one float dtype, 1-D b) as PyTorch's addmm computes it:
    the output filled with b and one BLAS gemm adding the product into it (beta = 1), with
    no second pass over the output for the bias (NumPy's ``x @ w.T + b``: ~15% of an MLP's
    first layer, (256, 100) @ (100, 256), issue 20).  Row-major v = x w^T is column-major
    v^T = w x^T: gemm on the transposed views, all Fortran-contiguous, copies nothing.
    Taken for a BLAS-sized product with K <= _ADDMM_K and M, N >= 2 (``linear``): each
    element is then one BLAS sum (one K-block) added to b, NumPy's value bit for bit
    (test_linalg); a larger K's partial sums would go into b one block at a time, and a
    single row or column is NumPy's gemv: other roundings."""
    gemm = _GEMM.get(x.dtype.char)
    if gemm is None:
        from scipy.linalg import blas  # (the compiled sweep's np.dot loads it too)
        gemm = _GEMM[x.dtype.char] = blas.get_blas_funcs("gemm", dtype=x.dtype)
    v = np.empty((x.shape[0], w.shape[0]), x.dtype)
    v[...] = b
    gemm(1.0, w.T, x.T, 1.0, v.T, trans_a=1, overwrite_c=1)
    return v


def linear(x, weight, bias=None):
    """``x @ weight.T + bias`` for a 2-D ``x`` (M, K), ``weight`` (N, K) and a ``bias`` of
    shape (N,) or None, all of one float dtype: one LINEAR / ADDMM row.  The caller
    (nn.functional.linear) has checked the shapes."""
    d, wd = x._data, weight._data
    with quiet():
        (M, K), N = d.shape, wd.shape[0]
        if bias is not None and M * K * N >= _BLAS_MIN and K <= _ADDMM_K and M > 1 and \
                N > 1 and d.dtype.char in "fd":
            v = _addmm(d, wd, bias._data)
        else:
            v = np.matmul(d, wd.T)
            if bias is not None:
                v += bias._data
    if not ((x._rg or weight._rg or (bias is not None and bias._rg)) and state.grad_enabled):
        return _leaf(v)
    tape = tape_for_grad()
    sx = slot(x, tape, weight._rg)  # (linear_rev reads x for gW, W for gx: no b, no y)
    sw = slot(weight, tape, x._rg)
    sb = -1 if bias is None else slot(bias, tape, False)
    k = tape.push_meta((M, K, N, int(x._rg), int(weight._rg),
                        int(bias is not None and bias._rg), sb))
    return output(tape, v, LINEAR if bias is None else ADDMM, sx, sw, k, keep=False)


def _stand_in(a, b):
    """float32 meeting float64 while float64 is the default: the float64 operand may stand
    for a tensor PyTorch would have made float32 (its default), so the product promotes
    (README: code written for float32 runs as it is); with float32 the default, as in
    PyTorch, the mix is refused as PyTorch refuses it."""
    return dtypes.default_float() == np.float64 and {a.dtype.name, b.dtype.name} == \
        {"float32", "float64"}


def same_dtype(a, b, kernel):
    """Refuse operands of different dtypes in PyTorch's words for the kernel that PyTorch
    runs them through (mm, mv, dot, bmm; 'both' for inner and tensordot), unless
    _stand_in lets them promote."""
    if a.dtype == b.dtype or _stand_in(a, b):
        return
    wa, wb = dtypes.torch_name(a.dtype), dtypes.torch_name(b.dtype)
    if kernel == "mm":
        msg = (f"expected m1 and m2 to have the same dtype, but got: "
               f"{dtypes.C_NAMES.get(a.dtype.name, a.dtype.name)} != "
               f"{dtypes.C_NAMES.get(b.dtype.name, b.dtype.name)}")
    elif kernel == "mv":
        msg = f"addmv input tensors must have the same dtype, but got {wb}, {wa}, and {wb}"
    elif kernel == "dot":
        msg = f"dot : expected both vectors to have same dtype, but found {wa} and {wb}"
    elif kernel == "bmm":
        msg = f"expected scalar type {wa} but found {wb}"
    else:
        msg = "both inputs should have same dtype"
    raise RuntimeError(msg)


def _operands(input, other, op, kernel=None):
    a = as_tensor_arg(input, op)
    b = as_tensor_arg(other, op)
    if kernel is not None:
        same_dtype(a, b, kernel)
    return a, b


def _value(v):
    """A product's result in tapegrad's storage (a 0-d float32 result stays 0-d)."""
    v = np.asarray(v)
    if v.ndim == 0 and v.dtype == np.float64:
        return float(v)
    return v if v.flags.c_contiguous else np.ascontiguousarray(v)


def _product(code, a, b, batch_a, batch_b, batch, M, K, N):
    """``a @ b`` with NumPy's matmul (BLAS) and, when either requires grad, one row ``code``.

    ``a`` holds ``batch_a + (M, K)`` values and ``b`` ``batch_b + (K, N)``, both broadcast
    to ``batch``; the caller has checked the shapes (so a cast below is never left on the
    tape by a product that then fails)."""
    if a.dtype != b.dtype:
        # float32 data meeting float64 parameters (tapegrad's default) promotes, as
        # elementwise ops do, where PyTorch (float32 by default) would raise: code written
        # for PyTorch meets this at every layer (the cast is a ToCopy row, differentiable)
        wide = np.promote_types(a.dtype, b.dtype)
        a, b = S.to(a, wide), S.to(b, wide)
    with quiet():
        v = _value(np.matmul(a._data, b._data))
    if not ((a._rg or b._rg) and state.grad_enabled):
        return _leaf(v)
    tape = tape_for_grad()
    sa = slot(a, tape, b._rg)  # (matmul_rev reads a for gb, b for ga, never the output)
    sb = slot(b, tape, a._rg)
    if batch:
        na, nb_ = int(np.prod(batch_a)), int(np.prod(batch_b))
        ia = np.broadcast_to(np.arange(na).reshape(batch_a), batch).ravel() * (M * K)
        ib = np.broadcast_to(np.arange(nb_).reshape(batch_b), batch).ravel() * (K * N)
        offsets = np.stack([ia, ib], axis=1).ravel().tolist()
    else:  # one product: skip the NumPy calls on tiny arrays (tens of us per product)
        offsets = [0, 0]
    k = tape.push_meta((len(offsets) // 2, M, K, N, int(a._rg), int(b._rg), *offsets))
    return output(tape, v, code, sa, sb, k, keep=False)


def _mm_error(rows, K, K2, N):
    return RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{K} and {K2}x{N})")


def _mv_error(M, K, K2):
    return RuntimeError(f"size mismatch, got input ({M}), mat ({M}x{K}), vec ({K2})")


def _bmm_error(B, K, B2, K2):
    return RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                        f"[{B}, {K}] but got: [{B2}, {K2}].")


@api
def mm(input, mat2):
    """Matrix product of two 2-D tensors.

    >>> import tapegrad as tg
    >>> tg.mm(tg.ones(2, 3), tg.ones(3, 1)).tolist()
    [[3.0], [3.0]]
    """
    a, b = _operands(input, mat2, "mm", "mm")
    if a.ndim != 2:
        raise with_note(RuntimeError("self must be a matrix"), f"mm got a {a.ndim}-D tensor")
    if b.ndim != 2:
        raise with_note(RuntimeError("mat2 must be a matrix"), f"mm got a {b.ndim}-D tensor")
    (M, K), (K2, N) = a.shape, b.shape
    if K != K2:
        raise _mm_error(M, K, K2, N)
    return _product(MM, a, b, (), (), (), M, K, N)


@api
def mv(input, vec):
    """Matrix-vector product: ``(M, K) @ (K,)`` gives ``(M,)``."""
    a, b = _operands(input, vec, "mv", "mv")
    if a.ndim != 2 or b.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.ndim}, {b.ndim}")
    (M, K), (K2,) = a.shape, b.shape
    if K != K2:
        raise _mv_error(M, K, K2)
    return _product(MV, a, b, (), (), (), M, K, 1)


@api
def dot(input, tensor):
    """Inner product of two 1-D tensors (no broadcasting)."""
    a, b = _operands(input, tensor, "dot", "dot")
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    n, m = a.shape[0], b.shape[0]
    if n != m:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same "
            f"number of elements, but got {n} and {m} elements respectively")
    return _product(DOT, a, b, (), (), (), 1, n, 1)


@api
def bmm(input, mat2):
    """Batched matrix product of two 3-D tensors with the same batch size (no broadcasting)."""
    a, b = _operands(input, mat2, "bmm", "bmm")
    if a.ndim != 3:
        raise with_note(RuntimeError("batch1 must be a 3D tensor"),
                        f"bmm got a {a.ndim}-D tensor")
    if b.ndim != 3:
        raise with_note(RuntimeError("batch2 must be a 3D tensor"),
                        f"bmm got a {b.ndim}-D tensor")
    (B, M, K), (B2, K2, N) = a.shape, b.shape
    if (B2, K2) != (B, K):
        raise _bmm_error(B, K, B2, K2)
    return _product(BMM, a, b, (B,), (B,), (B,), M, K, N)


def matmul_node(a_shape, b_shape, a_grad):
    """PyTorch's grad_fn name for ``a @ b``: its matmul squeezes a vector @ matrix, views a
    batched product (UnsafeViewBackward0), and for matrix @ batch (or a batch of one @ a
    3-D batch) with a requiring grad folds the batch through b.mT and copies the transposed
    result (CloneBackward0), unless that is already contiguous (TransposeBackward0)."""
    da, db = len(a_shape), len(b_shape)
    if db == 1 and da <= 2:
        return "DotBackward0" if da == 1 else "MvBackward0"
    if db == 2 and da <= 2:
        return "SqueezeBackward4" if da == 1 else "MmBackward0"
    if a_grad and (da == 2 or da == db == 3 and a_shape[0] == 1 != b_shape[0]):
        return "TransposeBackward0" if 1 in (a_shape[-2], b_shape[-1]) else "CloneBackward0"
    return "UnsafeViewBackward0"


@api
def matmul(input, other):
    """``input @ other`` with PyTorch's rules: 1-D operands are vectors (a 1 is prepended to
    the left one and appended to the right one, then removed), batch dims broadcast.

    >>> import tapegrad as tg
    >>> (tg.ones(4, 2, 3) @ tg.ones(3)).shape
    torch.Size([4, 2])
    """
    a, b = _operands(input, other, "matmul")
    da, db = a.ndim, b.ndim
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{da}D and {db}D")
    # (the kernel PyTorch folds the product into names a dtype mismatch)
    same_dtype(a, b, "dot" if da == db == 1 else "mv" if db == 1 else
               "mm" if db == 2 else "bmm")
    if da == 1 and db == 1:
        return dot(a, b)
    if da == 2 and db == 1:
        return mv(a, b)
    if da <= 2 and db == 2:
        M, K = (1, a.shape[0]) if da == 1 else a.shape
        K2, N = b.shape
        if K != K2:
            raise _mm_error(M, K, K2, N)
        y = _product(MM, a, b, (), (), (), M, K, N)
        return named_result(y, "SqueezeBackward4") if da == 1 else y
    sa = (1,) + tuple(a.shape) if da == 1 else tuple(a.shape)
    sb = tuple(b.shape) + (1,) if db == 1 else tuple(b.shape)
    (M, K), (K2, N) = sa[-2:], sb[-2:]
    batch = broadcast_shape("matmul", sa[:-2], sb[:-2])
    if K != K2:
        rows = int(np.prod(batch)) * M
        if db == 1:
            raise _mv_error(rows, K, K2)
        if db == 2:
            raise _mm_error(rows, K, K2, N)
        B = int(np.prod(batch))
        raise _bmm_error(B, K, B, K2)
    return named_result(_product(BMM, a, b, sa[:-2], sb[:-2], batch, M, K, N),
                        matmul_node(a.shape, b.shape, a._rg))


def rmatmul(input, other):
    """``other @ input`` for a non-Tensor ``other`` (an ndarray or a list)."""
    return matmul(as_tensor_arg(other, "matmul"), input)


@api
def outer(input, vec2):
    """Outer product of two 1-D tensors, ``input[:, None] * vec2`` (MulBackward0 as in
    PyTorch)."""
    for name, t in (("self", input), ("vec2", vec2)):
        if isinstance(t, Tensor) and t.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t.ndim}-D")
    a, b = _operands(input, vec2, "outer")  # (a product: dtypes promote, as PyTorch's)
    return a.reshape(-1, 1) * b


ger = outer
api(ger, name="ger")


# ---- einsum: two-operand contractions as permute / reshape / matmul (a composite) ---------
@api(method=False)
def einsum(equation, *operands):
    """Einstein summation over any number of operands (contracted pairwise, left to
    right), e.g. ``"ij,jk->ik"``, ``"bij,bjk->bik"``, ``"...ij,...jk->...ik"``,
    ``"i,j->ij"``, ``"ii->i"`` (a diagonal), ``"ii"`` (a trace), or PyTorch's sublist
    format ``einsum(a, [0, 1], b, [1, 2], [0, 2])``.  Composed from diagonal, permute,
    reshape, sum, mul and matmul, so it needs no rule of its own.

    >>> import tapegrad as tg
    >>> tg.einsum("ij,jk->ik", tg.ones(2, 3), tg.ones(3, 4)).shape
    torch.Size([2, 4])
    """
    if not isinstance(equation, str):
        equation, operands = _sublist_equation((equation,) + operands)
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    eq = equation.replace(" ", "")
    lhs, arrow, out = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise RuntimeError(f"einsum(): {'more' if len(operands) > len(terms) else 'fewer'} "
                           f"operands were provided than specified in the equation "
                           f"({len(terms)} in {equation!r}, {len(operands)} given)")
    xs = [as_tensor_arg(x, "einsum") for x in operands]
    terms, out = _expand_ellipsis(eq, terms, out, arrow, xs)
    sizes = {}
    for i, (term, x) in enumerate(zip(terms, xs, strict=True)):
        if not term.isalpha() and term:
            raise RuntimeError(f"einsum(): invalid subscript given in the equation "
                               f"string: {term!r} (use letters a-z, A-Z)")
        if len(term) != x.ndim:
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({len(term)}) does not "
                f"match the number of dimensions ({x.ndim}) for operand {i} and no ellipsis "
                "was given")
        for k, c in enumerate(term):
            if term.index(c) < k and x.shape[term.index(c)] != x.shape[k]:
                raise RuntimeError(f"einsum(): subscript {c} is repeated for operand {i} but "
                                   f"the sizes don't match, {x.shape[k]} != "
                                   f"{x.shape[term.index(c)]}")
        for c, s in zip(term, x.shape, strict=True):
            if sizes.get(c, s) not in (s, 1) and s != 1:
                raise RuntimeError(f"einsum(): subscript {c} has size {s} for operand {i} "
                                   f"which does not broadcast with previously seen size "
                                   f"{sizes[c]}")
            sizes[c] = s if sizes.get(c, 1) == 1 else sizes[c]  # (1 broadcasts, even to 0)
    if out is None:  # implicit output: the ellipsis dims, then the letters seen once
        lhs = "".join(terms)
        out = "".join(c for c in _FRESH if c in sizes) + "".join(
            sorted(c for c in sizes if lhs.count(c) == 1 and c in _LETTERS))
    for c in out:
        if c not in sizes:
            raise RuntimeError(f"einsum(): output subscript {c} does not appear in the "
                               "equation for any input operand")
    if len(set(out)) != len(out):
        twice = next(c for c in out if out.count(c) > 1)
        raise RuntimeError(f"einsum(): output subscript {twice} appears more than once in "
                           "the output")
    for i, (x, term) in enumerate(zip(xs, terms, strict=True)):
        xs[i], terms[i] = _diagonals(x, term)
    xs = [_broadcast_letters(x, term, sizes) for x, term in zip(xs, terms, strict=True)]
    summed = bool(set("".join(terms)) - set(out))
    if len(xs) == 1:
        x, term = _sum_letters(xs[0], terms[0], set(out))
        if summed:
            return named_result(_permute_to(x, term, out), "SumBackward1", *operands)
        return x.permute(*[term.index(c) for c in out])  # (PyTorch's node, even for "ij")
    acc, term = xs[0], terms[0]
    for j in range(1, len(xs)):  # left to right, as PyTorch contracts without opt_einsum
        later = set(out).union(*terms[j + 1:])
        keep = out if j == len(xs) - 1 else "".join(
            dict.fromkeys(c for c in term + terms[j] if c in later))
        acc, term = _contract(acc, term, xs[j], terms[j], keep, sizes), keep
    # PyTorch's last node: the view of its bmm where letters are summed, else the product
    return named_result(acc, "ViewBackward0" if summed else "MulBackward0")


_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_FRESH = "\u0391\u0392\u0393\u0394\u0395\u0396\u0397\u0398\u0399\u039a\u039b\u039c"\
         "\u039d\u039e\u039f\u03a0\u03a1\u03a3\u03a4\u03a5\u03a6\u03a7\u03a8\u03a9"


def _sublist_equation(args):
    """PyTorch's ``einsum(op0, sublist0, op1, sublist1, ..., [sublist_out])`` as an equation
    string and the operands; a sublist holds ints in [0, 52) and ``...``."""
    def letters(sub):
        parts = []
        for v in sub:
            if v is Ellipsis:
                parts.append("...")
            elif isinstance(v, int) and 0 <= v < 52:
                parts.append("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[v])
            else:
                raise ValueError(f"einsum(): subscript in subscript list is not within the "
                                 f"valid range [0, 52), got {v!r}")
        return "".join(parts)
    ops, subs = args[0:len(args) - len(args) % 2:2], args[1:len(args) - len(args) % 2:2]
    eq = ",".join(letters(sub) for sub in subs)
    if len(args) % 2:
        eq += "->" + letters(args[-1])
    return eq, ops


def _expand_ellipsis(eq, terms, out, arrow, xs):
    """The terms and output with each ``...`` spelled as fresh subscripts (right-aligned,
    so that the ellipsis dims broadcast as PyTorch's do); ``out`` None when implicit."""
    if "." not in eq:
        return terms, (out if arrow else None)
    widths = []
    for i, (term, x) in enumerate(zip(terms, xs, strict=True)):
        if term.count("...") != 1 and "." in term or term.count(".") not in (0, 3):
            raise RuntimeError(f"einsum(): found '.' for operand {i} that is not part of "
                               "any ellipsis")
        widths.append(x.ndim - (len(term) - 3) if "..." in term else 0)
        if widths[-1] < 0:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation "
                               f"({len(term) - 3}) is more than the number of dimensions "
                               f"({x.ndim}) for operand {i}")
    fresh = _FRESH[:max(widths)]
    terms = [t.replace("...", fresh[len(fresh) - w:]) for t, w in zip(terms, widths,
                                                                       strict=True)]
    return terms, (out.replace("...", fresh) if arrow else None)


def _diagonals(x, term):
    """``x`` with each subscript repeated within ``term`` reduced to its diagonal (moved
    last, as torch.diagonal places it), and the term that then describes it."""
    while len(set(term)) != len(term):
        c = next(c for c in term if term.count(c) > 1)
        i = term.index(c)
        j = term.index(c, i + 1)  # (einsum checked that their sizes match)
        x = x.diagonal(0, i, j)
        term = "".join(t for k, t in enumerate(term) if k not in (i, j)) + c
    return x, term


def _broadcast_letters(x, term, sizes):
    want = tuple(sizes[c] for c in term)
    return x if tuple(x.shape) == want else x.expand(*want)


def _sum_letters(x, term, keep):
    """Sum ``x`` over its subscripts that are not in ``keep``."""
    dims = tuple(i for i, c in enumerate(term) if c not in keep)
    if not dims:
        return x, term
    return x.sum(dims), "".join(c for c in term if c in keep)


def _permute_to(x, term, order):
    """``x`` (subscripts ``term``) with its dims in the order of ``order``."""
    perm = [term.index(c) for c in order]
    return x.permute(*perm) if perm != list(range(len(perm))) else x


def _reshape(x, shape):
    return x.reshape(*shape) if tuple(x.shape) != tuple(shape) else x


def _contract(a, ta, b, tb, out, sizes):
    a, ta = _sum_letters(a, ta, set(tb) | set(out))
    b, tb = _sum_letters(b, tb, set(ta) | set(out))
    batch = [c for c in out if c in ta and c in tb]
    summed = [c for c in ta if c in tb and c not in out]
    fa = [c for c in ta if c not in tb]
    fb = [c for c in tb if c not in ta]
    if not summed:  # a broadcast product: a[batch, fa, 1...] * b[batch, 1..., fb]
        a = _permute_to(a, ta, batch + fa)
        b = _permute_to(b, tb, batch + fb)
        na = [sizes[c] for c in batch] + [sizes[c] for c in fa] + [1] * len(fb)
        nb = [sizes[c] for c in batch] + [1] * len(fa) + [sizes[c] for c in fb]
        y = _reshape(a, na) * _reshape(b, nb)
    else:
        size = lambda cs: int(np.prod([sizes[c] for c in cs]))  # noqa: E731
        a = _permute_to(a, ta, batch + fa + summed)
        b = _permute_to(b, tb, batch + summed + fb)
        M, K, N = size(fa), size(summed), size(fb)
        if batch:
            y = matmul(_reshape(a, (size(batch), M, K)), _reshape(b, (size(batch), K, N)))
        else:
            y = matmul(_reshape(a, (M, K)), _reshape(b, (K, N)))
        y = _reshape(y, [sizes[c] for c in batch + fa + fb])
    return _permute_to(y, "".join(batch + fa + fb), out)


# ---- spec rows ----------------------------------------------------------------------
_MATMUL_SHAPES = (((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)),
                  ((5, 2, 3), (5, 3, 4)), ((5, 2, 3), (3, 4)), ((2, 3), (5, 3, 4)),
                  ((2, 1, 2, 3), (4, 3, 2)), ((3,), (2, 3, 4)), ((2, 2, 3), (3,)), (2, 3, 3))

def _matrix(w):
    """``w``, if 2-D: F.linear takes no other weight, so neither does a spec reference (the
    random programs of tests/test_properties.py skip rows whose reference refuses x)."""
    if w.ndim != 2:
        raise ValueError(f"linear: a 2-D weight, got {w.ndim}-D")
    return w


SPECS = [
    Spec("matmul", lambda a, b: a @ b, lambda np_, a, b: np_.matmul(a, b), arity=2,
         shapes=_MATMUL_SHAPES),
    Spec("matmul_same", lambda a: a @ a, lambda np_, a: np_.matmul(a, a),
         shapes=((3, 3), (2, 3, 3))),
    Spec("matmul_const", lambda a: a @ _lib(a).ones(3, 2, dtype=a.dtype),
         lambda np_, a: np_.matmul(a, np_.ones((3, 2))), shapes=((3,), (2, 3), (2, 2, 3))),
    Spec("matmul_blas", lambda a, b: a @ b, lambda np_, a, b: np_.matmul(a, b), arity=2,
         shapes=(((24, 16), (16, 20)), ((2, 16, 20), (20, 16)), (20, 20)),
         notes="above the BLAS threshold: eager and replay call BLAS"),
    Spec("mm", lambda a, b: a.mm(b), lambda np_, a, b: np_.dot(a, b), arity=2,
         shapes=(((2, 3), (3, 4)), (3, 3))),
    Spec("mv", lambda a, b: a.mv(b[0]), lambda np_, a, b: np_.dot(a, b[0]), arity=2,
         shapes=((2, 3), (3, 3))),
    Spec("dot", lambda a, b: a.dot(b), lambda np_, a, b: np_.dot(a, b), arity=2,
         shapes=((3,), (5,))),
    Spec("bmm", lambda a, b: a.bmm(b), lambda np_, a, b: np_.matmul(a, b), arity=2,
         shapes=(((4, 2, 3), (4, 3, 5)), (2, 3, 3))),
    Spec("linear", lambda x, w: _lib(x).nn.functional.linear(x, w, w[:, 0]),
         lambda np_, x, w: np_.dot(x, w.T) + w[:, 0], arity=2,
         shapes=(((2, 3), (4, 3)), ((24, 16), (20, 16)), (20, 20)),
         notes="the bias is a column of W: a non-leaf bias slot"),
    Spec("linear_leaf_bias", lambda x, w, b: _lib(x).nn.functional.linear(x, w, b),
         lambda np_, x, w, b: np_.dot(x, w.T) + b, arity=3,
         shapes=(((2, 3), (4, 3), (4,)), ((24, 16), (20, 16), (20,))), replay=False,
         notes="shapes per input, which tests/test_replay.py does not draw (linear covers it)"),
    Spec("linear_no_bias", lambda x, w: _lib(x).nn.functional.linear(x, w),
         lambda np_, x, w: np_.dot(x, w.T), arity=2,
         shapes=(((2, 3), (4, 3)), ((24, 16), (20, 16)), (3, 3))),
    Spec("linear_const_input", lambda w: _lib(w).nn.functional.linear(
             _lib(w).ones(5, w.shape[1], dtype=w.dtype), w, w[:, 0]),
         lambda np_, w: np_.dot(np_.ones((5, w.shape[1])), _matrix(w).T) + w[:, 0],
         shapes=((4, 3), (40, 24)), notes="x requires no grad: no gx product"),
    Spec("outer", lambda a, b: a.outer(b), lambda np_, a, b: np_.outer(a, b), arity=2,
         shapes=(((2,), (3,)), (3,))),
    Spec("einsum_mm", lambda a, b: _lib(a).einsum("ij,kj->ik", a, b),
         lambda np_, a, b: np_.einsum("ij,kj->ik", a, b), arity=2,
         shapes=(((2, 3), (4, 3)), (3, 3))),
    Spec("einsum_batched", lambda a, b: _lib(a).einsum("bqd,bkd->bqk", a, b),
         lambda np_, a, b: np_.einsum("bqd,bkd->bqk", a, b), arity=2,
         shapes=(((2, 3, 4), (2, 5, 4)), (2, 3, 3))),
    Spec("einsum_outer_sum", lambda a, b: _lib(a).einsum("ij,ik->jk", a, b),
         lambda np_, a, b: np_.einsum("ij,ik->jk", a, b), arity=2,
         shapes=(((3, 2), (3, 4)), (2, 3))),
    Spec("einsum_elementwise", lambda a, b: _lib(a).einsum("ij,ij->i", a, b),
         lambda np_, a, b: np_.sum(a * b, axis=1), arity=2, shapes=((2, 3), (3, 3))),
    Spec("einsum_unary", lambda a: _lib(a).einsum("ijk->kj", a),
         lambda np_, a: np_.einsum("ijk->kj", a), shapes=((2, 3, 4),)),
]
