"""The compiled kernels as the Python layer calls them: compiled when Numba has them, else
interpreted while a background process compiles them (issue 23: a first gradient must not
wait ~20 s for Numba).

Each name here (``_reverse_sweep``, ``_free_swept``, ...) starts as a ``_Kernel``.  Numba is
not imported yet (tapegrad/_jit.py makes the dispatchers on first use): a kernel's first
small call runs interpreted while a thread imports Numba, makes the dispatchers, and loads
the kernel from the cache (or starts the background compile of a cold one); a large first
call does that itself.  Later calls look for the signature in memory or in Numba's on-disk
cache; if it is there (a warm cache) the module attribute is rebound to the Numba
dispatcher itself, so later calls cost nothing extra.  If not, background processes
(``tapegrad.warmup.main``, one per group of kernels, two side by side on a cold start)
compile the group into the cache, and meanwhile small calls run the very same rules as
plain Python (the functions behind the dispatchers, as under ``NUMBA_DISABLE_JIT=1``, whose
parity the test suite checks); a call too large to interpret waits for the compiled
kernel.  The switch happens at the first call after the cache holds the kernel.

``TAPEGRAD_BACKGROUND=0`` turns this off (every kernel compiles in-process at first use,
as Numba does by itself); so does ``NUMBA_BOUNDSCHECK``, whose point is the compiled code.
"""
import contextlib
import contextvars
import math
import os
import subprocess
import sys
import threading
import time
import types

import numpy as np

from . import _ieee_math, _point, _sweep
from ._eager import BACKGROUND, start_thread
from ._eager import Exit as _Exit  # (where a load waits at exit: the eager kernels' too)
from ._jit import DISABLED, Jitted

_F32 = np.dtype(np.float32)

ON = BACKGROUND and not DISABLED
# Work is counted in interpreted element operations (~2.5 us each; a row's own dispatch
# costs ROW of them: measured on the scalar and n = 4, 256 vector graphs).  A call
# interprets while that is cheaper than waiting: up to INTERPRET_LIMIT (~0.3 s) when the
# kernel is in the disk cache (its load takes 0.3-0.8 s), up to COMPILE_LIMIT (~2 s) while
# a background process compiles it (tens of seconds).
ROW = 6
INTERPRET_LIMIT = 120_000
COMPILE_LIMIT = 800_000
POLL_S = 0.25  # how often calls look for the kernel in the cache while it compiles
# a caller's own count of a call's work (``counted``): the estimates below count outputs,
# and a row's rule may read far more than it writes (a sum of 10**4 elements: one counted,
# 10**4 interpreted)
_COUNTED = contextvars.ContextVar("tapegrad_counted_work", default=None)


@contextlib.contextmanager
def counted(work):
    """Kernel calls within count at least ``work`` element operations and run interpreted
    below INTERPRET_LIMIT only, never waiting for a compile in the interpreter: a trace
    file's check (replay/validate.py), whose rows an attacker chose to cost far more
    interpreted than their outputs say (a 380 kB file of 10**5 sums of a 10**4-element
    input: ~10**9 interpreted element operations, ~20 min on a cold cache)."""
    token = _COUNTED.set(work)
    try:
        yield
    finally:
        _COUNTED.reset(token)


def _is_dispatcher(v):
    return isinstance(v, Jitted)  # (without making its Numba dispatcher)


class _Module:
    """A module seen by interpreted code: its dispatchers are their Python functions."""

    def __init__(self, module):
        self._module = module

    def __getattr__(self, name):
        v = _plain(getattr(self._module, name))
        setattr(self, name, v)
        return v


_MEMO = {}


def _plain(v):
    """``v`` as interpreted code should see it: dispatchers become Python functions whose
    globals (our modules, the dispatchers they call) are seen the same way, and ``math``
    gives IEEE results as compiled code does (tapegrad/_ieee_math.py)."""
    if v is math:
        return _ieee_math
    if isinstance(v, types.ModuleType):
        return _Module(v) if v.__name__.startswith("tapegrad") else v
    if not _is_dispatcher(v):
        return v
    fn = v.py_func
    if id(fn) not in _MEMO:
        g = dict(fn.__globals__)
        out = types.FunctionType(fn.__code__, g, fn.__name__, fn.__defaults__, fn.__closure__)
        _MEMO[id(fn)] = out
        for name, value in fn.__globals__.items():
            if isinstance(value, types.ModuleType) or _is_dispatcher(value):
                g[name] = _plain(value)
    return _MEMO[id(fn)]


def in_cache(d, sig):
    """Whether dispatcher ``d`` has signature ``sig`` compiled or in Numba's cache index
    (True/False), or None where no disk cache exists (a background process cannot help)."""
    if sig in d.overloads:
        return True
    cache = getattr(d, "_cache", None)
    cf = getattr(cache, "_cache_file", None)
    if cf is None:
        return None
    try:
        return cache._index_key(sig, d.targetctx.codegen()) in cf._load_index()
    except Exception:  # noqa: BLE001 (a damaged index: the dispatcher heals it)
        return None


def _warmup_command(group):
    # the batch kernel links the compiled sweep: it waits for the sweep group's
    return [sys.executable, "-c", "import sys; from tapegrad.warmup import main; "
            "main(sys.argv[1:])", group, "--wait-for-sweep"]


def lock_path(group):
    """The file that says a process is compiling ``group`` into this Numba cache (its pid):
    one compile per group and cache however many processes start cold at once."""
    return os.path.join(_sweep._reverse_sweep._cache._cache_path, f"tapegrad-{group}.compiling")


def _held(path):
    """Whether a live process holds the lock at ``path`` (a stale one is removed)."""
    try:
        with open(path) as f:
            text = f.read().strip()
        age = time.time() - os.path.getmtime(path)
    except OSError:
        return False
    if not text:
        return age < 10.0  # being written by the claiming process
    try:
        os.kill(int(text), 0)
        return True
    except (ValueError, ProcessLookupError):
        pass
    except PermissionError:  # alive, another user's
        return True
    try:
        os.remove(path)
    except OSError:
        pass
    return False


class _Background:
    """This process's compiling processes, one per kernel group (tapegrad/warmup.py),
    started when a kernel of the group first misses the cache, unless another process
    is compiling that group into the same cache (its lock file is held)."""
    lock = threading.Lock()  # (started from the threads that load kernels too)
    procs = {}
    started = 0.0
    told = 0.0
    looked = {}  # group -> when its lock was last found held elsewhere

    @classmethod
    def _spawn(cls, g):
        if g in cls.procs:
            return
        now = time.perf_counter()
        if now - cls.looked.get(g, -POLL_S) < POLL_S:
            return
        path = lock_path(g)
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            if _held(path):
                cls.looked[g] = now
                return
            return cls._spawn(g)  # (a stale lock, removed: claim it now)
        except OSError:  # an unwritable cache: compile without the lock
            fd = None
        proc = subprocess.Popen(_warmup_command(g), stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if fd is not None:
            os.write(fd, str(proc.pid).encode())
            os.close(fd)
        cls.procs[g] = proc

    @classmethod
    def start(cls, group):
        """This process's compile of ``group`` (a Popen), or None while another process
        compiles it."""
        with cls.lock:
            if not cls.procs and not cls.started:
                cls.started = time.perf_counter()
                sys.stderr.write("tapegrad: compiling kernels in the background (first run "
                                 "only, cached afterwards); gradients run interpreted until "
                                 "then\n")
            # replay's batch kernel needs the sweep: both groups build side by side
            for g in (("sweep", group) if group in ("replay", "forward") else (group,)):
                cls._spawn(g)
            return cls.procs.get(group)

    @classmethod
    def waiting(cls, name):
        now = time.perf_counter()
        if now - cls.told > 5.0:
            cls.told = now
            sys.stderr.write(f"tapegrad: waiting for the compiled {name} "
                             f"({now - cls.started:.0f} s since compiling began)\n")


# the cached kernels by name: the interpreters of _sweep.py, the one-point one of _point.py
_COMPILED = {k.__name__: k for k in (*_sweep.KERNELS, *_point.KERNELS)}


class _Kernel:
    def __init__(self, name, group, work):
        self.name = name
        self.d = _COMPILED[name.removesuffix("32")]  # _reverse_sweep32: float32's signature
        self.group = group  # tapegrad/warmup.py's group that compiles it
        self.work = work  # args -> element operations (an estimate)
        self.py = None
        self.loader = None  # a thread making the dispatcher, or loading it from the cache
        self.loading = False  # whether a load from the cache was begun (once, in a thread)
        self.missed = -POLL_S  # when the cache index last lacked the kernel

    def _cached(self, sig):
        if sig in self.d.overloads:
            return True
        now = time.perf_counter()
        if now - self.missed < POLL_S:  # (reading the index is a file read and an unpickle)
            return False
        found = in_cache(self.d, sig)
        if found is False:
            self.missed = now
        return found

    def _bind(self):
        d = self.d.dispatcher  # (Numba's own: a call costs nothing more from now on)
        globals()[self.name] = d
        return d

    def _thread(self, target, *args):
        """Run ``target(*args)`` in a thread while the small calls run interpreted."""
        self.loader = start_thread(target, *args, name=f"tapegrad {self.name}")

    def _prepare(self, args):
        """A first call's thread: import Numba and make the dispatchers (tapegrad/_jit.py),
        then load the kernel from the cache, or start its group's background compile."""
        d = self.d.dispatcher
        sig = tuple(d.typeof_pyval(a) for a in args)
        cached = in_cache(d, sig)
        if cached is True and sig not in d.overloads:
            self.loading = True
            _Exit.unless_exiting(d.compile, sig)
        elif cached is False:
            self.missed = time.perf_counter()
            _Background.start(self.group)

    def _interpret(self, args):
        if self.py is None:
            self.py = _plain(self.d)
        # as compiled: Numba raises no floating-point warnings, and the rules' unsigned index
        # sums wrap by design (a negative stride cast by _u), which NumPy scalars warn about
        with np.errstate(all="ignore"):
            return self.py(*args)

    def __call__(self, *args):
        work, limit = self.work(*args), COMPILE_LIMIT
        least = _COUNTED.get()
        if least is not None:
            work, limit = max(work, least), INTERPRET_LIMIT
        small = work <= INTERPRET_LIMIT
        loader = self.loader
        if loader is not None and loader.is_alive():
            if small:
                return self._interpret(args)
            loader.join()
        if small and loader is None and not self.d.ready:
            # Numba is not imported yet (~0.3 s), and loading the kernel takes ~0.3 s more
            # (mostly outside the GIL): a thread does both while this call runs interpreted
            self._thread(self._prepare, args)
            _Exit.preparing.append(self.loader)
            return self._interpret(args)
        sig = tuple(self.d.typeof_pyval(a) for a in args)
        while True:
            cached = self._cached(sig)
            if cached is True and sig not in self.d.overloads and not self.loading and small:
                # loading a cached kernel takes ~0.3 s, mostly outside the GIL: a thread
                # loads it while this small call runs interpreted
                self.loading = True
                self._thread(_Exit.unless_exiting, self.d.compile, sig)
                return self._interpret(args)
            if cached is not False:  # in the cache, or nothing a background process adds
                if cached is None and sig not in self.d.overloads:
                    sys.stderr.write(f"tapegrad: compiling {self.name} in this process (no "
                                     "Numba disk cache to fill in the background)...\n")
                return self._bind()(*args)
            proc = _Background.start(self.group)
            if proc is not None and proc.poll() is not None:  # it ended without the kernel
                if proc.returncode != 0:
                    sys.stderr.write("tapegrad: the background compile failed; compiling "
                                     f"{self.name} here\n")
                return self._bind()(*args)
            if work <= limit:
                return self._interpret(args)
            _Background.waiting(self.name)
            time.sleep(0.05)


def _rows_work(rows, offs, start, stop, w):
    o = rows[start:stop, 1]
    o = o[o >= 0]
    return int((offs[o + 1] - offs[o]).sum()) * int(w) + ROW * (stop - start)


_sweep_work = lambda rows, offs, vals, c, m, adj, reach, start, stop, w: \
    _rows_work(rows, offs, start, stop, w)
KERNELS = {  # name: (group, args -> element operations)
    "_reverse_sweep": ("sweep", _sweep_work),
    "_reverse_sweep32": ("float32", _sweep_work),  # the same dispatcher, on float32 arenas
    "_free_swept": ("sweep", lambda rows, meta, reach, lo, hi, *tables: (hi - lo) // 2),
    "_spans_of_slots": ("sweep", lambda rows, meta, *a: 5 * (len(rows) - a[-1])),
    "_needed_slots": ("sweep", lambda rows, meta, *a: 5 * (a[-1] - a[-2])),
    "_forward_replay": ("replay", lambda rows, offs, vals, c, m, start, stop, w, bad:
                        _rows_work(rows, offs, start, stop, w)),
    "_replay_blocks": ("replay", lambda fwd, rev, offs, *a:
                       2 * (int(offs[-1]) + len(fwd) + len(rev)) * max(1, a[6].shape[0])),
    "_seeded_blocks": ("replay", lambda fwd, rev, offs, *a:
                       2 * (int(offs[-1]) + len(fwd) + len(rev)) * a[6].shape[0]
                       * max(1, a[7].shape[1])),
    "_replay_point": ("replay", lambda ints, x, g, work: 2 * len(ints)),
    # forward mode (autograd/tangent.py): the tangent sweep, and forward over reverse
    "_tangent_sweep": ("forward", lambda rows, offs, vals, tan, c, m, reach, start, stop, w:
                       _rows_work(rows, offs, start, stop, w)),
    "_hvp_sweep": ("forward", lambda rows, offs, vals, tan, c, m, adj, tadj, reach, treach,
                   start, stop, w: 3 * _rows_work(rows, offs, start, stop, w)),
}

for _name, (_group, _work) in KERNELS.items():
    globals()[_name] = (_Kernel(_name, _group, _work) if ON
                        else _COMPILED[_name.removesuffix("32")])
del _name, _group, _work


def reverse_sweep(vals):
    """The reverse sweep for an arena like ``vals``: float32 arenas have their own entry, so
    that a float32 graph after a bound float64 sweep still starts no in-process compile."""
    return _reverse_sweep32 if vals.dtype == _F32 else _reverse_sweep
