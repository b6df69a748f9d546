"""Sparsity patterns read from a traced tape: which input elements each slot depends on.

Every slot gets an index set per element, kept as one boolean sparse matrix (its elements
x the inputs' elements), propagated through the recorded rows in order by each op's local
dependency structure:

- elementwise ops (every op declared with the elementwise row layout, ``layout.elementwise``):
  element i of the output depends on element i of each operand (a 1-element operand on all);
  a product with a value-constant operand drops the elements where that constant is 0;
- ops whose derivative is zero (declared ``vjp=no_gradient`` or ``zero_gradient``:
  comparisons, sign, floor, detach, argmax): no dependency;
- data movement (views, strided maps, expand, gather, scatter, put, cat, stack): the
  recorded index maps;
- reductions by their strided map (sum, mean, prod, max, min, logsumexp, norm, var, std);
  softmax and log_softmax along their group; cumsum on its prefix;
- matrix products (mm, mv, dot, bmm, linear, addmm): row times column, skipping the zeros
  of a value-constant operand (a fixed sparse matrix times x stays sparse);
- any other op (nll_loss, a custom Function's row, an op added later without a rule here):
  conservatively dense, every output element depending on every element its operands
  depend on.

A pattern is structural: it holds at every point that takes the traced branches, and may
hold entries that are zero at some points (max's losing elements, relu's inactive side).
"""
import numpy as np

from ..ops import elementwise as E
from ..ops import linalg, nn, reductions, shape, strided
from ..ops.registry import NO_DERIVATIVE, OPS, graph_inputs


def _sp():
    """scipy.sparse, imported at first use (~0.3 s: not at ``import tapegrad``)."""
    import scipy.sparse
    return scipy.sparse


def _binary(m):
    m = m.tocsr()
    m.data[:] = True
    m.eliminate_zeros()
    return m.astype(bool)


def _strided_map(meta, k, n):
    """Source index of each of n elements by the strided map at meta[k] (strided.py's
    ``[ndim, base, shape..., strides...]``), vectorised."""
    nd, base = int(meta[k]), int(meta[k + 1])
    idx = np.full(1, base, np.int64)
    for d in range(nd):
        m, st = int(meta[k + 2 + d]), int(meta[k + 2 + nd + d])
        idx = (idx[:, None] + np.arange(m, dtype=np.int64)[None, :] * st).ravel()
    return np.broadcast_to(idx, (n,)) if nd == 0 else idx


class _Sets:
    """Index sets of a slot's elements: element i depends on input elements
    ``idx[ptr[i]:ptr[i + 1]]`` (sorted, distinct): CSR arrays without scipy's per-call
    costs (~1 ms a row through scipy; tapes of scalar loops have 10^4 rows)."""

    __slots__ = ("ptr", "idx")

    def __init__(self, ptr, idx):
        self.ptr, self.idx = ptr, idx

    @property
    def rows(self):
        return len(self.ptr) - 1

    def pairs(self):
        """(element, input) of every entry."""
        return np.repeat(np.arange(self.rows), np.diff(self.ptr)), self.idx

    def take(self, sel):
        """The sets of elements ``sel`` (repeats allowed), in that order."""
        sel = np.asarray(sel, np.int64)
        lens = np.diff(self.ptr)[sel]
        ptr = np.zeros(len(sel) + 1, np.int64)
        np.cumsum(lens, out=ptr[1:])
        pos = np.arange(ptr[-1]) - np.repeat(ptr[:-1] - self.ptr[sel], lens)
        return _Sets(ptr, self.idx[pos])


def _from_pairs(r, c, rows, n, kind=None):
    """The sets holding input c[j] in element r[j] (duplicates merged); ``kind="stable"``
    where the pairs are sorted runs (a merge, not a sort)."""
    key = np.sort(np.asarray(r, np.int64) * max(n, 1) + np.asarray(c, np.int64), kind=kind)
    if len(key) > 1:  # (np.unique hashes: ~40x slower on 10^6 keys, measured)
        key = key[np.concatenate(([True], key[1:] != key[:-1]))]
    ptr = np.zeros(rows + 1, np.int64)
    np.cumsum(np.bincount(key // max(n, 1), minlength=rows), out=ptr[1:])
    return _Sets(ptr, key % max(n, 1))


class _Propagation:
    """The index sets of every slot of one traced tape (``jacobian_pattern``)."""

    def __init__(self, t):
        self.t = t
        self.meta = t.meta
        self.size = np.diff(t.offs)
        self.n = len(t.in_elems)
        self.pat = {}  # slot -> _Sets of its elements; absent: depends on no input
        self.varies = np.zeros(len(self.size), bool)  # its value depends on the inputs
        col = 0
        for s in t.in_slots:
            m = int(self.size[s])
            self.pat[int(s)] = _Sets(np.arange(m + 1, dtype=np.int64),
                                     np.arange(col, col + m, dtype=np.int64))
            self.varies[s] = True
            col += m

    # -- helpers ---------------------------------------------------------------------
    def get(self, s):
        return None if s < 0 else self.pat.get(int(s))

    def values(self, s):
        """The recorded values of slot s (a value-constant slot's at every point)."""
        return self.t.vals0[self.t.offs[s]:self.t.offs[s + 1]]

    def union(self, *sets):
        sets = [p for p in sets if p is not None]
        first = sets[0] if sets else None
        sets = [p for p in sets[1:] if not (p is first or np.array_equal(p.idx, first.idx)
                                            and np.array_equal(p.ptr, first.ptr))]
        if not sets:  # (x * x, sin(y) * cos(y): one set)
            return first
        r, c = zip(*(p.pairs() for p in [first, *sets]), strict=True)
        return _from_pairs(np.concatenate(r), np.concatenate(c), first.rows, self.n,
                           kind="stable")  # sorted runs: timsort merges them

    def select(self, s, idx):
        """Element i of the output takes the set of source element idx[i] of slot s."""
        p = self.get(s)
        return None if p is None else p.take(idx)

    def apply(self, rows, cols, n_out, s):
        """Output element rows[j] depends on source element cols[j] of slot s."""
        p = self.get(s)
        if p is None:
            return None
        src = p.take(cols)
        return _from_pairs(np.repeat(np.asarray(rows, np.int64), np.diff(src.ptr)), src.idx,
                           n_out, self.n)

    def keep(self, p, mask):
        """p without the sets of the elements where mask is False."""
        r, c = p.pairs()
        k = mask[r]
        return _from_pairs(r[k], c[k], p.rows, self.n)

    def dense(self, n_out, slots):
        """Every output element depends on everything the operands depend on."""
        have = [self.pat[int(s)] for s in slots if s >= 0 and int(s) in self.pat]
        if not have:
            return None
        cols = _from_pairs(0, np.concatenate([p.idx for p in have]), 1, self.n).idx
        return _Sets(np.arange(n_out + 1, dtype=np.int64) * len(cols), np.tile(cols, n_out))

    def same(self, s, n_out):
        """An elementwise operand: identity, a 1-element operand broadcast."""
        p = self.get(s)
        if p is None or p.rows == n_out:
            return p
        if p.rows == 1:
            return p.take(np.zeros(n_out, np.int64))
        return self.dense(n_out, [s])

    # -- the sweep -------------------------------------------------------------------
    def run(self):
        rows = self.t.rows
        for r in range(len(rows)):
            op, o, a, b, k = (int(v) for v in rows[r])
            if o < 0:
                continue  # a guard
            reads = _reads(rows, self.meta, r)
            self.varies[o] = any(self.varies[s] for s in reads)
            p = self.row(op, o, a, b, k, int(self.size[o]), reads)
            if p is None:
                self.pat.pop(o, None)
            else:
                self.pat[o] = p
        return self.get(self.t.out_slot)

    def row(self, op, o, a, b, k, n, reads):
        d = OPS.get(op)
        rule = _RULES.get(op)
        if rule is not None:
            return rule(self, o, a, b, k, n)
        if d is not None and d.vjp in NO_DERIVATIVE and op not in _PYTHON_ROWS:
            return None
        if d is not None and d.check.__qualname__.startswith("elementwise."):
            return self.union(self.same(a, n), self.same(b, n))
        return self.dense(n, reads)  # no rule here: conservative


# -- per-op rules: (propagation, out, in0, in1, aux, n_out) -> pattern ------------------
def _mul(P, o, a, b, k, n):
    parts = []
    for s, other in ((a, b), (b, a)):
        p = P.same(s, n)
        if p is not None and other >= 0 and not P.varies[other]:
            c = np.broadcast_to(P.values(other), (n,))  # d(a b)/da = b: zero where b is
            p = P.keep(p, c != 0)
        parts.append(p)
    return P.union(*parts)


def _sum_all(P, o, a, b, k, n):
    return P.dense(n, [a])


def _reduce_at(offset):
    def rule(P, o, a, b, k, n):
        n_in = int(P.size[a])
        return P.apply(_strided_map(P.meta, k + offset, n_in), np.arange(n_in), n, a)
    return rule


def _groups(P, o, a, b, k, n):
    """softmax, log_softmax: meta [outer, size, inner]; each element on its whole group."""
    size, inner = int(P.meta[k + 1]), int(P.meta[k + 2])
    e = np.arange(n)
    g = (e // (size * inner)) * inner + e % inner
    grouped = P.apply(g, e, int(g.max()) + 1 if n else 0, a)
    return None if grouped is None else grouped.take(g)


def _cumsum(P, o, a, b, k, n):
    """meta [inner, size]: element e at position p on the elements e - t inner, t <= p."""
    inner, size = int(P.meta[k]), int(P.meta[k + 1])
    e = np.arange(n)
    base = e[(e // inner) % size == 0]  # each group's first element
    i, j = np.tril_indices(size)
    rows = (base[:, None] + i[None, :] * inner).ravel()
    cols = (base[:, None] + j[None, :] * inner).ravel()
    return P.apply(rows, cols, n, a)


def _view(P, o, a, b, k, n):
    return P.get(a)


def _map_at(offset):
    def rule(P, o, a, b, k, n):
        return P.select(a, _strided_map(P.meta, k + offset, n))
    return rule


def _gather(P, o, a, b, k, n):
    return P.select(a, P.meta[k + 1:k + 1 + n])


def _scatter(P, o, a, b, k, n):
    n_in = int(P.size[a])
    return P.apply(P.meta[k + 1:k + 1 + n_in], np.arange(n_in), n, a)


def _put(P, o, a, b, k, n):
    m = int(P.meta[k])
    pos, src = P.meta[k + 1:k + 1 + m], P.meta[k + 1 + m:k + 1 + 2 * m]
    keep = np.setdiff1d(np.arange(n), pos)
    return P.union(P.apply(keep, keep, n, a), P.apply(pos, src, n, b))


def _blocks(P, o, a, b, k, n):
    """cat, stack: meta [count, outer, slots..., lengths...]: for each outer index q, block
    q of each operand in turn."""
    cnt, outer = int(P.meta[k]), int(P.meta[k + 1])
    slots = P.meta[k + 2:k + 2 + cnt]
    lengths = P.meta[k + 2 + cnt:k + 2 + 2 * cnt]
    per = int(lengths.sum())
    start = 0
    parts = []
    for s, m in zip(slots.tolist(), lengths.tolist(), strict=True):
        if m:
            q, j = np.divmod(np.arange(outer * m), m)
            parts.append(P.apply(q * per + start + j, q * m + j, n, s))
        start += m
    return P.union(*parts)


def _matmul(P, o, a, b, k, n):
    """meta [nb, M, K, N, need_a, need_b, (a offset, b offset) per product]."""
    nb, M, K, N = (int(P.meta[k + i]) for i in range(4))
    offs = P.meta[k + 6:k + 6 + 2 * nb].reshape(nb, 2)
    i, m, c, kk = np.meshgrid(np.arange(nb), np.arange(M), np.arange(N), np.arange(K),
                              indexing="ij")
    out = (i * M * N + m * N + c).ravel()
    ia = (offs[i, 0] + m * K + kk).ravel()
    ib = (offs[i, 1] + kk * N + c).ravel()
    return P.union(_product_part(P, out, ia, n, a, ib, b),
                   _product_part(P, out, ib, n, b, ia, a))


def _linear(P, o, a, b, k, n):
    """meta [M, K, N, need_x, need_w, need_b, bias slot]: out = x @ W.T (+ bias)."""
    M, K, N, sb = int(P.meta[k]), int(P.meta[k + 1]), int(P.meta[k + 2]), int(P.meta[k + 6])
    m, c, kk = np.meshgrid(np.arange(M), np.arange(N), np.arange(K), indexing="ij")
    out = (m * N + c).ravel()
    ix, iw = (m * K + kk).ravel(), (c * K + kk).ravel()
    bias = None
    if sb >= 0:
        e = np.arange(n)
        bias = P.apply(e, e % N, n, sb)
    return P.union(_product_part(P, out, ix, n, a, iw, b), _product_part(P, out, iw, n, b, ix, a),
                   bias)


def _cell(G, gates):
    """LSTM_CELL, LSTM_H, GRU_CELL (ops/nn.py): meta [H, state slot]; output element (q, j)
    on element (q, j) of ``gates`` of in0 and of in1 (G H to a row) and of the state."""
    def rule(P, o, a, b, k, n):
        H, state = int(P.meta[k]), int(P.meta[k + 1])
        e = np.arange(n)
        q, j = np.divmod(e, H)
        rows = np.repeat(e, len(gates))
        cols = (q[:, None] * (G * H) + np.asarray(gates)[None, :] * H + j[:, None]).ravel()
        return P.union(P.apply(rows, cols, n, a), P.apply(rows, cols, n, b),
                       P.apply(e, e, n, state))
    return rule


def _product_part(P, out, idx, n, s, other_idx, other):
    """The dependency of a product on operand s: out[j] on s[idx[j]], unless the other
    factor is a value-constant zero there (its derivative)."""
    if P.get(s) is None:
        return None
    if other >= 0 and not P.varies[other]:
        keep = P.values(other)[other_idx] != 0
        out, idx = out[keep], idx[keep]
    return P.apply(out, idx, n, s)


_RULES = {
    E.MUL: _mul,
    reductions.SUM: _sum_all, reductions.MEAN: _sum_all,
    nn.SOFTMAX: _groups, nn.LOG_SOFTMAX: _groups,
    reductions.CUMSUM: _cumsum,
    shape.VIEW: _view,
    strided.EXPAND: _map_at(0), strided.STRIDED: _map_at(1),
    shape.GATHER: _gather, shape.SCATTER: _scatter, shape.PUT: _put,
    shape.CAT: _blocks, shape.STACK: _blocks,
    linalg.MM: _matmul, linalg.MV: _matmul, linalg.DOT: _matmul, linalg.BMM: _matmul,
    linalg.LINEAR: _linear, linalg.ADDMM: _linear,
    nn.LSTM_CELL: _cell(4, (0, 1, 2)), nn.LSTM_H: _cell(4, (3,)), nn.GRU_CELL: _cell(3, (0, 1, 2)),
}
for _op in (reductions.SUM_DIM, reductions.MEAN_DIM, reductions.PROD, reductions.PROD_DIM,
            reductions.MAX, reductions.MIN, reductions.MAX_DIM, reductions.MIN_DIM,
            reductions.AMAX, reductions.AMIN, reductions.LOGSUMEXP):
    _RULES[_op] = _reduce_at(0)  # layout.reduction(): the map at meta[k]
for _op in (reductions.NORM, reductions.VAR, reductions.STD):
    _RULES[_op] = _reduce_at(1)  # after the const index of p (or the scale)
_PYTHON_ROWS = {120, 121}  # a custom Function's rows (ops/custom.py): dense, whatever they say
RULES = frozenset(_RULES)  # the opcodes with a rule of their own (tests/test_sparse.py)


def _reads(rows, meta, r):
    """The slots row r reads: its graph inputs and a slot in its aux (where's condition)."""
    reads = [s for s in graph_inputs(rows, meta, r) if s >= 0]
    d = OPS.get(int(rows[r, 0]))
    if d is not None and d.aux == "slot":
        reads.append(int(rows[r, 4]))
    return reads


def depends_on(traced, slots):
    """Per slot of the traced tape: whether its value depends on any of ``slots``."""
    dep = np.zeros(len(traced.offs) - 1, bool)
    dep[np.asarray(slots, np.int64)] = True
    rows = traced.rows
    for r in np.nonzero(rows[:, 1] >= 0)[0].tolist():
        o = int(rows[r, 1])
        dep[o] |= bool(dep[_reads(rows, traced.meta, r)].any())
    return dep


def jacobian_pattern(traced):
    """The (out elements x input elements) boolean CSR pattern of a traced function's
    Jacobian (inputs concatenated in order, each flattened)."""
    p = _Propagation(traced).run()
    m, n = traced.out_size, len(traced.in_elems)
    if p is None:
        return _sp().csr_matrix((m, n), dtype=bool)
    return _sp().csr_matrix((np.ones(len(p.idx), bool), p.idx, p.ptr), shape=(m, n))
