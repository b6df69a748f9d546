"""The one Numba wrapper: project defaults, env switches read once, cache freshness.

Numba keys a cached function on its own source file only, and freezes the functions
it calls.  The reverse sweep lives in ``_sweep.py`` but inlines rules written in
``ops/*.py``; editing a rule would leave a warm cache running the old rule.  So the
sweep's cache is stamped with a hash of every rule file and emptied on a mismatch
(pinned by ``tests/test_jit.py::test_edited_rule_recompiles``).
"""
import hashlib
import os
import pathlib

import numba

CACHE = os.environ.get("TAPEGRAD_CACHE", "1") != "0"
_PKG = pathlib.Path(__file__).resolve().parent


# error_model="numpy": 1/0 gives inf and 0/0 nan, as in NumPy and PyTorch (Numba's default
# "python" model raises ZeroDivisionError, and JIT and NUMBA_DISABLE_JIT=1 would disagree)
_DEFAULTS = {"nogil": True, "fastmath": False, "error_model": "numpy"}


def njit(fn=None, **options):
    """``numba.njit`` with the project defaults: cached, nogil, no fastmath, IEEE division."""
    opts = {"cache": CACHE, **_DEFAULTS, **options}
    if fn is None:
        return numba.njit(**opts)
    return numba.njit(**opts)(fn)


def rule(fn):
    """A rule helper: compiled into the interpreters that call it, never cached alone."""
    return numba.njit(**_DEFAULTS)(fn)


def rules_digest():
    """SHA-256 over the sources that the compiled interpreters inline (and this file, whose
    options they are compiled with)."""
    h = hashlib.sha256()
    for path in sorted([_PKG / "_jit.py", _PKG / "_sweep.py", *(_PKG / "ops").glob("*.py")]):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def ensure_fresh(*dispatchers):
    """Empty the cache index of each dispatcher whose inlined rules changed since it was cached."""
    if not CACHE or os.environ.get("NUMBA_DISABLE_JIT", "0") == "1":
        return
    digest = rules_digest()
    for d in dispatchers:
        cache = getattr(d, "_cache", None)
        path = getattr(cache, "_cache_path", None)
        if path is None:
            continue
        stamp = pathlib.Path(path) / (cache._cache_file._index_name + ".rules")
        try:
            if stamp.read_text() == digest:
                continue
        except OSError:
            pass
        cache.flush()  # an empty index: the next call compiles afresh
        try:
            stamp.write_text(digest)
        except OSError:
            pass  # an unwritable cache dir: Numba will not cache there either
