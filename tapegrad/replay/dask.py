"""Batch replay on Dask: values and gradients at the rows of a ``dask.array.Array``.

``f.value_and_grad_batch(X)``, ``f.grad_batch(X)``, ``f.value_batch(X)`` (``Compiled`` and
``Traced``) and ``tapegrad.batch_grad(f, X)`` come here when X is a dask array (replay/__init__.py
delegates; ``import tapegrad`` never imports dask).  The results are lazy dask arrays
chunked like X along the batch axis (axis 0); the other axes of X are rechunked to one
chunk, as every point needs all of its coordinates.

The graph (built with ``map_blocks``/``blockwise``):

    tape key  ──────────────┐  one key holding the traced tapes (and f, for retraces)
    X block i ──► replay i ─┴─► V block i, G block i, mask block i

Every replay task depends on the one tape key, so the tape goes to each worker, not to
each block (the threads scheduler shares the object itself; ``dask.distributed`` sends it
to each worker that runs a block, and again only if its active memory manager dropped
that worker's copy between two of its blocks).  A task replays its block in the calling
thread with the compiled kernel, which releases the GIL: Dask's workers are the
parallelism, and the results are bit for bit those of one process (every point is
computed alone, whatever the block).

Guards: ``on_divergence`` behaves as on one machine.  "raise" and "mask" are decided
inside each block.  "retrace" needs f on the worker: f is shipped with the tape only in
that mode, and only if it pickles by reference (a module-level function; a lambda or a
local function gets a clear error when the graph is built for a scheduler that pickles,
or else when it is sent).  A worker traces the points that diverge itself; its new tapes
stay in that worker process (a small per-process cache) for its later blocks and later
computations.  With the threads scheduler they join the ``Compiled`` object's own cache.
"""
import hashlib
import os
import pickle
import threading
import time

import dask
import dask.array as da
import numpy as np

from . import _MODES, Compiled, DivergenceError, _resolve, validate

__all__ = ["worker_stats"]

_F64 = np.dtype(np.float64)
_LOCAL = {}  # payload key -> this process's list of tapes (retraced tapes stay here)
_LOCAL_MAX = 32
_LOCK = threading.Lock()
_RETRACE_LOCK = threading.Lock()
_PROCESS = {"unpickled": 0, "first": None, "blocks": []}  # for worker_stats()


# -- what goes to the workers ----------------------------------------------------------
class _Payload:
    """The tapes of one input signature, and f when the mode is "retrace".

    Pickles as plain arrays plus f's pickle; f is unpickled on a worker only when one of
    its points diverges from every tape it has (so f's module is imported only then)."""

    def __init__(self, key, tapes, fn, fn_blob=None, remote=False):
        self.key = key
        self.tapes = tapes  # in the caller's process: the Compiled object's own list
        self.fn = fn
        self.fn_blob = fn_blob
        self.remote = remote

    def __reduce__(self):
        return (_unpickle, (self.key, list(self.tapes), self._fn_bytes()))

    def _fn_bytes(self):
        if self.fn_blob is not None or self.fn is None:
            return self.fn_blob
        return _dump_fn(self.fn)

    def local(self):
        """The tape list to replay and extend: the caller's own in its process, else this
        worker process's list for the key (kept for its later blocks and computations)."""
        if not self.remote:
            return self.tapes
        with _LOCK:
            tapes = _LOCAL.get(self.key)
            if tapes is None:
                while len(_LOCAL) >= _LOCAL_MAX:
                    _LOCAL.pop(next(iter(_LOCAL)))
                tapes = _LOCAL[self.key] = self.tapes
            return tapes

    def function(self):
        if self.fn is None and self.fn_blob is not None:
            try:
                self.fn = pickle.loads(self.fn_blob)
            except Exception as e:
                raise RuntimeError(
                    "tapegrad.replay.dask: a worker must retrace diverging points but cannot load "
                    f"f: {e!r}; f's module must be importable on every worker (or use "
                    "on_divergence='mask')") from e
        return self.fn


def _unpickle(key, tapes, fn_blob):
    _PROCESS["unpickled"] += 1
    return _Payload(key, tapes, None, fn_blob, remote=True)


def _dump_fn(fn):
    """f's pickle: by reference (a module-level function), or a clear error."""
    try:
        blob = pickle.dumps(fn)
    except Exception as e:  # lambdas, local functions, closures over unpicklable state
        name = getattr(fn, "__qualname__", repr(fn))
        raise TypeError(
            f"tapegrad.replay.dask: on_divergence='retrace' sends f to the Dask workers (they "
            f"trace the points that take another branch), but f ({name}) cannot be pickled: {e}. "
            "Define f as a module-level function (def f(x): ... at the top of a module), or "
            "use on_divergence='mask' (NaN and a mask for such points) or 'raise'; the "
            "threads scheduler (dask.config.set(scheduler='threads')) needs no pickling"
        ) from e
    if getattr(fn, "__module__", None) == "__main__":
        import cloudpickle  # a dependency of dask: a script's functions go by value

        return cloudpickle.dumps(fn)
    return blob


def _token(tapes, fn):
    h = hashlib.sha1()
    for t in tapes:
        for a in (t.rows, t.offs, t.vals0, t.consts, t.meta, t.in_slots):
            h.update(np.ascontiguousarray(a).tobytes())
        h.update(repr((t.in_shapes, t.out_slot, t.argnums)).encode())
    h.update(repr((getattr(fn, "__module__", None), getattr(fn, "__qualname__", None),
                   id(fn))).encode())
    return h.hexdigest()[:20]


# -- the task ----------------------------------------------------------------------------
def _replay(tape, X, V, G, bad):
    """One block of points into V, G (no rows: values only), bad, in this thread (the
    kernel releases the GIL)."""
    if len(X):
        tape.run(X, G.shape[0] > 0, out=(V, G), serial=True, bad=bad)


def _replay_block(x, payload, grad, mode, block_info=None):
    """One block's results packed in one flat array: [G (points x m) | V | diverged].

    Packed, so that the gradients, values and mask handed on are contiguous views of it:
    no copy on the worker, none when they are sent."""
    t0 = time.perf_counter()
    # writeable too: blocks that came over the network are read-only, and a read-only
    # array is another Numba signature (a compile of its own on every worker)
    X = np.require(x, np.float64, ["C", "W"])
    n, m = X.shape
    k = m if grad else 0
    out = np.empty(n * (k + 2))
    G = out[:n * k].reshape(n, k) if grad else np.empty((0, 0))
    V = out[n * k:n * (k + 1)]
    bad = np.zeros(n, np.int64)
    tapes = payload.local()
    _replay(tapes[0], X, V, G, bad)
    if bad.any():
        if mode == "raise":
            p = int(np.argmax(bad > 0))
            g = int(bad[p]) - 1
            raise DivergenceError(
                f"point {_where(block_info, p)} takes another branch than the traced one: "
                f"guard #{g} ({validate.shown_name(tapes[0].guards[g])}) decides differently "
                "there. Use tapegrad.compile(f) (it retraces), on_divergence='mask', or "
                "branch-free ops (tapegrad.where, clamp) in f")
        if mode == "retrace":
            with _RETRACE_LOCK:  # one retrace at a time in a process (threads share tapes)
                _resolve(tapes, payload.function(), X, V, G, bad, grad, mode)  # in place
            bad[:] = 0
        else:
            _resolve(tapes, None, X, V, G, bad, grad, mode)  # NaN where bad, in place
    out[n * (k + 1):] = bad > 0
    took = (n, time.perf_counter() - t0)
    if _PROCESS["first"] is None:
        _PROCESS["first"] = took
    else:
        _PROCESS["blocks"].append(took)
        del _PROCESS["blocks"][:-10_000]
    return out


def _where(block_info, p):
    """The global index of point p of a block (or its block and local index)."""
    try:
        start = block_info[0]["array-location"][0][0]
        if start == start:  # known chunk sizes
            return int(start) + p
        return f"{p} of block {block_info[0]['chunk-location'][0]}"
    except (TypeError, KeyError, IndexError):
        return p


def _take(out, k, part, lo=0, hi=0, shape=()):
    """A view of one packed result block (k gradient columns): the values, the mask, or
    gradient columns lo..hi-1 as (points, *shape)."""
    n = len(out) // (k + 2)
    if part == "value":
        return out[n * k:n * (k + 1)]
    if part == "mask":
        return out[n * (k + 1):] == 0
    return out[:n * k].reshape(n, k)[:, lo:hi].reshape((n, *shape))


def _flat_cat(*blocks):
    """The inputs of one block of points side by side, each flattened: (points, m)."""
    n = len(blocks[0])
    return np.concatenate([np.asarray(b, np.float64).reshape(n, -1) for b in blocks], axis=1)


# -- building the graph ------------------------------------------------------------------
def _as_dask(Xs):
    """Every input as a float64 dask array with one chunk along each trailing axis."""
    first = next(x for x in Xs if isinstance(x, da.Array))
    out = []
    for i, x in enumerate(Xs):
        if not isinstance(x, da.Array):
            x = np.asarray(x)
            if x.ndim == 0 or len(x) != first.shape[0]:
                raise ValueError(f"batch input {i} (shape {x.shape}) does not match the "
                                 f"{first.shape[0]} points of the dask input")
            x = da.from_array(x, chunks=(first.chunks[0], *((s,) for s in x.shape[1:])))
        if x.ndim == 0:
            raise ValueError(f"batch input {i} must have a leading batch dimension, got a "
                             "0-d dask array")
        if x.dtype != _F64:
            x = x.astype(np.float64)
        if any(len(c) > 1 for c in x.chunks[1:]):
            x = x.rechunk({a: -1 for a in range(1, x.ndim)})
        out.append(x)
    return out


def _check(Xs, shapes):
    if len(Xs) != len(shapes):
        raise TypeError(f"traced function takes {len(shapes)} positional inputs, got {len(Xs)}")
    B = None
    for i, (x, shape) in enumerate(zip(Xs, shapes, strict=True)):
        if tuple(x.shape[1:]) != tuple(shape):
            want = f"(B, {', '.join(map(str, shape))})"
            raise ValueError(f"input {i} has shape {x.shape}; this trace was recorded for "
                             f"shape {shape}, so give {want}, or compile() to retrace")
        n = x.shape[0]
        if B is not None and n == n and B == B and n != B:
            raise ValueError(f"batch inputs disagree on the number of points: {B} and {n}")
        B = n


def _tapes_for(compiled, Xs):
    """The Compiled object's tapes for the signature of Xs; a new signature is traced at
    the first point (computing just that row of each X), an empty batch at zeros."""
    shapes = tuple(tuple(x.shape[1:]) for x in Xs)
    if compiled._watching:  # (a tensor f read has changed: traced anew)
        compiled._refresh()
    tapes = compiled.traces.get(shapes)
    if tapes is None:
        tapes = compiled._tapes(_first_point(Xs, shapes), batch=False)
    return tapes


def _first_point(Xs, shapes):
    """The first point of the batch (zeros for an empty batch), computing as little as
    possible: that row, or with unknown chunk sizes the first non-empty block."""
    if not any(np.isnan(c) for c in Xs[0].chunks[0]):
        if Xs[0].shape[0] == 0:
            return [np.zeros(s) for s in shapes]
        return list(dask.compute(*[x[0] for x in Xs]))
    for i in range(Xs[0].numblocks[0]):
        blocks = dask.compute(*[x.blocks[i] for x in Xs])
        if len(blocks[0]):
            return [b[0] for b in blocks]
    return [np.zeros(s) for s in shapes]


def _in_process():
    """Whether the scheduler in effect runs tasks in this process (threads, synchronous):
    then nothing is pickled, and any f (a lambda too) can retrace."""
    from dask import local, threaded

    try:
        get = dask.base.get_scheduler(collections=[da.zeros(1)])
    except Exception:  # noqa: BLE001 (an unknown scheduler: assume it pickles)
        return False
    return get in (threaded.get, local.get_sync)


_WARM = []


def _warm(tape):
    """Load (or compile, once) the replay kernel in this process before any worker needs
    it: workers on this machine, or sharing its Numba cache directory, then load the
    cached kernel on their first block instead of each compiling it at the same time."""
    if not _WARM:
        X = np.ascontiguousarray(tape.vals0[tape.in_elems]).reshape(1, -1)  # traced point
        _replay(tape, X, np.empty(1), np.empty(X.shape), np.zeros(1, np.int64))
        _WARM.append(True)


def batch(obj, Xs, grad, on_divergence=None, out=None, progress=False):
    """Lazy (V, G) for a ``Traced`` or ``Compiled`` ``obj`` at the rows of dask arrays Xs.

    G is split per argnum as on one machine (None when ``grad`` is false); ``obj.mask`` (per
    thread) is set to a lazy boolean array in "mask" mode (False where a point diverged), else None.
    A ``Compiled`` object meeting a new input signature traces f at the batch's first
    point, which computes that one row of X now; everything else stays lazy.
    """
    if out is not None:
        raise ValueError("out= cannot be used with dask inputs: the results are lazy dask "
                         "arrays; store them with dask.array.store or .to_zarr instead")
    if progress:
        raise ValueError("progress=True does not apply to lazy dask results: use "
                         "dask.diagnostics.ProgressBar() or distributed's progress()")
    if not Xs:
        raise TypeError("batch replay needs at least one batch input")
    Xs = _as_dask(Xs)
    if isinstance(obj, Compiled):
        mode = obj.on_divergence
        tapes = _tapes_for(obj, Xs)
    else:
        mode = on_divergence
        tapes = [obj]
    if mode not in _MODES:
        raise ValueError(f"on_divergence must be one of {_MODES}, got {mode!r}")
    lead = tapes[0]
    _check(Xs, lead.in_shapes)
    fn = obj.fn if mode == "retrace" else None
    payload = _Payload(f"tapegrad-tapes-{_token(tapes, fn)}", tapes, fn)
    if fn is not None and not _in_process():
        payload.fn_blob = _dump_fn(fn)  # a lambda fails here, at graph-build time
    _warm(lead)
    shipped = dask.delayed(payload, name=payload.key, traverse=False)

    if len(Xs) == 1 and Xs[0].ndim == 2:
        X = Xs[0]
    else:  # several inputs, or other than one axis per point: one (B, m) array
        args, letters = [], iter("abcdefghjklmnopqrstuvwxyz")
        for x in Xs:
            args += [x, "i" + "".join(next(letters) for _ in range(x.ndim - 1))]
        X = da.blockwise(_flat_cat, "iz", *args, new_axes={"z": int(lead._cols[-1])},
                         concatenate=True, dtype=np.float64, meta=np.empty((0, 0)))
    m = X.shape[1]
    k = m if grad else 0
    packed = X.map_blocks(_replay_block, shipped, grad, mode, drop_axis=1,
                          chunks=(tuple(c * (k + 2) for c in X.chunks[0]),),
                          dtype=np.float64, meta=np.empty((0,)),
                          name=f"tapegrad-replay-{dask.base.tokenize(X, payload.key, grad, mode)}")

    def part(name, lo=0, hi=0, shape=()):
        kw = {"new_axis": list(range(1, len(shape) + 1))} if shape else {}
        return packed.map_blocks(_take, k, name, lo, hi, shape,
                                 chunks=(X.chunks[0], *((s,) for s in shape)),
                                 dtype=bool if name == "mask" else np.float64,
                                 meta=np.empty((0,) * (1 + len(shape)),
                                               bool if name == "mask" else np.float64), **kw)

    V = part("value")
    obj._local.mask = part("mask") if mode == "mask" else None
    if not grad:
        return V, None
    parts = [part("grad", int(lead._cols[j]), int(lead._cols[j + 1]), lead.in_shapes[j])
             for j in lead.argnums]
    return V, (parts[0] if len(parts) == 1 else tuple(parts))


# -- what a worker did -------------------------------------------------------------------
def worker_stats():
    """This process's replay record: how often a tape payload was unpickled here, the
    blocks replayed, the first block (points, seconds: it loads the kernel) and the
    median seconds per point of the others (the last 10,000).
    ``client.run(worker_stats)`` asks every worker of a ``dask.distributed`` cluster."""

    rest = sorted(t / max(n, 1) for n, t in _PROCESS["blocks"])
    return {"pid": os.getpid(), "unpickled": _PROCESS["unpickled"],
            "blocks": len(rest) + (_PROCESS["first"] is not None),
            "first_block": _PROCESS["first"],
            "median_s_per_point": rest[len(rest) // 2] if rest else None}
