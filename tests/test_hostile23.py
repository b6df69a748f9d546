"""Hostile inputs, round 23: a row's opcode swapped for another's, the Jacobian's buffers,
and a legitimate file refused.

- A strided map of no dims (``[0, base]``: every element from ``base``) checked ``base``
  only when the map had elements.  The reverse sweep's sum along a run (strided_rev, the
  step-0 path) reads and writes ``dst[a + base]`` for its one run even when that run is
  empty, so an EXPAND over an empty slot with a map of ``base`` 3 (a softmax row's meta,
  its opcode changed to EXPAND: found by the opcode edits of tests/fuzz_trace_combos.py)
  read and wrote outside the arena at any point (IndexError with the JIT off, silent in
  compiled code).  Such a map's ``base`` is now checked whatever its count.
- ``Traced.run_seeded`` (jacobian, jacobian_batch's interpreted path) swept all m seeds
  of a vector output side by side: a block's buffers held m arenas of values and
  adjoints, kept by each thread.  A trace of 3,000 outputs of one input (12,000 values)
  took 530 MB for its Jacobian of 3,000 numbers; a small file of 10^4 outputs under the
  default max_bytes, gigabytes.  The seeds now go SEED_VALUES values at a time.
- A cumsum over an empty dim (or along a dim of an empty tensor) records a 0 in its meta
  (the dim's size, or the size after it), which the layout refused: a file tapegrad wrote
  of ``x[:0].reshape(3, 0).cumsum(1)`` did not load.  Zeros are allowed for rows of no
  elements (the rules' loops never run, never divide by them).
"""
import io
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import replay
from tapegrad.ops.nn import SOFTMAX
from tapegrad.ops.reductions import CUMSUM
from tapegrad.ops.strided import EXPAND
from test_hostile21 import _arrays, _file  # (a trace's arrays; a file of them, re-digested)


def _empty_softmax(x):
    return tg.softmax(x[:0].reshape(0, 3), dim=1).sum() + x.sum()


def test_empty_map_of_no_dims_names_an_element_in_range():
    a = _arrays(_empty_softmax, np.linspace(0.5, 1.0, 6))
    rows, meta, size = a["rows"], a["meta"], np.diff(a["offs"])
    (r,) = np.nonzero(rows[:, 0] == SOFTMAX)[0]
    assert size[rows[r, 1]] == size[rows[r, 2]] == 0
    assert meta[rows[r, 4]] == 0 and meta[rows[r, 4] + 1] > 0  # read as [ndim 0, base > 0]
    rows[r, 0] = EXPAND  # (its values are none: vals0 needs no recomputing)
    a.pop("grad0")
    with pytest.raises(ValueError, match=r"strided map at meta\[\d+\] reaches"):
        tg.jit.load(io.BytesIO(_file(a)))


def test_expand_of_an_element_to_no_elements_still_loads():
    # the legitimate map of no dims over no elements: its base is the source's element
    f = lambda x: x[1].expand(0).sum() + x.sum()  # noqa: E731
    x = np.linspace(0.5, 1.0, 3)
    t = tg.trace(f, x)
    buf = io.BytesIO()
    t.save(buf)
    buf.seek(0)
    u = tg.jit.load(buf)
    assert u.value_and_grad(x)[0] == t.value_and_grad(x)[0]
    np.testing.assert_array_equal(u.grad(x), np.ones(3))


def _wide(m):
    return tg.trace(lambda x: (x * tg.ones(m)).sin(), np.ones(1))


def test_jacobian_sweeps_the_seeds_a_few_at_a_time(monkeypatch):
    t = _wide(700)
    sizes = []
    real = replay._buffers

    def buffers(*s):
        sizes.append(sum(s))
        return real(*s)
    monkeypatch.setattr(replay, "_buffers", buffers)
    x = np.array([0.3])
    J = t.jacobian(x)
    # 2,800 values x 700 seeds, twice, before: 4 * 10**6 values at once
    assert max(sizes) <= 3 * replay.SEED_VALUES // 8 + 3 * len(t._make_plan().vals0)
    np.testing.assert_allclose(J, np.full((700, 1), np.cos(0.3)), rtol=1e-15)
    monkeypatch.setattr(replay, "SEED_VALUES", 1 << 40)  # all seeds at once: the same bits
    np.testing.assert_array_equal(t.jacobian(x), J)


def test_jacobian_batch_in_chunks_is_bit_for_bit(monkeypatch):
    t = tg.trace(lambda x: (x.reshape(4, 5) @ x.reshape(5, 4)).tanh().cumsum(0), np.ones(20))
    X = np.random.default_rng(0).standard_normal((5, 20))
    monkeypatch.setattr(replay, "SEED_VALUES", 1 << 40)
    want = t.jacobian_batch(X, on_divergence="mask")
    V = np.ones((5, 4, 4))
    vjp = t.vjp_batch(X, v=V, on_divergence="mask")
    monkeypatch.setattr(replay, "SEED_VALUES", 8)  # one seed at a time
    np.testing.assert_array_equal(t.jacobian_batch(X, on_divergence="mask"), want)
    for got, ref in zip(t.vjp_batch(X, v=V, on_divergence="mask"), vjp, strict=True):
        np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("shape, dim", [((3, 0), 1), ((3, 0), 0), ((0, 4), 1)])
def test_a_saved_cumsum_over_no_elements_loads(shape, dim):
    # its meta holds a 0 (the dim's size, or the size after it), which the layout refused:
    # a file tapegrad wrote did not load
    f = lambda x: x[:0].reshape(shape).cumsum(dim).sum() + (x * x).sum()  # noqa: E731
    x = np.linspace(0.5, 1.0, 6)
    buf = io.BytesIO()
    tg.trace(f, x).save(buf)
    buf.seek(0)
    u = tg.jit.load(buf)
    v, g = u.value_and_grad(x)
    assert v == (x * x).sum()
    np.testing.assert_array_equal(g, 2 * x)


def test_cumsum_sizes_below_one_still_refused_with_elements():
    a = _arrays(lambda x: x.reshape(2, 3).cumsum(1).sum(), np.linspace(0.5, 1.0, 6))
    a["meta"][a["rows"][a["rows"][:, 0] == CUMSUM][0, 4]] = 0  # (inner)
    with pytest.raises(ValueError, match="must be >= 1 for 6 elements"):
        tg.jit.load(io.BytesIO(_file(a)))


@pytest.mark.slow
def test_opcode_edits_load_and_replay_in_bounds():
    """tests/fuzz_trace_combos.py's opcode edits (kind 9) without the JIT (an out-of-bounds
    index raises), vals0 recomputed: every replay path."""
    script = pathlib.Path(__file__).with_name("fuzz_trace_combos.py")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.run([sys.executable, str(script), "--seed", "23", "--cases", "150",
                           "--kinds", "9", "--only", "_empty", "_reduce", "_shape", "_nn"],
                          capture_output=True, text=True, timeout=1800, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    stats = json.loads(proc.stdout.strip().splitlines()[-1])
    assert stats["loaded"] > 0 and stats["failures"] == [], stats["failures"][:5]
