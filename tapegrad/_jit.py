"""The one Numba wrapper: project defaults, env switches read once, cache freshness.

Numba keys a cached function on its own source file only, and freezes the functions
it calls and the globals it reads.  The reverse sweep lives in ``_sweep.py`` but inlines
rules written in ``ops/*.py``; editing a rule would leave a warm cache running the old
rule.  So the sweep's cache is stamped with a digest of exactly what it compiles in: the
code of every function it reaches through its globals (rules, their helpers) and the
values of the constants they read (opcodes, flags), and emptied on a mismatch.  Editing a
message or a Python-side check in ``ops/`` changes no compiled code and compiles nothing;
editing a rule always recompiles (pinned by ``tests/test_jit.py``:
``test_edited_rule_recompiles`` and ``test_edited_message_compiles_nothing``).
"""
import hashlib
import os
import pathlib
import types

import numba

CACHE = os.environ.get("TAPEGRAD_CACHE", "1") != "0"
_PKG = pathlib.Path(__file__).resolve().parent
_NAME = __name__.partition(".")[0]  # the package: only its own code is hashed


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


def _py(fn):
    """The Python function behind a Numba dispatcher (itself under NUMBA_DISABLE_JIT)."""
    return getattr(fn, "py_func", fn)


def _hash_code(h, code):
    """What of a code object decides what Numba compiles: bytecode, constants (nested code
    objects recursively), names; not line numbers, so moving a rule compiles nothing."""
    h.update(code.co_code)
    h.update(repr(code.co_names).encode())
    h.update(repr(code.co_varnames).encode())
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            _hash_code(h, c)
        else:
            h.update(repr(c).encode())


def _globals_read(code):
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _globals_read(c)
    return names


def compiled_digest(*dispatchers):
    """SHA-256 of everything the given kernels compile in: their code, the code of every
    function they reach through globals (also as ``module.attr``), the values of the
    number, string and tuple constants they read, and this module's compile options."""
    h = hashlib.sha256(repr(sorted(_DEFAULTS.items())).encode())
    todo = [_py(d) for d in dispatchers]
    seen = set()
    while todo:
        fn = todo.pop()
        if id(fn) in seen or not fn.__module__.startswith(_NAME):
            continue
        seen.add(id(fn))
        h.update(f"{fn.__module__}.{fn.__qualname__}".encode())
        _hash_code(h, fn.__code__)
        names = _globals_read(fn.__code__)
        for name in sorted(names):
            v = fn.__globals__.get(name)
            values = [v]
            if isinstance(v, types.ModuleType):  # E.TANH, E.tanh_rev: the attributes read
                ours = v.__name__.startswith(_NAME)
                values = [getattr(v, a, None) for a in sorted(names)] if ours else []
            for x in values:
                if isinstance(x, (bool, int, float, str, tuple)):
                    h.update(f"{name}={x!r};".encode())
                elif callable(x) and isinstance(_py(x), types.FunctionType):
                    todo.append(_py(x))
    return h.hexdigest()


def ensure_fresh(*dispatchers):
    """Empty the cache index of each dispatcher whose inlined rules changed since it was cached."""
    if not CACHE or os.environ.get("NUMBA_DISABLE_JIT", "0") == "1":
        return
    digest = compiled_digest(*dispatchers)
    for d in dispatchers:
        cache = getattr(d, "_cache", None)
        path = getattr(cache, "_cache_path", None)
        if path is None:
            continue
        stamp = pathlib.Path(path) / (cache._cache_file._index_name + ".rules")
        try:
            if stamp.read_text() == digest:
                continue
        except (OSError, ValueError):  # missing, unreadable or not text: stale
            pass
        cache.flush()  # an empty index: the next call compiles afresh
        try:
            stamp.write_text(digest)
        except OSError:
            pass  # an unwritable cache dir: Numba will not cache there either
