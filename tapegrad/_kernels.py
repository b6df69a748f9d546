"""The compiled kernels as the Python layer calls them: compiled when Numba has them, else
interpreted while a background process compiles them (issue 23: a first gradient must not
wait ~20 s for Numba).

Each name here (``_reverse_sweep``, ``_free_swept``, ...) starts as a ``_Kernel``.  Its first
call looks for the signature in memory or in Numba's on-disk cache; if it is there (a warm
cache) the module attribute is rebound to the Numba dispatcher itself, so later calls cost
nothing extra.  If not, one background process (``python -m tapegrad.warmup``) compiles every
kernel into the cache, and meanwhile small calls run the very same rules as plain Python
(the functions behind the dispatchers, as under ``NUMBA_DISABLE_JIT=1``, whose parity the
test suite checks); a call too large to interpret waits for the compiled kernel.  The
switch happens at the first call after the cache holds the kernel.

``TAPEGRAD_BACKGROUND=0`` turns this off (every kernel compiles in-process at first use,
as Numba does by itself); so does ``NUMBA_BOUNDSCHECK``, whose point is the compiled code.
"""
import os
import subprocess
import sys
import threading
import time
import types

from . import _sweep

ON = (os.environ.get("TAPEGRAD_BACKGROUND", "1") != "0"
      and os.environ.get("NUMBA_DISABLE_JIT", "0") != "1"
      and not os.environ.get("NUMBA_BOUNDSCHECK"))
# element operations worth interpreting rather than waiting for the compile (~1 us each)
INTERPRET_LIMIT = 200_000
POLL_S = 0.25  # how often calls look for the kernel in the cache while it compiles


def _is_dispatcher(v):
    return hasattr(v, "py_func") and hasattr(v, "overloads")


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
    globals (our modules, the dispatchers they call) are seen the same way."""
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


class _Background:
    """The one compiling process of this process (None until a kernel misses the cache)."""
    proc = None
    started = 0.0
    told = 0.0

    @classmethod
    def start(cls):
        if cls.proc is None:
            cls.started = time.perf_counter()
            sys.stderr.write("tapegrad: compiling kernels in a background process (first run "
                             "only, cached afterwards); gradients run interpreted until then\n")
            cls.proc = subprocess.Popen(
                [sys.executable, "-m", "tapegrad.warmup"], stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return cls.proc

    @classmethod
    def done(cls):
        return cls.proc is not None and cls.proc.poll() is not None

    @classmethod
    def waiting(cls, name):
        now = time.perf_counter()
        if now - cls.told > 5.0:
            cls.told = now
            sys.stderr.write(f"tapegrad: waiting for the compiled {name} "
                             f"({now - cls.started:.0f} s since compiling began)\n")


class _Kernel:
    def __init__(self, name, work):
        self.name = name
        self.d = getattr(_sweep, name)
        self.work = work  # args -> element operations (an estimate)
        self.py = None
        self.loader = None  # a thread loading the kernel from the cache
        self.missed = -POLL_S  # when the cache index last lacked the kernel

    def _cached(self, sig):
        if sig in self.d.overloads:
            return True
        cache = getattr(self.d, "_cache", None)
        cf = getattr(cache, "_cache_file", None)
        if cf is None:
            return None  # no disk cache: a background process cannot help
        now = time.perf_counter()
        if now - self.missed < POLL_S:  # (reading the index is a file read and an unpickle)
            return False
        try:
            key = cache._index_key(sig, self.d.targetctx.codegen())
            found = key in cf._load_index()
        except Exception:  # noqa: BLE001 (a damaged index: the dispatcher heals it)
            return None
        if not found:
            self.missed = now
        return found

    def _bind(self):
        globals()[self.name] = self.d
        return self.d

    def _interpret(self, args):
        if self.py is None:
            self.py = _plain(self.d)
        return self.py(*args)

    def __call__(self, *args):
        small = self.work(*args) <= INTERPRET_LIMIT
        if self.loader is not None and self.loader.is_alive():
            if small:
                return self._interpret(args)
            self.loader.join()
        sig = tuple(self.d.typeof_pyval(a) for a in args)
        while True:
            cached = self._cached(sig)
            if cached is True and sig not in self.d.overloads and self.loader is None and small:
                # loading a cached kernel takes ~0.3 s, mostly outside the GIL: a thread
                # loads it while this small call runs interpreted
                self.loader = threading.Thread(target=self.d.compile, args=(sig,),
                                               daemon=True, name=f"tapegrad {self.name}")
                self.loader.start()
                return self._interpret(args)
            if cached is not False:  # in the cache, or nothing a background process adds
                return self._bind()(*args)
            proc = _Background.start()
            if _Background.done():  # it ended without this kernel: compile here
                if proc.returncode != 0:
                    sys.stderr.write("tapegrad: the background compile failed; compiling "
                                     f"{self.name} here\n")
                return self._bind()(*args)
            if small:
                return self._interpret(args)
            _Background.waiting(self.name)
            time.sleep(0.05)


def _rows_work(rows, offs, start, stop, w):
    o = rows[start:stop, 1]
    o = o[o >= 0]
    return int((offs[o + 1] - offs[o]).sum()) * int(w) + (stop - start)


KERNELS = {
    "_reverse_sweep": lambda rows, offs, vals, c, m, adj, reach, start, stop, w:
        _rows_work(rows, offs, start, stop, w),
    "_forward_replay": lambda rows, offs, vals, c, m, start, stop, w, bad:
        _rows_work(rows, offs, start, stop, w),
    "_free_swept": lambda rows, reach, lo, hi: (hi - lo) // 2,
    "_spans_of_slots": lambda rows, meta, *a: (len(rows) - a[-1]) // 2,
    "_replay_blocks": lambda fwd, rev, offs, *a:
        2 * (int(offs[-1]) + len(fwd) + len(rev)) * max(1, a[6].shape[0]),
}

for _name, _work in KERNELS.items():
    globals()[_name] = _Kernel(_name, _work) if ON else getattr(_sweep, _name)
del _name, _work
