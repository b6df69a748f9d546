"""A damaged or unusable Numba cache never stops tapegrad (tapegrad/_jit.py): a truncated,
empty or garbage index or data file is reported once (a CacheWarning) and replaced by a
fresh compile; a garbage ``.rules`` stamp is a stale stamp; with no writable cache location
at all, the kernels compile uncached with a warning, and ``import tapegrad`` works.

Each scenario runs in a subprocess on its own copy of a cache.  The warm cache is copied
from this test process's own (warmed here first), so the damaged scenarios recompile only
``_free_swept``, the cheapest kernel (~2 s), never the sweep (30-70 s).
"""
import importlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import textwrap
import types

import numba
import pytest
from conftest import fresh_env
from numba.core.caching import UserProvidedCacheLocator

import tapegrad as tg
from tapegrad import _jit, _kernels, _point, _sweep

ROOT = pathlib.Path(tg.__file__).resolve().parent.parent
JIT = not numba.config.DISABLE_JIT and _jit.CACHE

BACKWARD = """
import json, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import tapegrad as tg
    x = tg.tensor([1.0, -2.0, 3.0], requires_grad=True)
    (x * x.sin()).sum().backward()
print(json.dumps({"file": tg.__file__, "grad": x.grad.tolist(),
                  "warnings": [f"{w.category.__name__}: {w.message}" for w in caught]}))
"""


def run(code, env_extra, cwd):
    # the in-process cache is under test: no background compile, no loading thread
    env = fresh_env(PYTHONPATH=str(ROOT), TAPEGRAD_BACKGROUND="0", **env_extra)
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert pathlib.Path(res["file"]).resolve().parent == ROOT / "tapegrad"
    return res


def cache_warnings(res):
    return [w for w in res["warnings"] if w.startswith("CacheWarning")]


@pytest.fixture(scope="module")
def warm(tmp_path_factory):
    """A NUMBA_CACHE_DIR holding this process's (warm) cache of the eager kernels, and the
    directory inside it where the index files of ``_sweep.py`` live."""
    if not JIT:
        pytest.skip("Numba caching is off (NUMBA_DISABLE_JIT=1 or TAPEGRAD_CACHE=0)")
    tg.warmup(float32=False, replay=False)  # loaded or compiled: now in our cache
    src = pathlib.Path(_sweep._reverse_sweep._cache._cache_path)
    root = tmp_path_factory.mktemp("warm") / "nb"
    sub = root / UserProvidedCacheLocator.get_suitable_cache_subpath(_sweep.__file__)
    shutil.copytree(src, sub, ignore=shutil.ignore_patterns("*.py", "*.pyc"))
    return root, sub.relative_to(root)


def damaged_copy(warm, tmp_path, kernel, suffix, damage):
    root, sub = warm
    cache = tmp_path / "nb"
    shutil.copytree(root, cache)
    line = getattr(_sweep, kernel).py_func.__code__.co_firstlineno  # (older files may stay)
    files = sorted((cache / sub).glob(f"_sweep.{kernel}-{line}.*{suffix}"))
    assert files, f"no {kernel} {suffix} file in the warm cache"
    damage(files[0])
    return cache, files[0]


DAMAGE = {
    "empty_index": (".nbi", lambda p: p.write_bytes(b"")),
    "truncated_index": (".nbi", lambda p: p.write_bytes(p.read_bytes()[:40])),
    "empty_data": (".nbc", lambda p: p.write_bytes(b"")),
    "truncated_data": (".nbc", lambda p: p.write_bytes(p.read_bytes()[:100])),
    "garbage_data": (".nbc", lambda p: p.write_bytes(os.urandom(4096))),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(DAMAGE))
def test_damaged_cache_file_warns_once_and_is_replaced(warm, tmp_path, case):
    """The first run warns once, naming the kernel, and gets the right gradient; it has
    rewritten the file, so a second run loads it silently."""
    suffix, damage = DAMAGE[case]
    cache, path = damaged_copy(warm, tmp_path, "_free_swept", suffix, damage)
    env = {"NUMBA_CACHE_DIR": str(cache)}
    first = run(BACKWARD, env, tmp_path)
    want = [v.sin() + v * v.cos() for v in tg.tensor([1.0, -2.0, 3.0]).unbind()]
    assert first["grad"] == pytest.approx([w.item() for w in want], rel=1e-14)
    found = cache_warnings(first)
    assert len(found) == 1, first["warnings"]
    assert "_free_swept" in found[0] and "damaged" in found[0] and "replaced" in found[0]
    assert path.stat().st_size > 100  # rewritten by the fresh compile
    second = run(BACKWARD, env, tmp_path)
    assert cache_warnings(second) == [] and second["grad"] == first["grad"]


STAMP = """
import json, pathlib, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import tapegrad
    from tapegrad import _jit, _kernels, _point, _sweep
c = _sweep._reverse_sweep._cache
stamp = pathlib.Path(c._cache_path) / (c._cache_file._index_name + ".rules")
print(json.dumps({"file": tapegrad.__file__, "warnings": [str(w.message) for w in caught],
                  "fresh": stamp.read_bytes() == _jit.compiled_digest(
                      *_sweep.KERNELS).encode(), "kernels": len(_sweep.KERNELS)}))
"""


@pytest.mark.skipif(not JIT, reason="Numba caching is off")
@pytest.mark.parametrize("garbage", [b"\xff\xfe\x00\x80garbage" * 8, b""],
                         ids=["non_utf8", "empty"])
def test_garbage_rules_stamp_is_a_stale_stamp(tmp_path, garbage):
    """Non-UTF-8 bytes (or nothing) in a ``.rules`` stamp: import works and rewrites the
    stamp (nothing compiles: the import alone is checked)."""
    cache = tmp_path / "nb"
    first = run(STAMP, {"NUMBA_CACHE_DIR": str(cache)}, tmp_path)
    assert first["fresh"]
    stamps = list(cache.rglob("*.nbi.rules"))
    assert len(stamps) == first["kernels"]
    for s in stamps:
        s.write_bytes(garbage)
    again = run(STAMP, {"NUMBA_CACHE_DIR": str(cache)}, tmp_path)
    assert again["fresh"] and again["warnings"] == []


NOWHERE = """
import json, sys, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import tapegrad
    from tapegrad import _sweep
    numba_at_import = "numba" in sys.modules
    caches = [type(k._cache).__name__ for k in _sweep.KERNELS]  # (the dispatchers made)
print(json.dumps({"file": tapegrad.__file__, "warnings": [
    f"{w.category.__name__}: {w.message}" for w in caught],
    "caches": caches, "numba_at_import": numba_at_import}))
"""


@pytest.mark.skipif(not JIT, reason="Numba caching is off")
def test_no_writable_cache_location_imports_uncached_with_one_warning(tmp_path):
    """Every place Numba could cache in is unusable (works as root too: the paths are
    under a regular file, and the package's __pycache__ is a file): import works (it
    imports no Numba), making the dispatchers warns once, and the kernels are uncached
    (they compile on first use; not run here, a cold compile of the sweep takes minutes)."""
    site = tmp_path / "site"
    shutil.copytree(ROOT / "tapegrad", site / "tapegrad",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (site / "tapegrad" / "__pycache__").write_text("not a directory")
    blocker = tmp_path / "file"
    blocker.write_text("")
    env = {"NUMBA_CACHE_DIR": str(blocker / "nb"), "HOME": str(blocker),
           "XDG_CACHE_HOME": str(blocker / "xdg"), "PYTHONDONTWRITEBYTECODE": "1"}
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(NOWHERE)], cwd=tmp_path,
                         env=fresh_env(PYTHONPATH=str(site), **env),
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert pathlib.Path(res["file"]).resolve().parent == site / "tapegrad"
    found = cache_warnings(res)
    assert len(found) == 1 and "no writable cache location" in found[0], res["warnings"]
    assert "NUMBA_CACHE_DIR" in found[0]
    assert res["caches"] and set(res["caches"]) == {"NullCache"}
    assert not res["numba_at_import"]


@pytest.mark.skipif(_jit.DISABLED, reason="rules are plain functions without the JIT")
def test_a_rules_own_options_are_in_the_freshness_digest(monkeypatch):
    """``rule(inline=True)`` changes what Numba compiles without changing any code: a warm
    cache stamped before such an edit must count as stale (the digest hashes the option)."""
    from tapegrad.ops import nn as N
    before = _jit.compiled_digest(_point._point_forward)
    assert N.softmax_point_fwd.options.get("forceinline") is True
    monkeypatch.setattr(N.softmax_point_fwd, "options",
                        {**N.softmax_point_fwd.options, "forceinline": False})
    assert _jit.compiled_digest(_point._point_forward) != before
    monkeypatch.undo()
    assert _jit.compiled_digest(_point._point_forward) == before
    twin = _point.PE.add_fwd  # (an Inlined twin: the rule's code, its own options)
    monkeypatch.setattr(twin, "options", {**twin.options, "forceinline": False})
    assert _jit.compiled_digest(_point._point_forward) != before


@pytest.mark.skipif(_jit.DISABLED, reason="kernels are plain functions without the JIT")
def test_one_point_kernel_is_stamped_apart_and_follows_what_it_calls(monkeypatch):
    """_point.py's kernel is cached and stamped apart from _sweep.py's: an edited one-point
    interpreter changes its digest alone (it alone recompiles), while an edited general
    interpreter it runs at a RUN, or a constant of _sweep.py it reads, changes its digest
    too (its cache holds their code, linked in)."""
    assert _point._replay_point.together == _point.KERNELS
    assert all(k.together == _sweep.KERNELS for k in _sweep.KERNELS)
    assert not set(_point.KERNELS) & set(_sweep.KERNELS)

    def digests():
        return _jit.compiled_digest(*_point.KERNELS), _jit.compiled_digest(*_sweep.KERNELS)
    point, sweep = digests()
    edited = _point._point_reverse.py_func
    monkeypatch.setattr(_point._point_reverse, "py_func",
                        types.FunctionType(edited.__code__.replace(co_consts=(
                            *edited.__code__.co_consts, "edited")), edited.__globals__))
    edited_point, edited_sweep = digests()
    assert edited_point != point and edited_sweep == sweep
    monkeypatch.undo()
    assert digests() == (point, sweep)
    edited = _sweep._reverse_sweep.py_func
    monkeypatch.setattr(_sweep._reverse_sweep, "py_func",
                        types.FunctionType(edited.__code__.replace(co_consts=(
                            *edited.__code__.co_consts, "edited")), edited.__globals__))
    edited_point, edited_sweep = digests()
    assert edited_point != point and edited_sweep != sweep
    monkeypatch.undo()
    monkeypatch.setattr(_sweep, "LAZY_VALUES", _sweep.LAZY_VALUES + 1)
    assert digests()[0] != point


def test_every_cached_kernel_is_warmed_and_bound():
    """``tapegrad warmup`` (tapegrad/warmup.py) builds, and tapegrad/_kernels.py binds, each
    cached kernel of both modules: a kernel missing there would compile in the user's path."""
    warmup = importlib.import_module("tapegrad.warmup")  # (tapegrad.warmup: the function)
    names = {k.__name__ for k in (*_sweep.KERNELS, *_point.KERNELS)}
    warmed = {d.__name__ for calls in warmup._calls().values() for _, d, _ in calls}
    assert names <= warmed
    assert names == {n.removesuffix("32") for n in _kernels.KERNELS}
