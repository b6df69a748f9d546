"""Compile (or load from Numba's cache) the interpreters before the first backward."""
import time

import numpy as np

from . import _sweep


def warmup(float32=True, replay=True):
    """Compile every Numba kernel now (the float32 reverse sweep unless ``float32`` is
    False, batch replay's kernels unless ``replay`` is False); returns the seconds it took."""
    t0 = time.perf_counter()
    rows = np.zeros((0, 5), np.int64)
    offs = np.zeros(1, np.int64)
    f = np.zeros(0)
    m = np.zeros(0, np.int64)
    _sweep._reverse_sweep(rows, offs, f, f, m, f, np.zeros(0, np.uint8), 0, 0, 1)
    if float32:  # float32 graphs are swept in float32 (tape.py)
        f32 = np.zeros(0, np.float32)
        _sweep._reverse_sweep(rows, offs, f32, f, m, f32, np.zeros(0, np.uint8), 0, 0, 1)
    _sweep._free_swept(rows, np.zeros(0, np.uint8), 0, 0)
    i32 = np.zeros(0, np.int32)
    _sweep._spans_of_slots(rows, m, m, m, m, i32, i32, 0)
    if replay:
        _sweep._forward_replay(rows, offs, f, f, m, 0, 0, 1, np.zeros(1, np.int64))
        # batch replay's kernel, with the argument types replay.Traced.run passes (no blocks)
        _sweep._replay_blocks(rows, rows, offs, f, f, m, m, m, 0, np.zeros((0, 0)), f,
                              np.zeros((0, 0)), np.zeros(0, np.int64), 1, 0, 0, f, f)
    return time.perf_counter() - t0


if __name__ == "__main__":  # tapegrad._kernels' background compile: fill the cache, quietly
    warmup()
