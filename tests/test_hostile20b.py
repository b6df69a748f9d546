"""Hostile inputs, round 20b: the memory of load's traced-point check.

load replays a trace at its traced point to check the stored values and gradient, and that
replay was not counted against ``max_bytes``: a deflated file of constant values is tiny
(153 kB held 155 MB of them), and its check took the arena's copy, the plan's reach sweep
(a copy and adjoints) and arena, and Traced.run's blocks of 8 points (16 arenas reserved,
kept after load): VmHWM rose 880 MB loading it under max_bytes = 2e8 on main.  Each arena
value now counts ``validate.VALUE_BYTES`` against max_bytes, refused from vals0's header
before it is inflated; the gradient check replays one point in buffers it drops after.
"""
import io
import os
import subprocess
import sys
import textwrap
import tracemalloc

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.replay import validate

JIT_OFF = os.environ.get("NUMBA_DISABLE_JIT") == "1"


def _outer(x):
    y = x[:, None] * x[None, :]
    return (y * y).sum()


def _constant_file(n):
    """A trace of 2 n**2 + ... arena values, all zero: deflated to almost nothing."""
    buf = io.BytesIO()
    tg.trace(_outer, np.zeros(n)).save(buf)
    buf.seek(0)
    with np.load(buf) as z:
        a = {k: z[k].copy() for k in z.files if k != "digest"}
    out = io.BytesIO()
    np.savez_compressed(out, **a, digest=validate.digest(a))
    return out.getvalue(), len(a["vals0"])


def test_values_counted_before_inflated():
    data, nvals = _constant_file(400)
    max_bytes = 24 * nvals  # (main: the members' 8 a value and the check's work fit)
    assert len(data) < nvals // 10
    tracemalloc.start()
    try:
        with pytest.raises(ValueError) as e:
            tg.load(io.BytesIO(data), max_bytes=max_bytes)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    msg = str(e.value)
    assert (f"trace field 'vals0': its {nvals} values take about "
            f"{validate.VALUE_BYTES * nvals} bytes") in msg
    assert f"more than max_bytes={max_bytes}; pass a larger max_bytes" in msg
    assert peak < nvals  # (refused from the header: the 8 nvals bytes were never read)
    t = tg.load(io.BytesIO(data), max_bytes=validate.VALUE_BYTES * nvals + (1 << 20))
    x = np.linspace(-1, 1, 400)
    assert np.allclose(t.grad(x), 4 * x * (x @ x))


def test_pickle_counts_values():
    import pickle
    t = tg.trace(_outer, np.zeros(100))
    token = validate.UNPICKLE_MAX_BYTES.set(8 * len(t.vals0))
    try:
        with pytest.raises(ValueError, match="trace field 'vals0': its .* values take about"):
            pickle.loads(pickle.dumps(t))
    finally:
        validate.UNPICKLE_MAX_BYTES.reset(token)


_PEAK = textwrap.dedent("""
    import io, sys, tracemalloc
    import tapegrad as tg
    def hwm():
        return next(int(l.split()[1]) * 1024 for l in open("/proc/self/status")
                    if l.startswith("VmHWM"))
    tg.load(sys.argv[1])  # (the kernels compiled or read from the cache first)
    data, max_bytes = open(sys.argv[2], "rb").read(), int(sys.argv[3])
    before = hwm()
    tracemalloc.start()
    tg.load(io.BytesIO(data), max_bytes=max_bytes)
    print(max_bytes, tracemalloc.get_traced_memory()[1], hwm() - before)
""")


def test_load_within_max_bytes(tmp_path):
    """The load that max_bytes = its fields' budget (VALUE_BYTES a value, mostly) allows stays
    within it: VmHWM (the JIT's kernels allocate outside tracemalloc) or, with the JIT off,
    tracemalloc."""
    n = 300 if JIT_OFF else 1500  # (9e6 values, 72 MB: well above VmHWM's noise)
    for name, size in (("small", 3), ("big", n)):
        data, nvals = _constant_file(size)
        (tmp_path / name).write_bytes(data)
    with np.load(io.BytesIO(data)) as z:  # (all the fields' budget: test_hostile21)
        max_bytes = sum(validate.budget(validate.entries(
            {k: (z[k].shape, z[k].dtype) for k in z.files})).values())
    assert max_bytes < validate.VALUE_BYTES * nvals * 1.01
    r = subprocess.run([sys.executable, "-c", _PEAK, str(tmp_path / "small"),
                        str(tmp_path / "big"), str(max_bytes)],
                       capture_output=True, text=True, timeout=900,
                       cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert r.returncode == 0, r.stderr[-2000:]
    assert int(r.stdout.split()[-3]) == max_bytes
    traced, rss = map(int, r.stdout.split()[-2:])
    assert traced <= max_bytes
    if not JIT_OFF:
        assert rss <= max_bytes
