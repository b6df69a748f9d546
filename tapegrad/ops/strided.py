"""Strided maps: EXPAND rows (a binary op's implicit broadcast) and STRIDED rows (a strided
view: transpose, narrow, select, flip, repeat, basic indexing), both reading a map
``[ndim, base, shape..., strides...]`` from the meta pool (STRIDED's after the index of its
PyTorch node name in VIEW_NAMES); the helpers that read such maps serve reductions too.
Broadcasting lives here, below every family that broadcasts.
"""
import numpy as np

from .._jit import rule
from .._rules import _s, _u, add_into, reach_input
from .._errors import with_note
from .._state import state
from ..tape import CONST, OP_MASK
from . import layout
from .registry import BY_NAME, OPS, ZERO, declare

# node names of the VIEW/STRIDED/GATHER rows: saved tapes store the index, so append only
VIEW_NAMES = ("ViewBackward0", "ReshapeAliasBackward0", "UnsqueezeBackward0",
              "SqueezeBackward0", "ExpandBackward0", "PermuteBackward0", "TransposeBackward0",
              "SelectBackward0", "SliceBackward0", "IndexBackward0", "UnsafeViewBackward0",
              "ToCopyBackward0", "AliasBackward0", "SqueezeBackward1", "SqueezeBackward2",
              "FlipBackward0", "RepeatBackward0", "GatherBackward0", "IndexSelectBackward0",
              "RollBackward0", "SplitBackward0", "SplitWithSizesBackward0", "UnbindBackward0",
              "TBackward0", "CloneBackward0", "DiagonalBackward0", "SortBackward0",
              "TopkBackward0",
              # composite losses' results once named by an identity row (saved tapes may
              # hold them; composites are named by a note now: _record.named_result)
              "MseLossBackward0", "BinaryCrossEntropyBackward0",
              "BinaryCrossEntropyWithLogitsBackward0", "SmoothL1LossBackward0",
              "HuberLossBackward0",
              # a view read after its base changed in place (ops/inplace.py _follow)
              "AsStridedBackward0")
# the named nodes that hold a saved tensor in PyTorch (indices, a loss's operands): a
# backward without retain_graph frees them (registry ``frees``); the others sweep again
SAVING_VIEW_NAMES = frozenset((
    "IndexBackward0", "GatherBackward0", "IndexSelectBackward0", "SortBackward0",
    "TopkBackward0", "MseLossBackward0", "BinaryCrossEntropyBackward0",
    "BinaryCrossEntropyWithLogitsBackward0", "SmoothL1LossBackward0", "HuberLossBackward0"))


def _view_name(rows, meta, r):
    """The node name of a VIEW row (its aux indexes VIEW_NAMES) or of a STRIDED or GATHER
    row (the first int of its meta does)."""
    row = rows[r]
    k = int(row[4])
    return VIEW_NAMES[k if OPS[int(row[0]) & OP_MASK].aux == "name" else int(meta[k])]


def _c_strides(shape):
    strides, acc = [], 1
    for s in reversed(shape):
        strides.append(acc if s != 1 else 0)
        acc *= s
    return strides[::-1]


@rule
def strided_index(i, meta, k):
    """Flat source index of element ``i`` of a strided map stored at ``meta[k]``:
    ``[ndim, base, shape..., strides...]``; stride 0 repeats (broadcast, reduced dims),
    a negative stride walks backwards (flip)."""
    nd = meta[k]
    j = meta[k + 1]
    for d in range(nd - 1, -1, -1):
        sz = meta[k + 2 + d]
        j += (i % sz) * meta[k + 2 + nd + d]
        i //= sz
    return j


@rule
def strided_runs(meta, k, n, merge=True):
    """The strided map at ``meta[k]`` (n elements) as runs along its last dimensions:
    returns (starts, length, step): element ``r * length + i`` maps to source element
    ``starts[r] + i * step``.  An odometer over the outer dimensions: no div/mod per
    element (strided_index costs 4-10x more per element).  The dims before the last that
    continue its walk (stride = step * the run so far; or of size 1) join its run: the same
    elements in the same order, so every caller adds and compares in the same order, in
    fewer, longer runs (k-means' (1, 100, 16) -> (1000, 100, 16) expand: 1,000 runs of
    1,600 instead of 10^5 runs of 16; a sum over the last two dims: one run per output).
    ``merge=False``: runs along the last dim only, for callers walking two maps' runs in
    step (an SQSUM row making u from a BCAST row's map: the two maps merge differently)."""
    nd = meta[k]
    if nd == 0:  # every element from one source (the map of a full reduction)
        return np.full(1, meta[k + 1]), n, 0
    length = meta[k + 1 + nd]
    step = meta[k + 1 + 2 * nd]
    top = nd - 2  # the innermost dim left outside the runs
    while merge and top >= 0 and (meta[k + 2 + top] == 1
                                  or meta[k + 2 + nd + top] == step * length):
        length *= meta[k + 2 + top]
        top -= 1
    m = n // length if length > 0 else 0
    starts = np.empty(m, np.int64)
    idx = np.zeros(nd, np.int64)
    e = meta[k + 1]
    # the runs along dim top, c of them stride st apart, written in one loop, the odometer
    # carrying only into the dims before it (a carry a run cost ~1.8 ns: ADBench GMM's
    # (K, n, d) maps at d = 2, 5,000 runs of 2, 8.9 us a map; its size 0 counts as 1, as
    # the carry a run did)
    c = max(meta[k + 2 + top], 1) if top >= 0 else m
    st = meta[k + 2 + nd + top] if top >= 0 else 0
    r = 0
    while r < m:
        for t in range(min(c, m - r)):
            starts[r + t] = e + t * st
        r += c
        d = top - 1
        while d >= 0:  # advance the odometer: carry into outer dims
            idx[d] += 1
            e += meta[k + 2 + nd + d]
            if idx[d] < meta[k + 2 + d]:
                break
            e -= idx[d] * meta[k + 2 + nd + d]
            idx[d] = 0
            d -= 1
    return starts, length, step


def _strided_meta(shape, strides, base=0):
    return (len(shape), base, *shape, *strides)


def broadcast_shape(op, sa, sb):
    """The broadcast shape, or PyTorch's error naming the dims that clash."""
    if not sa or not sb:  # a 0-d operand (a scalar parameter times a vector)
        return tuple(sa or sb)
    if len(sb) < len(sa) and sa[len(sa) - len(sb):] == sb:  # a bias: (8, 512) + (512,)
        return tuple(sa)
    n = max(len(sa), len(sb))
    pa = (1,) * (n - len(sa)) + tuple(sa)
    pb = (1,) * (n - len(sb)) + tuple(sb)
    out = []
    for i, (x, y) in enumerate(zip(pa, pb, strict=True)):
        if x != y and x != 1 and y != 1:  # (PyTorch names the last dim that clashes)
            i = max(j for j, (p, q) in enumerate(zip(pa, pb)) if p != q and 1 not in (p, q))
            x, y = pa[i], pb[i]
            raise with_note(RuntimeError(
                f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                f"non-singleton dimension {i}"), f"{op}: shapes {tuple(sa)} and {tuple(sb)}; "
                "broadcasting needs equal sizes or 1 in each dimension")
        out.append(max(x, y) if x != 1 and y != 1 else x * y)
    return tuple(out)


def broadcast_error(op, operands):
    """On a composite's error path (NumPy's words, or an inner op's with the operands in its
    order): PyTorch's error for ``op`` where its tensor ``operands``, in PyTorch's order,
    do not broadcast; returns where they do, for the caller's ``raise``."""
    shape = None
    for x in operands:
        if hasattr(x, "_data") and hasattr(x, "shape"):  # (a Tensor: numbers broadcast)
            try:
                shape = tuple(x.shape) if shape is None else broadcast_shape(op, shape,
                                                                             tuple(x.shape))
            except RuntimeError as e:
                raise e from None  # (not "during handling of" the composite's own)


# ---- expand: implicit broadcasting of a binary op's operand -----------------------------
EXPAND = 60
# hidden in graph views: PyTorch broadcasts inside the op


@rule(inline=True)
def _group_end(keys, r, end):
    # the end of the runs r.. that read one source run (a broadcast over a middle dim):
    # the first q < end with keys[q] != keys[r], or end
    q = r + 1
    while q < end and keys[q] == keys[r]:
        q += 1
    return q


@rule
def strided_fwd(vals, meta, o, a, n, k, w):
    starts, length, step = strided_runs(meta, k, _s(n))
    if w == 1 and length < 8:  # one point (replay's): without the loop over points
        for r in range(len(starts)):
            y = o + _u(r * length)
            j = a + _u(starts[r])
            for i in range(length):
                vals[y + _u(i)] = vals[j + _u(i * step)]
        return
    if w == 1:  # (longer runs: a source run read once for the runs that repeat it)
        r = 0
        while r < len(starts):
            q = _group_end(starts, r, len(starts))  # (runs r..q-1 read one source run)
            _runs_fwd(vals, a + _u(starts[r]), o + _u(r * length), length, step, q - r)
            r = q
        return
    for r in range(len(starts)):
        y = o + _u(r * length) * w
        for i in range(length):
            j = a + _u(starts[r] + i * step) * w
            for p in range(w):
                vals[y + _u(i) * w + p] = vals[j + p]


@rule
def strided_rev(dst, adj, meta, o, a, n, k, w):
    # y[i] = x[map(i)]  =>  gx[map(i)] += gy[i]: gy read from adj at o, gx added into dst
    # at a (dst is adj, or expand_rev's float64 sums)
    starts, length, step = strided_runs(meta, k, _s(n))
    if w == 1 and step == 0:  # a run onto one element (a sum over the last dim): summed in
        for r in range(len(starts)):  # a register, in order (ADBench GMM: 2-4x faster)
            y = o + _u(r * length)
            j = a + _u(starts[r])
            acc = dst[j]
            for i in range(length):
                acc += adj[y + _u(i)]
            dst[j] = acc
        return
    if w == 1:  # eager sweeps: without the loop over points, 3-7x faster (a bias, a .t())
        r = 0
        while r < len(starts):
            q = _group_end(starts, r, len(starts))  # (runs r..q-1 read one source run)
            j, y = a + _u(starts[r]), o + _u(r * length)
            if length < 8 and q > r + 1 and _four_groups(starts, r, q - r, length, step):
                _runs_rev4(dst, adj, j, starts, r, y, length, step, q - r)
                r += 4 * (q - r)
                continue
            if q == r + 1:  # one run: added in place, the same adds in the same order (the
                # call of _runs_rev a run cost ~100 ns: k-means' (1, 100, 16) -> (1000, 100,
                # 16) expand, 10^5 runs of 16, took 10-14 ms against 1.8 here)
                for i in range(length):
                    dst[j + _u(i * step)] += adj[y + _u(i)]
            else:
                _runs_rev(dst, adj, j, y, length, step, q - r)
            r = q
        return
    for r in range(len(starts)):
        y = o + _u(r * length) * w
        for i in range(length):
            j = a + _u(starts[r] + i * step) * w
            for p in range(w):
                dst[j + p] += adj[y + _u(i) * w + p]


@rule
def _runs_fwd(vals, j, y, length, step, c):
    # one run of x (at j, step apart) copied into c consecutive runs of y (at y): eight
    # source elements held in registers over the c runs, the rest copied run by run
    # (ADBench GMM d >= 10: the (K, 1, d) -> (K, n, d) expands, 1.3-2.3x faster)
    s = _u(step)
    i = 0
    while i + 8 <= length:
        e = j + _u(i * step)
        v0, v1, v2, v3 = vals[e], vals[e + s], vals[e + 2 * s], vals[e + 3 * s]
        v4, v5, v6, v7 = vals[e + 4 * s], vals[e + 5 * s], vals[e + 6 * s], vals[e + 7 * s]
        for r in range(c):
            g = y + _u(r * length + i)
            vals[g] = v0
            vals[g + 1] = v1
            vals[g + 2] = v2
            vals[g + 3] = v3
            vals[g + 4] = v4
            vals[g + 5] = v5
            vals[g + 6] = v6
            vals[g + 7] = v7
        i += 8
    if i < length:
        for r in range(c):
            g = y + _u(r * length)
            for t in range(i, length):
                vals[g + _u(t)] = vals[j + _u(t * step)]


@rule
def _runs_rev(dst, adj, j, y, length, step, c):
    # c consecutive runs of gy (at y, of length elements each) added onto one run of gx (at j,
    # step apart, step != 0), each gx element summed in a register over the runs in order
    # (the same sums as run by run): eight elements at a time, eight chains of adds in
    # flight, then a block of 4, of 2, of 1 (ADBench GMM d = 10, K = 25: a sum over 1,000
    # points 2.4x faster at four; eight and the short blocks: another 5-15% at d = 2..32;
    # a tail clamped onto eight lanes, each lane loading, was 10-40% slower)
    s = _u(step)
    i = 0
    while i + 8 <= length:
        e = j + _u(i * step)
        a0, a1, a2, a3 = dst[e], dst[e + s], dst[e + 2 * s], dst[e + 3 * s]
        a4, a5, a6, a7 = dst[e + 4 * s], dst[e + 5 * s], dst[e + 6 * s], dst[e + 7 * s]
        for r in range(c):
            g = y + _u(r * length + i)
            a0 += adj[g]
            a1 += adj[g + 1]
            a2 += adj[g + 2]
            a3 += adj[g + 3]
            a4 += adj[g + 4]
            a5 += adj[g + 5]
            a6 += adj[g + 6]
            a7 += adj[g + 7]
        dst[e] = a0
        dst[e + s] = a1
        dst[e + 2 * s] = a2
        dst[e + 3 * s] = a3
        dst[e + 4 * s] = a4
        dst[e + 5 * s] = a5
        dst[e + 6 * s] = a6
        dst[e + 7 * s] = a7
        i += 8
    if i + 4 <= length:
        e = j + _u(i * step)
        a0, a1, a2, a3 = dst[e], dst[e + s], dst[e + 2 * s], dst[e + 3 * s]
        for r in range(c):
            g = y + _u(r * length + i)
            a0 += adj[g]
            a1 += adj[g + 1]
            a2 += adj[g + 2]
            a3 += adj[g + 3]
        dst[e] = a0
        dst[e + s] = a1
        dst[e + 2 * s] = a2
        dst[e + 3 * s] = a3
        i += 4
    if i + 2 <= length:
        e = j + _u(i * step)
        a0, a1 = dst[e], dst[e + s]
        for r in range(c):
            g = y + _u(r * length + i)
            a0 += adj[g]
            a1 += adj[g + 1]
        dst[e] = a0
        dst[e + s] = a1
        i += 2
    if i < length:
        e = j + _u(i * step)
        a0 = dst[e]
        for r in range(c):
            a0 += adj[y + _u(r * length + i)]
        dst[e] = a0


@rule
def _four_groups(starts, r, c, length, step):
    # runs r.. as four groups of c runs, each group's runs onto one run of gx, the four
    # gx runs disjoint (each start at least a run's span past the one before)
    if r + 4 * c > len(starts):
        return False
    span = length * abs(step)
    for g in range(1, 4):
        s0 = starts[r + g * c]
        if s0 - starts[r + (g - 1) * c] < span:
            return False
        for t in range(1, c):
            if starts[r + g * c + t] != s0:
                return False
    return True


@rule
def _runs_rev4(dst, adj, j, starts, r, y, length, step, c):
    # _runs_rev for four groups of c runs (_four_groups: onto four disjoint runs of gx,
    # consecutive in gy from y) side by side: each gx element summed in a register over
    # its group's runs in order (the same sums as group by group), two elements of each
    # group at a time, eight chains of adds in flight where one short run gives one or two
    # (ADBench GMM d = 2: the (K, 1, 2) -> (K, n, 2) expands' reverses)
    s, L = _u(step), _u(length)
    g1 = _u(c) * L  # (a group's span in gy)
    g2, g3 = g1 + g1, g1 + g1 + g1
    j1 = j + _u(starts[r + c] - starts[r])
    j2 = j + _u(starts[r + 2 * c] - starts[r])
    j3 = j + _u(starts[r + 3 * c] - starts[r])
    i = _u(0)
    while i < L:
        two = i + _u(1) < L  # (the last element of an odd run alone: its twin unused)
        e = i * s
        t = e + s if two else e
        a0, b0, a1, b1 = dst[j + e], dst[j + t], dst[j1 + e], dst[j1 + t]
        a2, b2, a3, b3 = dst[j2 + e], dst[j2 + t], dst[j3 + e], dst[j3 + t]
        d = _u(1) if two else _u(0)
        for q in range(c):
            g = y + _u(q) * L + i
            a0 += adj[g]
            b0 += adj[g + d]
            a1 += adj[g + g1]
            b1 += adj[g + g1 + d]
            a2 += adj[g + g2]
            b2 += adj[g + g2 + d]
            a3 += adj[g + g3]
            b3 += adj[g + g3 + d]
        dst[j3 + t] = b3
        dst[j3 + e] = a3
        dst[j2 + t] = b2
        dst[j2 + e] = a2
        dst[j1 + t] = b1
        dst[j1 + e] = a1
        dst[j + t] = b0
        dst[j + e] = a0
        i += _u(2)


@rule
def expand_rev(adj, meta, o, a, n, na, k, w):
    # a broadcast source's adjoint sums many of gy's: in float64 whatever adj's dtype (one
    # float32 add at a time loses ~1e-6 over 10^6 values; PyTorch sums pairwise), then once
    # into adj
    acc = np.zeros(na * w)
    strided_rev(acc, adj, meta, o, 0, n, k, w)
    for j in range(na * w):
        adj[a + j] += acc[j]


def expand_vjp(r, g):
    return [(r.a, r.sum_dim(g, r.k, r.shape(r.a)))]


def _map_layout(named):
    """A row copying out's elements from in0 by the map at meta[k] (after the view's name
    index, if ``named``)."""
    def check(lay, R):  # (over all rows at once: x[i] in a loop makes 10**5 of them)
        o, a, k = R[:, 1], R[:, 2], R[:, 4]
        n_out, n_in = lay.sizes(o, "out"), lay.sizes(a, "in0")
        if named:
            view_names_layout(lay, lay.fields(k, 1)[:, 0])
        lay.strided_maps(k + named, n_out, n_in)
    return check


def view_names_layout(lay, names):
    """Each row's view name index (an array, one per row) names one of VIEW_NAMES."""
    lay.check_each((names < 0) | (names >= len(VIEW_NAMES)),
                   lambda i: f"view name index {int(names[i])} is out of range "
                             f"({len(VIEW_NAMES)} names)")


declare(EXPAND, "ExpandBackward0", aux="meta", fwd=strided_fwd, rev=expand_rev, vjp=expand_vjp,
        check=_map_layout(named=False), tan=strided_fwd, curv=ZERO)


def record_expand(tape, t, s, shape, keep=True):
    """EXPAND row taking slot ``s`` of ``t`` to ``shape``; returns the new slot.  ``keep``:
    the consumer reads its values (expand_rev does not; see Tape.push_array)."""
    d = t._data
    if type(d) is float:  # a 0-d source (a scalar parameter times a vector): every stride 0
        strides = (0,) * len(shape)
    else:
        strides = _c_strides((1,) * (len(shape) - d.ndim) + d.shape)
    k = tape.push_meta(_strided_meta(shape, strides))
    out = _push_broadcast(tape, d, shape, keep)
    tape.rbuf.extend((EXPAND, out, s, -1, k))
    return out


def _push_broadcast(tape, d, shape, keep):
    """A new slot holding ``d`` broadcast to ``shape`` (cast by the arena): a 0-d float's
    as a fresh ``np.full`` the tape may keep as it is (``np.broadcast_to`` costs ~3 us, a
    scalar times a vector's whole record)."""
    if type(d) is float:
        return tape.push_array(np.full(shape, d), keep, True)
    return tape.push_array(broadcast_view(d, shape), keep)


def broadcast_view(d, shape):
    """``np.broadcast_to(d, shape)`` (a read-only view) for ndarray ``d``: made by
    ``np.ndarray`` itself where d is C-contiguous (~0.6 us; np.broadcast_to's checks cost
    ~4 us, a bias add's largest part after its arithmetic)."""
    if not d.flags.c_contiguous or not d.size:
        return np.broadcast_to(d, shape)
    lead = len(shape) - d.ndim
    strides = [0] * lead
    for n, st in zip(d.shape, d.strides, strict=True):
        strides.append(0 if n == 1 else st)
    v = np.ndarray(shape, d.dtype, d, 0, strides)
    v.flags.writeable = False
    return v


# ---- strided views: one STRIDED row (meta: [name, ndim, base, shape..., strides...]) ----
STRIDED = 62

def strided_vjp(r, g):
    return [(r.a, r.sum_dim(g, r.k + 1, r.shape(r.a)))]


declare(STRIDED, _view_name, frees=BY_NAME, aux="meta", fwd=strided_fwd, rev=strided_rev,
        vjp=strided_vjp, check=_map_layout(named=True), tan=strided_fwd, curv=ZERO)


def expand_slot(tape, t, s, shape, need=True):
    """Slot of ``t`` broadcast to ``shape``: an EXPAND row if t requires grad, else a
    constant (``need``: the caller's rule reads its values; see Tape.push_array)."""
    if tuple(t.shape) == shape:
        return s
    if not t._rg:
        s = _push_broadcast(tape, t._data, shape, need)
        if state.tracing is not tape:  # (traced tapes replay: every slot is an input)
            tape.consts_at.append(s)
        return s
    return record_expand(tape, t, s, shape, need)


# ---- replay plans only: a binary op reading one operand through a broadcast map ---------
BCAST = 72
# Never on a tape: replay's plan (replay._Plan) folds an EXPAND row read by one add, sub or
# mul into that row, ``[BCAST, out, f, s, k]``: f the full-size operand, s the expand's
# source, meta[k:k+3] = [kind, side, the expand's map].  side 1: out = f op x[map], side 0:
# out = x[map] op f.  The (K, n, d) broadcast copy and its adjoint never exist (ADBench
# GMM: means and exp(q) broadcast over the n points); each value and adjoint is computed
# by the same operations, in the same order, as the two rows did.  meta[k+3]: -1, or
# where [pf, ps, kp] stand for a chained add or sub row whose reverse this row's runs
# (bcast_chain_rev).  meta[k+4]: -1, or the slot whose adjoint stands for out's (an SQSUM
# row's other operand: both adjoints are the same values, only that one is stored;
# replay._share_square_adjoints).  meta[k+5]: 0, or the runs after which f's values repeat
# (a constant: its first period read, at one point; replay._periodic_constants).
BC_ADD, BC_SUB, BC_MUL = 0, 1, 2


@rule
def _bc_apply(kind, u, v):
    if kind == BC_ADD:
        return u + v
    if kind == BC_SUB:
        return u - v
    return u * v


@rule
def _bc_fwd_runs(vals, o, f, s, starts, length, step, kind, side, per):
    # every run at one point in one call, the op chosen outside the inner loops (they
    # vectorise at step 1): a call per run cost ~50 ns, more than a d = 10 run's work.
    # per: f's values repeat every per runs (a constant broadcast over a leading dim,
    # replay._periodic_constants): read from its first period only, the same values
    L, st = _u(length), _u(step)
    R = len(starts)
    if length < TILE_RUN and R > 1 and starts[1] == starts[0]:
        _bc_fwd_tiled(vals, o, f, s, starts, L, st, kind, side, per)
        return
    for r0 in range(0, R, per):
        for r in range(r0, min(r0 + per, R)):
            y, x, j = o + _u(r) * L, f + _u(r - r0) * L, s + _u(starts[r])
            if kind == BC_MUL and side:
                for i in range(L):
                    vals[y + i] = vals[x + i] * vals[j + i * st]
            elif kind == BC_MUL:
                for i in range(L):
                    vals[y + i] = vals[j + i * st] * vals[x + i]
            elif kind == BC_SUB and side:
                for i in range(L):
                    vals[y + i] = vals[x + i] - vals[j + i * st]
            elif kind == BC_SUB:
                for i in range(L):
                    vals[y + i] = vals[j + i * st] - vals[x + i]
            elif side:
                for i in range(L):
                    vals[y + i] = vals[x + i] + vals[j + i * st]
            else:
                for i in range(L):
                    vals[y + i] = vals[j + i * st] + vals[x + i]


# runs shorter than this, repeating one source run (a broadcast over a middle dim), are
# run as one loop over the group's elements against a tile of the source run repeated
# (_bc_fwd_tiled; a standalone loop at (100, 1000, d): d = 2 2.6x faster, d = 5 2.1x,
# d = 10 1.3x, d = 12 and 16 no faster)
TILE_RUN = 12
TILE = 64  # (a tile holds TILE // length whole runs)


@rule
def _bc_span(vals, y, x, tile, n, kind, side):
    # n elements of out = f op tile, out at y, f at x (the op chosen outside the loop)
    if kind == BC_MUL and side:
        for i in range(n):
            vals[y + i] = vals[x + i] * tile[i]
    elif kind == BC_MUL:
        for i in range(n):
            vals[y + i] = tile[i] * vals[x + i]
    elif kind == BC_SUB and side:
        for i in range(n):
            vals[y + i] = vals[x + i] - tile[i]
    elif kind == BC_SUB:
        for i in range(n):
            vals[y + i] = tile[i] - vals[x + i]
    elif side:
        for i in range(n):
            vals[y + i] = vals[x + i] + tile[i]
    else:
        for i in range(n):
            vals[y + i] = tile[i] + vals[x + i]


@rule
def _bc_fwd_tiled(vals, o, f, s, starts, L, st, kind, side, per):
    # _bc_fwd_runs for short runs repeating a source run: the q runs of a group (one start,
    # within one period of f) are q * L contiguous outputs and f values, so one loop over
    # them reads the source from a tile holding its run TILE // L times, TILE elements a
    # pass (a loop of 2 a run cost more than its work: ADBench GMM's x - mu at d = 2).
    # Each value is the same op on the same operands: bit for bit.
    T = (_u(TILE) // L) * L
    tile = np.empty(T)
    R = len(starts)
    for r0 in range(0, R, per):
        end = min(r0 + per, R)
        r = r0
        while r < end:
            q = _group_end(starts, r, end)
            y, x, j, n = o + _u(r) * L, f + _u(r - r0) * L, s + _u(starts[r]), _u(q - r) * L
            t = _u(0)
            while t < min(T, n):
                for i in range(L):
                    tile[t + i] = vals[j + i * st]
                t += L
            c = _u(0)
            while c + T <= n:
                _bc_span(vals, y + c, x + c, tile, T, kind, side)
                c += T
            _bc_span(vals, y + c, x + c, tile, n - c, kind, side)
            r = q


@rule
def _bc_f_adj(adj, vals, o, f, s, starts, length, step, n, kind, side):
    # an add's or sub's full operand's adjoints at one point: one pass over the n elements
    # (the source is not read; mul's: _bc_mul_pass)
    if kind == BC_SUB and not side:
        for i in range(n):
            adj[f + i] += -adj[o + i]
    else:
        for i in range(n):
            adj[f + i] += adj[o + i]


@rule
def _bc_mul_pass(adj, vals, acc, pacc, o, f, s, pf, starts, length, step, df, ds, chain, dpf,
                 neg):
    # a product's reverse at one point in one pass over gy: the full operand's adjoints
    # (gy * x[map]) and the source's terms (gy * f, added onto acc through the map run
    # after run, each element's terms in the order strided_rev adds them), without the
    # (K, n, d) scratch of products; gy read once (ADBench GMM: exp(q) * xc).  chain: f is
    # the output of an add or sub broadcast (bcast_chain_rev), whose adjoints are final once
    # written here: that row's reverse follows in the same pass, f's adjoint onto its full
    # operand (dpf; neg: -g) and its terms onto pacc, as bcast_rev would add them after.
    # (Microbenchmarks, GMM d = 10: the source's sums held in registers over runs, four
    # elements at a time, were 1.4x slower than these adds through memory; a helper
    # called per element with the arrays, even inlined, 20x: NRT's counters)
    if df and ds and chain and not dpf:  # (GMM's case without its branches: 8% faster;
        # f's final adjoint not stored: only p's reverse, run here, reads it.  Indexed
        # through views from 0: ~8% faster than the arena at o + e, GMM d = 10)
        # Unsigned indices: no negative-index test a load (GMM d = 10: 1.4x faster, d = 20
        # and 64: 2x, alone; the step's wraparound as the other loops' _u)
        n = _u(len(starts) * length)
        gys, fadj, fval, src = adj[o:o + n], adj[f:f + n], vals[f:f + n], vals[s:]
        L, st = _u(length), _u(step)
        if length == 2 and step != 0:
            _bc_mul_chain2(gys, fadj, fval, src, acc, pacc, starts, st)
            return
        for r in range(len(starts)):
            q, j = _u(r) * L, _u(starts[r])
            for i in range(L):
                e, m = q + i, j + i * st
                gy = gys[e]
                g = fadj[e] + gy * src[m]
                acc[m] += gy * fval[e]
                pacc[m] += g
        return
    for r in range(len(starts)):
        q, j = _u(r * length), _u(starts[r])
        for i in range(length):
            e, m = q + _u(i), j + _u(i * step)
            gy = adj[o + e]
            if df:
                adj[f + e] += gy * vals[s + m]
            if ds:
                acc[m] += gy * vals[f + e]
            if chain:
                g = adj[f + e]
                if dpf:
                    adj[pf + e] += -g if neg else g
                pacc[m] += g


@rule
def _bc_mul_chain2(gys, fadj, fval, src, acc, pacc, starts, st):
    # _bc_mul_pass's chained case at runs of 2 (two distinct source elements): the runs
    # sharing a start (a broadcast over a middle dim) keep their four sums in registers,
    # each still added onto in run order from what acc and pacc held (through memory the
    # sums were chains of store-to-load waits: ADBench GMM d = 2, K = 100, alone, 1.7x
    # faster; results bit for bit)
    R = len(starts)
    r = 0
    while r < R:
        q = _group_end(starts, r, R)
        j0 = _u(starts[r])
        j1 = j0 + st
        a0, a1, p0, p1 = acc[j0], acc[j1], pacc[j0], pacc[j1]
        s0, s1 = src[j0], src[j1]
        for e in range(_u(r) * _u(2), _u(q) * _u(2), _u(2)):
            gy0, gy1 = gys[e], gys[e + 1]
            g0 = fadj[e] + gy0 * s0
            g1 = fadj[e + 1] + gy1 * s1
            a0 += gy0 * fval[e]
            a1 += gy1 * fval[e + 1]
            p0 += g0
            p1 += g1
        acc[j0], acc[j1], pacc[j0], pacc[j1] = a0, a1, p0, p1
        r = q


@rule
def bcast_fwd(vals, meta, o, f, s, n, k, w):
    kind, side = meta[k], meta[k + 1]
    starts, length, step = strided_runs(meta, meta[k + 2], _s(n))
    if w == 1:
        per = meta[k + 5] if meta[k + 5] > 0 else max(len(starts), 1)
        _bc_fwd_runs(vals, o, f, s, starts, length, step, kind, side, per)
        return
    for r in range(len(starts)):
        y = o + _u(r * length) * w
        for i in range(length):
            j = s + _u(starts[r] + i * step) * w
            e = y + _u(i) * w
            for p in range(w):
                if side:
                    vals[e + p] = _bc_apply(kind, vals[f + (e - o) + p], vals[j + p])
                else:
                    vals[e + p] = _bc_apply(kind, vals[j + p], vals[f + (e - o) + p])


@rule
def bcast_rev(adj, vals, meta, o, f, s, n, ns, k, w, df, ds):
    # f's adjoints as the op's rule writes them.  The source's as expand_rev sums the terms
    # the op's rule wrote into the broadcast copy's adjoint (strided_rev, in float64 from
    # 0.0, then added once): for add and sub gy itself, summed in place (the subtrahend's
    # sum then negated: rounding is symmetric, and + 0.0 gives a zero sum the +0.0 the
    # negated terms' sum has; sub_rev's -gy and add_half_rev's -1.0 * gy differ only in a
    # nan's sign); for mul the products gy * f (at one point added as they are made, in
    # the pass that makes f's, _bc_mul_pass; else written to scratch first)
    kind, side = meta[k], meta[k + 1]
    km = meta[k + 2]
    # (the runs only where read below: strided_rev finds its own)
    starts, length, step = strided_runs(meta, km, _s(n) if df or kind == BC_MUL else _s(0))
    acc = np.zeros(ns * w if ds else _u(0))
    if kind == BC_MUL and w == 1:
        _bc_mul_pass(adj, vals, acc, acc, o, f, s, f, starts, length, step, df, ds, False,
                     False, False)
    elif df and w == 1:
        _bc_f_adj(adj, vals, o, f, s, starts, length, step, n, kind, side)
    elif df:
        for r in range(len(starts)):
            q = _u(r * length) * w
            for i in range(length):
                j = s + _u(starts[r] + i * step) * w
                e = q + _u(i) * w
                for p in range(w):
                    gy = adj[o + e + p]
                    if kind == BC_MUL:
                        g = gy * vals[j + p]
                    elif kind == BC_SUB and not side:
                        g = -gy
                    else:
                        g = gy
                    adj[f + e + p] += g
    if not ds:
        return
    if kind == BC_MUL and w > 1:  # (at one point, summed by _bc_mul_pass above)
        terms = np.empty(n * w)
        for e in range(n * w):
            terms[e] = adj[o + e] * vals[f + e]
        strided_rev(acc, terms, meta, o - o, 0, n, km, w)
    elif kind != BC_MUL:
        strided_rev(acc, adj, meta, o, 0, n, km, w)
        if kind == BC_SUB and side:
            for j in range(ns * w):
                acc[j] = (-acc[j] if df else -1.0 * acc[j]) + 0.0
    for j in range(ns * w):
        adj[s + j] += acc[j]


@rule
def bcast_rev_row(adj, reach, vals, offs, meta, o, f, s, n, ns, k, w, df, ds):
    # a BCAST row's reverse (the sweep's one branch for it): alone, or with the add or sub
    # row chained into it (meta[k+3]: where [pf, ps, kp] stand, its inputs reached here,
    # as the sweep reaches a row's inputs)
    if meta[k + 4] >= 0:  # (out's adjoint is that slot's: _share_square_adjoints)
        o = _u(offs[meta[k + 4]]) * w
    ch = meta[k + 3]
    if ch < 0:
        bcast_rev(adj, vals, meta, o, f, s, n, ns, k, w, df, ds)
        return
    pf, ps, kp = meta[ch], meta[ch + 1], meta[ch + 2]
    reach_input(adj, reach, offs, pf, w)
    reach_input(adj, reach, offs, ps, w)
    bcast_chain_rev(adj, vals, meta, o, f, s, n, ns, k, w, df, ds, _u(offs[pf]) * w,
                    _u(offs[ps]) * w, _u(offs[ps + 1] - offs[ps]), kp, reach[pf] != CONST,
                    reach[ps] != CONST)


@rule
def bcast_chain_rev(adj, vals, meta, o, f, s, n, ns, k, w, df, ds, pf, ps, nps, kp, dpf, dps):
    """The reverse of a BCAST row (o = f op s[map]) whose full operand f is the output of
    an add or sub BCAST row p (f = pf op ps[map], the same map, meta kp), p's reverse
    folded in (replay._chain_broadcasts: this row is the last to add onto f's adjoints
    and no row between the two reads pf or ps, so p's reverse may run right after it).
    At one point, for a product (ADBench GMM: exp(q) * (x - mu)), one pass: f's adjoint
    is made and, final, passed on at once (_bc_mul_pass); p's source sum as strided_rev
    adds it (run after run from 0.0, then negated for a subtrahend, then added once).
    Else the two rows' reverses one after the other."""
    pkind, pside = meta[kp], meta[kp + 1]
    if not (w == 1 and df and meta[k] == BC_MUL):
        bcast_rev(adj, vals, meta, o, f, s, n, ns, k, w, df, ds)
        bcast_rev(adj, vals, meta, f, pf, ps, n, nps, kp, w, dpf, dps)
        return
    starts, length, step = strided_runs(meta, meta[k + 2], _s(n))
    acc = np.zeros(ns if ds else _u(0))
    pacc = np.zeros(nps)
    _bc_mul_pass(adj, vals, acc, pacc, o, f, s, pf, starts, length, step, df, ds, True, dpf,
                 pkind == BC_SUB and not pside)
    if ds:
        for j in range(ns):
            adj[s + j] += acc[j]
    if dps:
        if pkind == BC_SUB and pside:
            for j in range(nps):
                pacc[j] = (-pacc[j] if dpf else -1.0 * pacc[j]) + 0.0
        for j in range(nps):
            adj[ps + j] += pacc[j]


# ---- replay plans only: a sum of squares -----------------------------------------------
SQSUM = 73
# Never on a tape either: replay's plan (replay._fold_squares) folds a product x * x read
# only by a sum over dims into that sum, ``[SQSUM, out, x, -1, k]`` (k: the sum's map):
# the squares and their adjoints are never stored (ADBench GMM: |Q_k (x_i - mu_k)|^2, a
# (K, n, d) -> (K, n) sum).  Where x is itself an add u + v read by the product only, the
# add is folded too, ``[SQSUM, out, u, v, k]``: x is never stored either (GMM: qdiag * xc
# + xc @ L^T).  Each value and adjoint comes from the same operations, in the same order,
# as the rows' (add_fwd's u + v; sum_dim_fwd's strided_rev adds; sum_dim_rev, mul_rev, then
# add_rev).  meta[k]: bit 0 where u's adjoint is not stored (the row making u reads v's: the
# same values; replay._share_square_adjoints); bit 1 where u's values are not stored either:
# u = f * s[map] is made here as the product BCAST row making it would (its forward left
# out of the plan, its reverse kept; replay._unstored_squares), meta[k-3:k] = [f, s, that
# row's meta k], its map's runs as long as the sum's; the sum's map at meta[k + 1].  (Made
# as s[map] * f whichever side s was on: LLVM may swap a commutative product's operands
# anyway, and only a nan's sign could tell.)


@rule
def sq_operands(offs, meta, a, b, k, w):
    """An SQSUM row's (elements summed, and where u is made: f's and s's offsets and the
    BCAST row's meta k, or -1 where u is stored at a)."""
    if b < 0:
        return _u(offs[a + 1] - offs[a]), _u(0), _u(0), -1
    n = _u(offs[b + 1] - offs[b])  # (u's slot is empty where u is made: v's size is x's)
    if meta[k] & 2 == 0:
        return n, _u(0), _u(0), -1
    return n, _u(offs[meta[k - 3]]) * w, _u(offs[meta[k - 2]]) * w, meta[k - 1]


@rule
def _made_runs(meta, kb, n_in):
    # (the BCAST row's runs where u is made: starts, step; else none)
    if kb < 0:
        return np.empty(0, np.int64), 0
    starts, _, step = strided_runs(meta, meta[kb + 2], n_in, False)
    return starts, step


@rule
def _sq_term(vals, a, b, two, e, uf, us, j, made):
    # element e of x: vals[a + e], or u + v as add_fwd makes it (u made: s[map] * f, j
    # the source element's offset, or stored at a)
    if made:
        return vals[us + j] * vals[uf + e] + vals[b + e]
    if two:
        return vals[a + e] + vals[b + e]
    return vals[a + e]


@rule
def _sqsum_made1(vals, o, b, n_in, starts, length, uf, us, bst, bstep):
    # sqsum_fwd at one point, u made (u + v, u = s[map] * f): each run's squares summed in
    # a register in order, two runs onto two outputs at a time (the sums are chains of
    # dependent adds: two in flight; runs onto one output stay one after the other)
    n = _u(n_in)
    f, v, src = vals[uf:uf + n], vals[b:b + n], vals[us:]
    L, bs = _u(length), _u(bstep)
    r, R = 0, len(starts)
    while r < R:
        e0, q0, j0 = _u(r) * L, _u(bst[r]), o + _u(starts[r])
        if r + 1 < R and starts[r + 1] != starts[r]:
            e1, q1, j1 = e0 + L, _u(bst[r + 1]), o + _u(starts[r + 1])
            a0, a1 = vals[j0], vals[j1]
            for i in range(L):
                x0 = src[q0 + i * bs] * f[e0 + i] + v[e0 + i]
                x1 = src[q1 + i * bs] * f[e1 + i] + v[e1 + i]
                a0 += x0 * x0
                a1 += x1 * x1
            vals[j0], vals[j1] = a0, a1
            r += 2
            continue
        a0 = vals[j0]
        for i in range(L):
            x0 = src[q0 + i * bs] * f[e0 + i] + v[e0 + i]
            a0 += x0 * x0
        vals[j0] = a0
        r += 1


@rule
def sqsum_fwd(vals, meta, o, a, b, two, n_in, n_out, k, w, uf, us, kb):
    for j in range(n_out * w):
        vals[o + j] = 0.0
    made = kb >= 0  # (then both maps' runs along their last dims, walked in step)
    starts, length, step = strided_runs(meta, k, _s(n_in), not made)
    bst, bstep = _made_runs(meta, kb, _s(n_in))
    if w == 1 and step == 0 and made:  # (GMM's case: u made from f and s through views)
        _sqsum_made1(vals, o, b, n_in, starts, length, uf, us, bst, bstep)
        return
    if w == 1 and step == 0 and two:  # a run onto one element: summed in a register, in
        for r in range(len(starts)):  # order (the add's loop apart: it vectorises)
            x, y, j = a + _u(r * length), b + _u(r * length), o + _u(starts[r])
            acc = vals[j]
            for i in range(length):
                v = vals[x + _u(i)] + vals[y + _u(i)]
                acc += v * v
            vals[j] = acc
        return
    if w == 1 and step == 0:
        for r in range(len(starts)):
            x, j = a + _u(r * length), o + _u(starts[r])
            acc = vals[j]
            for i in range(length):
                v = vals[x + _u(i)]
                acc += v * v
            vals[j] = acc
        return
    for r in range(len(starts)):  # (each output's squares added in run order, as
        x = _u(r * length) * w  # strided_rev's register sums over runs add them)
        q = _u(bst[r]) if made else _u(0)
        for i in range(length):
            j = o + _u(starts[r] + i * step) * w
            m = (q + _u(i * bstep)) * w
            for p in range(w):
                v = _sq_term(vals, a, b, two, x + _u(i) * w + p, uf, us, m + p, made)
                vals[j + p] += v * v


@rule
def _sq_back(adj, a, b, e, g, da, db, fa, fb):
    # the add's operands' adjoints from the square's (add_rev: add_into each)
    if da:
        add_into(adj, a + e, g, fa)
    if db:
        add_into(adj, b + e, g, fb)


@rule
def _sqsum_made_rev2(adj, gv, f, v, src, o, starts, bst, bs):
    # sqsum_rev's made case at runs of 2: the source's two values read once for the runs
    # sharing them (a broadcast over a middle dim), each run's two terms as the loop over
    # L makes them (ADBench GMM d = 2: a loop of 2 a run; alone 1.2-1.5x faster)
    R = len(starts)
    r = 0
    while r < R:
        q = _group_end(bst, r, R)
        j = _u(bst[r])
        s0, s1 = src[j], src[j + bs]
        for rr in range(r, q):
            e0 = _u(rr) * _u(2)
            g = adj[o + _u(starts[rr])] + 0.0
            t0 = g * (s0 * f[e0] + v[e0])
            t1 = g * (s1 * f[e0 + 1] + v[e0 + 1])
            gv[e0] = ((0.0 + t0) + t0) + 0.0
            gv[e0 + 1] = ((0.0 + t1) + t1) + 0.0
        r = q


@rule
def sqsum_rev(adj, vals, meta, o, a, b, two, n_in, k, w, da, db, fa, fb, uf, us, kb):
    # the square's adjoint as sum_dim_rev leaves it (gy, + 0.0 onto a zeroed span or
    # written so), then mul_rev's two terms for x * x added one after the other; with an
    # add folded (two), x's adjoint so from 0.0 (its span zeroed, only the product read
    # it), then added onto u's and v's (da, db: not constants; fa, fb: written first,
    # _rules.add_into); u made from f and s where kb >= 0 (sq_operands)
    made = kb >= 0  # (then both maps' runs along their last dims, walked in step)
    starts, length, step = strided_runs(meta, k, _s(n_in), not made)
    bst, bstep = _made_runs(meta, kb, _s(n_in))
    if w == 1 and step == 0 and made and db and fb and not da:  # (GMM's case, through
        n = _u(n_in)  # views from 0, u's values and adjoint not stored; unsigned indices:
        f, v, gv, src = vals[uf:uf + n], vals[b:b + n], adj[b:b + n], vals[us:]  # (no
        L, bs = _u(length), _u(bstep)  # wraparound test, the inner loop vectorises)
        if length == 2:
            _sqsum_made_rev2(adj, gv, f, v, src, o, starts, bst, bs)
            return
        for r in range(len(starts)):
            e0, q = _u(r) * L, _u(bst[r])
            g = adj[o + _u(starts[r])] + 0.0
            if bs == 1:  # (a contiguous source run: vector loads)
                s1 = src[q:q + L]
                for i in range(L):
                    t = g * (s1[i] * f[e0 + i] + v[e0 + i])
                    gv[e0 + i] = ((0.0 + t) + t) + 0.0
                continue
            for i in range(L):
                t = g * (src[q + i * bs] * f[e0 + i] + v[e0 + i])
                gv[e0 + i] = ((0.0 + t) + t) + 0.0
        return
    if w == 1 and step == 0 and two and db and fb and not made:  # (GMM's case, through
        n = _u(n_in)  # views from 0; u's adjoint not stored, d = 10 in the sweep:
        # 0.80-0.92 -> 0.46-0.57 ms)
        u, v, gu, gv = vals[a:a + n], vals[b:b + n], adj[a:a + n], adj[b:b + n]
        for r in range(len(starts)):
            e0 = _u(r * length)
            g = adj[o + _u(starts[r])] + 0.0
            for i in range(_u(length)):
                e = e0 + i
                t = g * (u[e] + v[e])
                h = (0.0 + t) + t
                if da:
                    if fa:
                        gu[e] = h + 0.0
                    else:
                        gu[e] += h
                gv[e] = h + 0.0
        return
    if w == 1 and step == 0 and two and not made:
        for r in range(len(starts)):
            e0 = _u(r * length)
            g = adj[o + _u(starts[r])] + 0.0
            for i in range(length):
                e = e0 + _u(i)
                t = g * (vals[a + e] + vals[b + e])
                _sq_back(adj, a, b, e, (0.0 + t) + t, da, db, fa, fb)
        return
    if w == 1 and step == 0 and not two:
        for r in range(len(starts)):
            x = a + _u(r * length)
            g = adj[o + _u(starts[r])] + 0.0
            for i in range(length):
                t = g * vals[x + _u(i)]
                adj[x + _u(i)] = (adj[x + _u(i)] + t) + t
        return
    for r in range(len(starts)):
        x = _u(r * length) * w
        q = _u(bst[r]) if made else _u(0)
        for i in range(length):
            j = o + _u(starts[r] + i * step) * w
            m = (q + _u(i * bstep)) * w
            for p in range(w):
                e = x + _u(i) * w + p
                t = (adj[j + p] + 0.0) * _sq_term(vals, a, b, two, e, uf, us, m + p, made)
                if two:
                    _sq_back(adj, a, b, e, (0.0 + t) + t, da, db, fa, fb)
                else:
                    adj[a + e] = (adj[a + e] + t) + t
