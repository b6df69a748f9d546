"""Elementwise ops: one block per primitive (opcode, eager forward, Numba forward and
reverse rules).  Rules work on equal-sized flat ranges: ``o``, ``a``, ``b`` are offsets
into the arenas, ``n`` the length; broadcasting was made explicit by EXPAND rows.
Scalar operands (``x * 2.5``) come from the const pool as ``c`` (the ``_C`` variants).
"""
import builtins
import math
import operator

import numpy as np

from .. import _eager, dtypes
from .._fp import quiet
from .._jit import rule
from .._rules import add_into
from .._state import state
from ..tensor import Tensor, _leaf, host_values, norm
from ..typenames import typename
from . import layout
from ._pointwise import SCALAR_ROWS, Binary, Unary, make_binary, make_unary
from ._record import named_result, output, slot, tape_for_grad
from .registry import ZERO, api, declare, smooth, zero_gradient
from .spec import Spec
from .spec import lib as _lib
from .strided import broadcast_shape, expand_slot


def _sigmoid_np(x):
    # float64 by its kernel's formula (tapegrad/_eager.py: the replay rule's too), compiled
    # or, while the kernel loads and for 0-d values, in NumPy: the same values
    x = np.asarray(x)
    if x.dtype.kind != "f":  # bool: no unary minus in NumPy (ints: make_unary's float64)
        x = x.astype(np.float64)
    if x.dtype == np.float64:
        y = _eager.sigmoid(x)
        return _eager._sigmoid_numpy(x) if y is None else y
    if not x.ndim:
        e = np.exp(-np.abs(x))  # 1 / (1 + e) for x >= 0, e / (1 + e) below: one division
        return np.where(x >= 0, 1.0, e) / (1 + e)
    # the numerator as max(e, sign(x)): 1 where x > 0 (e <= 1 there), e where x < 0, 1 at
    # +-0 (e is 1), NaN staying NaN.  np.where with a Python float cost more (an LSTM's
    # gates, (8, 128): 12.1 -> 8.5 us a call, median), and so did max(e, x >= 0) (its bool
    # cast to float) and new arrays for each step (6.9 -> 5.4 us; the same values bit for
    # bit, at +-0, +-inf and NaN too)
    e = np.abs(x)
    np.negative(e, out=e)
    np.exp(e, out=e)
    y = np.sign(x)
    np.maximum(e, y, out=y)
    e += 1.0
    y /= e
    return y


def _sigmoid_py(x):
    return float(_eager._sigmoid_numpy(np.float64(x)))


# ---- add ----------------------------------------------------------------------------
ADD, ADD_C = 1, 6
_ADD = Binary(ADD, ADD_C, ADD_C, "add", operator.add, np.add, False, _eager.ADD)


@rule
def add_fwd(vals, o, a, b, n):
    for i in range(n):
        vals[o + i] = vals[a + i] + vals[b + i]


@rule
def add_rev(adj, vals, o, a, b, n, fa, fb):
    # d(a + b) = da + db  (fa, fb: a's, b's span not zeroed, written here: _rules.add_into)
    for i in range(n):
        add_into(adj, a + i, adj[o + i], fa)
        add_into(adj, b + i, adj[o + i], fb)


@rule
def add_half_rev(adj, o, a, b, n, da, db, sb, fa, fb):
    # add_rev (sub_rev: sb = -1) where one operand is a constant whose adjoint no one reads
    # (engine: reach CONST): only the other's (da, db: which) is accumulated
    if da:
        for i in range(n):
            add_into(adj, a + i, adj[o + i], fa)
    if db:
        for i in range(n):
            add_into(adj, b + i, sb * adj[o + i], fb)


def add_vjp(r, g):
    return [(r.a, g), (r.b, g)]


declare(ADD, "AddBackward0", fwd=add_fwd, rev=add_rev, vjp=add_vjp, tan=add_fwd, curv=ZERO)


@rule
def add_c_fwd(vals, o, a, c, n):
    for i in range(n):
        vals[o + i] = vals[a + i] + c


@rule
def pass_rev(adj, o, a, n):
    # d(x + c) = dx; also the rule of x - c and of every flat copy (reshape, view)
    for i in range(n):
        adj[a + i] += adj[o + i]


def pass_vjp(r, g):
    return [(r.a, g)]


@rule
def pass_tan(tan, o, a, n):
    # t(x + c) = tx; also x - c
    for i in range(n):
        tan[o + i] = tan[a + i]


declare(ADD_C, "AddBackward0", aux="const", scalar_edge=True, fwd=add_c_fwd, rev=pass_rev,
        vjp=pass_vjp, tan=pass_tan, curv=ZERO)


add = make_binary(_ADD, "``input + other``, broadcasting.")
api(add)


# ---- sub ----------------------------------------------------------------------------
SUB, SUB_C, RSUB_C = 2, 26, 9
_SUB = Binary(SUB, SUB_C, RSUB_C, "sub", operator.sub, np.subtract, False, _eager.SUB)


@rule
def sub_fwd(vals, o, a, b, n):
    for i in range(n):
        vals[o + i] = vals[a + i] - vals[b + i]


@rule
def sub_rev(adj, vals, o, a, b, n, fa, fb):
    # d(a - b) = da - db  (fa, fb: as add_rev's)
    for i in range(n):
        add_into(adj, a + i, adj[o + i], fa)
        add_into(adj, b + i, -adj[o + i], fb)


def sub_vjp(r, g):
    return [(r.a, g), (r.b, -g)]


declare(SUB, "SubBackward0", fwd=sub_fwd, rev=sub_rev, vjp=sub_vjp, tan=sub_fwd, curv=ZERO)


@rule
def sub_c_fwd(vals, o, a, c, n):
    for i in range(n):
        vals[o + i] = vals[a + i] - c


declare(SUB_C, "SubBackward0", aux="const", scalar_edge=True, fwd=sub_c_fwd, rev=pass_rev,
        vjp=pass_vjp, tan=pass_tan, curv=ZERO)


@rule
def rsub_c_fwd(vals, o, a, c, n):
    for i in range(n):
        vals[o + i] = c - vals[a + i]


@rule
def neg_rev(adj, o, a, n):
    # d(c - x) = d(-x) = -dx
    for i in range(n):
        adj[a + i] -= adj[o + i]


def neg_vjp(r, g):
    return [(r.a, -g)]


@rule
def neg_tan(tan, o, a, n):
    # t(c - x) = t(-x) = -tx
    for i in range(n):
        tan[o + i] = -tan[a + i]


declare(RSUB_C, "RsubBackward1", aux="const", fwd=rsub_c_fwd, rev=neg_rev, vjp=neg_vjp,
        tan=neg_tan, curv=ZERO)


sub = make_binary(_SUB, "``input - other``, broadcasting.")
api(sub)
rsub = make_binary(_SUB, "``other - input`` (``2 - x``).", reflected=True)


# ---- mul ----------------------------------------------------------------------------
MUL, MUL_C = 3, 7
_MUL = Binary(MUL, MUL_C, MUL_C, "mul", operator.mul, np.multiply, False, _eager.MUL)


@rule
def mul_fwd(vals, o, a, b, n):
    for i in range(n):
        vals[o + i] = vals[a + i] * vals[b + i]


@rule
def mul_rev(adj, vals, o, a, b, n, fa, fb):
    # d(ab) = b da + a db   (a == b for x * x: both terms land on x; fa, fb: as add_rev's,
    # never both for x * x)
    if fa or fb:
        for i in range(n):
            gy = adj[o + i]
            add_into(adj, a + i, gy * vals[b + i], fa)
            add_into(adj, b + i, gy * vals[a + i], fb)
        return
    for i in range(n):
        gy = adj[o + i]
        adj[a + i] += gy * vals[b + i]
        adj[b + i] += gy * vals[a + i]


@rule
def mul_half_rev(adj, vals, o, a, b, n, da, db, fa, fb):
    # mul_rev where one operand is a constant (add_half_rev): da, db say which to accumulate
    if da:
        for i in range(n):
            add_into(adj, a + i, adj[o + i] * vals[b + i], fa)
    if db:
        for i in range(n):
            add_into(adj, b + i, adj[o + i] * vals[a + i], fb)


def mul_vjp(r, g):
    return [(r.a, g * r.y), (r.b, g * r.x)]


@rule
def mul_tan(tan, vals, o, a, b, n):
    # t(ab) = b ta + a tb
    for i in range(n):
        tan[o + i] = tan[a + i] * vals[b + i] + vals[a + i] * tan[b + i]


@rule
def mul_curv(tadj, adj, vals, tan, o, a, b, n):
    # the tangent of mul_rev at fixed gy: ga' = gy tb, gb' = gy ta
    for i in range(n):
        gy = adj[o + i]
        tadj[a + i] += gy * tan[b + i]
        tadj[b + i] += gy * tan[a + i]


declare(MUL, "MulBackward0", saves="AB", fwd=mul_fwd, rev=mul_rev, vjp=mul_vjp,
        tan=mul_tan, curv=mul_curv)


@rule
def mul_c_fwd(vals, o, a, c, n):
    for i in range(n):
        vals[o + i] = vals[a + i] * c


@rule
def mul_c_rev(adj, o, a, c, n):
    # d(cx) = c dx
    for i in range(n):
        adj[a + i] += adj[o + i] * c


def mul_c_vjp(r, g):
    return [(r.a, g * r.c(r.k))]


declare(MUL_C, "MulBackward0", frees=True, aux="const", scalar_edge=True, fwd=mul_c_fwd,
        rev=mul_c_rev, vjp=mul_c_vjp, tan=mul_c_fwd, curv=ZERO)


mul = make_binary(_MUL, "``input * other``, broadcasting.")
api(mul)


# ---- a 0-d or row operand times (plus, minus) an array: MUL_S, ADD_S, SUB_S -------------
# [op, out, in0, in1, k]: in0 (k == 0) or in1 (k == 1) is the small operand, whose m values
# repeat along out's leading dims (a 0-d tensor, m = 1, or a trailing row such as a bias
# (N,) against (B, N)); the other has out's size (a constant broadcast to it, where it
# does not: _pointwise._recorded).  The small operand is read as it is, without an EXPAND
# row and its copy (a scalar parameter times a 2,000-point vector: PyTorch's
# polynomial-fit tutorial; an LSTM's bias added to its gates; k-means' centroids (1, K, d)
# subtracted from the points (n, 1, d), whose (n, K, d) adjoint was written by the sub
# and read again by the expand, issue 20).
# Values and gradients equal EXPAND + MUL/ADD/SUB's bit for bit: the same products, and the
# small operand's adjoint summed in float64, in element order, as expand_rev sums (a sub's
# -gy where the sub wrote -gy + 0.0: the two differ only for gy = 0, in the zero's sign,
# which a sum from +0.0 never keeps).
# Recorded on eager tapes only (_pointwise.SCALAR_ROWS): traces keep EXPAND, which
# replay and its fused kernels read.  The rules see ``ne`` repeats of ``w`` values
# (``repeats``: w = m values at each point, so a row operand is one wider "point").
# ADD_S and SUB_S share their rules: ``sb`` is the sign of in1 (1.0 or -1.0), and a
# product by it is exact, so an add's values and adjoints are as they were.
MUL_S, ADD_S, SUB_S = 122, 123, 127


@rule
def repeats(offs, a, b, k, ne, w):
    # (repeats, width) of a MUL_S/ADD_S row whose output has ne elements at w points:
    # its small operand's m elements at w points repeat ne / m times
    m = np.uint64(offs[(a if k == 0 else b) + 1] - offs[a if k == 0 else b])
    return ne // m, w * m


@rule
def _vector_scalar(a, b, k):
    # (vector, 0-d operand) offsets of a MUL_S/ADD_S row
    return (b, a) if k == 0 else (a, b)


@rule
def mul_s_fwd(vals, o, a, b, ne, w, k):
    v, s = _vector_scalar(a, b, k)
    for i in range(ne):
        q = i * w
        for p in range(w):
            vals[o + q + p] = vals[v + q + p] * vals[s + p]


@rule
def mul_s_rev(adj, vals, o, a, b, ne, w, k, da, db):
    # y = v c  =>  gv = gy c, gc = sum gy v (da, db: which adjoints are read, as mul_half_rev)
    # (row by row, in memory order: a column at a time strode across a large output; the
    # small operand's sums in float64, each over the rows in order, as expand_rev's)
    v, s = _vector_scalar(a, b, k)
    dv, ds = (db, da) if k == 0 else (da, db)
    if w == 1:  # a 0-d operand, eagerly: its sum in a register (an array's cost ~10%)
        c, t = vals[s], 0.0
        if dv:
            for i in range(ne):
                adj[v + i] += adj[o + i] * c
        if ds:
            for i in range(ne):
                t += adj[o + i] * vals[v + i]
            adj[s] += t
        return
    acc = np.zeros(w if ds else np.uint64(0))
    for i in range(ne):
        q = i * w
        for p in range(w):
            gy = adj[o + q + p]
            if dv:
                adj[v + q + p] += gy * vals[s + p]
            if ds:
                acc[p] += gy * vals[v + q + p]
    if ds:
        for p in range(w):
            adj[s + p] += acc[p]


def _to_small(r, g, s):
    """g (out's shape) summed onto MUL_S/ADD_S's small operand ``s`` (0-d, or a row whose
    values repeat along out's leading dims)."""
    m, shape = r.numel(s), tuple(r.shape(s))
    t = g.sum() if m == 1 else g.reshape(-1, m).sum(0)
    return t if tuple(t.shape) == shape else t.reshape(shape)


def mul_s_vjp(r, g):
    ga, gb = g * r.y, g * r.x
    return [(r.a, _to_small(r, ga, r.a) if r.k == 0 else ga),
            (r.b, _to_small(r, gb, r.b) if r.k == 1 else gb)]


@rule
def mul_s_tan(tan, vals, o, a, b, ne, w, k):
    # t(v c) = tv c + v tc
    v, s = _vector_scalar(a, b, k)
    for i in range(ne):
        q = i * w
        for p in range(w):
            tan[o + q + p] = tan[v + q + p] * vals[s + p] + vals[v + q + p] * tan[s + p]


@rule
def mul_s_curv(tadj, adj, vals, tan, o, a, b, ne, w, k):
    # the tangent of mul_s_rev at fixed gy: gv' = gy tc, gc' = sum gy tv
    v, s = _vector_scalar(a, b, k)
    acc = np.zeros(w)
    for i in range(ne):
        q = i * w
        for p in range(w):
            gy = adj[o + q + p]
            tadj[v + q + p] += gy * tan[s + p]
            acc[p] += gy * tan[v + q + p]
    for p in range(w):
        tadj[s + p] += acc[p]


@rule
def _signs(k, sb):
    # (the vector's sign, the small operand's) in out = in0 + sb * in1
    return (sb, 1.0) if k == 0 else (1.0, sb)


@rule
def add_s_fwd(vals, o, a, b, ne, w, k, sb):
    v, s = _vector_scalar(a, b, k)
    sv, ss = _signs(k, sb)
    for i in range(ne):
        q = i * w
        for p in range(w):
            vals[o + q + p] = sv * vals[v + q + p] + ss * vals[s + p]


@rule
def add_s_rev(adj, o, a, b, ne, w, k, da, db, sb):
    # y = a + sb b  =>  ga = gy, gb = sb gy; the small operand's summed
    v, s = _vector_scalar(a, b, k)
    dv, ds = (db, da) if k == 0 else (da, db)
    sv, ss = _signs(k, sb)
    if w == 1:  # (as mul_s_rev)
        t = 0.0
        if dv:
            for i in range(ne):
                adj[v + i] += sv * adj[o + i]
        if ds:
            for i in range(ne):
                t += ss * adj[o + i]
            adj[s] += t
        return
    acc = np.zeros(w if ds else np.uint64(0))  # (in memory order, as mul_s_rev)
    for i in range(ne):
        q = i * w
        for p in range(w):
            gy = adj[o + q + p]
            if dv:
                adj[v + q + p] += sv * gy
            if ds:
                acc[p] += ss * gy
    if ds:
        for p in range(w):
            adj[s + p] += acc[p]


def _add_s_grads(r, ga, gb):
    return [(r.a, _to_small(r, ga, r.a) if r.k == 0 else ga),
            (r.b, _to_small(r, gb, r.b) if r.k == 1 else gb)]


def add_s_vjp(r, g):
    return _add_s_grads(r, g, g)


def sub_s_vjp(r, g):
    return _add_s_grads(r, g, -g)


@rule
def add_s_tan(tan, o, a, b, ne, w, k, sb):
    v, s = _vector_scalar(a, b, k)
    sv, ss = _signs(k, sb)
    for i in range(ne):
        q = i * w
        for p in range(w):
            tan[o + q + p] = sv * tan[v + q + p] + ss * tan[s + p]


def _scalar_operand_layout(lay, R):
    o, a, b, k = R[:, 1], R[:, 2], R[:, 3], R[:, 4]
    n = lay.sizes(o, "out")
    na, nb = lay.sizes(a, "in0"), lay.sizes(b, "in1")
    lay.check_each((k != 0) & (k != 1), lambda i: f"aux must be 0 or 1 (which operand is the "
                                                  f"small one), got {int(k[i])}")
    small, vector = np.where(k == 0, na, nb), np.where(k == 0, nb, na)
    lay.check_each((small < 1) | (vector != n) | (n % np.maximum(small, 1) != 0),
                   lambda i: f"the small operand has {int(small[i])} elements (a divisor of "
                             f"the output's {int(n[i])} expected), the other "
                             f"{int(vector[i])} (the output's {int(n[i])})")
    lay.check_each((a >= o) | (b >= o), lambda i: f"an operand slot is not older than the "
                                                  f"output slot {int(o[i])}")


declare(MUL_S, "MulBackward0", saves="AB", aux="int", fwd=mul_s_fwd, rev=mul_s_rev,
        vjp=mul_s_vjp, check=_scalar_operand_layout, tan=mul_s_tan, curv=mul_s_curv)
declare(ADD_S, "AddBackward0", aux="int", fwd=add_s_fwd, rev=add_s_rev, vjp=add_s_vjp,
        check=_scalar_operand_layout, tan=add_s_tan, curv=ZERO)
declare(SUB_S, "SubBackward0", aux="int", fwd=add_s_fwd, rev=add_s_rev, vjp=sub_s_vjp,
        check=_scalar_operand_layout, tan=add_s_tan, curv=ZERO)
SCALAR_ROWS[MUL] = MUL_S
SCALAR_ROWS[ADD] = ADD_S
SCALAR_ROWS[SUB] = SUB_S


# ---- div ----------------------------------------------------------------------------
DIV, DIV_C, RDIV_C = 4, 8, 10
# PyTorch computes c / x as reciprocal(x) * c
_DIV = Binary(DIV, DIV_C, RDIV_C, "div", operator.truediv, np.true_divide, True,
              _eager.DIV)


@rule
def div_fwd(vals, o, a, b, n):
    for i in range(n):
        vals[o + i] = vals[a + i] / vals[b + i]


@rule
def div_rev(adj, vals, o, a, b, n):
    # d(a / b) = da / b - (a / b) / b db: as PyTorch, (a / b) / b, finite where b^2
    # underflows (|b| < 1e-162) and a / b does not (pinned by tests/test_torch_parity.py)
    for i in range(n):
        gy = adj[o + i]
        bv = vals[b + i]
        adj[a + i] += gy / bv
        adj[b + i] -= gy * ((vals[a + i] / bv) / bv)


def div_vjp(r, g):
    y = r.y
    return [(r.a, g / y), (r.b, -(g * (r.x / y)) / y)]


@rule
def div_tan(tan, vals, o, a, b, n):
    # t(a / b) = (ta - y tb) / b
    for i in range(n):
        tan[o + i] = (tan[a + i] - vals[o + i] * tan[b + i]) / vals[b + i]


@rule
def div_curv(tadj, adj, vals, tan, o, a, b, n):
    # ga = gy / b, gb = -gy y / b: ga' = -gy tb / b^2, gb' = -gy (ta - 2 y tb) / b^2
    for i in range(n):
        gb2 = adj[o + i] / (vals[b + i] * vals[b + i])
        tadj[a + i] -= gb2 * tan[b + i]
        tadj[b + i] -= gb2 * (tan[a + i] - 2.0 * vals[o + i] * tan[b + i])


declare(DIV, "DivBackward0", saves="Ab", fwd=div_fwd, rev=div_rev, vjp=div_vjp,
        tan=div_tan, curv=div_curv)


@rule
def div_c_fwd(vals, o, a, c, n):
    for i in range(n):
        vals[o + i] = vals[a + i] / c


@rule
def div_c_rev(adj, o, a, c, n):
    # d(x / c) = dx / c
    for i in range(n):
        adj[a + i] += adj[o + i] / c


def div_c_vjp(r, g):
    return [(r.a, g / r.c(r.k))]


declare(DIV_C, "DivBackward0", frees=True, aux="const", scalar_edge=True, fwd=div_c_fwd,
        rev=div_c_rev, vjp=div_c_vjp, tan=div_c_fwd, curv=ZERO)


@rule
def rdiv_c_fwd(vals, o, a, c, n):
    for i in range(n):
        vals[o + i] = c / vals[a + i]


@rule
def rdiv_c_rev(adj, vals, o, a, n):
    # d(c / x) = -(c / x) / x dx = -y / x dx
    for i in range(n):
        adj[a + i] -= adj[o + i] * vals[o + i] / vals[a + i]


def rdiv_c_vjp(r, g):
    return [(r.a, -(g * r.out) / r.x)]


@rule
def rdiv_c_tan(tan, vals, o, a, n):
    # t(c / x) = -y / x tx
    for i in range(n):
        tan[o + i] = -tan[a + i] * vals[o + i] / vals[a + i]


@rule
def rdiv_c_curv(tadj, adj, vals, tan, o, a, n):
    # ga = -gy y / x: ga' = 2 gy y tx / x^2
    for i in range(n):
        x = vals[a + i]
        tadj[a + i] += 2.0 * adj[o + i] * vals[o + i] * tan[a + i] / (x * x)


declare(RDIV_C, "MulBackward0", frees=True, reads="ao", aux="const", scalar_edge=True,
        fwd=rdiv_c_fwd, rev=rdiv_c_rev, vjp=rdiv_c_vjp, tan=rdiv_c_tan, curv=rdiv_c_curv)


div = make_binary(_DIV, "``input / other`` (true division), broadcasting.")
api(div)
rdiv = make_binary(_DIV, "``other / input`` (``2 / x``).", reflected=True)


# ---- pow ----------------------------------------------------------------------------
POW, POW_C, RPOW_C = 5, 11, 12


def _power(x, y):
    """``np.power``, but an array to an integral power beyond NumPy's own fast cases (0, 1,
    2, -1) is ``|x| ** c`` with x's sign put back for odd c: NumPy's pow of a negative
    base takes a path ~25x slower (x ** 3.0 on 2,000 values in [-3, 3]: 350 us against
    14), which made a polynomial fit 2.6x slower than PyTorch.  Exact for any pow that is
    symmetric in the base's sign, as C99's is for integral exponents (-0.0, inf, nan too).
    ``x ** 2`` is ``x * x`` (np.square) and ``x ** 3`` is ``(x * x) * x``, as PyTorch and
    pow_c_fwd compute them: NumPy's pow with the exponent 2.0 is ~1.5x slower, with 3.0
    (even as |x| ** 3) ~6x, and neither need round as the products do (x ** 3 differed
    from PyTorch's in the last bit of ~26% of random values)."""
    if type(y) is float and type(x) is np.ndarray and x.dtype.kind == "f":
        if y == 2.0:
            return np.square(x)
        if y == 3.0:
            return np.multiply(np.multiply(x, x), x)
    if (type(y) is float and type(x) is np.ndarray and y.is_integer() and not -1.0 <= y <= 2.0
            and x.dtype.kind == "f"):
        v = np.power(np.abs(x), y)
        return np.copysign(v, x) if y % 2.0 else v
    try:
        return np.power(x, y)
    except ValueError:  # NumPy refuses any negative integer exponent
        return _int_pow_negative(x, y)


def _int_pow_negative(x, y):
    """An integer base to integer exponents some of them negative, as PyTorch: refused for
    one exponent (a number), else elementwise 1 ** -n = 1, (-1) ** -n = +-1, other ** -n
    = 0 (the integer part of 1 / x ** n; 0 ** -n too, as its kernel gives)."""
    x, y = np.asarray(x), np.asarray(y)
    if y.ndim == 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    x, y = np.broadcast_arrays(x, y)
    v = np.power(x, np.maximum(y, 0))
    at_neg = np.where(x == 1, 1, np.where(x == -1, np.where(y % 2 == 0, 1, -1), 0))
    return np.where(y < 0, at_neg, v).astype(v.dtype)


_POW = Binary(POW, POW_C, RPOW_C, "pow", operator.pow, _power, False)


@rule
def pow_fwd(vals, o, a, b, n):
    for i in range(n):
        vals[o + i] = vals[a + i] ** vals[b + i]


@rule
def pow_rev(adj, vals, o, a, b, n):
    # d(a^b) = b a^(b-1) da + a^b log(a) db; PyTorch's masks: b == 0 gives 0 for da,
    # a == 0 with b >= 0 gives 0 for db (tests/test_ops.py pins both)
    for i in range(n):
        gy = adj[o + i]
        av = vals[a + i]
        bv = vals[b + i]
        if bv != 0.0:
            adj[a + i] += gy * bv * av ** (bv - 1.0)
        if not (av == 0.0 and bv >= 0.0):
            adj[b + i] += gy * vals[o + i] * math.log(av)


def pow_vjp(r, g):
    # PyTorch's masks, as pow_rev: b == 0 gives 0 for da; a == 0 with b >= 0 gives 0 for db
    x, y = r.x, r.y
    ga = where(y != 0, g * y * x ** (y - 1.0), 0.0)
    gb = where(r.f(x == 0) * r.f(y >= 0) == 0, g * r.out * log(x), 0.0)
    return [(r.a, ga), (r.b, gb)]


@rule
def pow_tan(tan, vals, o, a, b, n):
    # t(a^b) = b a^(b-1) ta + a^b log(a) tb, with pow_rev's masks
    for i in range(n):
        av = vals[a + i]
        bv = vals[b + i]
        t = 0.0
        if bv != 0.0:
            t += tan[a + i] * bv * av ** (bv - 1.0)
        if not (av == 0.0 and bv >= 0.0):
            t += tan[b + i] * vals[o + i] * math.log(av)
        tan[o + i] = t


declare(POW, "PowBackward1", saves="ab", reads="abo", fwd=pow_fwd, rev=pow_rev, vjp=pow_vjp,
        tan=pow_tan)


@rule
def pow_c_fwd(vals, o, a, c, n):
    if c == 2.0:  # x * x is exact and ~10x cheaper than pow(); so is x^2 in the rule below
        for i in range(n):
            vals[o + i] = vals[a + i] * vals[a + i]
    elif c == 3.0:  # (x * x) * x, as PyTorch and the eager forward (_power) compute it
        for i in range(n):
            vals[o + i] = vals[a + i] * vals[a + i] * vals[a + i]
    else:
        for i in range(n):
            vals[o + i] = vals[a + i] ** c


@rule
def pow_c_rev(adj, vals, o, a, c, n, fa):
    # d(x^c) = c x^(c-1) dx, and 0 for c == 0 (PyTorch's convention at x = 0)
    # (fa: a's span not zeroed, written here: _rules.add_into)
    if c == 2.0:
        for i in range(n):
            add_into(adj, a + i, adj[o + i] * 2.0 * vals[a + i], fa)
    # g * (c * x^(c-1)) in PyTorch's order, x^(c-1) as its pow kernel computes small powers
    elif c == 3.0:  # x * x: ~100x cheaper than pow() (~40 ns an element here)
        for i in range(n):
            add_into(adj, a + i, adj[o + i] * (3.0 * (vals[a + i] * vals[a + i])), fa)
    elif c == 4.0:
        for i in range(n):
            x = vals[a + i]
            add_into(adj, a + i, adj[o + i] * (4.0 * (x * x * x)), fa)
    elif c != 0.0:
        for i in range(n):
            add_into(adj, a + i, adj[o + i] * (c * vals[a + i] ** (c - 1.0)), fa)
    elif fa:  # (c == 0: the gradient is 0, still written)
        for i in range(n):
            adj[a + i] = 0.0


def pow_c_vjp(r, g):
    c = r.c(r.k)
    if c == 0.0:  # zeros, as PyTorch's (x ** 0's create_graph gradient is not "unused")
        return zero_gradient(r, g)
    if c == 2.0:  # the common square: no pow row (a transcendental call per element)
        return [(r.a, g * (2.0 * r.x))]
    return [(r.a, g * (c * r.x ** (c - 1.0)))]


@rule
def pow_c_tan(tan, vals, o, a, c, n):
    # t(x^c) = c x^(c-1) tx, 0 for c == 0 (as pow_c_rev)
    for i in range(n):
        x = vals[a + i]
        d = 2.0 * x if c == 2.0 else (0.0 if c == 0.0 else c * x ** (c - 1.0))
        tan[o + i] = tan[a + i] * d


@rule
def pow_c_curv(tadj, adj, vals, tan, o, a, c, n):
    # ga = gy c x^(c-1): ga' = gy c (c-1) x^(c-2) tx
    if c == 0.0 or c == 1.0:
        return
    for i in range(n):
        x = vals[a + i]
        d = 2.0 if c == 2.0 else c * (c - 1.0) * x ** (c - 2.0)
        tadj[a + i] += adj[o + i] * d * tan[a + i]


declare(POW_C, "PowBackward0", saves="a", aux="const", fwd=pow_c_fwd, rev=pow_c_rev, vjp=pow_c_vjp,
        tan=pow_c_tan, curv=pow_c_curv)


@rule
def rpow_c_fwd(vals, o, a, c, n):
    for i in range(n):
        vals[o + i] = c ** vals[a + i]


@rule
def rpow_c_rev(adj, vals, o, a, c, n):
    # d(c^x) = c^x log(c) dx, and 0 for c == 0 with x >= 0 (PyTorch's mask)
    lc = math.log(c) if c > 0.0 else math.nan
    for i in range(n):
        if not (c == 0.0 and vals[a + i] >= 0.0):
            adj[a + i] += adj[o + i] * vals[o + i] * lc


def rpow_c_vjp(r, g):
    c = r.c(r.k)
    lc = math.log(c) if c > 0.0 else math.nan
    if c == 0.0:
        return [(r.a, where(r.x < 0, g * r.out * lc, 0.0))]
    return [(r.a, g * r.out * lc)]


@rule
def rpow_c_tan(tan, vals, o, a, c, n):
    # t(c^x) = c^x log(c) tx, 0 for c == 0 with x >= 0 (as rpow_c_rev)
    lc = math.log(c) if c > 0.0 else math.nan
    for i in range(n):
        m = 0.0 if c == 0.0 and vals[a + i] >= 0.0 else 1.0
        tan[o + i] = m * tan[a + i] * vals[o + i] * lc if m else 0.0


@rule
def rpow_c_curv(tadj, adj, vals, tan, o, a, c, n):
    # ga = gy y log c: ga' = gy y log(c)^2 tx
    lc = math.log(c) if c > 0.0 else math.nan
    for i in range(n):
        if not (c == 0.0 and vals[a + i] >= 0.0):
            tadj[a + i] += adj[o + i] * vals[o + i] * lc * lc * tan[a + i]


declare(RPOW_C, "PowBackward2", saves="ao", aux="const", fwd=rpow_c_fwd, rev=rpow_c_rev,
        vjp=rpow_c_vjp, tan=rpow_c_tan, curv=rpow_c_curv)


pow = make_binary(_POW, "``input ** exponent``, broadcasting.")
api(pow)
rpow = make_binary(_POW, "``exponent ** input`` (``2 ** x``).", reflected=True)


# ---- unary ops: y = f(x); rules read the saved x or the saved y --------------------------
NEG = 13
_NEG = Unary(NEG, "neg", operator.neg, np.negative)


@rule
def neg_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = -vals[a + i]


declare(NEG, "NegBackward0", fwd=neg_fwd, rev=neg_rev, vjp=neg_vjp, tan=neg_tan, curv=ZERO)


neg = make_unary(_NEG, "``-input``.")
api(neg)


ABS = 14
_ABS = Unary(ABS, "abs", abs, np.abs)


@rule
def abs_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = math.fabs(vals[a + i])


@rule
def abs_rev(adj, vals, o, a, n):
    # d|x| = sign(x) dx, with sign(0) = sign(nan) = 0 as PyTorch (pinned in test_ops and
    # tests/test_torch_parity.py); PyTorch multiplies by it, so an inf or nan adjoint
    # there gives nan
    for i in range(n):
        x = vals[a + i]
        if x > 0.0:
            adj[a + i] += adj[o + i]
        elif x < 0.0:
            adj[a + i] -= adj[o + i]
        else:
            adj[a + i] += adj[o + i] * 0.0


def abs_vjp(r, g):
    return [(r.a, g * sign(r.x))]


@rule
def abs_tan(tan, vals, o, a, n):
    # t|x| = sign(x) tx (sign(0) = 0, as abs_rev)
    for i in range(n):
        x = vals[a + i]
        tan[o + i] = tan[a + i] if x > 0.0 else (-tan[a + i] if x < 0.0 else tan[a + i] * 0.0)


declare(ABS, "AbsBackward0", saves="a", fwd=abs_fwd, rev=abs_rev, vjp=abs_vjp,
        tan=abs_tan, curv=ZERO)


abs = make_unary(_ABS, "``|input|``.")
api(abs)


EXP = 15
_EXP = Unary(EXP, "exp", math.exp, np.exp)


@rule
def exp_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = math.exp(vals[a + i])


@rule
def exp_rev(adj, vals, o, a, n):
    # d e^x = e^x dx = y dx
    for i in range(n):
        adj[a + i] += adj[o + i] * vals[o + i]


@rule
def exp_tan(tan, vals, o, a, n):
    # t e^x = y tx
    for i in range(n):
        tan[o + i] = tan[a + i] * vals[o + i]


@rule
def exp_curv(tadj, adj, vals, tan, o, a, n):
    # ga = gy y: ga' = gy y tx
    for i in range(n):
        tadj[a + i] += adj[o + i] * vals[o + i] * tan[a + i]


declare(EXP, "ExpBackward0", saves="o", fwd=exp_fwd, rev=exp_rev, vjp=smooth(lambda x, y: y),
        tan=exp_tan, curv=exp_curv)


exp = make_unary(_EXP, "``e ** input``.")
api(exp)


LOG = 16
_LOG = Unary(LOG, "log", math.log, np.log)


@rule
def log_fwd(vals, o, a, n):
    for i in range(n):
        x = vals[a + i]
        vals[o + i] = math.log(x) if x > 0.0 else (-math.inf if x == 0.0 else math.nan)


@rule
def log_rev(adj, vals, o, a, n):
    # d log x = dx / x
    for i in range(n):
        adj[a + i] += adj[o + i] / vals[a + i]


@rule
def log_tan(tan, vals, o, a, n):
    # t log x = tx / x
    for i in range(n):
        tan[o + i] = tan[a + i] / vals[a + i]


@rule
def log_curv(tadj, adj, vals, tan, o, a, n):
    # ga = gy / x: ga' = -gy tx / x^2
    for i in range(n):
        x = vals[a + i]
        tadj[a + i] -= adj[o + i] * tan[a + i] / (x * x)


declare(LOG, "LogBackward0", saves="a", fwd=log_fwd, rev=log_rev, vjp=smooth(lambda x, y: 1.0 / x),
        tan=log_tan, curv=log_curv)


log = make_unary(_LOG, "Natural logarithm.")
api(log)


# ---- log2: the worked example of adding an op (this block, a spec row, two dispatch lines)
LOG2 = 118
_LN2 = math.log(2.0)


@rule
def log2_fwd(vals, o, a, n):
    for i in range(n):
        x = vals[a + i]
        vals[o + i] = math.log2(x) if x > 0.0 else (-math.inf if x == 0.0 else math.nan)


@rule
def log2_rev(adj, vals, o, a, n):
    # d log2 x = dx / (x ln 2)
    for i in range(n):
        adj[a + i] += adj[o + i] / (vals[a + i] * _LN2)


@rule
def log2_tan(tan, vals, o, a, n):
    # t log2 x = tx / (x ln 2)
    for i in range(n):
        tan[o + i] = tan[a + i] / (vals[a + i] * _LN2)


@rule
def log2_curv(tadj, adj, vals, tan, o, a, n):
    # ga = gy / (x ln 2): ga' = -gy tx / (x^2 ln 2)
    for i in range(n):
        x = vals[a + i]
        tadj[a + i] -= adj[o + i] * tan[a + i] / (x * x * _LN2)


declare(LOG2, "Log2Backward0", saves="a", fwd=log2_fwd, rev=log2_rev,
        vjp=smooth(lambda x, y: 1.0 / (x * _LN2)), tan=log2_tan, curv=log2_curv)
log2 = api(make_unary(Unary(LOG2, "log2", math.log2, np.log2), "Base-2 logarithm."))


LOG1P = 17
_LOG1P = Unary(LOG1P, "log1p", math.log1p, np.log1p)


@rule
def log1p_fwd(vals, o, a, n):
    for i in range(n):
        x = vals[a + i]
        vals[o + i] = math.log1p(x) if x > -1.0 else (-math.inf if x == -1.0 else math.nan)


@rule
def log1p_rev(adj, vals, o, a, n):
    # d log(1 + x) = dx / (1 + x)
    for i in range(n):
        adj[a + i] += adj[o + i] / (1.0 + vals[a + i])


@rule
def log1p_tan(tan, vals, o, a, n):
    # t log(1 + x) = tx / (1 + x)
    for i in range(n):
        tan[o + i] = tan[a + i] / (1.0 + vals[a + i])


@rule
def log1p_curv(tadj, adj, vals, tan, o, a, n):
    # ga = gy / (1 + x): ga' = -gy tx / (1 + x)^2
    for i in range(n):
        x = 1.0 + vals[a + i]
        tadj[a + i] -= adj[o + i] * tan[a + i] / (x * x)


declare(LOG1P, "Log1PBackward0", saves="a", fwd=log1p_fwd, rev=log1p_rev,
        vjp=smooth(lambda x, y: 1.0 / (x + 1.0)), tan=log1p_tan, curv=log1p_curv)


log1p = make_unary(_LOG1P, "``log(1 + input)``, accurate near 0.")
api(log1p)


EXPM1 = 18
_EXPM1 = Unary(EXPM1, "expm1", math.expm1, np.expm1)


@rule
def expm1_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = math.expm1(vals[a + i])


@rule
def expm1_rev(adj, vals, o, a, n):
    # d (e^x - 1) = e^x dx = (y + 1) dx
    for i in range(n):
        adj[a + i] += adj[o + i] * (vals[o + i] + 1.0)


@rule
def expm1_tan(tan, vals, o, a, n):
    # t (e^x - 1) = (y + 1) tx
    for i in range(n):
        tan[o + i] = tan[a + i] * (vals[o + i] + 1.0)


@rule
def expm1_curv(tadj, adj, vals, tan, o, a, n):
    # ga = gy (y + 1): ga' = gy (y + 1) tx
    for i in range(n):
        tadj[a + i] += adj[o + i] * (vals[o + i] + 1.0) * tan[a + i]


declare(EXPM1, "Expm1Backward0", saves="o", fwd=expm1_fwd, rev=expm1_rev,
        vjp=smooth(lambda x, y: y + 1.0), tan=expm1_tan, curv=expm1_curv)


expm1 = make_unary(_EXPM1, "``exp(input) - 1``, accurate near 0.")
api(expm1)


SQRT = 19
_SQRT = Unary(SQRT, "sqrt", math.sqrt, np.sqrt)


@rule
def sqrt_fwd(vals, o, a, n):
    for i in range(n):
        x = vals[a + i]
        vals[o + i] = math.sqrt(x) if x >= 0.0 else math.nan


@rule
def sqrt_rev(adj, vals, o, a, n):
    # d sqrt(x) = dx / (2 sqrt(x)) = dx / (2 y)
    for i in range(n):
        adj[a + i] += adj[o + i] / (2.0 * vals[o + i])


@rule
def sqrt_tan(tan, vals, o, a, n):
    # t sqrt(x) = tx / (2 y)
    for i in range(n):
        tan[o + i] = tan[a + i] / (2.0 * vals[o + i])


@rule
def sqrt_curv(tadj, adj, vals, tan, o, a, n):
    # ga = gy / (2 y): ga' = -gy tx / (4 y^3)
    for i in range(n):
        y = vals[o + i]
        tadj[a + i] -= adj[o + i] * tan[a + i] / (4.0 * y * y * y)


declare(SQRT, "SqrtBackward0", saves="o", fwd=sqrt_fwd, rev=sqrt_rev,
        vjp=smooth(lambda x, y: 0.5 / y), tan=sqrt_tan, curv=sqrt_curv)


sqrt = make_unary(_SQRT, "Square root.")
api(sqrt)


SIN = 20
_SIN = Unary(SIN, "sin", math.sin, np.sin)


@rule
def sin_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = math.sin(vals[a + i])


@rule
def sin_rev(adj, vals, o, a, n):
    # d sin x = cos x dx
    for i in range(n):
        adj[a + i] += adj[o + i] * math.cos(vals[a + i])


@rule
def sin_tan(tan, vals, o, a, n):
    # t sin x = cos x tx
    for i in range(n):
        tan[o + i] = tan[a + i] * math.cos(vals[a + i])


@rule
def sin_curv(tadj, adj, vals, tan, o, a, n):
    # ga = gy cos x: ga' = -gy sin x tx
    for i in range(n):
        tadj[a + i] -= adj[o + i] * math.sin(vals[a + i]) * tan[a + i]


declare(SIN, "SinBackward0", saves="a", fwd=sin_fwd, rev=sin_rev, vjp=smooth(lambda x, y: cos(x)),
        tan=sin_tan, curv=sin_curv)


sin = make_unary(_SIN, "Sine.")
api(sin)


COS = 21
_COS = Unary(COS, "cos", math.cos, np.cos)


@rule
def cos_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = math.cos(vals[a + i])


@rule
def cos_rev(adj, vals, o, a, n):
    # d cos x = -sin x dx
    for i in range(n):
        adj[a + i] -= adj[o + i] * math.sin(vals[a + i])


@rule
def cos_tan(tan, vals, o, a, n):
    # t cos x = -sin x tx
    for i in range(n):
        tan[o + i] = -tan[a + i] * math.sin(vals[a + i])


@rule
def cos_curv(tadj, adj, vals, tan, o, a, n):
    # ga = -gy sin x: ga' = -gy cos x tx
    for i in range(n):
        tadj[a + i] -= adj[o + i] * math.cos(vals[a + i]) * tan[a + i]


declare(COS, "CosBackward0", saves="a", fwd=cos_fwd, rev=cos_rev, vjp=smooth(lambda x, y: -sin(x)),
        tan=cos_tan, curv=cos_curv)


cos = make_unary(_COS, "Cosine.")
api(cos)


TAN = 22
_TAN = Unary(TAN, "tan", math.tan, np.tan)


@rule
def tan_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = math.tan(vals[a + i])


@rule
def tan_rev(adj, vals, o, a, n):
    # d tan x = (1 + tan^2 x) dx = (1 + y^2) dx
    for i in range(n):
        y = vals[o + i]
        adj[a + i] += adj[o + i] * (1.0 + y * y)


@rule
def tan_tan(tan, vals, o, a, n):
    # t tan x = (1 + y^2) tx
    for i in range(n):
        y = vals[o + i]
        tan[o + i] = tan[a + i] * (1.0 + y * y)


@rule
def tan_curv(tadj, adj, vals, tan, o, a, n):
    # ga = gy (1 + y^2): ga' = 2 gy y (1 + y^2) tx
    for i in range(n):
        y = vals[o + i]
        tadj[a + i] += 2.0 * adj[o + i] * y * (1.0 + y * y) * tan[a + i]


declare(TAN, "TanBackward0", saves="o", fwd=tan_fwd, rev=tan_rev,
        vjp=smooth(lambda x, y: y * y + 1.0), tan=tan_tan, curv=tan_curv)


tan = make_unary(_TAN, "Tangent.")
api(tan)


TANH = 23
_TANH = Unary(TANH, "tanh", math.tanh, _eager.tanh)  # (float64: its vectorised kernel)


@rule
def tanh_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = math.tanh(vals[a + i])


@rule
def tanh_rev(adj, vals, o, a, n, fresh):
    # d tanh x = (1 - y^2) dx, 1 - y^2 rounded to the arena's dtype first: in a float32
    # graph float32 products (no float64 temporaries), PyTorch's tanh_backward there (its
    # fma, then the product); float64 as before.  ``fresh``: _rules.add_into's
    t = vals.dtype.type
    for i in range(n):
        y = vals[o + i]
        add_into(adj, a + i, adj[o + i] * t(1.0 - np.float64(y) * y), fresh)


@rule
def tanh_tan(tan, vals, o, a, n):
    # t tanh x = (1 - y^2) tx
    for i in range(n):
        y = vals[o + i]
        tan[o + i] = tan[a + i] * (1.0 - y * y)


@rule
def tanh_curv(tadj, adj, vals, tan, o, a, n):
    # ga = gy (1 - y^2): ga' = -2 gy y (1 - y^2) tx
    for i in range(n):
        y = vals[o + i]
        tadj[a + i] -= 2.0 * adj[o + i] * y * (1.0 - y * y) * tan[a + i]


declare(TANH, "TanhBackward0", saves="o", fwd=tanh_fwd, rev=tanh_rev,
        vjp=smooth(lambda x, y: 1.0 - y * y), tan=tanh_tan, curv=tanh_curv)


tanh = make_unary(_TANH, "Hyperbolic tangent.")
api(tanh)


SIGMOID = 24
_SIGMOID = Unary(SIGMOID, "sigmoid", _sigmoid_py, _sigmoid_np)


@rule
def sigmoid_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = _eager._sigmoid_of(vals[a + i])


@rule
def sigmoid_rev(adj, vals, o, a, n):
    # d s(x) = s (1 - s) dx = y (1 - y) dx
    for i in range(n):
        y = vals[o + i]
        adj[a + i] += adj[o + i] * y * (1.0 - y)


@rule
def sigmoid_tan(tan, vals, o, a, n):
    # t s(x) = y (1 - y) tx
    for i in range(n):
        y = vals[o + i]
        tan[o + i] = tan[a + i] * y * (1.0 - y)


@rule
def sigmoid_curv(tadj, adj, vals, tan, o, a, n):
    # ga = gy y (1 - y): ga' = gy (1 - 2 y) y (1 - y) tx
    for i in range(n):
        y = vals[o + i]
        tadj[a + i] += adj[o + i] * (1.0 - 2.0 * y) * y * (1.0 - y) * tan[a + i]


declare(SIGMOID, "SigmoidBackward0", saves="o", fwd=sigmoid_fwd, rev=sigmoid_rev,
        vjp=smooth(lambda x, y: y * (1.0 - y)), tan=sigmoid_tan, curv=sigmoid_curv)


sigmoid = make_unary(_SIGMOID, "Logistic sigmoid ``1 / (1 + exp(-x))``, stable at both ends.")
api(sigmoid)


RELU = 25
_RELU = Unary(RELU, "relu", lambda x: 0.0 if x <= 0.0 else x,
              lambda x: np.where(x <= 0, np.zeros((), np.asarray(x).dtype), x))


@rule
def relu_fwd(vals, o, a, n):
    for i in range(n):
        x = vals[a + i]
        vals[o + i] = 0.0 if x <= 0.0 else x


@rule
def relu_rev(adj, vals, o, a, n):
    # d relu x = [not y <= 0] dx: 0 at x = 0, 1 at nan, as PyTorch's threshold_backward
    # (pinned in test_ops and tests/test_torch_parity.py)
    for i in range(n):
        if not vals[o + i] <= 0.0:
            adj[a + i] += adj[o + i]


def relu_vjp(r, g):
    # the mask is a function of x with zero derivative (sign's): the gradient requires grad
    # where x does, and its own derivative is 0, as PyTorch's ThresholdBackwardBackward0
    x = r.x
    return [(r.a, g * ((1.0 - r.f(x <= 0)) + sign(x) * 0.0))]


@rule
def relu_tan(tan, vals, o, a, n):
    # t relu x = [not y <= 0] tx (as relu_rev)
    for i in range(n):
        tan[o + i] = 0.0 if vals[o + i] <= 0.0 else tan[a + i]


declare(RELU, "ReluBackward0", saves="o", fwd=relu_fwd, rev=relu_rev, vjp=relu_vjp,
        tan=relu_tan, curv=ZERO)


relu = make_unary(_RELU, "``max(input, 0)``; its gradient at 0 is 0.")
api(relu)


# ---- what the ops below share -----------------------------------------------------------
@rule
def _recip(x):
    # 1 / x with IEEE's 1 / 0 = inf (compiled code would raise ZeroDivisionError instead)
    if x == 0.0:
        return np.inf if not np.signbit(x) else -np.inf
    return 1.0 / x


def _tensor_other(op, other, pos="other"):
    """PyTorch's ops with a Tensor-only second operand refuse Python numbers."""
    if not isinstance(other, Tensor):
        raise TypeError(f"{op}(): argument '{pos}' (position 2) must be Tensor, not "
                        f"{type(other).__name__} (wrap it: tapegrad.tensor(value))")
    return other


# ---- maximum / minimum: elementwise, ties split the gradient half and half -------------
MAXIMUM, MINIMUM = 100, 101
_MAXIMUM = Binary(MAXIMUM, -1, -1, "maximum",
                  lambda a, b: a if a > b or a != a else b, np.maximum, False)
_MINIMUM = Binary(MINIMUM, -1, -1, "minimum",
                  lambda a, b: a if a < b or a != a else b, np.minimum, False)


@rule
def maximum_fwd(vals, o, a, b, n, s):
    # s = 1: max(a, b), s = -1: min(a, b); a nan on either side gives nan
    for i in range(n):
        x = vals[a + i]
        y = vals[b + i]
        vals[o + i] = x if s * x > s * y or x != x else y


@rule
def maximum_rev(adj, vals, o, a, b, n, s):
    # d max(a, b) = [a > b] da + [b > a] db, and half each at a tie (PyTorch's rule, where
    # a nan sends all of gy to both sides); s = -1 mirrors it for min
    for i in range(n):
        x = s * vals[a + i]
        y = s * vals[b + i]
        gy = adj[o + i]
        if x == y:
            adj[a + i] += gy * 0.5
            adj[b + i] += gy * 0.5
        else:
            if not x < y:
                adj[a + i] += gy
            if not x > y:
                adj[b + i] += gy


def maximum_vjp(r, g):
    # as maximum_rev: the larger side gets g, half each at a tie, both at a nan
    if r.a == r.b:
        return [(r.a, g)]
    x, y = r.x, r.y
    below, above = (x < y, x > y) if r.op == MAXIMUM else (x > y, x < y)
    tie = r.f(x == y) * 0.5
    return [(r.a, g * (1.0 - r.f(below) - tie)), (r.b, g * (1.0 - r.f(above) - tie))]


@rule
def maximum_tan(tan, vals, o, a, b, n, s):
    # as maximum_rev: the larger side's tangent, the mean of both at a tie, their sum at a nan
    for i in range(n):
        x = s * vals[a + i]
        y = s * vals[b + i]
        if x == y:
            tan[o + i] = 0.5 * (tan[a + i] + tan[b + i])
        else:
            t = 0.0
            if not x < y:
                t += tan[a + i]
            if not x > y:
                t += tan[b + i]
            tan[o + i] = t


declare(MAXIMUM, "MaximumBackward0", saves="ab", fwd=maximum_fwd, rev=maximum_rev, vjp=maximum_vjp,
        tan=maximum_tan, curv=ZERO)


declare(MINIMUM, "MinimumBackward0", saves="ab", fwd=maximum_fwd, rev=maximum_rev, vjp=maximum_vjp,
        tan=maximum_tan, curv=ZERO)


_maximum = make_binary(_MAXIMUM, "")
_minimum = make_binary(_MINIMUM, "")


@api
def maximum(input, other):
    """Elementwise maximum, broadcasting; at ties each side gets half the gradient.

    >>> import tapegrad as tg
    >>> tg.maximum(tg.tensor([1.0, 5.0]), tg.tensor([3.0, 2.0])).tolist()
    [3.0, 5.0]
    """
    return _maximum(input, _tensor_other("maximum", other))


@api
def minimum(input, other):
    """Elementwise minimum, broadcasting; at ties each side gets half the gradient."""
    return _minimum(input, _tensor_other("minimum", other))


# ---- clamp: scalar bounds (either may be None); gradient 1 on [min, max] inclusive -------
CLAMP = 102  # aux: consts [min, max] (+-inf for None)


@rule
def clamp_fwd(vals, o, a, lo, hi, n):
    # nan stays nan; min > max gives max everywhere, as PyTorch
    for i in range(n):
        x = vals[a + i]
        if x < lo:
            x = lo
        if x > hi:
            x = hi
        vals[o + i] = x


@rule
def clamp_rev(adj, vals, o, a, lo, hi, n):
    # d clamp(x) = [lo <= x <= hi] dx: the bounds themselves pass the gradient (PyTorch)
    for i in range(n):
        x = vals[a + i]
        if x >= lo and x <= hi:
            adj[a + i] += adj[o + i]


def clamp_vjp(r, g):
    # selected, not masked by a product: an infinite g outside the bounds gives 0, as
    # clamp_rev and PyTorch's (logit(x, eps=0)'s create_graph gradient at x < 0)
    x = r.x
    return [(r.a, where(x >= r.c(r.k), where(x <= r.c(r.k + 1), g, 0.0), 0.0))]


@rule
def clamp_tan(tan, vals, o, a, lo, hi, n):
    # t clamp(x) = [lo <= x <= hi] tx (as clamp_rev)
    for i in range(n):
        x = vals[a + i]
        tan[o + i] = tan[a + i] if x >= lo and x <= hi else 0.0


def _no_nan_bound(lay, R):
    """Clamp's consts [min, max], neither NaN: PyTorch's clamp by a NaN bound gives NaN
    everywhere, clamp_fwd's comparisons keep x (a trace of one never records: its
    self-check refuses it), and clamp_rev's gradient, 0, was then not the derivative of
    what the row computed (a crafted file's NaN bound: found by fuzz_trace_combos --fd)."""
    k = R[:, 4]
    c = lay.const_values
    lay.check_each(np.isnan(c[k]) | np.isnan(c[k + 1]), lambda i: (
        f"a NaN bound (consts[{int(k[i])}:{int(k[i]) + 2}] = {c[k[i]]!r}, "
        f"{c[k[i] + 1]!r}): PyTorch's clamp gives NaN there, which this row does not"))


declare(CLAMP, "ClampBackward1", saves="a", aux="const", fwd=clamp_fwd, rev=clamp_rev,
        vjp=clamp_vjp, check=layout.elementwise(consts=2, also=_no_nan_bound), tan=clamp_tan,
        curv=ZERO)  # consts: min, max


@api
def clamp(input, min=None, max=None):  # noqa: A002 (PyTorch's names)
    """Clamp to ``[min, max]`` (either may be None); Tensor bounds broadcast.

    >>> import tapegrad as tg
    >>> tg.tensor([-2.0, 0.5, 3.0]).clamp(-1, 1).tolist()
    [-1.0, 0.5, 1.0]
    """
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if min is not None and max is not None and isinstance(min, Tensor) != isinstance(max, Tensor):
        min, max = _number_bound(min, min, max), _number_bound(max, min, max)
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return named_result(_clamp_tensors(input, min, max), "ClampBackward0", input, min, max)
    bounds = [b for b in (min, max) if b is not None]
    rd = dtypes.result_type((input.dtype, input.ndim), *[(np.asarray(b).dtype, None)
                                                          for b in bounds])
    for b in bounds:
        dtypes.check_fits(b, rd)
    lo = -np.inf if min is None else float(min)
    hi = np.inf if max is None else float(max)
    d = input._data
    if type(d) is float:
        v = lo if d < lo else d  # nan stays nan
        v = hi if v > hi else v
    else:
        v = np.asarray(d).astype(rd, copy=False)
        if min is not None:
            v = np.maximum(v, rd.type(min))
        if max is not None:
            v = np.minimum(v, rd.type(max))
        v = norm(v)
    if not (input._rg and state.grad_enabled):
        return _leaf(v)
    tape = tape_for_grad()
    k = tape.const_run(lo, hi)
    return output(tape, v, CLAMP, slot(input, tape), -1, k)


def _number_bound(b, lo, hi):
    """A bound of clamp's Number overload: PyTorch takes both bounds as Tensors or both as
    numbers (a 0-dim tensor that requires no grad passes for one), else a TypeError."""
    if not isinstance(b, Tensor):
        return b
    if b.ndim == 0 and not b.requires_grad:
        return b.item()
    got = ", ".join(f"{k}=" + ("Tensor" if isinstance(v, Tensor) else typename(v))
                    for k, v in (("max", hi), ("min", lo)))
    raise TypeError(f"clamp() received an invalid combination of arguments - got (Tensor, "
                    f"{got}), but expected one of:\n"
                    " * (Tensor input, Tensor min = None, Tensor max = None, *, "
                    "Tensor out = None)\n"
                    " * (Tensor input, Number min = None, Number max = None, *, "
                    "Tensor out = None)\n")


def _clamp_tensors(input, lo, hi):
    """clamp with Tensor bounds, composed from where: the input gets the gradient where it
    lies inside, each bound where it binds (PyTorch's ClampBackward0 convention)."""
    # both bounds converted before anything records: a bad max leaves no rows for min
    lo = lo if lo is None or isinstance(lo, Tensor) else Tensor(float(lo))
    hi = hi if hi is None or isinstance(hi, Tensor) else Tensor(float(hi))
    shape = input.shape  # shapes too: a bound that cannot broadcast raises before any row
    for b in (lo, hi):
        if b is not None:
            shape = broadcast_shape("clamp", shape, b.shape)
    y = input
    if lo is not None:
        y = where(y < lo, lo, y)
    if hi is not None:
        y = where(y > hi, hi, y)
    if not y.is_floating_point():
        return y
    # a NaN bound gives NaN there (the comparisons above keep x), and a NaN anywhere no
    # gradient to anything (PyTorch's ClampBackward0 tests x >= min, x <= max and x < min)
    nan = input.isnan()
    for b in (lo, hi):
        nan = nan if b is None else nan | b.isnan()
    return where(nan, np.nan, y)


@api
def clamp_min(input, min):  # noqa: A002
    """``clamp(input, min=min)`` (PyTorch's node: ClampMinBackward0 for a number)."""
    y = clamp(input, min=min)
    return y if isinstance(min, Tensor) else named_result(y, "ClampMinBackward0")


@api
def clamp_max(input, max):  # noqa: A002
    """``clamp(input, max=max)`` (PyTorch's node: ClampMaxBackward0 for a number)."""
    y = clamp(input, max=max)
    return y if isinstance(max, Tensor) else named_result(y, "ClampMaxBackward0")


clip = clamp
api(clip, name="clip")


# ---- where(cond, a, b): the condition's slot rides in aux ---------------------------------
WHERE = 103  # aux: the slot of cond (1.0 / 0.0, broadcast): replay reads it at every point


@rule
def where_fwd(vals, o, a, b, c, n):
    for i in range(n):
        vals[o + i] = vals[a + i] if vals[c + i] != 0.0 else vals[b + i]


@rule
def where_rev(adj, vals, o, a, b, c, n):
    # d where(c, a, b) = c da + (1 - c) db
    for i in range(n):
        if vals[c + i] != 0.0:
            adj[a + i] += adj[o + i]
        else:
            adj[b + i] += adj[o + i]


def where_vjp(r, g):
    cond = r.w.tensor(r.k) != 0  # a comparison: recorded (and replayed) while tracing
    return [(r.a, where(cond, g, 0.0)), (r.b, where(cond, 0.0, g))]


@rule
def where_tan(tan, vals, o, a, b, c, n):
    for i in range(n):
        tan[o + i] = tan[a + i] if vals[c + i] != 0.0 else tan[b + i]


declare(WHERE, "WhereBackward0", frees=True, aux="slot", fwd=where_fwd, rev=where_rev, vjp=where_vjp,
        tan=where_tan, curv=ZERO)


@api(method=False)
def where(condition, input=None, other=None):
    """``input`` where ``condition`` holds, else ``other`` (either may be a number); all
    three broadcast.  Branch-free: a replayed trace follows the condition at every point.
    ``where(condition)`` alone is ``nonzero(condition, as_tuple=True)``.

    >>> import tapegrad as tg
    >>> x = tg.tensor([-1.0, 2.0])
    >>> tg.where(x > 0, x, 0.0).tolist()
    [0.0, 2.0]
    """
    if type(input) is Tensor and type(other) is Tensor and type(condition) is Tensor:
        x, y, c = input._data, other._data, condition._data
        if type(x) is np.ndarray and type(y) is np.ndarray and type(c) is np.ndarray and \
                x.dtype is y.dtype and x.dtype.kind == "f" and c.dtype == np.bool_ and \
                x.shape == y.shape == c.shape:
            # two float tensors of one dtype and shape and their shape's condition (a
            # composite's where: huber, smooth_l1, clamp): nothing to promote or broadcast,
            # the row below in a third of the time
            return _where_row(condition, input, other, norm(np.where(c, x, y)))
    if not isinstance(condition, Tensor):
        condition = Tensor(condition)
    if input is None and other is None:
        c = host_values(condition, "where(condition)")
        return tuple(Tensor(np.ascontiguousarray(ix, np.int64))
                     for ix in np.nonzero(c.reshape(1) if c.ndim == 0 else c))
    if input is None or other is None:
        raise TypeError("where() takes the condition alone, or condition, input and other")
    if condition.dtype != np.bool_:
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor "
                           f"with dtype {dtypes.torch_name(condition.dtype)}")
    (a, ta), (b, tb) = _where_operand(input), _where_operand(other)
    shape = broadcast_shape("where", broadcast_shape("where", condition.shape, a.shape),
                            b.shape)
    rd = dtypes.result_type(ta, tb)
    for number, (_, nd) in ((input, ta), (other, tb)):
        if nd is None:
            dtypes.check_fits(number, rd)
    # a number takes the result's dtype, as in PyTorch (a float64 constant would make a
    # float32 graph sweep in float64: tape.py)
    a = Tensor(np.asarray(a._data, rd)) if ta[1] is None else a
    b = Tensor(np.asarray(b._data, rd)) if tb[1] is None else b
    with quiet():
        v = np.where(np.asarray(condition._data), np.asarray(a._data, rd),
                     np.asarray(b._data, rd))
    return _where_row(condition, a, b, norm(v.astype(rd, copy=False)), shape)


def _where_row(condition, a, b, v, shape=None):
    """where's value ``v`` as a WHERE row of ``a``, ``b`` and ``condition`` broadcast to
    ``shape`` (None: all three have v's shape already)."""
    if not ((a._rg or b._rg) and state.grad_enabled):
        tape = state.tracing
        if tape is None or not condition._rg:  # a traced condition: record, to follow it
            return _leaf(v)
    tape = tape_for_grad()
    sa, sb = _where_slot(tape, a, shape), _where_slot(tape, b, shape)
    return output(tape, v, WHERE, sa, sb, _where_slot(tape, condition, shape))


def _where_slot(tape, t, shape):
    s = slot(t, tape)
    return s if shape is None else expand_slot(tape, t, s, shape)


def _where_operand(x):
    """(tensor, (dtype, ndim)) of a where() operand: Python numbers promote as scalars."""
    if isinstance(x, Tensor):
        return x, (x.dtype, x.ndim)
    t = Tensor(x)
    return t, (t.dtype, None if isinstance(x, (bool, int, float)) else t.ndim)


# ---- sign, floor, ceil, round: zero gradient, but a row, so replay recomputes them ------
SIGN, FLOOR, CEIL, ROUND, ROUND_DEC = 104, 105, 106, 107, 108  # ROUND_DEC: aux -> decimals


def _sign_py(x):
    return 1.0 if x > 0.0 else (-1.0 if x < 0.0 else 0.0)  # sign(nan) = 0, as PyTorch


def _sign_np(x):
    x = np.asarray(x)
    if x.dtype == bool:
        return x.copy()  # sign(True) is True, as PyTorch (NumPy has no bool sign)
    return np.where(np.isnan(x), np.zeros((), x.dtype), np.sign(x)) if x.dtype.kind == "f" \
        else np.sign(x)


_SIGN = Unary(SIGN, "sign", _sign_py, _sign_np)
_FLOOR = Unary(FLOOR, "floor", lambda x: float(math.floor(x)), np.floor)
_CEIL = Unary(CEIL, "ceil", lambda x: float(math.ceil(x)), np.ceil)
_ROUND = Unary(ROUND, "round", lambda x: math.copysign(float(builtins.round(x)), x), np.round)


@rule
def sign_fwd(vals, o, a, n):
    for i in range(n):
        x = vals[a + i]
        vals[o + i] = 1.0 if x > 0.0 else (-1.0 if x < 0.0 else 0.0)


declare(SIGN, "SignBackward0", fwd=sign_fwd, vjp=zero_gradient, tan=ZERO, curv=ZERO)


@rule
def floor_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = np.floor(vals[a + i])


declare(FLOOR, "FloorBackward0", fwd=floor_fwd, vjp=zero_gradient, tan=ZERO, curv=ZERO)


@rule
def ceil_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = np.ceil(vals[a + i])


declare(CEIL, "CeilBackward0", fwd=ceil_fwd, vjp=zero_gradient, tan=ZERO, curv=ZERO)


@rule
def round_fwd(vals, o, a, n):
    # half to even, as PyTorch and NumPy
    for i in range(n):
        vals[o + i] = np.rint(vals[a + i])


declare(ROUND, "RoundBackward0", fwd=round_fwd, vjp=zero_gradient, tan=ZERO, curv=ZERO)


@rule
def round_dec_fwd(vals, o, a, d, n):
    # round(x * 10^d) / 10^d, or round(x / 10^-d) * 10^-d for d < 0 (PyTorch, NumPy)
    scale = 10.0 ** np.abs(d)
    for i in range(n):
        x = vals[a + i]
        vals[o + i] = np.rint(x * scale) / scale if d >= 0 else np.rint(x / scale) * scale


declare(ROUND_DEC, "RoundBackward1", aux="const", fwd=round_dec_fwd, vjp=zero_gradient,
        tan=ZERO, curv=ZERO)


sign = make_unary(_SIGN, "Sign of each element (-1, 0 or 1; 0 for nan); zero gradient.")
api(sign)
floor = make_unary(_FLOOR, "Largest integer <= each element; zero gradient.")
api(floor)
ceil = make_unary(_CEIL, "Smallest integer >= each element; zero gradient.")
api(ceil)
_round0 = make_unary(_ROUND, "")


@api
def round(input, *, decimals=0):  # noqa: A001 (PyTorch's name)
    """Round half to even (to ``decimals`` places); zero gradient.

    >>> import tapegrad as tg
    >>> tg.tensor([0.5, 1.5, 2.5]).round().tolist()
    [0.0, 2.0, 2.0]
    """
    if decimals == 0:
        return _round0(input)
    if input.dtype.kind == "b":
        raise NotImplementedError("\"round_cpu\" not implemented for 'Bool'")
    d = int(decimals)
    with quiet():
        v = norm(np.round(np.asarray(input._data), d))
    if not (input._rg and state.grad_enabled):
        return _leaf(v)
    tape = tape_for_grad()
    return output(tape, v, ROUND_DEC, slot(input, tape), -1, tape.const(float(d)))


# ---- atan2(a, b): the angle of (b, a) ----------------------------------------------------
ATAN2 = 109
_ATAN2 = Binary(ATAN2, -1, -1, "atan2", math.atan2, np.arctan2, True)


@rule
def atan2_fwd(vals, o, a, b, n):
    for i in range(n):
        vals[o + i] = np.arctan2(vals[a + i], vals[b + i])


@rule
def atan2_rev(adj, vals, o, a, b, n):
    # d atan2(a, b) = (b da - a db) / (a^2 + b^2); 0 at a = b = 0, as PyTorch
    for i in range(n):
        x = vals[a + i]
        y = vals[b + i]
        r = x * x + y * y
        if r != 0.0:
            gy = adj[o + i]
            adj[a + i] += gy * y / r
            adj[b + i] -= gy * x / r


def atan2_vjp(r, g):
    # (b da - a db) / (a^2 + b^2), 0 where both are 0 (the +1 there keeps it finite)
    x, y = r.x, r.y
    rr = x * x + y * y
    rr = rr + r.f(rr == 0)
    return [(r.a, g * y / rr), (r.b, -(g * x) / rr)]


@rule
def atan2_tan(tan, vals, o, a, b, n):
    # (b ta - a tb) / (a^2 + b^2), 0 at a = b = 0 (as atan2_rev)
    for i in range(n):
        x = vals[a + i]
        y = vals[b + i]
        r = x * x + y * y
        tan[o + i] = (y * tan[a + i] - x * tan[b + i]) / r if r != 0.0 else 0.0


declare(ATAN2, "Atan2Backward0", saves="ab", fwd=atan2_fwd, rev=atan2_rev, vjp=atan2_vjp,
        tan=atan2_tan)


_atan2 = make_binary(_ATAN2, "")


@api
def atan2(input, other):
    """Elementwise ``atan2(input, other)``: the angle of the point ``(other, input)``."""
    return _atan2(input, _tensor_other("atan2", other))


arctan2 = atan2
api(arctan2, name="arctan2")


# ---- inverse trigonometric and hyperbolic functions ------------------------------------
ASIN, ACOS, ATAN, SINH, COSH = 110, 111, 112, 113, 114
_ASIN = Unary(ASIN, "asin", math.asin, np.arcsin)
_ACOS = Unary(ACOS, "acos", math.acos, np.arccos)
_ATAN = Unary(ATAN, "atan", math.atan, np.arctan)
_SINH = Unary(SINH, "sinh", math.sinh, np.sinh)
_COSH = Unary(COSH, "cosh", math.cosh, np.cosh)


@rule
def asin_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = np.arcsin(vals[a + i])


@rule
def asin_rev(adj, vals, o, a, n):
    # d asin x = dx / sqrt(1 - x^2)  (inf at |x| = 1, nan outside, as PyTorch)
    for i in range(n):
        x = vals[a + i]
        adj[a + i] += adj[o + i] * _recip(np.sqrt(1.0 - x * x))


@rule
def asin_tan(tan, vals, o, a, n):
    # t asin x = tx / sqrt(1 - x^2)
    for i in range(n):
        x = vals[a + i]
        tan[o + i] = tan[a + i] * _recip(np.sqrt(1.0 - x * x))


@rule
def asin_curv(tadj, adj, vals, tan, o, a, n):
    # ga = gy / sqrt(1 - x^2): ga' = gy x tx / (1 - x^2)^(3/2) (acos: its negative, s = -1)
    _asin_curv(tadj, adj, vals, tan, o, a, n, 1.0)


@rule
def _asin_curv(tadj, adj, vals, tan, o, a, n, s):
    for i in range(n):
        x = vals[a + i]
        r = 1.0 - x * x
        tadj[a + i] += s * adj[o + i] * x * tan[a + i] * _recip(r * np.sqrt(r))



declare(ASIN, "AsinBackward0", saves="a", fwd=asin_fwd, rev=asin_rev,
        vjp=smooth(lambda x, y: 1.0 / sqrt(1.0 - x * x)), tan=asin_tan,
        curv=asin_curv)


@rule
def acos_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = np.arccos(vals[a + i])


@rule
def acos_rev(adj, vals, o, a, n):
    # d acos x = -dx / sqrt(1 - x^2)
    for i in range(n):
        x = vals[a + i]
        adj[a + i] -= adj[o + i] * _recip(np.sqrt(1.0 - x * x))


@rule
def acos_tan(tan, vals, o, a, n):
    # t acos x = -tx / sqrt(1 - x^2)
    for i in range(n):
        x = vals[a + i]
        tan[o + i] = -tan[a + i] * _recip(np.sqrt(1.0 - x * x))


@rule
def acos_curv(tadj, adj, vals, tan, o, a, n):
    _asin_curv(tadj, adj, vals, tan, o, a, n, -1.0)



declare(ACOS, "AcosBackward0", saves="a", fwd=acos_fwd, rev=acos_rev,
        vjp=smooth(lambda x, y: -1.0 / sqrt(1.0 - x * x)), tan=acos_tan,
        curv=acos_curv)


@rule
def atan_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = np.arctan(vals[a + i])


@rule
def atan_rev(adj, vals, o, a, n):
    # d atan x = dx / (1 + x^2)
    for i in range(n):
        x = vals[a + i]
        adj[a + i] += adj[o + i] / (x * x + 1.0)


@rule
def atan_tan(tan, vals, o, a, n):
    # t atan x = tx / (1 + x^2)
    for i in range(n):
        x = vals[a + i]
        tan[o + i] = tan[a + i] / (x * x + 1.0)


@rule
def atan_curv(tadj, adj, vals, tan, o, a, n):
    # ga = gy / (1 + x^2): ga' = -2 gy x tx / (1 + x^2)^2
    for i in range(n):
        x = vals[a + i]
        d = x * x + 1.0
        tadj[a + i] -= 2.0 * adj[o + i] * x * tan[a + i] / (d * d)


declare(ATAN, "AtanBackward0", saves="a", fwd=atan_fwd, rev=atan_rev,
        vjp=smooth(lambda x, y: 1.0 / (x * x + 1.0)), tan=atan_tan, curv=atan_curv)


@rule
def sinh_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = np.sinh(vals[a + i])


@rule
def sinh_rev(adj, vals, o, a, n):
    # d sinh x = cosh x dx
    for i in range(n):
        adj[a + i] += adj[o + i] * np.cosh(vals[a + i])


@rule
def sinh_tan(tan, vals, o, a, n):
    # t sinh x = cosh x tx
    for i in range(n):
        tan[o + i] = tan[a + i] * np.cosh(vals[a + i])


@rule
def sinh_curv(tadj, adj, vals, tan, o, a, n):
    # ga = gy cosh x: ga' = gy sinh x tx
    for i in range(n):
        tadj[a + i] += adj[o + i] * np.sinh(vals[a + i]) * tan[a + i]


declare(SINH, "SinhBackward0", saves="a", fwd=sinh_fwd, rev=sinh_rev,
        vjp=smooth(lambda x, y: cosh(x)), tan=sinh_tan, curv=sinh_curv)


@rule
def cosh_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = np.cosh(vals[a + i])


@rule
def cosh_rev(adj, vals, o, a, n):
    # d cosh x = sinh x dx
    for i in range(n):
        adj[a + i] += adj[o + i] * np.sinh(vals[a + i])


@rule
def cosh_tan(tan, vals, o, a, n):
    # t cosh x = sinh x tx
    for i in range(n):
        tan[o + i] = tan[a + i] * np.sinh(vals[a + i])


@rule
def cosh_curv(tadj, adj, vals, tan, o, a, n):
    # ga = gy sinh x: ga' = gy cosh x tx
    for i in range(n):
        tadj[a + i] += adj[o + i] * np.cosh(vals[a + i]) * tan[a + i]


declare(COSH, "CoshBackward0", saves="a", fwd=cosh_fwd, rev=cosh_rev,
        vjp=smooth(lambda x, y: sinh(x)), tan=cosh_tan, curv=cosh_curv)


asin = make_unary(_ASIN, "Inverse sine (nan outside [-1, 1]).")
api(asin)
acos = make_unary(_ACOS, "Inverse cosine (nan outside [-1, 1]).")
api(acos)
atan = make_unary(_ATAN, "Inverse tangent.")
api(atan)
arcsin, arccos, arctan = asin, acos, atan


@api
def square(input):
    """``input ** 2`` (PowBackward0, as PyTorch's square); an integer exponent, so integers
    stay integers (bool: int64), as PyTorch's."""
    return pow(input, 2)


@api
def log10(input):
    """Base-10 logarithm (composed: ``log(x) / ln 10``)."""
    return named_result(mul(log(input), 1.0 / math.log(10.0)), "Log10Backward0", input)
api(arcsin, name="arcsin")
api(arccos, name="arccos")
api(arctan, name="arctan")
sinh = make_unary(_SINH, "Hyperbolic sine.")
api(sinh)
cosh = make_unary(_COSH, "Hyperbolic cosine.")
api(cosh)


# ---- erf ---------------------------------------------------------------------------
ERF = 115


def _erf_np(x):
    from scipy.special import erf as _erf  # imported on first array use: start-up stays lean
    return _erf(x)


_ERF = Unary(ERF, "erf", math.erf, _erf_np)


@rule
def erf_fwd(vals, o, a, n):
    for i in range(n):
        vals[o + i] = math.erf(vals[a + i])


@rule
def erf_rev(adj, vals, o, a, n):
    # d erf x = 2 / sqrt(pi) exp(-x^2) dx
    for i in range(n):
        x = vals[a + i]
        adj[a + i] += adj[o + i] * (2.0 / math.sqrt(math.pi)) * np.exp(-x * x)


@rule
def erf_tan(tan, vals, o, a, n):
    # t erf x = 2 / sqrt(pi) exp(-x^2) tx
    for i in range(n):
        x = vals[a + i]
        tan[o + i] = tan[a + i] * (2.0 / math.sqrt(math.pi)) * np.exp(-x * x)


@rule
def erf_curv(tadj, adj, vals, tan, o, a, n):
    # ga = gy 2 / sqrt(pi) exp(-x^2): ga' = -2 x gy 2 / sqrt(pi) exp(-x^2) tx
    for i in range(n):
        x = vals[a + i]
        d = (2.0 / math.sqrt(math.pi)) * np.exp(-x * x)
        tadj[a + i] -= 2.0 * x * adj[o + i] * d * tan[a + i]



declare(ERF, "ErfBackward0", saves="a", fwd=erf_fwd, rev=erf_rev,
        vjp=smooth(lambda x, y: (2.0 / math.sqrt(math.pi)) * exp(-(x * x))), tan=erf_tan,
        curv=erf_curv)


erf = make_unary(_ERF, "The error function.")
api(erf)


# ---- softplus(x, beta, threshold) and log_sigmoid ------------------------------------------
SOFTPLUS, LOG_SIGMOID = 116, 117  # SOFTPLUS aux: consts [beta, threshold]


@rule
def softplus_fwd(vals, o, a, beta, threshold, n):
    # log(1 + exp(beta x)) / beta, and x itself where beta x > threshold (PyTorch)
    for i in range(n):
        x = vals[a + i]
        vals[o + i] = x if x * beta > threshold else np.log1p(np.exp(x * beta)) / beta


@rule
def softplus_rev(adj, vals, o, a, beta, threshold, n):
    # d softplus = sigmoid(beta x) dx = z / (z + 1) dx with z = exp(beta x); dx past threshold
    for i in range(n):
        x = vals[a + i]
        if x * beta > threshold:
            adj[a + i] += adj[o + i]
        else:
            z = np.exp(x * beta)
            adj[a + i] += adj[o + i] * z / (z + 1.0)


def softplus_vjp(r, g):
    beta, threshold = r.c(r.k), r.c(r.k + 1)
    x = r.x
    linear = x * beta > threshold
    return [(r.a, where(linear, g, g * sigmoid(x * beta)))]


@rule
def softplus_tan(tan, vals, o, a, beta, threshold, n):
    # sigmoid(beta x) tx, tx past the threshold (as softplus_rev)
    for i in range(n):
        x = vals[a + i]
        if x * beta > threshold:
            tan[o + i] = tan[a + i]
        else:
            z = np.exp(x * beta)
            tan[o + i] = tan[a + i] * z / (z + 1.0)


@rule
def softplus_curv(tadj, adj, vals, tan, o, a, beta, threshold, n):
    # ga = gy s with s = sigmoid(beta x): ga' = gy beta s (1 - s) tx; 0 past the threshold
    for i in range(n):
        x = vals[a + i]
        if not x * beta > threshold:
            z = np.exp(x * beta)
            sg = z / (z + 1.0)
            tadj[a + i] += adj[o + i] * beta * sg * (1.0 - sg) * tan[a + i]



declare(SOFTPLUS, "SoftplusBackward0", saves="a", aux="const", fwd=softplus_fwd, rev=softplus_rev,
        vjp=softplus_vjp, check=layout.elementwise(consts=2), tan=softplus_tan,
        curv=softplus_curv)  # beta, threshold


@api(method=False)
def softplus(input, beta=1.0, threshold=20.0):
    """``log(1 + exp(beta * x)) / beta``, linear where ``beta * x > threshold`` (PyTorch's
    ``nn.functional.softplus``).

    >>> import tapegrad as tg
    >>> float(tg.softplus(tg.tensor(0.0)))
    0.6931471805599453
    """
    beta, threshold = float(beta), float(threshold)
    d = input._data
    with quiet():
        x = np.asarray(d)
        if x.dtype.kind != "f":
            raise NotImplementedError(f'"softplus_cpu" not implemented for '
                                      f"'{dtypes.torch_name(x.dtype)}'")
        bx = x * x.dtype.type(beta)
        v = norm(np.where(bx > threshold, x, np.log1p(np.exp(bx)) / x.dtype.type(beta))
                 .astype(x.dtype, copy=False))
    if not (input._rg and state.grad_enabled):
        return _leaf(v)
    tape = tape_for_grad()
    k = tape.const_run(beta, threshold)
    return output(tape, v, SOFTPLUS, slot(input, tape), -1, k)


def _log_sigmoid_py(x):
    # min(x, 0) - log(1 + exp(-|x|)): exp of a non-positive argument only
    return (x if x < 0.0 else 0.0) - math.log1p(math.exp(-math.fabs(x)))


def _log_sigmoid_np(x):
    return np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))


_LOG_SIGMOID = Unary(LOG_SIGMOID, "log_sigmoid", _log_sigmoid_py, _log_sigmoid_np)


@rule
def log_sigmoid_fwd(vals, o, a, n):
    for i in range(n):
        x = vals[a + i]
        vals[o + i] = (x if x < 0.0 else 0.0) - np.log1p(np.exp(-np.abs(x)))


@rule
def log_sigmoid_rev(adj, vals, o, a, n):
    # d log sigmoid(x) = (1 - sigmoid(x)) dx = sigmoid(-x) dx, stable at both ends
    for i in range(n):
        x = vals[a + i]
        if x >= 0.0:
            e = np.exp(-x)
            adj[a + i] += adj[o + i] * e / (1.0 + e)
        else:
            adj[a + i] += adj[o + i] / (1.0 + np.exp(x))


@rule
def log_sigmoid_tan(tan, vals, o, a, n):
    # sigmoid(-x) tx, stable at both ends (as log_sigmoid_rev)
    for i in range(n):
        x = vals[a + i]
        e = np.exp(-np.abs(x))
        tan[o + i] = tan[a + i] * (e / (1.0 + e) if x >= 0.0 else 1.0 / (1.0 + e))


@rule
def log_sigmoid_curv(tadj, adj, vals, tan, o, a, n):
    # ga = gy sigmoid(-x): ga' = -gy sigmoid(x) sigmoid(-x) tx
    for i in range(n):
        e = np.exp(-np.abs(vals[a + i]))
        tadj[a + i] -= adj[o + i] * e / ((1.0 + e) * (1.0 + e)) * tan[a + i]



declare(LOG_SIGMOID, "LogSigmoidBackward0", saves="a", fwd=log_sigmoid_fwd, rev=log_sigmoid_rev,
        vjp=smooth(lambda x, y: sigmoid(-x)), tan=log_sigmoid_tan,
        curv=log_sigmoid_curv)


log_sigmoid = make_unary(_LOG_SIGMOID, "``log(sigmoid(x))``, stable at both ends "
                                       "(PyTorch's ``nn.functional.logsigmoid``).")
api(log_sigmoid, method=False)


def _functional(x, name):
    """``name`` from tapegrad, or from torch.nn.functional for a torch tensor."""
    lib = _lib(x)
    return getattr(lib, name) if isinstance(x, Tensor) else getattr(lib.nn.functional, name)


def _mask(a, b):
    """A fixed condition of the broadcast shape of a and b (True at even flat positions)."""
    shape = np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    return (np.arange(int(np.prod(shape))) % 2 == 0).reshape(shape)


def _where_ref(np_, cond, a, b):
    # broadcast first: HIPS autograd's where does not reduce its gradients to the operands'
    # shapes (multiplying by ones does)
    ones = np.ones(cond.shape)
    return np_.where(cond, a * ones, b * ones)


def _erf_ref(np_, x):
    if np_ is np:
        from scipy.special import erf as _erf
    else:
        from autograd.scipy.special import erf as _erf
    return _erf(x)


def _softplus_ref(np_, x, beta=1.0, threshold=20.0):
    return np_.where(x * beta > threshold, x, np_.log1p(np_.exp(x * beta)) / beta)


def _log_sigmoid_of(x):
    return log_sigmoid(x) if isinstance(x, Tensor) else _lib(x).nn.functional.logsigmoid(x)


def _clamp_ref(np_, x, lo, hi):
    # the bounds pass the gradient (PyTorch); autograd's clip would give 0 there
    return np_.where((x >= lo) & (x <= hi), x, np_.clip(x, lo, hi))


# ---- spec rows ----------------------------------------------------------------------
SPECS = [
    Spec("add", lambda a, b: a + b, lambda np_, a, b: a + b, arity=2),
    Spec("sub", lambda a, b: a - b, lambda np_, a, b: a - b, arity=2),
    Spec("mul", lambda a, b: a * b, lambda np_, a, b: a * b, arity=2),
    Spec("div", lambda a, b: a / b, lambda np_, a, b: a / b, arity=2, domain=(0.5, 2.0)),
    Spec("pow", lambda a, b: a ** b, lambda np_, a, b: a ** b, arity=2, domain=(0.5, 2.0),
         pinned=(((0.0, 2.0), (0.0, 0.0)), ((2.0, 0.0), (0.0, 0.6931471805599453)))),
    Spec("add_c", lambda x: x + 2.5, lambda np_, x: x + 2.5),
    Spec("radd_c", lambda x: 2.5 + x, lambda np_, x: 2.5 + x),
    Spec("sub_c", lambda x: x - 2.5, lambda np_, x: x - 2.5),
    Spec("rsub_c", lambda x: 2.5 - x, lambda np_, x: 2.5 - x),
    Spec("mul_c", lambda x: x * 2.5, lambda np_, x: x * 2.5),
    Spec("rmul_c", lambda x: 2.5 * x, lambda np_, x: 2.5 * x),
    Spec("div_c", lambda x: x / 2.5, lambda np_, x: x / 2.5),
    Spec("rdiv_c", lambda x: 2.5 / x, lambda np_, x: 2.5 / x, domain=(0.5, 2.0)),
    Spec("pow_c", lambda x: x ** 3, lambda np_, x: x ** 3,
         pinned=(((0.0,), (0.0,)),)),
    Spec("pow_c_frac", lambda x: x ** 0.5, lambda np_, x: x ** 0.5, domain=(0.5, 2.0)),
    Spec("pow_c_zero", lambda x: x ** 0,  # 1 and gradient 0 at nan and inf too, as PyTorch
         lambda np_, x: np_.ones_like(x) + 0 * np_.where(np_.isfinite(x), x, 0.0),
         pinned=(((0.0,), (0.0,)),)),
    Spec("rpow_c", lambda x: 2.5 ** x, lambda np_, x: 2.5 ** x),
    Spec("neg", lambda x: -x, lambda np_, x: -x),
    Spec("abs", lambda x: x.abs(), lambda np_, x: np_.abs(x), domain=(0.1, 2.0),
         pinned=(((0.0,), (0.0,)), ((-1.5,), (-1.0,)))),
    Spec("exp", lambda x: x.exp(), lambda np_, x: np_.exp(x)),
    Spec("log", lambda x: x.log(), lambda np_, x: np_.log(x), domain=(0.1, 3.0)),
    Spec("log2", lambda x: x.log2(), lambda np_, x: np_.log2(x), domain=(0.1, 3.0)),
    Spec("log10", lambda x: x.log10(), lambda np_, x: np_.log10(x), domain=(0.1, 3.0)),
    Spec("square", lambda x: x.square(), lambda np_, x: x * x),
    Spec("log1p", lambda x: x.log1p(), lambda np_, x: np_.log1p(x), domain=(-0.9, 3.0)),
    Spec("expm1", lambda x: x.expm1(), lambda np_, x: np_.expm1(x)),
    Spec("sqrt", lambda x: x.sqrt(), lambda np_, x: np_.sqrt(x), domain=(0.1, 3.0)),
    Spec("sin", lambda x: x.sin(), lambda np_, x: np_.sin(x)),
    Spec("cos", lambda x: x.cos(), lambda np_, x: np_.cos(x)),
    Spec("tan", lambda x: x.tan(), lambda np_, x: np_.tan(x), domain=(-1.2, 1.2)),
    Spec("tanh", lambda x: x.tanh(), lambda np_, x: np_.tanh(x)),
    Spec("sigmoid", lambda x: x.sigmoid(), lambda np_, x: 1 / (1 + np_.exp(-x)),
         pinned=(((-800.0,), (0.0,)), ((800.0,), (0.0,)))),
    Spec("relu", lambda x: x.relu(), lambda np_, x: np_.maximum(x, 0.0), domain=(0.1, 2.0),
         pinned=(((0.0,), (0.0,)), ((-1.0,), (0.0,)))),
    Spec("relu_neg", lambda x: x.relu(), lambda np_, x: np_.maximum(x, 0.0),
         domain=(-2.0, -0.1)),
    Spec("maximum", lambda a, b: a.maximum(b), lambda np_, a, b: np_.maximum(a, b), arity=2,
         pinned=(((1.0, 1.0), (0.5, 0.5)), ((2.0, 1.0), (1.0, 0.0)))),
    Spec("minimum", lambda a, b: a.minimum(b), lambda np_, a, b: np_.minimum(a, b), arity=2,
         pinned=(((1.0, 1.0), (0.5, 0.5)), ((2.0, 1.0), (0.0, 1.0)))),
    Spec("clamp", lambda x: x.clamp(-1.0, 1.0), lambda np_, x: _clamp_ref(np_, x, -1.0, 1.0),
         pinned=(((1.0,), (1.0,)), ((-1.0,), (1.0,)), ((2.0,), (0.0,)), ((0.5,), (1.0,)))),
    Spec("clamp_min", lambda x: x.clamp(min=0.5), lambda np_, x: _clamp_ref(np_, x, 0.5, np.inf),
         pinned=(((0.5,), (1.0,)), ((0.0,), (0.0,)))),
    Spec("clip_max", lambda x: x.clip(max=0.5), lambda np_, x: _clamp_ref(np_, x, -np.inf, 0.5),
         pinned=(((0.5,), (1.0,)), ((1.0,), (0.0,)))),
    Spec("where", lambda a, b: _lib(a).where(_lib(a).tensor(_mask(a, b)), a, b),
         lambda np_, a, b: _where_ref(np_, _mask(a, b), a, b), arity=2),
    Spec("sign", lambda x: x.sign(), lambda np_, x: np_.sign(x), pinned=(((0.0,), (0.0,)),)),
    Spec("floor", lambda x: x.floor(), lambda np_, x: np_.floor(x)),
    Spec("ceil", lambda x: x.ceil(), lambda np_, x: np_.ceil(x)),
    Spec("round", lambda x: x.round(), lambda np_, x: np_.round(x),
         pinned=(((0.5,), (0.0,)),)),
    Spec("round_decimals", lambda x: x.round(decimals=1), lambda np_, x: np_.round(x, 1)),
    Spec("atan2", lambda a, b: a.atan2(b), lambda np_, a, b: np_.arctan2(a, b), arity=2,
         domain=(0.1, 2.0), pinned=(((0.0, 0.0), (0.0, 0.0)), ((1.0, 0.0), (0.0, -1.0)))),
    Spec("atan2_neg", lambda a, b: a.atan2(b), lambda np_, a, b: np_.arctan2(a, b), arity=2,
         domain=(-2.0, -0.1)),
    Spec("asin", lambda x: x.asin(), lambda np_, x: np_.arcsin(x), domain=(-0.9, 0.9),
         pinned=(((1.0,), (math.inf,)),)),
    Spec("acos", lambda x: x.arccos(), lambda np_, x: np_.arccos(x), domain=(-0.9, 0.9),
         pinned=(((1.0,), (-math.inf,)),)),
    Spec("atan", lambda x: x.atan(), lambda np_, x: np_.arctan(x)),
    Spec("sinh", lambda x: x.sinh(), lambda np_, x: np_.sinh(x)),
    Spec("cosh", lambda x: x.cosh(), lambda np_, x: np_.cosh(x)),
    Spec("erf", lambda x: x.erf(), _erf_ref),
    Spec("softplus", lambda x: _functional(x, "softplus")(x), _softplus_ref,
         pinned=(((0.0,), (0.5,)), ((21.0,), (1.0,)), ((-800.0,), (0.0,)))),
    Spec("softplus_beta", lambda x: _functional(x, "softplus")(x, beta=2.0, threshold=1.0),
         lambda np_, x: _softplus_ref(np_, x, 2.0, 1.0)),
    Spec("log_sigmoid", lambda x: _log_sigmoid_of(x), lambda np_, x: -np_.logaddexp(0.0, -x),
         pinned=(((0.0,), (0.5,)), ((-800.0,), (1.0,)), ((800.0,), (0.0,)))),
]
