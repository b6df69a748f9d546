"""exp, log1p, sin, cos and tanh called straight from the C math library, for the one-point
interpreters (``_point._point_forward``/``_point_reverse``: most of the time of
bench_fastest_west's graphs is in these calls).

Numba binds ``math.exp`` / ``np.exp`` to its own bridge (``numba_exp`` in ``_helperlib``,
built against an old glibc), which jumps through a PLT to glibc's ``exp@GLIBC_2.2.5``: the
SVID compatibility wrapper around ``__ieee754_exp``; the current ``exp@@GLIBC_2.29`` is a
thinner wrapper around it.  Called here: ``__ieee754_exp`` itself (``__exp_finite``), 2.3 ns
an exp on this Xeon against Numba's 5.0 ns (and 3.7 ns through ``exp@@GLIBC_2.29``); log1p
(sin, cos, tanh) lose the bridge and the PLT, ~0.5 ns.  The function is the same, so the values are equal
bit for bit (the wrappers only set errno, and return what the core returns, overflow and
underflow included: ``tests/test_replay_lowered.py::test_libm_bit_for_bit``).

The symbols ``tapegrad_exp``, ``tapegrad_log1p`` (..) are bound in LLVM's symbol table when
Numba is first loaded (``register``, run by ``_jit.load_numba`` from ``_jit.ON_NUMBA``) before any cached kernel
that calls them is linked.  Where the C library's own cannot be found, Numba's are bound.
Called from Python (``NUMBA_DISABLE_JIT=1``, the interpreted sweeps) ``exp`` and ``log1p``
are NumPy's, as the ``np.exp`` and ``np.log1p`` they replace; ``MATH``'s are ``math``'s.
"""
import ctypes
import ctypes.util
import math
import types

import numpy as np

from . import _ieee_math
from ._jit import KERNEL_CODE, ON_NUMBA, Intrinsic

# the core each name is, without a wrapper: glibc's __exp_finite (a compatibility symbol,
# found by its version: GLIBC_2.15 on x86-64, 2.17 on aarch64) is __ieee754_exp itself
NAMES = ("exp", "log1p", "sin", "cos", "tanh")
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
    """Bind ``tapegrad_<name>`` for each of NAMES in LLVM's symbol table (once)."""
    if _DONE:
        return
    import llvmlite.binding as ll
    from numba import _helperlib
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("m"))
    except OSError:
        lib = None
    for name in NAMES:
        addr = _address(lib, name) if lib is not None else None
        ll.add_symbol("tapegrad_" + name, addr or _helperlib.c_helpers[name])
    _DONE.append(True)


ON_NUMBA.append(register)


def _maker(name, own):
    """The intrinsic calling ``tapegrad_<name>`` on a float64; on any other type (float32
    arenas, an int) Numba's own ``own`` (``np.exp``, ``math.sin``...), what the kernels
    called before, so those values are unchanged."""
    def make(numba):
        from llvmlite import ir
        from numba.core import cgutils
        from numba.core import types as T
        register(numba)

        @numba.extending.intrinsic
        def call(typingctx, x):
            if x != T.float64:
                sig = typingctx.resolve_function_type(typingctx.resolve_value_type(own),
                                                      (x,), {})
                if sig is None:
                    return None

                def numba_own(context, builder, sig, args):
                    return context.compile_internal(builder, lambda v: own(v), sig, args)
                return sig.return_type(x), numba_own

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


exp = Intrinsic(_exp, _maker("exp", np.exp))
log1p = Intrinsic(_log1p, _maker("log1p", np.log1p))
KERNEL_CODE.update((_exp.__code__, _log1p.__code__))


# ``math`` as the one-point interpreters' rule twins see it (``_jit.Inlined(E, math=MATH)``):
# NAMES from libm straight, every other name math's own; called from Python, what the rules'
# ``math`` is there (tapegrad/_ieee_math.py: CPython's, the C library's own)
MATH = types.ModuleType(__name__ + ".math")
MATH.__dict__.update({k: v for k, v in vars(math).items() if not k.startswith("__")})
for _name in NAMES:
    setattr(MATH, _name, Intrinsic(getattr(_ieee_math, _name),
                                   _maker(_name, getattr(math, _name))))
