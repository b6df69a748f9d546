"""Colourings of a sparsity pattern for compressed evaluation.

- ``color_columns(P)``: greedy distance-2 colouring of the columns of an (m, n) pattern: no
  two columns with an entry in a common row share a colour, so ``J @ V`` (V the colour
  indicator matrix) holds every entry of J once.  Largest-first order (the columns that
  meet the most others first), then the smallest free colour.  ``color_columns(P.T)``
  colours the rows, for ``U.T @ J`` by reverse sweeps.
- ``star_color(P)``: a star colouring of a symmetric pattern (Gebremedhin, Manne and
  Pothen, "What color is your Jacobian?", SIAM Review 2005, greedy algorithm 4.1): a
  distance-1 colouring in which every path on four vertices uses at least three colours,
  so each off-diagonal entry of a symmetric H is read directly from ``H @ V``, from its
  row or from its column.  Vertices of very high degree (an arrow's dense row and column)
  get a colour of their own first and the rest is star-coloured without them: the greedy
  pass would otherwise cost (n x hub degree) steps, and a hub's own product holds its whole
  row and column anyway.
"""
import numpy as np

from .pattern import _binary, _sp


def _greedy_order(degree):
    """Largest degree first (ties in index order)."""
    return np.argsort(-np.asarray(degree), kind="stable")


def color_columns(P):
    """Greedy distance-2 colouring of the columns of the (m, n) pattern P: an int array of
    n colours 0..k-1.

    >>> import numpy as np, scipy.sparse as sp
    >>> color_columns(sp.csr_matrix(np.eye(3))).tolist()
    [0, 0, 0]
    """
    P = _binary(_sp().csr_matrix(P))
    n = P.shape[1]
    C = (P.T.astype(np.int32) @ P.astype(np.int32)).tocsr()  # columns sharing a row
    indptr, indices = C.indptr, C.indices
    colors = np.full(n, -1, np.int64)
    mark = np.full(n + 1, -1, np.int64)  # colour -> the last vertex that found it used
    for v in _greedy_order(np.diff(indptr)).tolist():
        used = colors[indices[indptr[v]:indptr[v + 1]]]
        mark[used[used >= 0]] = v
        colors[v] = int(np.argmax(mark != v))
    return colors


def _hubs(deg):
    """Vertices whose degree is far above the rest (an arrow's dense row): coloured on
    their own."""
    if not len(deg):
        return np.zeros(0, bool)
    thr = max(32.0, 8.0 * float(np.median(deg)))
    return deg > thr


def star_color(P):
    """A star colouring of the symmetric (n, n) pattern P (the diagonal is ignored): an
    int array of n colours.

    >>> import numpy as np, scipy.sparse as sp
    >>> star_color(sp.diags([1.0, 1.0, 1.0], [-1, 0, 1], shape=(4, 4))).tolist()
    [1, 0, 1, 2]
    """
    S = _binary(_sp().csr_matrix(P)).tocoo()
    off = S.row != S.col
    r, c = S.row[off], S.col[off]
    n = S.shape[0]
    S = _sp().csr_matrix((np.ones(2 * len(r), bool), (np.r_[r, c], np.r_[c, r])), shape=(n, n))
    S.sum_duplicates()
    deg = np.diff(S.indptr)
    hub = _hubs(deg)
    keep = np.nonzero(~hub)[0]
    G = S[keep][:, keep].tocsr()
    ind, ptr = G.indices.tolist(), G.indptr.tolist()
    nbrs = [ind[ptr[i]:ptr[i + 1]] for i in range(len(keep))]
    color = [-1] * len(keep)
    count = [dict() for _ in keep]  # vertex -> {colour: coloured neighbours of that colour}
    for v in _greedy_order(np.diff(G.indptr)).tolist():
        forbid = set()
        for w in nbrs[v]:
            cw = color[w]
            if cw >= 0:
                forbid.add(cw)
            for x in nbrs[w]:
                cx = color[x]
                if x == v or cx < 0:
                    continue
                # v - w - x - y would be a two-coloured path: v must not take x's colour
                if cw < 0 or count[x].get(cw, 0) >= 2:
                    forbid.add(cx)
        c = 0
        while c in forbid:
            c += 1
        color[v] = c
        for x in nbrs[v]:
            count[x][c] = count[x].get(c, 0) + 1
    out = np.empty(n, np.int64)
    out[keep] = color
    k = max(color) + 1 if color else 0
    out[hub] = k + np.arange(int(hub.sum()))
    return out


def star_recovery(P, colors):
    """Where each entry of the symmetric pattern P (CSR order) is read from G = (H V).T,
    (k, n), flattened: H[i, j] alone in its row's sum over colour c(j) is G[c(j), i];
    otherwise, by symmetry, G[c(i), j], alone there when ``colors`` is a star colouring
    (checked: a RuntimeError if not)."""
    P = _binary(_sp().csr_matrix(P))
    P.sort_indices()
    n = P.shape[0]
    c = np.asarray(colors, np.int64)
    k = int(c.max()) + 1 if n else 0
    i = np.repeat(np.arange(n), np.diff(P.indptr))
    j = P.indices.astype(np.int64)
    count = np.bincount(i * k + c[j], minlength=n * k)  # entries of row i in colour c
    direct = count[i * k + c[j]] == 1
    if not (count[j * k + c[i]][~direct] == 1).all():
        raise RuntimeError("tapegrad.sparse: the colouring is not a star colouring of the "
                           "pattern, so some entries cannot be recovered")
    return np.where(direct, c[j] * n + i, c[i] * n + j)


def is_distance2(P, colors):
    """Whether ``colors`` separates every two columns of P that share a row."""
    P = _binary(_sp().csr_matrix(P))
    colors = np.asarray(colors)
    for r in range(P.shape[0]):
        c = colors[P.indices[P.indptr[r]:P.indptr[r + 1]]]
        if len(np.unique(c)) != len(c):
            return False
    return True
