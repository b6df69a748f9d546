"""Combinations of edits to saved traces that pass the field checks one by one: rows
sharing another row's meta window, operands retargeted to other slots of their size, two
meta entries (a shape and a stride) changed together, rows swapped or copied over others,
another output slot, a row's opcode replaced by another's (mostly one whose aux is of
the same kind: one op's fields read by another op's layout and rules).  Unlike tests/fuzz_trace_rows.py, ``vals0`` is recomputed by the
rows' own forward replay wherever ``validate.check`` accepts the fields (what a careful
attacker does: the traced point's check then passes), ``grad0`` dropped.  Each trace that
loads replays every way (one point, the lowered one-point code and its superinstructions,
batches, Jacobian, vjp/jvp batches, the fused tier).  Run it with NUMBA_DISABLE_JIT=1 (an
IndexError is an out-of-bounds access):

    NUMBA_DISABLE_JIT=1 python tests/fuzz_trace_combos.py --seed 2 --cases 300 --fused
    NUMBA_DISABLE_JIT=1 python tests/fuzz_trace_combos.py --seed 231 --cases 300 --kinds 9

(``--kinds``: the edit kinds of ``combos`` by number; 9, opcodes only; 10, another row's
opcode and aux; 11, operands swapped; 12, aux into another op's meta window; 13, a MUL/ADD
of an EXPAND as MUL_S/ADD_S; 14, a const set to a boundary value.)

``--fd`` also compares each loaded trace's Jacobian (its reverse rules) with central
differences of its values (its forward rules), listing the edits where both of two points
disagree under ``fd`` (rows that stop the gradient, detach, left out):

    NUMBA_DISABLE_JIT=1 python tests/fuzz_trace_combos.py --seed 78 --cases 80 --fd \
        --only _scal _reduce _stats _more _second

It prints one JSON line: cases, invalid (refused by the field checks), loaded, failures
(and ``fd``).
"""
import argparse
import io
import json
import os
import sys
import traceback
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import fuzz_trace_rows as FR  # noqa: E402
import tapegrad as tg  # noqa: E402  (this checkout's)
import tapegrad.nn.functional as F  # noqa: E402
from tapegrad import _kernels  # noqa: E402
from tapegrad.ops import elementwise as E  # noqa: E402
from tapegrad.ops import nn as N  # noqa: E402
from tapegrad.ops.registry import OPS  # noqa: E402
from tapegrad.ops.control import STOP_GRAD  # noqa: E402
from tapegrad.ops.registry import NAMES  # noqa: E402
from tapegrad.ops.strided import EXPAND  # noqa: E402
from tapegrad.replay import validate  # noqa: E402

def _scal(x):
    a, b, c, d = x[0], x[1], x[2], x[3]
    s = a + b + c + d
    p = F.softplus(a) + F.softplus(b * 2.0)
    st = tg.softmax(tg.stack([a, b, c]), 0)
    ls = tg.log_softmax(tg.stack([c, d, a, b]), 0)
    return s * p + st[0] + st[2] * ls[1] + ls[3] + (a * b - c / d).exp() + (a + 1.5) * 2.0


def _scalvec(x):
    a, b, c, d = x[0], x[1], x[2], x[3]
    st = tg.softmax(tg.stack([a, b, c]), 0)
    return tg.stack([a + b + c, st[1] * d, F.softplus(d) + a])


def _mixed(x):
    m = x.reshape(2, 3)
    return (m @ m.T).sum() + tg.cat([x[:2], x[3:]]).sin().sum() + tg.softmax(m, 1)[1, 2] + \
        (x[0] + x[1] + x[2]) * x[5] + F.linear(m, m, x[:2]).sum() + x.cumsum(0)[3] + \
        x[tg.tensor([0, 2, 5])].sum() + (x.reshape(3, 2) + x[:2]).prod()


def _bcast(x):
    m = x.reshape(2, 8)
    v = x[:8]
    return ((m - v) * v).pow(2).sum() + ((m + v) ** 2).sum(1).sum() + (m * v.exp()).sum()


def _gmm(x):
    X = x[:24].reshape(3, 8)
    mu = x[24:40].reshape(2, 1, 8)
    q = x[40:56].reshape(2, 1, 8)
    L = x[56:120].reshape(8, 8)
    xc = X - mu
    u = q.exp() * xc
    y = u + xc @ L
    return (y * y).sum(2).sum() + ((X - mu) * q).sum()


CONST_EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, 4.0, -2.0, 1e-300, -1e-300, 1e308, 0.1,
               np.inf, -np.inf, np.nan, 7.5, -0.5]
STOPS = [STOP_GRAD] + [c for c in OPS if NAMES.get(c) == "DetachBackward0"]


def _more(x):  # layouts of more ops: embedding, 2-d pools, norms, unfold, index writes
    m = x.reshape(3, 4)
    em = F.embedding(tg.tensor([2, 0, 2]), m)
    p = F.max_pool2d(x.reshape(1, 1, 3, 4), 2, 1).sum() + \
        F.avg_pool2d(x.reshape(1, 1, 3, 4), (2, 2), 1).sum()
    n = F.layer_norm(m, (4,)).pow(2).sum() + F.batch_norm(m, None, None, training=True).sum()
    u = x.unfold(0, 4, 2).prod(1).sum() + x.narrow(0, 2, 5).sum()
    w = tg.zeros(5).index_put((tg.tensor([1, 3, 1]),), x[:3], accumulate=True)
    r = tg.zeros(3).index_copy(0, tg.tensor([2, 0]), x[1:3]) * x[3:6]
    t = tg.take_along_dim(m, tg.tensor([[1], [0], [3]]), 1).sum() + \
        x.repeat_interleave(2)[5] + F.conv_transpose1d(x[:6].reshape(1, 1, 6),
                                                       x[6:9].reshape(1, 1, 3)).sum()
    v = x.min() + x.round().sum() + x.masked_fill(x > 1.0, x[2]).sum() + \
        x.reshape(3, 4).min(1).values.sum()
    return (em * em).sum() + p + n + u + (w * w).sum() + r.sum() + t + v


def _second(x):  # a gradient recorded as rows (create_graph): backward rules' ops
    m = x.reshape(2, 3)
    y = (m.softmax(1) * m).sum() + (m @ m.T).sin().sum() + x[tg.tensor([0, 2, 5])].exp().sum() \
        + x.cumsum(0).pow(2).sum() + F.linear(m, m.flip(0)).tanh().sum() + m.log_softmax(0).sum()
    (g,) = tg.autograd.grad(y, x, create_graph=True)
    return (g * g).sum() + (g * x).sum()


def _recent(x):  # ops landed lately: as_strided, unfold, var/std over dims, clamp, softplus
    m = x.reshape(3, 4)
    a = x.as_strided((3, 3), (3, 1), 1).sin().sum() + x.unfold(0, 3, 3).var(1).sum()
    b = m.std(0).sum() + m.var(1, keepdim=True).sum() + x.clamp(0.3, 0.9).pow(2).sum()
    c = F.softplus(x[:4]).sum() + F.softplus(x[4:8], beta=2.0, threshold=1.0).sum()
    d = tg.where(x > 0.6, x.exp(), x * x).sum() + x.round(decimals=1).sum() * x[0]
    e = x[0] * 2.5 + x[1] / x[2] - x[3].sigmoid() + tg.stack([x[4], x[5]]).softmax(0)[1]
    return a + b + c + d + e


def _rnn(x):  # the fused recurrent rows (LSTM_CELL, LSTM_H, GRU_CELL), states chained
    xg = x[:24].reshape(2, 12)
    hg = (x[:24] * 0.5).reshape(2, 12)
    h2, c2 = N.lstm_cell(xg, hg, x[24:30].reshape(2, 3))
    g = N.gru_cell(x[:18].reshape(2, 9), (x[6:24] * 1.5).reshape(2, 9), h2)
    h3, c3 = N.lstm_cell(xg * c2.sum(), hg, c2)
    return (h2 * c2).sum() + g.pow(2).sum() + (h3 * g).sum() + c3.sum()


def _rnnfold(x):  # cell states (read through meta) made by rows the plan folds or aliases
    H = 8
    e = x[:H].expand(2, H)  # an expand a mul reads too (a fold candidate)
    y = e * x[H:3 * H].reshape(2, H)
    xg = x[:8 * H].reshape(2, 4 * H)
    h2, c2 = N.lstm_cell(xg, xg * 0.5, e)
    sq = c2 * c2  # a square a sum over a dim reads too (a fold candidate)
    g = N.gru_cell(x[:6 * H].reshape(2, 3 * H), x[2 * H:8 * H].reshape(2, 3 * H), sq)
    al = x[3:3 + 2 * H].reshape(2, H)  # a contiguous run (an alias in the plan)
    g2 = N.gru_cell(x[:6 * H].reshape(2, 3 * H) * 0.3, x[H:7 * H].reshape(2, 3 * H), al)
    return y.sum() + sq.sum(1).sum() + (h2 * g).sum() + g2.sum()


X6 = FR.X6
X16 = np.linspace(0.2, 1.1, 16)
X120 = np.linspace(-0.5, 0.7, 120)
CORPUS = [(_gmm, [X120]), (_scal, [X6]), (_scalvec, [X6]), (_mixed, [X6]), (_bcast, [X16])] + \
    [(f, a) for f, a in FR.CORPUS] + [(_more, [np.linspace(0.2, 1.3, 12)]), (_second, [X6]),
                                       (_recent, [np.linspace(0.2, 1.3, 12)]),
                                       (_rnn, [np.linspace(-0.7, 0.9, 30)]),
                                       (_rnnfold, [np.linspace(-0.6, 0.8, 64)])]


def traces():
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for f, args in CORPUS:
            out.append((f.__name__, tg.trace(f, *args, argnums=tuple(range(len(args)))), args))
    return out


def _special(a):
    return [-1, 0, 1, 2, len(a["offs"]) - 2, len(a["meta"]) - 1, len(a["vals0"]) - 1]


def combos(a, rng, n, kinds=None):
    """n edits (lists of (kind, row, column or meta index, value)), drawn (of the kinds
    numbered in ``kinds``, default all)."""
    rows, meta = a["rows"], a["meta"]
    R = len(rows)
    nslots = len(a["offs"]) - 1
    size = np.diff(a["offs"])
    for _ in range(n):
        kind = rng.choice(kinds) if kinds else rng.integers(0, 15)
        r = int(rng.integers(0, R))
        code = int(rows[r, 0])
        if kind == 0:  # share meta with another row of the same opcode (or any meta row)
            same = np.nonzero(rows[:, 0] == code)[0]
            r2 = int(rng.choice(same))
            yield [("row", r, 4, int(rows[r2, 4]) + int(rng.integers(-2, 3)))]
        elif kind == 1:  # an operand retargeted to another slot of the same size
            c = int(rng.integers(1, 4))
            s = int(rows[r, c])
            if s < 0:
                continue
            cand = np.nonzero(size == size[s])[0]
            yield [("row", r, c, int(rng.choice(cand)))]
        elif kind == 2:  # meta entries in the row's window: other slot numbers / offsets
            if OPS[code].aux != "meta" and not OPS[code].meta_slots:
                continue
            k = int(rows[r, 4])
            j = k + int(rng.integers(0, 12))
            if not 0 <= j < len(meta):
                continue
            v = int(rng.choice([int(meta[j]) + 1, int(meta[j]) - 1, 0, 1, -1,
                                int(rng.integers(0, nslots)), 2 * int(meta[j]),
                                int(rng.integers(0, len(a["vals0"]) + 1)), int(size.max())]))
            yield [("meta", r, j, v)]
        elif kind == 3:  # two meta entries changed together (shape and stride)
            if OPS[code].aux != "meta":
                continue
            k = int(rows[r, 4])
            js = rng.integers(k, min(k + 12, len(meta)), 2)
            yield [("meta", r, int(j), int(rng.integers(-3, 8))) for j in js]
        elif kind == 4:  # out_slot to another slot
            yield [("out_slot", 0, 0, int(rng.integers(0, nslots)))]
        elif kind == 5:  # an operand to a later / the output slot
            c = int(rng.integers(2, 4))
            if rows[r, c] < 0:
                continue
            yield [("row", r, c, int(rng.integers(0, nslots)))]
        elif kind == 6:  # swap two rows
            r2 = int(rng.integers(0, R))
            yield [("swap", r, r2, 0)]
        elif kind == 7:  # duplicate a row onto another's position
            r2 = int(rng.integers(0, R))
            yield [("row", r2, c, int(rows[r, c])) for c in range(5)]
        elif kind == 8:  # aux to another value
            near = [int(rows[r, 4]) + 1, int(rows[r, 4]) - 1]
            yield [("row", r, 4, int(rng.choice(_special(a) + near)))]
        elif kind == 9:  # another opcode on the same operands (one whose aux is of the
            # same kind, mostly: a row of one op read by another op's rule and layout)
            like = [c for c in OPS if OPS[c].aux == OPS[code].aux and c != code]
            yield [("row", r, 0, int(rng.choice(like if like and rng.random() < 0.8
                                                 else list(OPS))))]
        elif kind == 10:  # another row's opcode and aux on this row's operands (the
            # other op's meta window, consistent in itself, read with operands of other sizes)
            r2 = int(rng.integers(0, R))
            if rows[r2, 0] == code:
                continue
            yield [("row", r, 0, int(rows[r2, 0])), ("row", r, 4, int(rows[r2, 4]))]
        elif kind == 11:  # the operands swapped (in0 <-> in1), or in1 set to in0
            if rows[r, 3] < 0:
                continue
            yield ([("row", r, 2, int(rows[r, 3])), ("row", r, 3, int(rows[r, 2]))]
                   if rng.random() < 0.5 else [("row", r, 3, int(rows[r, 2]))])
        elif kind == 13:
            muts = scalar_rows(a, rng)
            if muts:
                yield muts
        elif kind == 14:  # a const (an exponent, a norm's p, a scale, clamp's bounds,
            # softplus's beta and threshold, round's decimals) set to a boundary value
            if not len(a["consts"]):
                continue
            yield [("const", 0, int(rng.integers(0, len(a["consts"]))),
                    float(rng.choice(CONST_EDGES)))]
        elif kind == 12:  # aux into another opcode's meta window (two ops' layouts on one
            # window), plus one entry of it changed
            other = np.nonzero((rows[:, 0] != code) & np.isin(
                rows[:, 0], [c for c in OPS if OPS[c].aux == "meta"]))[0]
            if OPS[code].aux != "meta" or not len(other):
                continue
            k = int(rows[int(rng.choice(other)), 4]) + int(rng.integers(-1, 2))
            j = k + int(rng.integers(0, 8))
            muts = [("row", r, 4, k)]
            if 0 <= j < len(meta) and rng.random() < 0.5:
                muts.append(("meta", r, j, int(rng.choice([0, 1, -1, 2, int(size.max())]))))
            yield muts


def scalar_rows(a, rng):
    """Kind 13: a MUL or ADD row reading an EXPAND's output rewritten as the MUL_S/ADD_S row
    eager tapes record (the small operand read as it is, aux naming it), which no trace
    holds but a file may: the EXPAND's source as in0 (aux 0) or in1 (aux 1), or a slot of
    another size."""
    rows = a["rows"]
    size = np.diff(a["offs"])
    cand = [(r, c, e) for r in np.nonzero(np.isin(rows[:, 0], (E.MUL, E.ADD)))[0].tolist()
            for c in (2, 3) for e in np.nonzero((rows[:, 0] == EXPAND) &
                                                (rows[:, 1] == rows[r, c]))[0].tolist()]
    if not cand:
        return None
    r, c, e = cand[int(rng.integers(0, len(cand)))]
    src = int(rows[e, 2])
    if rng.random() < 0.3:  # (a slot of another size, older than the output)
        src = int(rng.integers(0, max(int(rows[r, 1]), 1)))
    new = E.MUL_S if rows[r, 0] == E.MUL else E.ADD_S
    return [("row", r, 0, new), ("row", r, c, src), ("row", r, 4, c - 2 if
                                                      rng.random() < 0.9 else 3 - c)]


def apply(a, muts):
    a = {k: v.copy() for k, v in a.items()}
    for kind, r, c, v in muts:
        if kind == "row":
            a["rows"][r, c] = v
        elif kind == "meta":
            a["meta"][c] = v
        elif kind == "const":
            a["consts"][c] = v
        elif kind == "out_slot":
            a["out_slot"] = np.int64(v)
        elif kind == "swap":
            a["rows"][[r, c]] = a["rows"][[c, r]]
    return a


def recompute(a):
    """vals0 (and grad0) from the rows, if the fields pass validate.check; else None."""
    d = validate.fields_from_npz(a)
    try:
        chk = validate.check(d, validate.MAX_BYTES)
    except ValueError:
        return None
    vals = chk["vals0"].copy()
    bad = np.zeros(1, np.int64)
    r = _kernels._forward_replay(chk["rows"], chk["offs"], vals, chk["consts"], chk["meta"], 0,
                                 len(chk["rows"]), 1, bad)
    if r >= 0 or bad[0]:
        return None
    a = dict(a, vals0=vals)
    a.pop("grad0", None)
    return a


def save(a):
    a = dict(a, digest=validate.digest(a))
    b = io.BytesIO()
    np.savez(b, **a)
    b.seek(0)
    return b


def exercise(t, args, rng, fused):
    xs = [np.asarray(x) + 0.05 * rng.standard_normal(np.shape(x)) for x in args]
    B = 3
    Xs = [np.stack([x, x + 0.01, x - 0.02]) for x in xs]
    if t.out_size == 1:
        t.value(*xs); t.grad(*xs)
        for _ in range(3):
            t.value_and_grad(*xs)
        t.value_and_grad_batch(*Xs, on_divergence="mask")
        t.grad_batch(*Xs, on_divergence="mask")
        t.value_batch(*Xs, on_divergence="mask")
    t.jacobian(*xs)
    t.jacobian_batch(*Xs, on_divergence="mask")
    V = np.ones((B,) + t.out_shape)
    t.vjp_batch(*Xs, v=V, on_divergence="mask")
    t.jvp_batch(*Xs, v=tuple(np.ones_like(X) for X in Xs), on_divergence="mask")
    t.listing()
    if fused:
        st = t.compile_fused(wait=True)
        if t.out_size == 1:
            t.value_and_grad_batch(*Xs, on_divergence="mask")
            t.value_and_grad(*xs)
        t.jacobian_batch(*Xs, on_divergence="mask")


def _bits(*a):
    """The values ``a``, to compare: equal where they agree to 1e-12 (a kernel still
    compiling in the background runs interpreted, NumPy's arithmetic, within an ulp or two
    of the compiled code's; a field one path reads another way gives other values)."""
    return [_Close(np.asarray(v, np.float64)) for v in a]


class _Close:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return self.v.shape == other.v.shape and bool(np.allclose(
            self.v, other.v, rtol=1e-12, atol=1e-300, equal_nan=True))


def paths_differ(t, args, rng, fused):
    """Where the loaded trace's paths disagree at a point near the traced one: the one-point
    fast path (the lowered code) against a batch of one (the interpreter), the Jacobian
    against the gradient, and with ``fused`` the fused kernel against both; and the value
    by the rows as load's check replays them (no plan) against the plan's.  They are the
    same rules on the same operands (bit for bit, tests/test_replay_lowered.py; here to
    1e-12: ``_bits``): a field read one way by one path and another way by another is a
    wrong result on one of them that the traced point's check cannot see.  Returns what
    differs, or None."""
    xs = [np.asarray(x, np.float64) + 0.01 * rng.standard_normal(np.shape(x)) for x in args]
    Xs = [x[None] for x in xs]
    vals = t.vals0.copy()  # the rows as the load's check replays them (no plan)
    for s, x in zip(t.in_slots.tolist(), xs):
        vals[t.offs[s]:t.offs[s + 1]] = x.reshape(-1)
    bad = np.zeros(1, np.int64)
    if _kernels._forward_replay(t.rows, t.offs, vals, t.consts, t.meta, 0, len(t.rows), 1,
                                bad) >= 0:
        return None
    raw = vals[t.offs[t.out_slot]:t.offs[t.out_slot + 1]]
    try:
        if not bad[0]:
            vb = t.value_batch(*Xs, on_divergence="mask")
            if _bits(np.asarray(vb[0]).reshape(-1)) != _bits(raw):
                return f"rows {raw.tolist()} vs plan {np.asarray(vb[0]).reshape(-1).tolist()}"
        if t.out_size == 1:
            v1, g1 = t.value_and_grad(*xs)
            v1, g1 = t.value_and_grad(*xs)  # (the second call: the lowered code's)
            vb, gb = t.value_and_grad_batch(*Xs, on_divergence="mask")
            ref = _bits(v1, *(g1 if isinstance(g1, tuple) else (g1,)))
            got = _bits(vb[0], *(g[0] for g in (gb if isinstance(gb, tuple) else (gb,))))
            if ref != got:
                return "point vs batch"
            J = t.jacobian(*xs)
            if _bits(*(J if isinstance(J, tuple) else (J,))) != ref[1:]:
                return "jacobian vs grad"
        else:
            J = t.jacobian(*xs)
            Jb = t.jacobian_batch(*Xs, on_divergence="mask")
            ref = _bits(*(J if isinstance(J, tuple) else (J,)))
            if ref != _bits(*(j[0] for j in (Jb if isinstance(Jb, tuple) else (Jb,)))):
                return "jacobian vs jacobian_batch"
        if fused:
            t.compile_fused(wait=True)
            if t.out_size == 1:
                vf, gf = t.value_and_grad_batch(*Xs, on_divergence="mask")
                v2, g2 = t.value_and_grad(*xs)
                if _bits(vf[0], *(g[0] for g in (gf if isinstance(gf, tuple) else (gf,)))) != \
                        got or _bits(v2, *(g2 if isinstance(g2, tuple) else (g2,))) != ref:
                    return "fused vs interpreter"
            else:
                Jf = t.jacobian_batch(*Xs, on_divergence="mask")
                if _bits(*(j[0] for j in (Jf if isinstance(Jf, tuple) else (Jf,)))) != ref:
                    return "fused jacobian vs interpreter"
    except (ValueError, RuntimeError, TypeError):
        return None  # (a divergence at that point, a vector output's grad)
    return None


def stops(t):
    """Whether the trace holds a row that stops the gradient (detach, no_grad's pair): its
    Jacobian then differs from its values' differences by design."""
    return bool(np.isin(t.rows[:, 0], STOPS).any())


def fd_mismatch(t, args, rng, h=1e-6):
    """Whether the trace's Jacobian (its reverse rules) disagrees with central differences
    of its own values (its forward rules) at two points near the traced one: a row whose
    reverse reads what its forward does not gives a wrong gradient that no check of the
    values sees.  Both points must disagree (a kink, a tie or a guard at one is noise)."""
    bad = 0
    for _ in range(2):
        xs = [np.asarray(x, np.float64) + 0.01 * rng.standard_normal(np.shape(x)) for x in args]
        try:
            J = t.jacobian(*xs)
            if np.abs(np.asarray(t.value(*xs))).max(initial=0.0) > 1e12:
                return False  # (differences of values near 1e308 keep no digits of the rest)
        except (ValueError, RuntimeError, TypeError):
            return False
        J = J if isinstance(J, tuple) else (J,)
        for j, Jj in zip(t.argnums, J):
            x = xs[j].reshape(-1)
            cols = []
            for e in range(x.size):
                hi, lo = [list(xs) for _ in range(2)]
                for v, sign in ((hi, 1), (lo, -1)):
                    y = x.copy()
                    y[e] += sign * h
                    v[j] = y.reshape(xs[j].shape)
                try:
                    cols.append((np.asarray(t.value(*hi)) - np.asarray(t.value(*lo))) / (2 * h))
                except (ValueError, RuntimeError, TypeError):
                    return False
            fd = np.stack(cols, -1).reshape(Jj.shape) if cols else Jj
            ok = np.isclose(Jj, fd, rtol=1e-4, atol=1e-5) | ~np.isfinite(fd) | ~np.isfinite(Jj)
            if not ok.all():
                bad += 1
                break
    return bad == 2


def run(seed, cases, fused, only=None, kinds=None, fd=False, paths=False):
    rng = np.random.default_rng(seed)
    stats = {"cases": 0, "invalid": 0, "refused": 0, "loaded": 0, "failures": []}
    for name, t, args in traces():
        if only and name not in only:
            continue
        a = FR.arrays_of(t)
        # (a function whose own gradient stops somewhere, detach, is no oracle for it)
        check_fd = fd and not fd_mismatch(t, args, rng)
        for muts in combos(a, rng, cases, kinds):
            stats["cases"] += 1
            what = f"{name} {muts}"
            try:
                m = recompute(apply(a, muts))
            except (IndexError, ValueError):
                m = None
            except Exception as e:  # noqa: BLE001
                stats["failures"].append(f"{what} recompute: {type(e).__name__}: {str(e)[:150]}")
                continue
            if m is None:
                stats["invalid"] += 1
                continue
            try:
                u = tg.jit.load(save(m))
            except ValueError:
                stats["refused"] += 1
                continue
            except Exception as e:  # noqa: BLE001
                stats["failures"].append(f"{what} load: {type(e).__name__}: {str(e)[:150]}")
                continue
            stats["loaded"] += 1
            if check_fd and not stops(u) and fd_mismatch(u, args, rng):
                stats.setdefault("fd", []).append(what)
            if paths:
                why = paths_differ(u, args, rng, fused)
                if why is not None:
                    stats.setdefault("paths", []).append(f"{what}: {why}")
            try:
                exercise(u, args, rng, fused)
            except (ValueError, RuntimeError, TypeError) as e:  # (a divergence, no rule)
                if "bug" in str(e).lower():
                    stats["failures"].append(f"{what} replay: {type(e).__name__}: {str(e)[:200]}")
            except Exception as e:  # noqa: BLE001 (an IndexError: out of bounds)
                stats["failures"].append(f"{what} replay: {type(e).__name__}: {str(e)[:200]} "
                                         f"{traceback.format_exc()[-600:]}")
        print(f"{name}: {json.dumps(stats)[:600]}", file=sys.stderr, flush=True)  # (progress)
    return stats


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cases", type=int, default=100, help="edits per traced function")
    ap.add_argument("--fused", action="store_true", help="also compile and run the fused tier")
    ap.add_argument("--only", nargs="*", help="traced functions by name (_gmm, _scal, ...)")
    ap.add_argument("--kinds", nargs="*", type=int, help="edit kinds by number (9: opcodes)")
    ap.add_argument("--fd", action="store_true", help="also compare each loaded trace's "
                    "Jacobian with central differences of its values (listed under 'fd')")
    ap.add_argument("--paths", action="store_true", help="also compare each loaded trace's "
                    "paths (one point, batch, Jacobian, fused) bit for bit (under 'paths')")
    o = ap.parse_args()
    print(json.dumps(run(o.seed, o.cases, o.fused, o.only, o.kinds, o.fd, o.paths)))


if __name__ == "__main__":
    main()
