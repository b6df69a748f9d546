"""Each opcode's adjoint as differentiable tensor ops: what ``create_graph=True`` records.

The compiled sweep (``_sweep.py``) turns adjoints into numbers.  Under ``create_graph``,
``autograd/higher.py`` walks the same rows in Python and calls ``ADJOINT[op](r, g)`` for
each reached row; the entry records the adjoint computation as ordinary rows on the tape,
so the gradient is a tensor that can be differentiated again, to any order.  Three kinds:

- linear structural ops emit their transposed opcode on the row's own meta
  (EXPAND <-> SUM_DIM, STRIDED -> SUM_DIM, GATHER <-> SCATTER): the compiled forward and
  reverse rules of each pair serve every order;
- piecewise-linear ops (relu, abs, clamp, maximum, max, masked_fill, ...): ``gx = g * W``
  with ``W`` locally constant in x (so the second derivative through it is zero, as in
  PyTorch), written with comparisons, which a traced function records and replay
  re-evaluates at every point; eagerly, max/min reductions take ``W`` from the row's own
  compiled reverse rule run at a unit seed (exactly its tie and nan conventions);
- smooth ops: their derivative written with tensor ops, next to nothing else.

An entry gets ``r`` (a ``higher.Row``: ``r.x``, ``r.y``, ``r.out`` are the row's operands
and output as tensors, ``r.c(j)`` a const, ``r.m(j)`` a meta int) and the output's adjoint
``g``; it returns ``[(slot, adjoint tensor), ...]``.  Adding an op: add its entry here;
tests/test_higher.py fails for any opcode with a reverse rule and no entry.
"""
import math

import numpy as np

from .._state import state
from ..tensor import Tensor, _leaf, norm
from . import control, custom
from . import elementwise as E
from . import linalg as L
from . import reductions as R
from . import shape as S
from ._record import output, slot, tape_for_grad

ADJOINT = {}


def _on(*codes):
    def deco(fn):
        for c in codes:
            ADJOINT[c] = fn
        return fn
    return deco


def _point_only(r):
    """Rules that need this point's values beyond comparisons (ties, zeros): a replayed
    trace would reuse them at every other point, silently wrong, so while tracing they
    are refused (tapegrad.compile(f).hvp/hessian)."""
    if r.tracing:
        from . import NAMES
        raise NotImplementedError(
            f"{NAMES.get(r.op, r.op)}: its second-order rule uses masks of the traced point, "
            "which replay cannot re-evaluate yet; compute Hessians of this function eagerly "
            "with tapegrad.autograd.functional (hessian, hvp) instead of tapegrad.compile")


def emit(op, x, k, out_shape):
    """Record row ``op`` on tensor ``x`` with the meta/const pointer ``k``; its value comes
    from the op's compiled forward rule (the same rule replay runs)."""
    from .._sweep import _forward_replay
    tape = tape_for_grad()
    xv = np.ascontiguousarray(np.asarray(x._data, dtype=np.float64)).reshape(-1)
    n_out = int(np.prod(out_shape, dtype=np.int64))
    vals = np.concatenate([xv, np.zeros(n_out)])
    offs = np.array([0, xv.size, xv.size + n_out], np.int64)
    rows = np.array([[op, 1, 0, -1, k]], np.int64)
    tape.flush()
    meta = np.frombuffer(tape.meta, np.int64) if tape.meta else np.zeros(1, np.int64)
    consts = np.frombuffer(tape.consts) if tape.consts else np.zeros(1)
    _forward_replay(rows, offs, vals, consts, meta, 0, 1, 1, np.zeros(1, np.int64))
    del meta, consts  # the views pin the buffers: drop them before recording
    v = norm(vals[xv.size:].reshape(out_shape).astype(x.dtype, copy=False))  # x's dtype
    if not (x._rg and state.grad_enabled):
        return _leaf(v)
    return output(tape, v, op, slot(x, tape), -1, k)


def _unit_weighted(r, g, k_map):
    """Reductions: ``g`` spread back over the input by the row's map at ``k_map``, times
    the row's compiled rule at a unit seed (this point's ties: refused while tracing)."""
    _point_only(r)
    w = r.unit_weights().reshape(r.shape(r.a))
    return [(r.a, _spread(r, g, k_map) * _leaf(norm(w)))]


def _spread(r, t, k_map):
    """A per-group tensor (the output's shape) repeated over the input's shape."""
    return emit(S.EXPAND, t, k_map, r.shape(r.a))


def _f(mask):
    """A bool tensor (recorded as a CMP row while tracing) as 1.0 / 0.0, in the dtype of
    the graph's values (a float32 graph stays float32: tape.py)."""
    return mask.to(tape_for_grad().dtype)


# ---- elementwise: linear -------------------------------------------------------------
@_on(E.ADD)
def _add(r, g):
    return [(r.a, g), (r.b, g)]


@_on(E.ADD_C, E.SUB_C)
def _pass(r, g):
    return [(r.a, g)]


@_on(E.SUB)
def _sub(r, g):
    return [(r.a, g), (r.b, -g)]


@_on(E.NEG, E.RSUB_C)
def _neg(r, g):
    return [(r.a, -g)]


@_on(E.MUL_C)
def _mul_c(r, g):
    return [(r.a, g * r.c(r.k))]


@_on(E.DIV_C)
def _div_c(r, g):
    return [(r.a, g / r.c(r.k))]


# ---- elementwise: smooth --------------------------------------------------------------
@_on(E.MUL)
def _mul(r, g):
    return [(r.a, g * r.y), (r.b, g * r.x)]


@_on(E.DIV)
def _div(r, g):
    y = r.y
    return [(r.a, g / y), (r.b, -(g * r.x) / (y * y))]


@_on(E.RDIV_C)
def _rdiv_c(r, g):
    return [(r.a, -(g * r.out) / r.x)]


@_on(E.POW)
def _pow(r, g):
    # PyTorch's masks, as pow_rev: b == 0 gives 0 for da; a == 0 with b >= 0 gives 0 for db
    x, y = r.x, r.y
    ga = E.where(y != 0, g * y * x ** (y - 1.0), 0.0)
    gb = E.where(_f(x == 0) * _f(y >= 0) == 0, g * r.out * E.log(x), 0.0)
    return [(r.a, ga), (r.b, gb)]


@_on(E.POW_C)
def _pow_c(r, g):
    c = r.c(r.k)
    if c == 0.0:
        return []
    if c == 1.0:
        return [(r.a, g)]
    if c == 2.0:  # the common square: no pow row (a transcendental call per element)
        return [(r.a, g * (2.0 * r.x))]
    return [(r.a, g * (c * r.x ** (c - 1.0)))]


@_on(E.RPOW_C)
def _rpow_c(r, g):
    c = r.c(r.k)
    lc = math.log(c) if c > 0.0 else math.nan
    if c == 0.0:
        return [(r.a, E.where(r.x < 0, g * r.out * lc, 0.0))]
    return [(r.a, g * r.out * lc)]


_SMOOTH = {  # d out / d x from (x, out): the unary smooth ops
    E.EXP: lambda x, y: y,
    E.LOG: lambda x, y: 1.0 / x,
    E.LOG1P: lambda x, y: 1.0 / (x + 1.0),
    E.EXPM1: lambda x, y: y + 1.0,
    E.SQRT: lambda x, y: 0.5 / y,
    E.SIN: lambda x, y: E.cos(x),
    E.COS: lambda x, y: -E.sin(x),
    E.TAN: lambda x, y: y * y + 1.0,
    E.TANH: lambda x, y: 1.0 - y * y,
    E.SIGMOID: lambda x, y: y * (1.0 - y),
    E.ASIN: lambda x, y: 1.0 / E.sqrt(1.0 - x * x),
    E.ACOS: lambda x, y: -1.0 / E.sqrt(1.0 - x * x),
    E.ATAN: lambda x, y: 1.0 / (x * x + 1.0),
    E.SINH: lambda x, y: E.cosh(x),
    E.COSH: lambda x, y: E.sinh(x),
    E.ERF: lambda x, y: (2.0 / math.sqrt(math.pi)) * E.exp(-(x * x)),
    E.LOG_SIGMOID: lambda x, y: E.sigmoid(-x),
}


def _smooth(r, g):
    return [(r.a, g * _SMOOTH[r.op](r.x, r.out))]


for _code in _SMOOTH:
    ADJOINT[_code] = _smooth


@_on(E.SOFTPLUS)
def _softplus(r, g):
    beta, threshold = r.c(r.k), r.c(r.k + 1)
    x = r.x
    linear = x * beta > threshold
    return [(r.a, E.where(linear, g, g * E.sigmoid(x * beta)))]


@_on(E.ATAN2)
def _atan2(r, g):
    # (b da - a db) / (a^2 + b^2), 0 where both are 0 (the +1 there keeps it finite)
    x, y = r.x, r.y
    rr = x * x + y * y
    rr = rr + _f(rr == 0)
    return [(r.a, g * y / rr), (r.b, -(g * x) / rr)]


@_on(E.WHERE)
def _where(r, g):
    cond = r.w.tensor(r.k) != 0  # a comparison: recorded (and replayed) while tracing
    return [(r.a, E.where(cond, g, 0.0)), (r.b, E.where(cond, 0.0, g))]


@_on(E.RELU)
def _relu(r, g):
    return [(r.a, g * _f(r.x > 0))]


@_on(E.ABS)
def _abs(r, g):
    return [(r.a, g * E.sign(r.x))]


@_on(E.CLAMP)
def _clamp(r, g):
    x = r.x
    return [(r.a, g * (_f(x >= r.c(r.k)) * _f(x <= r.c(r.k + 1))))]


@_on(S.MASKED_FILL, S.MASKED_FILL_T)
def _masked_fill(r, g):
    return [(r.a, g * (1.0 - r.y))]  # in1 holds the mask as 1.0 / 0.0


@_on(E.MAXIMUM, E.MINIMUM)
def _maximum(r, g):
    # as maximum_rev: the larger side gets g, half each at a tie, both at a nan
    if r.a == r.b:
        return [(r.a, g)]
    x, y = r.x, r.y
    below, above = (x < y, x > y) if r.op == E.MAXIMUM else (x > y, x < y)
    tie = _f(x == y) * 0.5
    return [(r.a, g * (1.0 - _f(below) - tie)), (r.b, g * (1.0 - _f(above) - tie))]
ADJOINT.update(dict.fromkeys(  # piecewise constant: no gradient
    (E.SIGN, E.FLOOR, E.CEIL, E.ROUND, E.ROUND_DEC, R.ARGMAX, R.ARGMIN, control.CMP,
     control.CMP_C), lambda r, g: []))


# ---- reductions -----------------------------------------------------------------------
@_on(R.SUM, R.MEAN)
def _sum(r, g):
    shape = r.shape(r.a)
    if r.op == R.MEAN:
        g = g / float(max(1, int(np.prod(shape, dtype=np.int64))))
    return [(r.a, S.expand(g, *shape) if shape else g)]


@_on(R.SUM_DIM, R.MEAN_DIM)
def _sum_dim(r, g):
    gx = _spread(r, g, r.k)
    if r.op == R.MEAN_DIM:
        gx = gx * (r.numel(r.o) / max(1, r.numel(r.a)))
    return [(r.a, gx)]


@_on(R.MAX, R.MIN, R.MAX_DIM, R.MIN_DIM, R.AMAX, R.AMIN)
def _extreme(r, g):
    if not r.tracing or r.op in (R.MAX_DIM, R.MIN_DIM):
        return _unit_weighted(r, g, r.k)
    # traced: g shared evenly among the elements equal to the extreme of their group
    tie = _f(r.x == _spread(r, r.out, r.k))
    count = emit(R.SUM_DIM, tie, r.k, r.shape(r.o))
    return [(r.a, _spread(r, g / count, r.k) * tie)]


@_on(R.PROD, R.PROD_DIM)
def _prod(r, g):
    # gx_i = g * the product of the group's other entries (PyTorch's rule), written as
    # functions that equal it near this point, so they differentiate again: with N the
    # product of the group's nonzeros and Z of its zeros, N * Z / x_i at a nonzero; at a
    # zero, N in a group with one zero, N * (the other zero) with two (as (1 + x_o) - 1,
    # from a product), and 0 with three or more.  Zeros are this point's (refused while
    # tracing: a replayed point may hold others).
    _point_only(r)
    x = r.x
    zero = np.asarray(x._data) == 0
    if not zero.any():
        return [(r.a, _spread(r, g * r.out, r.k) / x)]
    out_shape = r.shape(r.o)

    def group_prod(t):  # the product over x's group, spread back over x's shape
        return _spread(r, emit(r.op, t, r.k, out_shape), r.k)

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
    return [(r.a, _spread(r, g, r.k) * gx)]


@_on(R.LOGSUMEXP)
def _logsumexp(r, g):
    return [(r.a, _spread(r, g, r.k) * E.exp(r.x - _spread(r, r.out, r.k)))]


def _softmax_dim(r):
    # the dim of a (LOG_)SOFTMAX row, from its meta (outer, size, inner)
    shape = r.shape(r.a)
    size, inner = r.m(r.k + 1), r.m(r.k + 2)
    return next(d for d in range(len(shape))
                if shape[d] == size and int(np.prod(shape[d + 1:], dtype=np.int64)) == inner)


@_on(R.LOG_SOFTMAX)
def _log_softmax(r, g):
    # gx = g - exp(y) * sum(g) along the row's dim
    return [(r.a, g - E.exp(r.out) * R.sum(g, _softmax_dim(r), keepdim=True))]


@_on(R.SOFTMAX)
def _softmax(r, g):
    # gx = y * (g - sum(g * y)) along the row's dim
    return [(r.a, r.out * (g - R.sum(g * r.out, _softmax_dim(r), keepdim=True)))]


@_on(R.NLL)
def _nll(r, g):
    # gx = -g / div at each picked element: a scatter through the row's GATHER-layout meta
    n, div = r.m(r.k), r.m(r.k + 1)
    return [(r.a, emit(S.SCATTER, S.expand(-g / float(div), n), r.k + 2, r.shape(r.a)))]


@_on(R.NORM)
def _norm(r, g):
    p = r.c(r.m(r.k))
    if p == 0.0:
        return []  # a count
    if p == 1.0:
        return [(r.a, _spread(r, g, r.k + 1) * E.sign(r.x))]
    if not math.isfinite(p):  # max |x|: piecewise linear
        return _unit_weighted(r, g, r.k + 1)
    x = r.x
    y = _spread(r, r.out, r.k + 1)
    gs = _spread(r, g, r.k + 1)
    safe = _f(y == 0)  # PyTorch: 0 where the norm is 0
    if p == 2.0:
        return [(r.a, gs * x / (y + safe))]
    return [(r.a, gs * x * E.abs(x) ** (p - 2.0) / (y + safe) ** (p - 1.0))]


@_on(R.VAR, R.STD)
def _var(r, g):
    scale = r.c(r.m(r.k))
    k_map = r.k + 1
    x = r.x
    mean = emit(R.SUM_DIM, x, k_map, r.shape(r.o)) * (r.numel(r.o) / max(1, r.numel(r.a)))
    dx = x - _spread(r, mean, k_map)
    if r.op == R.VAR:
        return [(r.a, _spread(r, g, k_map) * dx * (2.0 * scale))]
    y = r.out
    safe = _f(y == 0)  # 0 where std is 0, as var_rev
    return [(r.a, _spread(r, g / (y + safe), k_map) * dx * scale)]


@_on(R.CUMSUM)
def _cumsum(r, g):
    shape = r.shape(r.a)
    inner, size = r.m(r.k), r.m(r.k + 1)
    if not shape:
        return [(r.a, g)]
    d = next(d for d in range(len(shape))
             if shape[d] == size and int(np.prod(shape[d + 1:], dtype=np.int64)) == inner)
    return [(r.a, S.flip(R.cumsum(S.flip(g, d), d), d))]  # a cumsum from the end


# ---- shapes ---------------------------------------------------------------------------
@_on(S.VIEW)
def _view(r, g):
    return [(r.a, S.reshape(g, *r.shape(r.a)))]


@_on(S.EXPAND)
def _expand(r, g):
    return [(r.a, emit(R.SUM_DIM, g, r.k, r.shape(r.a)))]


@_on(S.STRIDED)
def _strided(r, g):
    return [(r.a, emit(R.SUM_DIM, g, r.k + 1, r.shape(r.a)))]


@_on(S.GATHER)
def _gather(r, g):
    return [(r.a, emit(S.SCATTER, g, r.k, r.shape(r.a)))]


@_on(S.SCATTER)
def _scatter(r, g):
    return [(r.a, emit(S.GATHER, g, r.k, r.shape(r.a)))]


@_on(S.CAT, S.STACK)
def _cat(r, g):
    n, outer = r.m(r.k), r.m(r.k + 1)
    slots = [r.m(r.k + 2 + i) for i in range(n)]
    lengths = [r.m(r.k + 2 + n + i) for i in range(n)]
    blocks = S.reshape(g, outer, sum(lengths))
    out, lo = [], 0
    for s, m in zip(slots, lengths, strict=True):
        out.append((s, S.reshape(blocks[:, lo:lo + m], *r.shape(s))))
        lo += m
    return out


@_on(custom.CUSTOM_OUT)
def _custom_out(r, g):
    return []  # no math: the custom op's own record (tape.custom) runs its backward


# ---- linear algebra ------------------------------------------------------------------
@_on(L.MM, L.MV, L.DOT, L.BMM)
def _matmul(r, g):
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
        out.append((r.a, _batch_sum(L.matmul(G, bb.mT), ia, a.shape[0], r.shape(r.a))))
    if need_b:
        aa = a if np.array_equal(ia, np.arange(len(ia))) else a[Tensor(ia)]
        out.append((r.b, _batch_sum(L.matmul(aa.mT, G), ib, b.shape[0], r.shape(r.b))))
    return out


@_on(L.LINEAR, L.ADDMM)
def _linear(r, g):
    # y = x W^T + b: gx = g W, gW = g^T x, gb = the sum of g's rows
    M, N, need_x, need_w, need_b, sb = (r.m(r.k + i) for i in (0, 2, 3, 4, 5, 6))
    g = S.reshape(g, M, N)
    out = []
    if need_x:
        out.append((r.a, L.matmul(g, r.y)))
    if need_w:
        out.append((r.b, L.matmul(g.mT, r.x)))
    if need_b:
        out.append((sb, R.sum(g, 0)))
    return out


def _batch_sum(t, index, n, shape):
    """Sum the batch entries of ``t`` (nb, P, Q) that share an operand batch ``index``
    (broadcast batch dims): a SCATTER row when any operand batch was used twice."""
    if np.array_equal(index, np.arange(n)):
        return S.reshape(t, *shape)
    P, Q = t.shape[1], t.shape[2]
    flat = (index[:, None] * (P * Q) + np.arange(P * Q)[None, :]).ravel()
    tape = tape_for_grad()
    k = tape.push_meta([0, *flat.tolist()])  # GATHER's meta layout: [name, index...]
    return S.reshape(emit(S.SCATTER, t, k, (n * P * Q,)), *shape)
