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

A cache must never stop tapegrad working (``tests/test_cache_faults.py``): a damaged index
or data file (truncated, empty, not a pickle) is reported once as a ``CacheWarning``, the
index is emptied and the kernel compiles afresh, replacing the file; an unreadable stamp is
a stale one; and where Numba finds no writable cache location at all, the kernels compile
without caching, with a warning, instead of failing.

Numba itself is imported at the first compiled use, not by ``import tapegrad`` (issue 23:
its import is 0.25-0.35 s, and making the ~180 dispatchers another ~0.1 s).  ``njit`` and
``rule`` return a ``Jitted``: the Python function and its options.  Its Numba dispatcher is
made when something first needs it: a call, a look at its overloads or cache, or a kernel
being compiled that calls it (Numba types a ``Jitted`` as its dispatcher, through
``_numba_type_``).  The cached kernels are made together, and their cache checked for
freshness first (``stamp_together``).  Until then ``py_func`` is all there is, which is all
that the interpreted sweep of ``_kernels.py`` and the freshness digest read.
"""
import functools
import hashlib
import math
import os
import pathlib
import stat
import threading
import types
import warnings

import numpy as np

from . import _ieee_math

CACHE = os.environ.get("TAPEGRAD_CACHE", "1") != "0"
# read as Numba reads it (an int, 0 by default), without importing Numba: under
# NUMBA_DISABLE_JIT=1 the kernels are their Python functions and Numba is never imported
DISABLED = os.environ.get("NUMBA_DISABLE_JIT", "0").strip() not in ("", "0")
_PKG = pathlib.Path(__file__).resolve().parent
_NAME = __name__.partition(".")[0]  # the package: only its own code is hashed


# error_model="numpy": 1/0 gives inf and 0/0 nan, as in NumPy and PyTorch (Numba's default
# "python" model raises ZeroDivisionError, and JIT and NUMBA_DISABLE_JIT=1 would disagree)
_DEFAULTS = {"nogil": True, "fastmath": False, "error_model": "numpy"}


# the code of every function given to njit or rule: compiled in use, so no signal lands in
# it (tests/interrupt_inject.py injects none there, under NUMBA_DISABLE_JIT=1 too)
KERNEL_CODE = set()


class CacheWarning(RuntimeWarning):
    """Numba's on-disk cache could not be used as it is (damaged, or nowhere to write)."""


_WARNED = set()


def _warn_once(key, message):
    if key not in _WARNED:
        _WARNED.add(key)
        warnings.warn(message, CacheWarning, stacklevel=3)


ON_NUMBA = []  # fn(numba) for each, once Numba is loaded: tapegrad/_libm.py's symbols,
#                  bound before any kernel that calls them is linked from the cache


def load_numba():
    # Numba costs 0.25-0.35 s to import: only the first compiled use pays it (issue 23)
    import numba
    for fn in ON_NUMBA:
        fn(numba)
    return numba


class Jitted:
    """A Numba kernel or rule whose dispatcher is made on first use (see the module
    docstring); it stands for the dispatcher everywhere: calls, attributes (``overloads``,
    ``_cache``, ``compile``, ...) and inside other kernels."""

    __slots__ = ("py_func", "options", "together", "_d")

    def __init__(self, fn, options):
        self.py_func = fn
        self.options = options
        self.together = (self,)  # the kernels made (and checked for freshness) with it
        self._d = None

    @property
    def ready(self):
        """Whether the dispatcher exists (Numba imported, the cache checked)."""
        return self._d is not None

    @property
    def dispatcher(self):
        d = self._d
        return d if d is not None else _make(self)

    @property
    def __name__(self):  # the rule's own name (dispatch tables and tests read it, no Numba)
        return self.py_func.__name__

    @property
    def _numba_type_(self):  # a kernel that calls this one types the call as Numba's own
        return self.dispatcher._numba_type_

    def __getattr__(self, name):  # (only names that are not Jitted's own come here)
        if name in Jitted.__slots__ or name.startswith("__"):
            # a slot not set yet (a copy being made), or a probe (copy, pickle, inspect,
            # doctest): no reason to import Numba
            raise AttributeError(name)
        return getattr(self.dispatcher, name)

    def __call__(self, *args):
        return self.dispatcher(*args)

    def __repr__(self):
        state = "made" if self._d is not None else "not made yet"
        return f"<tapegrad kernel {self.py_func.__qualname__} ({state})>"


def private_dir(p):
    """Whether only this user (and root) can change what directory ``p`` holds: ``p``
    itself ours or root's and writable by neither group nor others, and every directory
    above it, as named and as resolved, ours or root's and not writable by group or others
    unless sticky (as /tmp), every symbolic link on the way ours or root's.  Whoever can
    rename an entry of a directory above it (or re-point a link to it) can swap in a
    directory of their own after the check, holding a Numba index (a pickle: code run at
    load) for our kernels' keys; OpenSSH's StrictModes asks the same of ~/.ssh.  A
    directory that does not exist yet is judged by what stands above it."""
    if not hasattr(os, "getuid"):  # (Windows: ACLs, not modes; the user's profile)
        return True
    uid = os.getuid()
    try:
        st = os.stat(p)
        if st.st_uid not in (uid, 0) or st.st_mode & 0o022:
            return False
    except FileNotFoundError:
        pass
    except OSError:
        return False
    for q in {pathlib.Path(os.path.abspath(p)), pathlib.Path(os.path.realpath(p))}:
        for a in (q, *q.parents):
            try:
                st = os.lstat(a)
            except FileNotFoundError:
                continue
            except OSError:
                return False
            if st.st_uid not in (uid, 0):
                return False
            if not stat.S_ISLNK(st.st_mode) and a != q and st.st_mode & 0o022 and \
                    not st.st_mode & stat.S_ISVTX:
                return False
    return True


_LOCK = threading.Lock()  # one thread makes the dispatchers; the others wait for them


def _make(k):
    """Make ``k``'s dispatcher and those of the kernels stamped together with it, checking
    their cache's freshness before any of them can load from it; thread-safe."""
    with _LOCK:
        if k._d is None:
            made = [(j, _dispatcher(j.py_func, j.options)) for j in k.together]
            if k.options.get("cache"):
                ensure_fresh(*(d for _, d in made))
            for j, d in made:
                j._d = d
    return k._d


def _dispatcher(fn, opts):
    numba = load_numba()
    try:
        d = numba.njit(**opts)(fn)
    except RuntimeError as e:  # Numba: "cannot cache function ...: no locator available"
        if not opts.get("cache") or "no locator" not in str(e):
            raise
        _warn_once("no locator", f"tapegrad: Numba finds no writable cache location ({e}); "
                   "the kernels compile without caching, so every process compiles them "
                   "afresh. Set NUMBA_CACHE_DIR to a writable directory (or TAPEGRAD_CACHE=0 "
                   "to opt out of caching and this warning)")
        return numba.njit(**{**opts, "cache": False})(fn)
    path = getattr(getattr(d, "_cache", None), "_cache_path", None)
    if path is not None and not pathlib.Path(path).resolve().is_relative_to(_PKG) and \
            not private_dir(path):
        # (before anything is loaded from it: Numba's index is a pickle, its data machine
        # code; a shared NUMBA_CACHE_DIR lets whoever else writes there choose both.  Not
        # the package's own __pycache__: whoever can write there can edit our sources too,
        # and an uncached process compiles for minutes)
        _warn_once(("shared", os.path.dirname(path)),
                   f"tapegrad: the Numba cache at {path} is not owned by this user or is "
                   "writable by others (or a directory above it is, or a link on its path is "
                   "another user's), who could plant compiled code there; tapegrad's kernels "
                   "compile without caching. Set NUMBA_CACHE_DIR to a directory of your own "
                   "(or TAPEGRAD_CACHE=0 to opt out of caching and this warning)")
        d._cache = numba.core.caching.NullCache()
        return d
    _self_healing(d)
    return d


def njit(fn=None, **options):
    """``numba.njit`` with the project defaults: cached, nogil, no fastmath, IEEE division;
    made on first use (``Jitted``).  Under NUMBA_DISABLE_JIT=1: the function itself, quiet."""
    if fn is None:
        return lambda f: njit(f, **options)
    _ieee_when_interpreted(fn)
    KERNEL_CODE.add(fn.__code__)
    return _quiet(fn) if DISABLED else Jitted(fn, {"cache": CACHE, **_DEFAULTS, **options})


def _quiet(fn):
    """Under NUMBA_DISABLE_JIT=1 a kernel runs as Python under ``np.errstate(all="ignore")``,
    as a cold cache's interpreted sweep does (_kernels.py): compiled code raises no
    floating-point warnings, and the rules' unsigned index sums wrap by design (a negative
    stride cast by ``_u``), which NumPy scalars would warn about."""
    @functools.wraps(fn)
    def quiet(*args):
        with np.errstate(all="ignore"):
            return fn(*args)

    quiet.py_func = fn  # (_py: the Python function behind it)
    KERNEL_CODE.add(quiet.__code__)
    return quiet


def stamp_together(*kernels):
    """The cached ``kernels`` are made together, their cache stamped with one digest of
    what they compile in (``ensure_fresh``), when the first of them is first used."""
    for k in kernels:
        if isinstance(k, Jitted):
            k.together = kernels


def _self_healing(d):
    """Make ``d``'s cache survive damaged files: a load that fails (truncated or empty
    index or data file, not a pickle, unreadable) warns once, empties the index and
    returns "not cached", so Numba compiles and saves over the damaged entry; a save that
    fails warns once and leaves the kernel compiled in memory."""
    cache = getattr(d, "_cache", None)
    if getattr(cache, "_cache_file", None) is None:  # Numba's NullCache: nothing on disk
        return
    load, save = cache.load_overload, cache.save_overload

    def load_overload(sig, target_context):
        try:
            return load(sig, target_context)
        except Exception as e:  # noqa: BLE001 (any damage: pickle, EOF, OS, rebuild errors)
            where = pathlib.Path(cache._cache_path) / cache._cache_file._index_name
            _warn_once(("damaged", str(where)),
                       f"tapegrad: the Numba cache of {d.py_func.__name__} at {where} is "
                       f"damaged ({type(e).__name__}: {e}); it is replaced (compiling now)")
            _flush(cache)
            return None

    def save_overload(sig, data):
        try:
            save(sig, data)
        except Exception as e:  # noqa: BLE001 (a full disk, a file that vanished, ...)
            _warn_once(("save", cache._cache_path),
                       f"tapegrad: could not save {d.py_func.__name__} to the Numba cache at "
                       f"{cache._cache_path} ({type(e).__name__}: {e}); it stays compiled "
                       "for this process only")

    cache.load_overload = load_overload
    cache.save_overload = save_overload


def _flush(cache):
    """An empty index (the next call compiles afresh); a cache that cannot even be emptied
    is switched off for this process."""
    try:
        cache.flush()
        return True
    except OSError as e:
        _warn_once(("flush", cache._cache_path),
                   f"tapegrad: cannot write the Numba cache at {cache._cache_path} ({e}); "
                   "compiling without caching")
        cache.disable()
        return False


def rule(fn=None, *, inline=False):
    """A rule helper: compiled into the interpreters that call it, never cached alone.
    ``inline=True``: LLVM inlines it at every call (Numba's ``forceinline``), for helpers
    whose call measured costlier than their body (it costs compile time).  Not Numba's
    ``inline="always"``: inlined in Numba's IR, every array argument gains an
    incref/decref pair, calls to NRT's atomic counters that its pruning leaves in branchy
    bodies (4-5 a call in the softmax point rules: bench_fastest_west's west graph was
    ~5% slower)."""
    if fn is None:
        return lambda f: rule(f, inline=inline)
    _ieee_when_interpreted(fn)
    KERNEL_CODE.add(fn.__code__)
    return fn if DISABLED else Jitted(fn, _INLINE if inline else dict(_DEFAULTS))


_INLINE = {**_DEFAULTS, "forceinline": True}


class Inlined(types.ModuleType):
    """``module``'s rules as twins that LLVM inlines at every call (``rule(inline=True)``),
    made on first use: ``Inlined(E).mul_rev`` compiles ``E.mul_rev``'s code inlined where
    it is called, ``E.mul_rev`` itself stays a plain rule.  For the one-point interpreters
    (``_point._point_forward``/``_point_reverse``): left to LLVM, rules with two array
    arguments (the reverse ones) stay calls there, ~40 arguments pushed a row, and the
    one-point replay of bench_fastest_west's graphs ran 1.25-1.7x slower.  The twins run
    the rules' own code, so their results are the rules' bit for bit; any other attribute
    is ``module``'s own.  ``names``: globals the twins read instead of the module's (``math``
    as tapegrad/_libm.py's ``MATH``: the same functions called straight from libm).  Under
    NUMBA_DISABLE_JIT=1 the twins are the rules themselves."""

    def __init__(self, module, **names):
        super().__init__(f"{module.__name__}.inlined")
        self._module = module
        self._names = names  # (globals the twins read in place of the module's own)

    def __getattr__(self, name):  # (only names not made yet come here)
        if name.startswith("__") or name in ("_module", "_names"):
            raise AttributeError(name)
        x = getattr(self._module, name)
        if isinstance(x, Jitted):
            fn = x.py_func
            if self._names:
                fn = types.FunctionType(fn.__code__, {**fn.__globals__, **self._names},
                                        fn.__name__, fn.__defaults__, fn.__closure__)
                fn.__qualname__ = x.py_func.__qualname__
            x = Jitted(fn, _INLINE)
        setattr(self, name, x)
        return x


class Intrinsic:
    """A Numba intrinsic made on first use (Numba's import deferred, as a ``Jitted``'s
    dispatcher is): ``make(numba)`` returns it; kernels type a call to it as the intrinsic's
    own (``_numba_type_``).  Called from Python (interpreted sweeps, NUMBA_DISABLE_JIT=1) it
    runs ``py_func``, which must do what the compiled code does, as Python sees it."""

    def __init__(self, py_func, make):
        self.py_func = py_func
        self._make = make
        self._i = None

    @property
    def _numba_type_(self):
        if self._i is None:
            self._i = self._make(load_numba())
        from numba.core.registry import cpu_target
        ctx = cpu_target.typing_context
        ctx.refresh()  # (the intrinsic's typing is registered when it is made)
        return ctx.resolve_value_type(self._i)

    def __call__(self, *args):
        return self.py_func(*args)


def _make_borrowed(numba):
    from numba.core import types as types_

    @numba.extending.intrinsic
    def borrowed(typingctx, a):
        def codegen(context, builder, sig, args):
            view = context.make_array(sig.args[0])(context, builder, value=args[0])
            view.meminfo = context.get_constant_null(types_.MemInfoPointer(types_.voidptr))
            view.parent = context.get_constant_null(types_.pyobject)
            return view._getvalue()
        return a(a), codegen
    return borrowed


def _borrowed(a):
    return a


# ``borrowed(a)``: the array ``a`` itself without its reference count (a null meminfo, as
# Numba's ``carray`` views have), for a kernel's hot loops while it holds ``a`` itself.
# Numba counts references to an array atomically (NRT_incref/decref: a locked add) around
# every call that takes it and that its pruning leaves (branchy rule bodies, e.g. softmax's
# at one point): on this Xeon those counts were ~1/4 of bench_fastest_west's replay time.
# On a null meminfo they are a test and a branch.  Only for arrays that outlive the views.
borrowed = Intrinsic(_borrowed, _make_borrowed)
KERNEL_CODE.add(_borrowed.__code__)


def _ieee_when_interpreted(fn):
    """Under NUMBA_DISABLE_JIT=1 the kernels run as Python: their module's ``math`` becomes
    tapegrad/_ieee_math.py, so log(-1) is nan there as it is compiled, not a ValueError."""
    if DISABLED and fn.__globals__.get("math") is math:
        fn.__globals__["math"] = _ieee_math


def _py(fn):
    """The Python function behind a kernel (itself under NUMBA_DISABLE_JIT)."""
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
    number, string and tuple constants they read, this module's compile options and a
    rule's own options (``rule(inline=True)``, ``Inlined``'s twins)."""
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
                    if isinstance(x, Intrinsic):  # (its code generator too)
                        todo.append(x._make)
                    opts = getattr(x, "options", None)  # (a rule's own: inline=...)
                    if isinstance(opts, dict) and opts != _DEFAULTS:
                        h.update(f"{name}:{sorted(opts.items())!r};".encode())
    return h.hexdigest()


def ensure_fresh(*dispatchers):
    """Empty the cache index of each dispatcher whose inlined rules changed since it was cached."""
    if not CACHE or DISABLED:
        return
    digest = compiled_digest(*dispatchers)
    for d in dispatchers:
        cache = getattr(d, "_cache", None)
        path = getattr(cache, "_cache_path", None)
        if path is None:
            continue
        stamp = pathlib.Path(path) / (cache._cache_file._index_name + ".rules")
        try:
            if stamp.read_bytes() == digest.encode():
                continue
        except OSError:  # missing or unreadable: stale (garbage bytes are just another digest)
            pass
        if not _flush(cache):  # an empty index: the next call compiles afresh
            continue
        try:
            stamp.write_text(digest)
        except OSError:
            pass  # an unwritable cache dir: Numba will not cache there either
