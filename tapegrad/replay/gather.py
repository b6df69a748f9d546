"""``jacobian_batch(..., index=, out=)``: Jacobians of per-observation functions read from
shared parameter arrays and written where the caller keeps them (issue 21).

A least-squares problem in the style of bundle adjustment evaluates one small function per
observation b on rows picked by index arrays (camera ``ci[b]``, point ``pi[b]``), and wants
every (m, n) block in a sparse matrix.  Gathering the rows into stacked (B, ...) inputs,
a fresh (B, m, n) array, and copying it into the sparse matrix's data cost more than the
fused kernel itself (ADBench's ba1: 1.2 ms, 0.1 ms and 3.3 ms beside its 3.4 ms).  Here,
with the trace's fused kernel ready, the points run in chunks of ``CHUNK`` (their inputs,
values and blocks fit in L2): each chunk's inputs are gathered by index into a small
buffer of the thread's, the kernel runs on it, and its blocks go straight to the caller's
array (``scatter``).  Once the tape is hot, ``out=``'s first call also queues a *direct*
kernel for its mask (``fused.direct_kernel``, ``_Gen.direct_source``), which then takes
over: it reads ``X_j[index_j[b]]`` itself and writes the kept entries straight to data (no
gather, no scatter), and what the mask drops is never computed.  Before the kernel is
ready (the interpreter), the same results come by NumPy: gathered inputs, the usual
replay, one fancy-index store.  Bit for bit the same
as ``jacobian_batch`` of the gathered inputs (tests/test_fused.py,
tests/test_replay_jacobian.py).

- ``index``: one entry per input of f: None (that input is (B, *input_shape), as ever) or
  an integer array (B,): point b reads row ``index[j][b]`` of input j, (N_j, *input_shape).
- ``out = (data, start, mask)``: the blocks' entries where ``mask`` (m, n_wrt) is True go
  to ``data`` (1-D float64), row i of point b's block to ``data[start[b, i]:]``, its kept
  entries side by side in column order (n_wrt: the argnums' inputs flattened, in argnums
  order).  A CSR matrix's rows take ``start = indptr[row of (b, i)]`` and the block's
  pattern as ``mask``; a dense (B, m, n_wrt) array ``start = (b m + i) n_wrt`` and a mask of
  ones.  Rows may not reach past ``data``'s end (checked); overlapping rows are the
  caller's business (the last write wins, unspecified which).
"""
import threading
import warnings

import numpy as np

from .. import _jit
from . import fused

DIRECT_ENTRIES = 1 << 16  # blocks (m, n) up to this size get a direct kernel (offsets)
CHUNK = 1024  # points a chunk runs (ba1: 1024 x (3 x 17 + 17 + 3) values, ~0.6 MB, in L2)
_LOCAL = threading.local()
_READY = []  # [True] once the helpers below are compiled (a background thread does it)
_ASKED = []  # [the Future of that compile] once asked
_READY_LOCK = threading.Lock()


@_jit.njit
def _gather(src, idx, p0, p1, X, c0):
    """X[p - p0, c0:c0 + w] = src[idx[p]] (src[p] if idx is empty) for p in p0..p1-1.
    (Unsigned subscripts: no wraparound test per element, 3x faster here; Spec checked
    every index.)"""
    w = np.uint64(src.shape[1])
    direct = len(idx) == 0
    for p in range(p0, p1):
        r = np.uint64(p if direct else idx[p])
        q = np.uint64(p - p0)
        for c in range(w):
            X[q, np.uint64(c0) + c] = src[r, c]
    return 0


@_jit.njit
def _scatter(G, q, b0, runs, start, data):
    """The chunk's q blocks G (q, m, n) to data: per run (i, c0, n, o) of ``runs``,
    data[start[b0 + r, i] + o + t] = G[r, i, c0 + t] for t < n.  (Unsigned subscripts, as
    ``_gather``: 0.6 ms for ba1's 10^6 entries against 1.8 ms signed.)"""
    Gf = G.ravel()
    m, n_ = G.shape[1], G.shape[2]
    for r in range(q):
        for u in range(runs.shape[0]):
            i, c0, n, o = runs[u, 0], runs[u, 1], runs[u, 2], runs[u, 3]
            s = np.uint64(start[b0 + r, i] + o)
            g0 = np.uint64((r * m + i) * n_ + c0)
            for t in range(np.uint64(n)):
                data[s + t] = Gf[g0 + t]
    return 0


@_jit.njit
def _span(start, count):
    """(min of start, max of start[b, i] + count[i]): the data a scatter reaches."""
    lo, hi = 0, 0
    for b in range(start.shape[0]):
        for i in range(start.shape[1]):
            s = start[b, i]
            lo = min(lo, s)
            hi = max(hi, s + count[i])
    return lo, hi


def _compile_helpers():
    try:
        numba = _jit.load_numba()
        f8, i8 = numba.float64, numba.int64
        _gather.compile((f8[:, ::1], i8[::1], i8, i8, f8[:, ::1], i8))
        _scatter.compile((f8[:, :, ::1], i8, i8, i8[:, ::1], i8[:, ::1], f8[::1]))
        _span.compile((i8[:, ::1], i8[::1]))
    except Exception as e:  # noqa: BLE001 (NumPy keeps answering: slower, never wrong)
        warnings.warn(f"tapegrad: jacobian_batch's gather/scatter kernels failed to compile "
                      f"({type(e).__name__}: {e}); index= and out= run by NumPy; please "
                      "report this as a tapegrad bug", RuntimeWarning, stacklevel=2)
        return
    _READY.append(True)


def helpers_ready(wait=False):
    """Whether the gather and scatter kernels are compiled; the first call asks a
    background thread to compile them (or load them from Numba's cache), so a call never
    waits for a compile, except with ``wait`` (``compile_fused(wait=True)``)."""
    if _READY:
        return True
    with _READY_LOCK:
        if not _ASKED:
            _ASKED.append(fused._pool().submit(_compile_helpers))
    if wait:
        _ASKED[0].result()
    return bool(_READY)


class Spec:
    """The validated ``index`` and ``out`` of one call: sources (N_j or B, w_j) float64,
    indices (B,) int64 (empty: the input is already per point), B, and the scatter's
    (data, start (B, m), runs (R, 4): ``_scatter``) or None."""

    def __init__(self, t, Xs, index, out):
        """Xs: f's inputs as float64 arrays (``replay._as_array``)."""
        n_in = len(t.in_shapes)
        if len(Xs) != n_in:
            raise TypeError(f"jacobian_batch: the traced function takes {n_in} positional "
                            f"inputs, got {len(Xs)}")
        index = (None,) * n_in if index is None else index
        if not isinstance(index, (tuple, list)) or len(index) != n_in:
            raise TypeError(f"jacobian_batch: index must be a tuple of {n_in} entries (one per "
                            "input of f: None, or an integer array (B,) of the rows that input "
                            f"gives each point), got {type(index).__name__}"
                            + (f" of {len(index)}" if isinstance(index, (tuple, list)) else ""))
        self.srcs, self.idxs, B = [], [], None
        for j, (a, ix, shape) in enumerate(zip(Xs, index, t.in_shapes, strict=True)):
            if a.shape[1:] != shape or a.ndim == 0:
                lead = "N" if ix is not None else "B"
                raise ValueError(f"jacobian_batch: input {j} has shape {a.shape}; this trace "
                                 f"was recorded for shape {shape}, so give ({lead}, "
                                 f"{', '.join(map(str, shape))})" + (" (the rows index[j] picks)"
                                                                     if ix is not None else ""))
            if ix is None:
                n, i = len(a), _NONE
            else:
                i = np.asarray(ix)
                if i.dtype.kind not in "iu" or i.ndim != 1:
                    got = f"dtype {i.dtype}" if i.dtype.kind not in "iu" else f"shape {i.shape}"
                    raise TypeError(f"jacobian_batch: index[{j}] must be a 1-d integer array "
                                    f"(B,), got {got}")
                if len(i) and (i.min() < 0 or i.max() >= len(a)):
                    bad = int(i.min()) if i.min() < 0 else int(i.max())
                    raise IndexError(f"jacobian_batch: index[{j}] holds {bad}, out of bounds "
                                     f"for input {j}'s {len(a)} rows (shape {a.shape})")
                n, i = len(i), np.ascontiguousarray(i, np.int64)
            if B is not None and n != B:
                raise ValueError(f"jacobian_batch: the inputs and indices disagree on the "
                                 f"number of points: {B} and {n} (input {j}); each index and "
                                 "each input without one gives one entry per point")
            B = n
            self.srcs.append(np.ascontiguousarray(a.reshape(len(a), t._cols[j + 1] - t._cols[j])))
            self.idxs.append(i)
        self.B = 0 if B is None else B
        self.out = self.offsets = None
        if out is not None:
            self.out, self.offsets = _scatter_spec(t, out, self.B)

    def stacked(self, pts=None):
        """The gathered inputs (B, n) at the points ``pts`` (all if None), by NumPy."""
        cols = []
        for s, i in zip(self.srcs, self.idxs, strict=True):
            if not len(i):  # (per point; or an index of no points, B = 0)
                cols.append(s[:self.B] if pts is None else s[pts])  # (one input: no copy)
            else:
                cols.append(s[i if pts is None else i[pts]])
        X = np.ascontiguousarray(np.concatenate(cols, axis=1) if len(cols) > 1 else
                                 cols[0] if cols else np.zeros((self.B, 0)))
        # (a read-only array is another Numba signature: a copy costs far less than a
        # compile, as Traced._stack)
        return X if X.flags.writeable else X.copy()


_NONE = np.zeros(0, np.int64)


def _scatter_spec(t, out, B):
    """((data, start (B, m) int64, runs (R, 4)), offsets) of ``out = (data, start, mask)``,
    validated: offsets (m, n) int64 the place of entry (i, c) of a block (c a column of
    all f's inputs) in its row's run of data, -1 where it is not kept (``fused.
    direct_kernel``; None if argnums names an input twice)."""
    m, nw = t.out_size, int(sum(t._cols[j + 1] - t._cols[j] for j in t.argnums))
    if not isinstance(out, (tuple, list)) or len(out) != 3:
        raise TypeError("jacobian_batch: out must be (data, start, mask): data a 1-d float64 "
                        f"array, start ({B}, {m}) ints, mask ({m}, {nw}) bools (see "
                        f"docs/replay.md), got {type(out).__name__}")
    data, start, mask = out
    if not isinstance(data, np.ndarray) or data.dtype != np.float64 or data.ndim != 1 or \
            not data.flags.c_contiguous or not data.flags.writeable:
        what = (f"dtype {data.dtype}, shape {data.shape}" if isinstance(data, np.ndarray)
                else type(data).__name__)
        raise TypeError(f"jacobian_batch: out's data must be a writable C-contiguous 1-d "
                        f"float64 array (a CSR matrix's .data), got {what}")
    start = np.asarray(start)
    if start.dtype.kind not in "iu" or start.shape not in ((B, m), (B, *t.out_shape)):
        raise ValueError(f"jacobian_batch: out's start must be integers of shape ({B}, {m}) "
                         f"(where row i of point b's block begins in data), got "
                         f"{start.dtype} {start.shape}")
    mask = _checked_mask(t, mask)
    start = np.ascontiguousarray(start.reshape(B, m), np.int64)
    count = mask.sum(axis=1).astype(np.int64)
    lo, hi = _span(start, count) if _READY else (start.min(), (start + count).max()) \
        if B else (0, 0)
    if lo < 0 or hi > len(data):
        b, i = np.unravel_index(np.argmax((start < 0) | (start + count > len(data))), start.shape)
        raise IndexError(f"jacobian_batch: out's row {i} of point {b} starts at "
                         f"{start[b, i]} and holds {count[i]} entries, outside data's "
                         f"{len(data)}")
    # the kept entries as runs (row i, first column of G, length, offset in the row): a
    # block's kept columns that are side by side in G and in data are copied as one run
    cols = _wrt_cols(t)
    rows, c = np.nonzero(mask)
    g = cols[c]
    first = np.ones(len(g), bool)
    first[1:] = (rows[1:] != rows[:-1]) | (g[1:] != g[:-1] + 1)
    at = np.nonzero(first)[0]
    offset = at - np.searchsorted(rows, rows[at])  # (the run's place in its row)
    length = np.diff(np.append(at, len(g)))
    runs = np.stack([rows[at], g[at], length, offset], axis=1).astype(np.int64)
    return (data, start, runs), offsets(t, mask)


def _wrt_cols(t):
    """The columns of f's inputs (stacked) that argnums selects, in argnums order."""
    return np.concatenate([np.arange(t._cols[j], t._cols[j + 1]) for j in t.argnums]
                          or [_NONE]).astype(np.int64)


def _checked_mask(t, mask):
    m, nw = t.out_size, int(sum(t._cols[j + 1] - t._cols[j] for j in t.argnums))
    mask = np.asarray(mask)
    if mask.dtype != np.bool_ or mask.shape != (m, nw):
        raise ValueError(f"jacobian_batch: out's mask must be booleans of shape ({m}, {nw}) "
                         f"(f's {m} output elements by the {nw} elements of the inputs "
                         f"argnums={t.argnums} selects), got {mask.dtype} {mask.shape}")
    return mask


def offsets(t, mask):
    """(m, n) int64: where entry (i, c) of a block (c a column of all f's inputs) goes in
    its row's run of data under ``mask``, -1 where it is not kept (``fused.
    direct_kernel``); None if argnums names an input twice or the block has more than
    ``DIRECT_ENTRIES`` entries (the chunked path runs those)."""
    cols = _wrt_cols(t)
    if len(np.unique(cols)) != len(cols) or t.out_size * int(t._cols[-1]) > DIRECT_ENTRIES:
        return None
    rows, c = np.nonzero(mask)
    out = np.full((t.out_size, int(t._cols[-1])), -1, np.int64)
    out[rows, cols[c]] = np.arange(len(rows)) - np.searchsorted(rows, rows)
    return out


def request_direct(t, mask, wait):
    """Queue (``wait``: and wait for) t's direct kernel for ``jacobian_batch(out=(data,
    start, mask))``; returns its status."""
    at = offsets(t, _checked_mask(t, mask))
    if at is None:
        return "ineligible: argnums names an input twice, or the block is over " \
            f"{DIRECT_ENTRIES} entries"
    fused.direct_kernel(t, at, wait=wait)
    return fused.direct_status(t, at)


def scatter_numpy(dest, G):
    """The blocks G (B, m, n) to ``dest`` (``Spec.out``) by NumPy (the interpreter's path)."""
    data, start, runs = dest
    for i, c0, n, o in runs.tolist():
        data[(start[:, i] + o)[:, None] + np.arange(n)] = G[:, i, c0:c0 + n]


def dense_offsets(t, kind):
    """The offsets ``at`` of t's "dense" (m, n) or "vjp" (1, n) direct kernel: entry (i,
    c) at column c of its row, for the columns argnums selects (the others are not
    computed: the split results never show them), or None where a direct kernel does not
    apply (``offsets``).  Kept on t."""
    d = t.__dict__.setdefault("_dense_at", {})
    if kind not in d:
        cols, n = _wrt_cols(t), int(t._cols[-1])
        k = t.out_size if kind == "dense" else 1
        at = None
        if len(np.unique(cols)) == len(cols) and k * n <= DIRECT_ENTRIES:
            at = np.full((k, n), -1, np.int64)
            at[:, cols] = cols
        d[kind] = at
    return d[kind]


def run_dense(t, spec, kind, U, V, G, bad):
    """The plain ``jacobian_batch``/``jvp_batch`` (``kind`` "dense": G (B, m, n)) or
    ``vjp_batch`` ("vjp": G (B, 1, n), seeds U (B or 1, 1, m)) by t's direct kernel of that
    kind, values to V (B, m), where it is ready (queued here once t is hot).  False: it is
    not (the seeded kernel or the interpreter answers, on the stacked inputs)."""
    if kind == "dense" and t.out_size == 1:
        return False  # (a scalar output's batch kernel serves its Jacobian: run_seeded)
    at = dense_offsets(t, kind)
    kd = None if at is None else fused.direct_kernel(t, at, kind=kind)
    return kd is not None and kd.run_direct(spec.srcs, spec.idxs, G.reshape(-1), _NO_START, at,
                                            bad, V=V, U=U if kind == "vjp" else None)


_NO_START = np.zeros((0, 0), np.int64)


def request_dense(t, kind, wait):
    """Queue (``wait``: and wait for) t's direct kernel of ``kind`` ("dense", "vjp");
    returns its status."""
    at = dense_offsets(t, kind)
    if at is None:
        return "ineligible: argnums names an input twice, or the block is over " \
            f"{DIRECT_ENTRIES} entries"
    fused.direct_kernel(t, at, wait=wait, kind=kind)
    return fused.direct_status(t, at, kind)


def run(t, spec, m, n, U, G, bad):
    """The points by compiled code where it is ready: with out=, t's direct kernel for
    the mask (read by index, written to data: ``fused.direct_kernel``, queued here once t
    is hot), else t's fused kernel in chunks (``run_fused``).  False: neither is ready
    (the interpreter answers)."""
    if spec.offsets is not None:
        kd = fused.direct_kernel(t, spec.offsets)
        data, start, _ = spec.out
        if kd is not None and kd.run_direct(spec.srcs, spec.idxs, data, start, spec.offsets,
                                            bad):
            return True
    k = t._fused
    if k.__class__ is fused.Kernel and fused.enabled() and helpers_ready():
        run_fused(k, spec, m, n, U, G, bad)
        return True
    return False


def run_fused(k, spec, m, n, U, G, bad, serial=False):
    """The points by the fused kernel ``k`` in chunks of CHUNK on all cores: inputs gathered
    per chunk, blocks into G (B, m, n) or scattered to ``spec.out``; bad (B,) flags."""
    chunk = max(8, min(CHUNK, (1 << 16) // max(1, m * n)))
    scalar = k.seeded is None  # a scalar output's kernel: its gradient is the block

    def run(p0, p1):
        bufs = getattr(_LOCAL, "bufs", None)
        if bufs is None or bufs[0].shape != (chunk, n) or bufs[2].shape != (chunk, m, n):
            bufs = _LOCAL.bufs = (np.empty((chunk, n)), np.empty((chunk, m)),
                                  np.empty((chunk, m, n)))
        Xc, Vc, Gc = bufs
        for b0 in range(p0, p1, chunk):
            b1 = min(b0 + chunk, p1)
            q = b1 - b0
            c0 = 0
            for s, i in zip(spec.srcs, spec.idxs, strict=True):
                _gather(s, i, b0, b1, Xc, c0)
                c0 += s.shape[1]
            Gq = Gc if G is None else G[b0:b1]
            if scalar:
                k.batch(Xc, Vc.reshape(-1), Gq.reshape(len(Gq), n), bad[b0:b1], k.C, k.K, 0, q)
            else:
                k.seeded(Xc, U, Vc, Gq, bad[b0:b1], k.C, k.K, 0, q)
            if G is None:
                data, start, runs = spec.out
                _scatter(Gc, q, b0, runs, start, data)
    k._split(spec.B, k.width * max(1, m), serial, run)
