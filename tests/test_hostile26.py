"""Hostile inputs, round 26.

- The fused-kernel cache (round 25) refused a directory others could write, but only the
  directory itself was looked at.  One named inside a directory others may write to (not
  sticky), inside another user's directory, or through a link another user owns (in /tmp)
  was used: whoever controls the entry can rename the directory away after the check and
  put one of their own in its place, holding a Numba index (a pickle, run at load) under our
  kernels' keys.  ``_jit.private_dir`` now asks of every directory above it (as named and as
  resolved) what OpenSSH's StrictModes asks of ~/.ssh: ours or root's, not writable by
  group or others unless sticky; and of every link on the way: ours or root's.
- tapegrad's own kernels (``_jit.njit``, ``cache=True``) cached their Numba index (a pickle
  loaded at the first call) and machine code wherever Numba put them: under a
  ``NUMBA_CACHE_DIR`` that others may write (a shared one), another user could plant both for
  the next process.  Such a cache is now not used (the kernels compile uncached, with one
  ``CacheWarning``), as round 25 made the fused tier's.
- ``tapegrad.lstm_cell`` / ``gru_cell`` (``torch.lstm_cell``'s form: weights passed in, from a
  state dict say) checked no shapes: weights of G H - 1 rows for H = 2 (one gate column
  short), a state of another batch, a 1-D input: NumPy broadcast them, the forward gave
  other values than any LSTM, and the fused LSTM_CELL / LSTM_H / GRU_CELL rows, which index
  the gates by the state's B and H alone, read and wrote past the projections' slots (the
  adjoints of other tensors in the tape's arena).  PyTorch refuses each: its checks, words
  and order now (``toplevel._check_cell``), and the rows themselves refuse projections that
  are not (B, G H) for a state (B, H) (``ops/nn.py _cell_shapes``), whoever calls them.
- ``TAPEGRAD_FUSED_CACHE_MB`` was read with float() at import: "256MB" made ``import
  tapegrad`` fail with a ValueError naming no variable, "nan" emptied the kernel cache at
  every kernel written.  Such values are reported and the default used.
"""
import json
import os
import pathlib
import subprocess
import sys
import warnings

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import _jit
from tapegrad.ops import nn as N
from tapegrad.replay import fused
from test_hostile25 import fused_uncached_in  # (the refused cache directory's checks)

_ROOT = hasattr(os, "getuid") and os.getuid() == 0
_OTHER = 65534  # (nobody)


def _open_parent(base):
    p = base / "shared"
    p.mkdir()
    os.chmod(p, 0o777)  # others may rename its entries: no sticky bit
    return p / "cache"


def _foreign_link(base):
    real = base / "mine"
    real.mkdir(mode=0o700)
    p = base / "sticky"
    p.mkdir()
    os.chmod(p, 0o1777)
    d = p / "link"
    os.symlink(real, d)
    os.lchown(d, _OTHER, _OTHER)  # the link's owner may re-point it (delete, make anew)
    return d


def _foreign_parent(base):
    p = base / "theirs"
    p.mkdir()
    os.chown(p, _OTHER, _OTHER)
    d = p / "cache"
    d.mkdir(mode=0o700)  # ours, private, in a directory another user owns
    return d


@pytest.mark.skipif(not fused.enabled(), reason="the fused tier is off (NUMBA_DISABLE_JIT)")
@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX modes")
@pytest.mark.parametrize("make, scale", [(_open_parent, 1.8125), (_foreign_link, 1.6875),
                                         (_foreign_parent, 1.5625)])
def test_a_cache_directory_others_can_swap_is_not_used(tmp_path, monkeypatch, make, scale):
    """Each way: the kernel compiles uncached, gives the interpreter's bits, warns, and
    writes nothing there (on main: 3 files written, no warning)."""
    if make is not _open_parent and not _ROOT:
        pytest.skip("making a file another user owns needs root")
    d = make(tmp_path)
    fused_uncached_in(d, monkeypatch, scale)


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX modes")
def test_private_directories_and_sticky_ancestors_are_trusted(tmp_path):
    """A directory of ours (0700) under /tmp-like sticky world-writable parents is private,
    and so is one not made yet under it; a link of ours to it too."""
    s = tmp_path / "sticky"
    s.mkdir()
    os.chmod(s, 0o1777)
    d = s / "mine"
    d.mkdir(mode=0o700)
    assert _jit.private_dir(d)
    assert _jit.private_dir(d / "not_yet" / "made")
    os.symlink(d, s / "link")
    assert _jit.private_dir(s / "link")
    os.chmod(d, 0o770)  # (the directory itself: writable by its group)
    assert not _jit.private_dir(d)
    assert not _jit.private_dir(d / "below")


_KERNEL = "def k(x):\n    return x * 2.0 + 1.0\n"


@pytest.mark.skipif(_jit.DISABLED, reason="NUMBA_DISABLE_JIT: nothing is compiled or cached")
@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX modes")
def test_tapegrads_own_kernels_do_not_use_a_numba_cache_others_can_write(tmp_path,
                                                                         monkeypatch):
    """NUMBA_CACHE_DIR naming a directory others may write (a shared one): tapegrad's own
    kernels (``_jit.njit``) cached their index (a pickle Numba loads) and machine code
    there, so another user could plant both for the next process (on main: 3 files
    written, no warning).  Now they compile uncached, with one CacheWarning, and give the
    same result; a private NUMBA_CACHE_DIR is still used."""
    numba = _jit.load_numba()
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    mod = tmp_path / "tg_h26_kernel.py"
    mod.write_text(_KERNEL)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(shared))
    monkeypatch.setattr(_jit, "_WARNED", set())
    import tg_h26_kernel
    k = _jit.njit(tg_h26_kernel.k)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert k(3.0) == 7.0
    assert any(issubclass(m.category, _jit.CacheWarning) and "writable by others" in
               str(m.message) for m in w), [str(m.message) for m in w]
    assert not [p for p in shared.rglob("*") if p.is_file()]
    own = tmp_path / "own"
    own.mkdir(mode=0o700)
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(own))
    k2 = _jit.njit(tg_h26_kernel.k)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert k2(3.0) == 7.0
    assert not [m for m in w if issubclass(m.category, _jit.CacheWarning)]
    assert [p for p in own.rglob("*.nbi")]


def _cell_cases():
    B, H, I = 3, 2, 3
    sh = {"x": (B, I), "h": (B, H), "c": (B, H)}
    w = {"lstm": (4 * H, I, 4 * H, H), "gru": (3 * H, I, 3 * H, H), "rnn_tanh": (H, I, H, H)}
    for cell, (ri, ci, rh, chh) in w.items():
        yield cell, "weight_ih one row short", sh, (ri - 1, ci, rh, chh)
        yield cell, "both weights one row short", sh, (ri - 1, ci, rh - 1, chh)
        yield cell, "weight_hh one row short", sh, (ri, ci, rh - 1, chh)
        yield cell, "weight_hh one column more", sh, (ri, ci, rh, chh + 1)
        yield cell, "input one column more", dict(sh, x=(B, I + 1)), (ri, ci, rh, chh)
        yield cell, "state of one row", dict(sh, h=(1, H), c=(1, H)), (ri, ci, rh, chh)
        yield cell, "state one column more", dict(sh, h=(B, H + 1), c=(B, H + 1)), \
            (ri, ci, rh, chh)
        yield cell, "1-D input", dict(sh, x=(I,)), (ri, ci, rh, chh)
        yield cell, "input one column more, weight_ih one row short", dict(sh, x=(B, I + 1)), \
            (ri - 1, ci, rh, chh)
        yield cell, "weight_ih one row short, state of one row", dict(sh, h=(1, H), c=(1, H)), \
            (ri - 1, ci, rh, chh)
        yield cell, "input one column more, state of one row", \
            dict(sh, x=(B, I + 1), h=(1, H), c=(1, H)), (ri, ci, rh, chh)


@pytest.mark.parametrize("cell, what, shapes, w", list(_cell_cases()),
                         ids=[f"{c}-{w}" for c, w, *_ in _cell_cases()])
def test_functional_cells_refuse_shapes_as_pytorch_does(cell, what, shapes, w):
    """Each shape PyTorch's functional cell refuses is refused with its exception type and
    words (on main each ran, forward and backward, giving other values)."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(7)
    arrays = {k: rng.standard_normal(s) for k, s in shapes.items()}
    wi, wh = rng.standard_normal(w[:2]), rng.standard_normal(w[2:])

    def call(lib, tensor):
        hx = (tensor(arrays["h"]), tensor(arrays["c"])) if cell == "lstm" else \
            tensor(arrays["h"])
        return getattr(lib, f"{cell}_cell")(tensor(arrays["x"]), hx, tensor(wi, True),
                                            tensor(wh, True))
    with pytest.raises(Exception) as want:
        call(torch, lambda a, g=False: torch.tensor(a, requires_grad=g))
    with pytest.raises(Exception) as got:
        call(tg, lambda a, g=False: tg.tensor(a, requires_grad=g))
    assert type(got.value) is type(want.value)
    assert str(got.value) == str(want.value)


def test_functional_cells_of_fitting_shapes_match_pytorch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(8)
    B, H, I = 3, 2, 4
    x, h, c = rng.standard_normal((B, I)), rng.standard_normal((B, H)), \
        rng.standard_normal((B, H))
    for cell, G in (("lstm", 4), ("gru", 3)):
        wi, wh = rng.standard_normal((G * H, I)), rng.standard_normal((G * H, H))
        outs, grads = [], []
        for lib, tensor in ((torch, torch.tensor), (tg, tg.tensor)):
            W = [tensor(wi, requires_grad=True), tensor(wh, requires_grad=True)]
            hx = (tensor(h), tensor(c)) if cell == "lstm" else tensor(h)
            y = getattr(lib, f"{cell}_cell")(tensor(x), hx, *W)
            y = y[0] * y[1] if cell == "lstm" else y
            y.sum().backward()
            outs.append(np.asarray(y.detach().numpy()))
            grads.append([np.asarray(v.grad.numpy()) for v in W])
        np.testing.assert_allclose(outs[1], outs[0], rtol=1e-12, atol=1e-14)
        for g1, g0 in zip(grads[1], grads[0]):
            np.testing.assert_allclose(g1, g0, rtol=1e-10, atol=1e-13)


def test_cell_rows_refuse_projections_that_do_not_fit_the_state():
    """The rows index the gates by the state's B and H: projections of another shape are
    refused whoever records them (an nn.LSTM given a weight one row short, here)."""
    x = tg.tensor(np.ones((3, 7)), requires_grad=True)
    s = tg.tensor(np.ones((3, 2)))
    with pytest.raises(RuntimeError, match=r"lstm_cell: the gates' projections must both be "
                                           r"\(B, 4 \* H\) for a state \(B, H\) = \(3, 2\)"):
        N.lstm_cell(x, x * 0.5, s)
    with pytest.raises(RuntimeError, match="gru_cell"):
        N.gru_cell(x[:, :5], x[:, :5], s)
    with pytest.raises(RuntimeError, match="lstm_cell"):
        v = tg.tensor(np.ones(8), requires_grad=True)  # (1-D: broadcast against (1, 2))
        N.lstm_cell(v, v, s[:1])
    lstm = tg.nn.LSTM(3, 2)
    lstm.weight_hh_l0 = tg.nn.Parameter(tg.randn(7, 2, dtype=lstm.weight_ih_l0.dtype))
    with pytest.raises(RuntimeError):
        lstm(tg.randn(4, 1, 3, dtype=lstm.weight_ih_l0.dtype))


@pytest.mark.slow
def test_edits_of_recurrent_rows_load_and_replay_in_bounds():
    """tests/fuzz_trace_combos.py over traces of the fused recurrent rows (new since round
    25; the states read through meta, made by rows the plan folds or aliases), without the
    JIT (an index past the arena raises), with its finite-difference and paths oracles
    (an index past a slot but inside the arena gives values or gradients no other path
    gives): every edit that passes the field checks loads and replays consistently, or is
    refused."""
    script = pathlib.Path(__file__).with_name("fuzz_trace_combos.py")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.run([sys.executable, str(script), "--seed", "5", "--cases", "60", "--fd",
                           "--paths", "--only", "_rnn", "_rnnfold"],
                          capture_output=True, text=True, timeout=1800, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    stats = json.loads(proc.stdout.strip().splitlines()[-1])
    assert stats["loaded"] > 0 and stats["failures"] == [], stats["failures"][:5]
    assert not stats.get("fd") and not stats.get("paths"), (stats.get("fd"), stats.get("paths"))


@pytest.mark.parametrize("value, mb, warned", [
    ("256MB", 256.0, True), ("nan", 256.0, True), ("-1", 256.0, True), ("", 256.0, False),
    ("64", 64.0, False), ("0", 0.0, False), ("1e3", 1000.0, False)])
def test_a_cache_size_that_is_no_number_is_reported_and_import_works(value, mb, warned):
    code = ("import warnings; warnings.simplefilter('always'); import tapegrad; "
            "from tapegrad.replay import fused; print(fused.CACHE_MB)")
    env = dict(os.environ, TAPEGRAD_FUSED_CACHE_MB=value,
               PYTHONPATH=str(pathlib.Path(__file__).resolve().parents[1]))
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr[-1500:]
    assert float(p.stdout.split()[-1]) == mb
    assert ("TAPEGRAD_FUSED_CACHE_MB" in p.stderr) == warned, p.stderr[-500:]
