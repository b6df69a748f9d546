"""Hostile inputs, round 25: the fused-kernel disk cache.

- A kernel's file in the cache directory is named by the hash of its source
  (``tg_fused_<key>.py``), and ``_load`` took a file of that name as it found it.  Numba
  loads the machine code it cached for that file by the file's stamp (mtime, size) and a
  hash of the function's bytecode, which holds none of its literals (the tape's constants,
  arena offsets and sizes).  A file planted under our key, the same source with one
  constant changed (same length), compiled once so that Numba cached it, made every later
  process run the planted arithmetic: silently wrong values and gradients (``x * 7.5``
  where the tape says ``x * 2.5``), or out-of-bounds reads given other offsets.  A file of
  our key but other contents is now written anew (its stamp changes, Numba recompiles).
- A cache directory that others can write to (not ours, or group/world-writable, as a
  shared ``NUMBA_CACHE_DIR`` may be) lets them plant the machine code itself (Numba's index
  is a pickle): such a directory is not used; the kernels compile uncached, with a warning.
"""
import os
import pathlib
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.replay import fused

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    import tapegrad as tg
    from tapegrad.replay import fused

    def f(x):
        return ((x * 2.5).sin() * x[:3].sum()).sum()

    x0 = np.linspace(0.1, 0.9, 5)
    t = tg.trace(f, x0)
    if sys.argv[1] == "plant":  # the same source, one literal changed, cached under our key
        src = fused.generate(t)
        key = fused.key_of(src)
        bad = src.replace("* 2.5", "* 7.5")
        assert len(bad) == len(src) and bad != src
        fused.key_of = lambda s: key
        fused._load(bad)
        print("planted", key)
    else:
        X = np.stack([x0, x0 + 0.1])
        v, g = t.value_and_grad_batch(X)  # (the interpreter's)
        t.compile_fused(wait=True)
        assert fused.status(t) == "fused", fused.status(t)
        vf, gf = t.value_and_grad_batch(X)
        print("SAME" if np.array_equal(v, vf) and np.array_equal(g, gf) else f"WRONG {v} {vf}")
""")


def _run(tmp_path, what):
    env = dict(os.environ, TAPEGRAD_FUSED_DIR=str(tmp_path / "cache"), PYTHONPATH=ROOT,
               TAPEGRAD_FUSED="1")
    p = subprocess.run([sys.executable, "-c", _SCRIPT, what], env=env, capture_output=True,
                       text=True, timeout=1800)
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout


@pytest.mark.skipif(not fused.enabled(), reason="the fused tier is off (NUMBA_DISABLE_JIT)")
def test_a_planted_kernel_file_of_our_key_is_written_anew(tmp_path):
    """Planted: our key's file holding ``x * 7.5`` for the tape's ``x * 2.5``, its machine
    code cached by Numba.  Another process compiling the tape ran it (values 3.276 and
    4.591 for 0.431 and 0.984); now it writes its own source there and recompiles."""
    assert "planted" in _run(tmp_path, "plant")
    assert _run(tmp_path, "victim").strip().endswith("SAME")
    (f,) = (tmp_path / "cache").glob("tg_fused_*.py")
    assert "* 7.5" not in f.read_text() and "* 2.5" in f.read_text()


@pytest.mark.skipif(not fused.enabled(), reason="the fused tier is off (NUMBA_DISABLE_JIT)")
@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX modes")
def test_a_cache_directory_others_can_write_is_not_used(tmp_path, monkeypatch):
    """A world-writable cache directory: the kernel compiles (uncached), gives the
    interpreter's bits, warns once, and writes nothing there."""
    d = tmp_path / "shared"
    d.mkdir()
    os.chmod(d, 0o777)
    fused_uncached_in(d, monkeypatch, 3.3125)


def fused_uncached_in(d, monkeypatch, scale):
    """With TAPEGRAD_FUSED_DIR ``d``, refused: a kernel (``scale``, a literal no other test
    uses: no kernel of this source compiled in this process) compiles uncached, gives the
    interpreter's bits, warns, and writes nothing under ``d``."""
    monkeypatch.setenv("TAPEGRAD_FUSED_DIR", str(d))
    monkeypatch.setattr(fused, "_SHARED_WARNED", [], raising=False)

    def f(x):
        return ((x * scale).cos() * x[1:4].sum()).sum()
    x0 = np.linspace(0.2, 1.0, 6)
    X = np.stack([x0, x0 - 0.05, x0 + 0.3])
    t = tg.trace(f, x0)
    v, g = t.value_and_grad_batch(X)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        t.compile_fused(wait=True)
    assert fused.status(t) == "fused"
    assert any("writable by others" in str(m.message) for m in w), [str(m.message) for m in w]
    vf, gf = t.value_and_grad_batch(X)
    np.testing.assert_array_equal(vf, v)
    np.testing.assert_array_equal(gf, g)
    assert not list(pathlib.Path(os.path.realpath(d)).rglob("tg_fused_*"))
