"""exp and log1p called straight from the C math library, for the one-point interpreters
(``_sweep._point_forward``/``_point_reverse``, whose rows are mostly these calls on
bench_fastest_west's west graph).

Numba binds ``math.exp`` / ``np.exp`` to its own bridge (``numba_exp`` in ``_helperlib``,
built against an old glibc), which jumps through a PLT to glibc's ``exp@GLIBC_2.2.5``: the
SVID compatibility wrapper around ``__ieee754_exp``; the current ``exp@@GLIBC_2.29`` is a
thinner wrapper around it.  Called here: ``__ieee754_exp`` itself (``__exp_finite``), 2.3 ns
an exp on this Xeon against Numba's 5.0 ns (and 3.7 ns through ``exp@@GLIBC_2.29``); log1p
loses the bridge and the PLT, ~0.5 ns.  The function is the same, so the values are equal
bit for bit (the wrappers only set errno, and return what the core returns, overflow and
underflow included: ``tests/test_replay_lowered.py::test_libm_bit_for_bit``).

The symbols ``tapegrad_exp`` and ``tapegrad_log1p`` are bound in LLVM's symbol table when
Numba is first loaded (``register``, from ``_jit.load_numba``), before any cached kernel
that calls them is linked.  Where the C library's own cannot be found, Numba's are bound.
Called from Python (``NUMBA_DISABLE_JIT=1``, the interpreted sweeps) they are NumPy's, as
``math.exp`` is there (tapegrad/_ieee_math.py).
"""
import ctypes
import ctypes.util

import numpy as np

from ._jit import KERNEL_CODE, Intrinsic

# the core each name is, without a wrapper: glibc's __exp_finite (a compatibility symbol,
# found by its version: GLIBC_2.15 on x86-64, 2.17 on aarch64) is __ieee754_exp itself
_CORES = {"exp": (b"__exp_finite", (b"GLIBC_2.15", b"GLIBC_2.17"))}
_DONE = []


def _address(lib, name):
    """The address of ``name``'s core in the C math library ``lib``, or None."""
    core, versions = _CORES.get(name, (None, ()))
    dlvsym = getattr(ctypes.CDLL(None), "dlvsym", None)  # (glibc's)
    if core is not None and dlvsym is not None:
        dlvsym.restype = ctypes.c_void_p
        dlvsym.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p]
        for v in versions:
            addr = dlvsym(lib._handle, core, v)
            if addr:
                return addr
    f = getattr(lib, name, None)
    return ctypes.cast(f, ctypes.c_void_p).value if f is not None else None


def register(numba):
    """Bind ``tapegrad_<name>`` for exp and log1p in LLVM's symbol table (once)."""
    if _DONE:
        return
    import llvmlite.binding as ll
    from numba import _helperlib
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("m"))
    except OSError:
        lib = None
    for name in ("exp", "log1p"):
        addr = _address(lib, name) if lib is not None else None
        ll.add_symbol("tapegrad_" + name, addr or _helperlib.c_helpers[name])
    _DONE.append(True)


def _maker(name):
    def make(numba):
        from llvmlite import ir
        from numba.core import cgutils
        from numba.core import types as T
        register(numba)

        @numba.extending.intrinsic
        def call(typingctx, x):
            if x != T.float64:
                return None

            def codegen(context, builder, sig, args):
                d = ir.DoubleType()
                fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(d, [d]),
                                                    "tapegrad_" + name)
                return builder.call(fn, args)
            return T.float64(T.float64), codegen
        return call
    return make


def _exp(x):
    return np.exp(x)


def _log1p(x):
    return np.log1p(x)


exp = Intrinsic(_exp, _maker("exp"))
log1p = Intrinsic(_log1p, _maker("log1p"))
KERNEL_CODE.update((_exp.__code__, _log1p.__code__))
