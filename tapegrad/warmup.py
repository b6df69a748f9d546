"""Compile (or load from Numba's cache) the kernels before they are first needed.

The kernels fall into groups that compile independently, so two processes can build them
side by side (``tapegrad warmup`` and a first run's background compile do, on a cold cache):

- ``sweep``: the eager reverse sweep over float64 arenas, and the bookkeeping kernels;
- ``replay``: replay's forward interpreter, then the batch kernel, which calls both
  interpreters (it links the compiled sweep, so it waits for the sweep group's);
- ``forward``: forward mode's tangent sweep and the forward-over-reverse (HVP) sweep
  (autograd/tangent.py);
- ``float32``: the reverse sweep once more, for float32 arenas (tape.py); built only when
  asked for or when a float32 graph is first swept, since most programs never need it.

``main([GROUP, "--wait-for-sweep"])`` builds one group in a process of its own and prints
a ``start``/``done`` line per kernel (the CLI relays them as progress).
"""
import os
import time

import numpy as np

from . import _eager, _point, _sweep
from ._kernels import in_cache, lock_path

GROUPS = ("sweep", "replay", "forward", "float32")
WAIT_S = 300.0  # --wait-for-sweep: how long the batch kernel waits for the sweep's cache


def _calls():
    """Each group's kernels as (label, dispatcher, arguments of the types callers pass)."""
    rows = np.zeros((0, 5), np.int64)
    offs = np.zeros(1, np.int64)
    f, f32, u8 = np.zeros(0), np.zeros(0, np.float32), np.zeros(0, np.uint8)
    m, i32 = np.zeros(0, np.int64), np.zeros(0, np.int32)
    return {
        "sweep": [
            ("reverse sweep (float64)", _sweep._reverse_sweep,
             (rows, offs, f, f, m, f, u8, 0, 0, 1)),
            ("freeing swept rows", _sweep._free_swept, (rows, m, u8, 0, 0, u8, u8)),
            ("graph spans", _sweep._spans_of_slots, (rows, m, m, m, m, i32, i32, 0)),
            ("slots a backward's inputs need", _sweep._needed_slots,
             (rows, m, m, m, m, u8, u8, 0, 0)),
            *_eager_calls(f),
        ],
        "replay": [
            ("forward replay", _sweep._forward_replay,
             (rows, offs, f, f, m, 0, 0, 1, np.zeros(1, np.int64))),
            # replay.Traced.run's argument types (no blocks)
            ("batch replay", _sweep._replay_blocks,
             (rows, rows, offs, f, f, m, m, m, 0, np.zeros((0, 0)), f, np.zeros((0, 0)),
              np.zeros(0, np.int64), 1, 0, 0, f, f, 0)),
            # replay's Jacobians and vector-Jacobian products (Traced.run_seeded)
            ("seeded batch replay", _sweep._seeded_blocks,
             (rows, rows, offs, f, f, m, m, m, m, np.zeros((0, 0)), np.zeros((0, 0, 0)),
              np.zeros((0, 0)), np.zeros((0, 0, 0)), np.zeros(0, np.int64), 1, 0, 0, f, f, f, 0)),
            # the single-point fast path (Traced._point): a plan of no rows, nothing runs
            ("one-point replay", _point._replay_point,
             (np.array([0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 1, 1, 5, 0, 0], np.int64), f, f,
              np.zeros(5))),
        ],
        "forward": [
            ("tangent sweep", _sweep._tangent_sweep, (rows, offs, f, f, f, m, u8, 0, 0, 1)),
            ("forward-over-reverse sweep", _sweep._hvp_sweep,
             (rows, offs, f, f, f, m, f, f, u8, u8, 0, 0, 1)),
        ],
        "float32": [
            ("reverse sweep (float32)", _sweep._reverse_sweep,
             (rows, offs, f32, f, m, f32, u8, 0, 0, 1)),
            *_eager_calls(f32),
        ],
    }


def _eager_calls(f):
    """The eager forwards' kernels (tapegrad/_eager.py) on arrays like ``f``: nothing to do
    (a shape of zeros, no rows)."""
    z = np.zeros(4, np.int64)
    tanh = [("eager tanh (float64)", _eager._tanh, (f, f)),
            ("eager tanh, small arrays (float64)", _eager._TANH_SMALL.build, ()),
            ("eager sigmoid (float64)", _eager._sigmoid, (f, f)),
            ("eager fma (float64)", _eager._fma, (f, f, f, f))] if f.dtype == np.float64 else []
    return [(f"eager broadcast ({f.dtype})", _eager._broadcast_binary, (0, f, f, f, z, z, z)),
            (f"eager row sums ({f.dtype})", _eager._sum_rows, (f, f, 1)), *tanh]


def _sweep_cached(calls):
    _, d, args = calls["sweep"][0]
    return in_cache(d, tuple(d.typeof_pyval(a) for a in args)) is not False


def build(groups, progress=None, wait_for_sweep=False):
    """Compile (or load) the kernels of ``groups`` in this process, in order; ``progress``
    (if given) is called as ``progress(event, label, seconds)`` around each kernel.
    Returns the seconds it took."""
    t0 = time.perf_counter()
    calls = _calls()
    for g in groups:
        for label, d, args in calls[g]:
            if wait_for_sweep and d in (_sweep._replay_blocks, _sweep._seeded_blocks,
                                         _point._replay_point, _sweep._hvp_sweep):
                while not _sweep_cached(calls) and time.perf_counter() - t0 < WAIT_S:
                    time.sleep(0.25)  # (past WAIT_S, Numba compiles the sweep here too)
            if progress:
                progress("start", label, 0.0)
            t = time.perf_counter()
            d(*args)
            if progress:
                progress("done", label, time.perf_counter() - t)
    return time.perf_counter() - t0


def warmup(float32=False, replay=True, forward=False):
    """Compile every Numba kernel now, in this process (or load it from Numba's cache):
    the eager sweep; batch replay's kernels unless ``replay`` is False; forward mode's
    (jvp, jacfwd, HVPs) if ``forward`` is True; the float32 sweep if ``float32`` is True
    (else those compile, in the background, when first needed).  Returns the seconds it
    took."""
    groups = ["sweep"] + ["replay"] * replay + ["forward"] * forward + ["float32"] * float32
    return build(groups)


def _report(event, label, seconds):
    print(f"{event}\t{label}\t{seconds:.2f}", flush=True)


def main(argv):
    """Build the groups named in ``argv`` (default ``sweep``), reporting each kernel; the
    group's lock file (tapegrad._kernels.lock_path), if it holds this process, goes at the
    end."""
    groups = [a for a in argv if a in GROUPS] or ["sweep"]
    try:
        build(groups, _report, wait_for_sweep="--wait-for-sweep" in argv)
    finally:
        for g in groups:
            _release(lock_path(g))


def _release(path):
    try:
        with open(path) as f:
            mine = f.read().strip() == str(os.getpid())
        if mine:
            os.remove(path)
    except OSError:
        pass
