"""The compiled kernels' BLAS held to one thread while they run (issue 20).

Compiled kernels multiply matrices with ``np.dot``, which Numba sends to SciPy's BLAS
(``scipy.linalg.cython_blas``); the eager forward multiplies with NumPy's.  The NumPy and
SciPy wheels each bundle an OpenBLAS of their own (libscipy_openblas64_, libscipy_openblas),
so a process has two thread pools, and an OpenBLAS worker spins for a while after each call
waiting for the next.  With default threads a training step alternates the two pools, and
each one's workers wait for the cores the other's spinners hold: an MLP step took 8.0 ms
instead of 0.93 ms with OPENBLAS_NUM_THREADS=1 (2 cores).

So while tapegrad's compiled code runs, SciPy's pool is held to one thread (its workers are
never woken, and sleep), and its count is put back when the last such call (of any thread)
ends; NumPy's pool, the one the user's own code shares with the eager forward, keeps its
threads.  Nothing is held when SciPy's BLAS is no OpenBLAS reached here (MKL, Accelerate,
no SciPy), when it is NumPy's own library (one pool: conda and distribution builds), or
when either pool already has one thread (nothing spins beside the other).  While a sweep
runs, a ``scipy.linalg`` call of another thread gets one thread too.

The gradients are a one-thread sweep's, as under OPENBLAS_NUM_THREADS=1, whatever the
machine's cores: OpenBLAS's sums for some shapes differ in the last bits with its thread
count (up to 8e-14 for (129, 517) @ (517, 333) between 1 and 2 threads), so they can differ
that much from the unheld sweep's (tests/test_blas_threads.py).
"""
import ctypes
import sys
import threading

import numpy as np

from ._jit import KERNEL_CODE, Intrinsic

# (get, set) thread-count functions of an OpenBLAS, by the names its builds export: SciPy's
# and NumPy's wheels (scipy-openblas32/64), then plain and ILP64 builds
_NAMES = (("scipy_openblas_get_num_threads", "scipy_openblas_set_num_threads"),
          ("scipy_openblas_get_num_threads64_", "scipy_openblas_set_num_threads64_"),
          ("openblas_get_num_threads", "openblas_set_num_threads"),
          ("openblas_get_num_threads64_", "openblas_set_num_threads64_"))

HOLD = True  # False: the kernels' pool keeps its threads (benchmarks/bench_blas_threads.py)


class Pool:
    """An OpenBLAS's thread count, found through a library loaded in this process."""

    def __init__(self, get, set_):
        self.get, self.set = get, set_
        self.address = ctypes.cast(get, ctypes.c_void_p).value  # which library: one per pool


def pool_of(path):
    """The OpenBLAS pool that the shared library at ``path`` links (the names are looked up
    in it and the libraries it loaded), or None."""
    if path is None:
        return None
    try:
        lib = ctypes.CDLL(path)
    except OSError:
        return None
    for get, set_ in _NAMES:
        try:
            return Pool(getattr(lib, get), getattr(lib, set_))
        except AttributeError:
            continue
    return None


def _module_file(name):
    module = sys.modules.get(name)
    return getattr(module, "__file__", None)


def numpy_pool():
    """NumPy's BLAS pool (its matmul's), or None when it is no OpenBLAS reached here."""
    return pool_of(_module_file("numpy._core._multiarray_umath")
                   or _module_file("numpy.core._multiarray_umath"))  # (NumPy 1.x)


def kernel_pool():
    """The pool of the BLAS Numba's ``np.dot`` calls, when it is an OpenBLAS other than
    NumPy's; else None."""
    kernels = pool_of(_module_file("scipy.linalg.cython_blas"))
    mine = numpy_pool()
    if kernels is None or (mine is not None and mine.address == kernels.address):
        return None
    return kernels


class _Held:
    """The count of compiled calls running in any thread, and what to put back."""
    lock = threading.Lock()
    found = False  # whether the pools were looked for (once Numba has loaded SciPy's BLAS)
    kernels = None
    numpy = None
    running = 0
    restore = 0  # the kernels' pool count to put back, 0 when nothing was changed
    gen = 0  # odd while the lock's holder changes the pool, +2 a change (see held)


def _find():
    # Numba imports scipy.linalg.cython_blas at its first compiled np.dot: until then the
    # kernels have called no BLAS (importing it here would cost ~0.3 s of SciPy)
    if "scipy.linalg.cython_blas" not in sys.modules:
        return None
    _Held.numpy = numpy_pool()
    _Held.kernels = kernel_pool()
    _Held.found = True
    return _Held.kernels


def _set(kernels, n, restore):
    # (under the lock) a reader that saw gen before this sees it changed after; the count
    # to put back is written before the pool is held and cleared after it is put back, so
    # that an exception between the lines never loses it (reset())
    _Held.gen += 1
    if restore:
        _Held.restore = restore
    kernels.set(n)
    _Held.restore = restore
    _Held.gen += 1


def _heal():
    # (under the lock, where no change is under way) a change cut off by an exception (a
    # KeyboardInterrupt landing between its lines) left gen odd: the seqlock read would
    # never again succeed, and every sweep would take the lock
    if _Held.gen & 1:
        _Held.gen += 1


def reset():
    """Put the kernels' pool back to its count before any hold and forget the holds.  A
    KeyboardInterrupt landing between the lines of ``hold``/``release`` can lose a release,
    leaving the kernels' pool at one thread (never at more threads than it had) until the
    process ends; this undoes that (tests/interrupt_inject.py calls it between runs)."""
    with _Held.lock:
        _heal()
        if _Held.restore:
            _set(_Held.kernels, _Held.restore, 0)
        _Held.running = 0


def hold():
    """Hold the kernels' pool to one thread until ``release(held)`` is given what this
    returned (see the module docstring); counts the calls running in all threads."""
    kernels = _Held.kernels
    if kernels is None and (_Held.found or (kernels := _find()) is None):
        return False
    with _Held.lock:
        _heal()
        if not _Held.running and HOLD:
            n = kernels.get()
            if n > 1 and (_Held.numpy is None or _Held.numpy.get() > 1):
                _set(kernels, 1, n)
        _Held.running += 1
    return True


def release(held):
    """End a ``hold``: the last one running puts the kernels' pool count back."""
    if held:
        with _Held.lock:
            _heal()
            _Held.running -= 1
            if not _Held.running and _Held.restore:
                _set(_Held.kernels, _Held.restore, 0)


def held(kernel, *args):
    """``kernel(*args)``, a compiled kernel that may call BLAS, run under ``hold``.  It runs
    at every sweep, and the OPENBLAS_NUM_THREADS=1 case must stay free: a pool at one
    thread that no hold set is seen without the lock (a seqlock read: no change of the
    pool's count began or ended between the reads), and nothing is counted."""
    kernels = _Held.kernels
    if kernels is not None:
        gen = _Held.gen
        if not gen & 1 and not _Held.restore and kernels.get() == 1 and gen == _Held.gen:
            return kernel(*args)
    h = False  # (set inside the try: an exception between hold and try lost the release)
    try:
        h = hold()
        return kernel(*args)
    finally:
        release(h)


# ---- a product's column block, for the compiled rules (ops/linalg.py _sum_dot) -----------
def _tn_cols(X, Y, out, lo, hi):
    # (interpreted: NumPy's BLAS on the block's view)
    np.dot(X[:, lo:hi].T, Y, out[lo:hi])


def _make_tn_cols(numba):
    from llvmlite import ir
    from numba.core import cgutils
    from numba.core import types as T

    @numba.extending.intrinsic
    def tn_cols(typingctx, X, Y, out, lo, hi):
        if not (all(isinstance(a, T.Array) and a.ndim == 2 and a.layout == "C" and
                    a.dtype == X.dtype for a in (X, Y, out)) and
                X.dtype in (T.float32, T.float64) and isinstance(lo, T.Integer) and
                isinstance(hi, T.Integer)):
            return None

        def codegen(context, builder, sig, args):
            x, y, o = (context.make_array(t)(context, builder, v)
                       for t, v in zip(sig.args[:3], args[:3]))
            lo, hi = (context.cast(builder, v, t, T.intp) for t, v in zip(sig.args[3:], args[3:]))
            S, P = cgutils.unpack_tuple(builder, x.shape, 2)
            Q = cgutils.unpack_tuple(builder, y.shape, 2)[1]
            char, ptr = ir.IntType(8), ir.IntType(8).as_pointer()
            intp = context.get_value_type(T.intp)
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(
                ir.IntType(32), [char, char, char, intp, intp, intp, ptr, ptr, intp, ptr, intp,
                                 ptr, ptr, intp]), "numba_xxgemm")  # (Numba's np.dot calls it)
            dt = sig.args[0].dtype
            one, zero = (cgutils.alloca_once_value(builder, context.get_constant(dt, v))
                         for v in (1.0, 0.0))

            def p(v):
                return builder.bitcast(v, ptr)

            def c(ch):
                return ir.Constant(char, ord(ch))
            # column-major, the buffers as they lie: out^T[:, lo:hi] (Q, hi - lo) =
            # Y^T (Q, S) @ (X^T[lo:hi, :])^T, X^T being X's buffer as a (P, S) matrix
            builder.call(fn, (c("s" if dt == T.float32 else "d"), c("n"), c("t"), Q,
                              builder.sub(hi, lo), S, p(one), p(y.data), Q,
                              p(builder.gep(x.data, [lo])), P, p(zero),
                              p(builder.gep(o.data, [builder.mul(lo, Q)])), Q))
            return context.get_dummy_value()
        return T.none(X, Y, out, lo, hi), codegen
    return tn_cols


# ``tn_cols(X, Y, out, lo, hi)``: ``out[lo:hi] = X[:, lo:hi]^T @ Y`` (X (S, P), Y (S, Q), out
# (P, Q), C order, one float dtype) in one BLAS gemm on the column block where it lies:
# Numba's np.dot copies a block that is not contiguous first
tn_cols = Intrinsic(_tn_cols, _make_tn_cols)
KERNEL_CODE.add(_tn_cols.__code__)
