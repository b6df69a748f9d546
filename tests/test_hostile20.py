"""Hostile inputs, round 20.  Holes found (each failed on main):

- a trace's guard names: one name of 2.5 * 10**8 characters (a 1 MB deflated file, within
  the default max_bytes: the header's estimate counted the member's 4 bytes a character
  only) took 2.4 GB and 21 s to load.  A name has at most ``validate.GUARD_CHARS``
  characters (a path and a line; ``Traced.save`` shortens a longer one), refused from the
  member's header before it is inflated, and each name counts its member's bytes and its
  str's;
- every member of a saved trace was inflated into a bytes object, copied into a bytearray,
  and copied again by the checksum (``tobytes``): loading took three times the member's
  size, beyond ``max_bytes``.  Members are read in chunks into their arrays, the checksum
  reads them in place.
"""
import io
import tracemalloc

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.replay import validate


def _arrays(f, *x):
    buf = io.BytesIO()
    tg.trace(f, *x).save(buf)
    buf.seek(0)
    with np.load(buf) as z:
        return {k: z[k].copy() for k in z.files}


def _saved(a, compressed=True):
    a = dict(a, digest=validate.digest(a))  # (a checksum anyone can recompute)
    buf = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buf, **a)
    return buf.getvalue()


def _branch(x):
    return x.sum() if x[0] > 0 else -x.sum()


X2 = np.array([1.0, -2.0])


# ---- guard names ---------------------------------------------------------------------------
def test_a_guard_name_longer_than_any_path_is_refused_before_it_is_inflated():
    """On main a name of 10**7 characters (40 MB, a 40 kB file) loaded; 2.5 * 10**8 (1 GB)
    loaded too, in 2.4 GB."""
    a = _arrays(_branch, X2)
    a["guards"] = np.array(["a" * 10**7], dtype="<U10000000")
    data = _saved(a)
    assert len(data) < 100_000
    with pytest.raises(ValueError, match=r"'guards' holds names of up to 10000000 characters; "
                                         r"a guard's name has at most 8192"):
        tg.load(io.BytesIO(data))


def test_a_long_guard_name_is_shortened_when_saved_and_loads_back():
    """A guard's name is "<how> at <file>:<line>": code compiled under a long file name
    makes a long one, which save keeps the end of (a loaded trace can then be loaded)."""
    name = "/" + "d" * 20_000 + "/f.py"
    env = {"tg": tg}
    exec(compile("def f(x):\n    return x.sum() if x[0] > 0 else -x.sum()\n", name, "exec"), env)
    t = tg.trace(env["f"], X2)
    assert len(t.guards[0]) > validate.GUARD_CHARS
    buf = io.BytesIO()
    t.save(buf)
    buf.seek(0)
    back = tg.load(buf)
    (g,) = back.guards
    assert len(g) == validate.GUARD_CHARS and g.startswith("...") and g.endswith("/f.py:2")
    assert back.value(np.array([3.0, 1.0])) == 4.0
    with pytest.raises(tg.replay.DivergenceError, match=r"/f\.py:2"):
        back.value(np.array([-3.0, 1.0]))
    import pickle
    assert len(pickle.loads(pickle.dumps(t)).guards[0]) == validate.GUARD_CHARS


# ---- the memory a load takes ---------------------------------------------------------------
def _guards(n, c, char="a"):
    a = _arrays(_branch, X2)
    a["guards"] = np.full(n, char * c, dtype=f"<U{c}")
    return a


def _consts(n):
    a = _arrays(_branch, X2)
    a["consts"] = np.concatenate([a["consts"], np.zeros(n)])  # (no row reads them)
    return a


@pytest.mark.parametrize("make", [lambda: _guards(900, 8000), lambda: _guards(300, 8000, "\U0001F600"),
                                  lambda: _guards(40_000, 100), lambda: _consts(3_500_000)],
                         ids=["ascii names", "astral names", "many names", "consts"])
def test_a_file_loads_within_max_bytes_or_is_refused(make):
    """tracemalloc's peak while loading (NumPy's buffers included): on main a member took
    three times its size (inflated, copied, copied again by the checksum), the guard names
    their member's size again as strings."""
    bound = 40 << 20
    data = _saved(make())
    assert len(data) < 1 << 20
    tracemalloc.start()
    try:
        try:
            tg.load(io.BytesIO(data), max_bytes=bound)
        except ValueError as e:
            assert "max_bytes" in str(e)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= bound, f"{peak / 2**20:.1f} MB"
