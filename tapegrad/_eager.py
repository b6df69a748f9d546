"""Compiled eager forwards for four cases NumPy computes slowly (issue 20's scripts):

- a broadcast add/sub/mul/div whose innermost run is short: ``(1000, 1, 16) - (1, 100, 16)``
  is 100,000 inner loops of 16 values to NumPy's iterator, 2.2 ms against PyTorch's 0.5;
- a sum over a short last axis: ``(100000, 16).sum(-1)`` calls NumPy's pairwise sum once a
  row, 2.0 ms against PyTorch's 0.4;
- float64 ``tanh``: NumPy's takes ~35 ns an element where it is libm's (one at a time; AVX-512
  machines have NumPy's own SIMD loop), 3.7x PyTorch's vectorised one, and was 40% of the MLP
  script's step;
- float64 ``sigmoid``: seven NumPy passes (ops/elementwise.py ``_sigmoid_np``), ~8% of
  the LSTM script's step; the kernel makes them one, with tanh's vectorisable exp.

The first two kernels compute NumPy's result bit for bit: the same IEEE operations in the
same order (for the sum, NumPy's pairwise order and its 0 start: ``tests/test_eager_kernels.py``
pins both against NumPy).  So a caller runs the kernel once it is compiled and NumPy until
then, and a value never depends on which ran: nothing waits for Numba.  ``tanh`` and
``sigmoid`` have their own formulas (Cephes' rational functions, written so LLVM vectorises
the loops: 1.5 and 2.5 ulp at most, NumPy's tanh 1.2, libm's exp in the old sigmoid's 2.3),
and their NumPy fallbacks evaluate the same IEEE operations in the same order: the same
values again, whichever ran (sigmoid's replay rule too: ``_sigmoid_of``).  The first call
of a dtype starts a thread that loads the kernel from Numba's cache (or compiles it, ~2 s once
per machine); ``tapegrad.warmup()`` loads them up front.

``Exit`` is the process's guard against exiting while such a thread runs LLVM
(tapegrad/_kernels.py's loads take it too).
"""
import atexit
import inspect
import os
import threading

import numpy as np

from ._jit import CACHE, DISABLED, load_numba, njit, rule, stamp_together
from ._rules import _u

# whether kernels load in threads while NumPy (here) or the interpreter (_kernels.py) runs:
# TAPEGRAD_BACKGROUND=0 compiles at first use, as Numba does by itself
BACKGROUND = (os.environ.get("TAPEGRAD_BACKGROUND", "1") != "0"
              and not os.environ.get("NUMBA_BOUNDSCHECK"))
MIN_SIZE = 1 << 14  # output elements from which a kernel beats NumPy's call (~10 us)
ADD, SUB, MUL, DIV = 0, 1, 2, 3  # the broadcast kernel's ops


class Exit:
    """The threads that load kernels are daemons, so a short script need not wait for a
    load; but loading runs LLVM outside the GIL, and a process must not exit in the middle
    of that (LLVM's static destructors would run under it).  So a load holds ``lock``, and
    at exit (``settle``) the lock is taken once more, after the load in progress, and no
    thread begins one after that.  A first call's thread (``_Kernel._prepare``) is waited
    for at exit, short of its load: on a cold cache it is what starts the background compile
    that a process leaves behind to fill the cache for the next one."""
    lock = threading.Lock()
    exiting = False
    preparing = []  # the first calls' threads

    @classmethod
    def unless_exiting(cls, fn, *args):
        with cls.lock:
            if not cls.exiting:
                fn(*args)

    @classmethod
    def settle(cls):
        """No load begins from now on; returns when the load in progress and the first
        calls' threads are done (Numba imported, a cold cache's compile started)."""
        with cls.lock:
            cls.exiting = True
        for t in list(cls.preparing):
            t.join()


atexit.register(Exit.settle)


def start_thread(target, *args, name):
    """Start a daemon thread for tapegrad's background work (loading or compiling kernels).

    NumPy imports ``numpy.ma`` lazily, on Numba's first ``typeof`` of an array, and that
    import calls ``ast.parse``.  CPython 3.11's AST builder keeps one depth counter per
    interpreter, so an ``ast.parse`` in our thread beside one in the caller's (pytest
    rewriting a module it imports, say) fails one of them with "SystemError: AST constructor
    recursion depth mismatch" (python/cpython#106905).  So the import happens here, on the
    caller's thread, before any of ours runs."""
    import numpy.ma  # noqa: F401
    t = threading.Thread(target=target, args=args, daemon=True, name=name)
    t.start()
    return t


# ---- broadcast add / sub / mul / div --------------------------------------------------
@rule(inline=True)
def _apply(op, x, y):
    if op == ADD:
        return x + y
    if op == SUB:
        return x - y
    if op == MUL:
        return x * y
    return x / y


@rule(inline=True)
def _runs(op, a, b, out, shape, sa, sb):
    # out (C order, ``shape``) = a (op) b, a and b read at element strides sa, sb (0 where
    # broadcast); the innermost run is its own loop, contiguous or of one repeated value.
    # The shape and strides are read once into locals: read from their arrays in the
    # loops, they may alias ``out`` to LLVM, and the loops ran 2.5x slower
    s0, s1, s2, s3 = shape[0], shape[1], shape[2], shape[3]
    a0, a1, a2, ta = sa[0], sa[1], sa[2], sa[3]
    b0, b1, b2, tb = sb[0], sb[1], sb[2], sb[3]
    n = _u(s3)
    po = _u(0)
    for i0 in range(s0):
        for i1 in range(s1):
            for i2 in range(s2):
                pa = _u(i0 * a0 + i1 * a1 + i2 * a2)
                pb = _u(i0 * b0 + i1 * b1 + i2 * b2)
                if ta == 1 and tb == 1:
                    for k in range(n):
                        out[po + k] = _apply(op, a[pa + k], b[pb + k])
                elif ta == 0 and tb == 1:
                    x = a[pa]
                    for k in range(n):
                        out[po + k] = _apply(op, x, b[pb + k])
                elif ta == 1 and tb == 0:
                    y = b[pb]
                    for k in range(n):
                        out[po + k] = _apply(op, a[pa + k], y)
                else:
                    for k in range(s3):
                        out[po + _u(k)] = _apply(op, a[pa + _u(k * ta)], b[pb + _u(k * tb)])
                po += n


@njit
def _broadcast_binary(op, a, b, out, shape, sa, sb):
    # one loop nest per op (inlined with the op a constant: no test of it in the loops,
    # which cost 1.7x)
    if op == ADD:
        _runs(ADD, a, b, out, shape, sa, sb)
    elif op == SUB:
        _runs(SUB, a, b, out, shape, sa, sb)
    elif op == MUL:
        _runs(MUL, a, b, out, shape, sa, sb)
    else:
        _runs(DIV, a, b, out, shape, sa, sb)


# ---- sum over the last axis -------------------------------------------------------------
PAIRWISE_BLOCK = 128  # NumPy's PW_BLOCKSIZE: longer rows split in halves (NumPy, not here)


@njit
def _sum_rows(x, out, n):
    # out[r] (zeroed) += NumPy's pairwise sum of row r (n <= 128 values): below 8 values
    # in order from 0; else 8 running sums over strides of 8, added as a tree, then the
    # rest in order (unsigned indices throughout: no wraparound tests)
    un, one = _u(n), _u(1)
    for r in range(len(out)):
        p = _u(r) * un
        if n < 8:
            for i in range(un):
                out[r] += x[p + i]
            continue
        r0, r1, r2, r3 = x[p], x[p + one], x[p + _u(2)], x[p + _u(3)]
        r4, r5, r6, r7 = x[p + _u(4)], x[p + _u(5)], x[p + _u(6)], x[p + _u(7)]
        q, end = p + _u(8), p + un - un % _u(8)
        while q < end:
            r0 += x[q]
            r1 += x[q + one]
            r2 += x[q + _u(2)]
            r3 += x[q + _u(3)]
            r4 += x[q + _u(4)]
            r5 += x[q + _u(5)]
            r6 += x[q + _u(6)]
            r7 += x[q + _u(7)]
            q += _u(8)
        s = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while q < p + un:
            s += x[q]
            q += one
        out[r] += s


# ---- float64 tanh ----------------------------------------------------------------------
# |x| < 0.625: x + x z P(z) / Q(z), z = x^2 (Cephes' tanh); above, 1 - 2 / (e^2|x| + 1)
# with e^t = 2^k (Q(r^2) + r P(r^2)) / (Q(r^2) - r P(r^2)), r = t - k ln 2 (Cephes' exp), the
# two divisions written as one; |x| clamped at 20 (tanh is 1.0 from 19.1), which keeps
# 2^k <= 2^58 and sends NaN down a path whose result the last select replaces
_TP = (-9.64399179425052238628e-1, -9.92877231001918586564e1, -1.61468768441708447952e3)
_TQ = (1.12811678491632931402e2, 2.23548839060100448583e3, 4.84406305325125486048e3)
_EP = (1.26177193074810590878e-4, 3.02994407707441961300e-2, 9.99999999999999999910e-1)
_EQ = (3.00198505138664455042e-6, 2.52448340349684104192e-3, 2.27265548208155028766e-1,
       2.00000000000000000009e0)
_LN2_HI, _LN2_LO = 6.93145751953125e-1, 1.42860682030941723212e-6  # (Cody-Waite split)
_LOG2E, _SMALL, _CLAMP = 1.4426950408889634073599, 0.625, 20.0
TP0, TP1, TP2 = _TP
TQ0, TQ1, TQ2 = _TQ
EP0, EP1, EP2 = _EP
EQ0, EQ1, EQ2, EQ3 = _EQ


def _tanh_pq_py(v):
    """Cephes' tanh rational function's P and Q at v^2.  ``_tanh_pq`` and ``_exp_pq`` are
    only +, - and *, so the kernels run them on numbers and the NumPy fallbacks
    (``_tanh_numpy``, ``_sigmoid_numpy``) on arrays: the same IEEE operations in the same
    order, the same values bit for bit."""
    z = v * v
    p = ((TP0 * z + TP1) * z + TP2) * z
    q = ((z + TQ0) * z + TQ1) * z + TQ2
    return p, q


def _exp_pq_py(t, kf):
    """Cephes' exp rational function at r = t - k ln 2 (``kf`` = k): e^t = 2^k (qx + px) /
    (qx - px)."""
    r = t - kf * _LN2_HI
    r = r - kf * _LN2_LO
    rr = r * r
    px = r * ((EP0 * rr + EP1) * rr + EP2)
    qx = ((EQ0 * rr + EQ1) * rr + EQ2) * rr + EQ3
    return px, qx


_tanh_pq = rule(inline=True)(_tanh_pq_py)
_exp_pq = rule(inline=True)(_exp_pq_py)


def _tanh_of_py(v):
    """One value's tanh: the kernel's loop body, and its small arrays' ufunc's
    (``_SmallUfunc``).  Branch-free (selects): LLVM vectorises the kernel's loop, one
    division per element; 2^k from k's bits by int32 shifts and selects (a table's gather
    kept the loop scalar)."""
    a = abs(v)
    t = (a if a < _CLAMP else _CLAMP) * 2.0
    ki = np.int32(t * _LOG2E + 0.5)  # (t >= 0: truncation is floor)
    p, q = _tanh_pq(v)
    px, qx = _exp_pq(t, np.float64(ki))
    dm = qx - px
    lo = np.float64(np.int32(1) << (ki & np.int32(15)))
    lo = lo * 65536.0 if ki & np.int32(16) else lo
    pw = lo * 4294967296.0 if ki & np.int32(32) else lo
    small = a < _SMALL
    c = (p if small else 2.0 * dm) / (q if small else pw * (qx + px) + dm)
    one = 1.0 - c
    y = v + v * c if small else (one if v >= 0.0 else -one)
    return y if a > 0.0 else v  # (+-0 keeps its sign, NaN stays NaN)


_tanh_of = rule(inline=True)(_tanh_of_py)


@njit
def _tanh(x, out):
    for i in range(len(x)):
        out[i] = _tanh_of(x[i])


def _tanh_numpy(x):
    """``_tanh``'s operations on a float64 array, in NumPy (its values bit for bit)."""
    with np.errstate(all="ignore"):
        a = np.abs(x)
        t = np.where(a < _CLAMP, a, _CLAMP) * 2.0
        ki = (t * _LOG2E + 0.5).astype(np.int32)
        p, q = _tanh_pq_py(x)
        px, qx = _exp_pq_py(t, ki.astype(np.float64))
        dm = qx - px
        pw = np.ldexp(1.0, ki)  # (2^k exactly, as the kernel's)
        small = a < _SMALL
        c = np.where(small, p, 2.0 * dm) / np.where(small, q, pw * (qx + px) + dm)
        one = 1.0 - c
        y = np.where(small, x + x * c, np.where(x >= 0.0, one, -one))
        return np.where(a > 0.0, y, x)


# ---- float64 sigmoid --------------------------------------------------------------------
# e = exp(-|x|) = 2^-k (qx + px) / (qx - px), tanh's exp, |x| clamped at 750 (e rounds to 0
# from 745.2 on; NaN takes that path and the last select puts it back); 2^-k as two exact
# normal factors 2^-m and 2^-(k - m), m = k >> 1 (2^-k alone is subnormal from k = 1023),
# so e rounds once, subnormal or not; with e = num / den, t = e / (1 + e) = num / (den +
# num) (one division) is sigmoid below 0 and 1 - t from +-0 up (t <= 1/2: t's rounding
# errors shrink in 1 - t, so y near 1, whose 1 - y a gradient reads, is within ~0.6 ulp).
# Branch-free: LLVM vectorises the loop (libm's exp, taken before, kept it scalar: an
# LSTM's (8, 128) gates 5.7 us against torch's 1.8).
_SIG_CLAMP = 750.0
_H1, _H2, _H4, _H8, _H16, _H32, _H64, _H128, _H256, _H512 = (2.0 ** -(1 << j)
                                                              for j in range(10))


def _pow2_neg_py(m):
    """2^-m, exactly, for 0 <= m <= 1022, from m's bits by selects (a table's gather, or
    an int-to-float bit cast, would keep the loop scalar)."""
    p = 1.0
    p = p * _H1 if m & 1 else p
    p = p * _H2 if m & 2 else p
    p = p * _H4 if m & 4 else p
    p = p * _H8 if m & 8 else p
    p = p * _H16 if m & 16 else p
    p = p * _H32 if m & 32 else p
    p = p * _H64 if m & 64 else p
    p = p * _H128 if m & 128 else p
    p = p * _H256 if m & 256 else p
    return p * _H512 if m & 512 else p


def _sigmoid_of_py(v):
    """One value's sigmoid: the kernel's loop body, the replay rule sigmoid_fwd's, and the
    fused replay kernels' (replay/fused.py embeds this source: _sigmoid_source)."""
    a = abs(v)
    ac = a if a < _SIG_CLAMP else _SIG_CLAMP
    ki = np.int32(ac * _LOG2E + 0.5)  # (ac >= 0: truncation is floor)
    px, qx = _exp_pq(-ac, -np.float64(ki))
    p1 = _pow2_neg(ki >> np.int32(1))
    p2 = p1 * 0.5 if ki & np.int32(1) else p1
    num = ((qx + px) * p1) * p2
    t = num / ((qx - px) + num)
    y = 1.0 - t if v >= 0.0 else t
    return y if v == v else v  # (NaN stays NaN, its sign kept)


_pow2_neg = rule(inline=True)(_pow2_neg_py)
_sigmoid_of = rule(inline=True)(_sigmoid_of_py)


def _sigmoid_source():
    """``_sigmoid_of``'s source, self-contained (its constants as literals, its helpers'
    sources, compiled by ``njit``), for generated modules that call ``_sigmoid(x)``."""
    names = ("_LN2_HI", "_LN2_LO", "_LOG2E", "_SIG_CLAMP", "EP0", "EP1", "EP2", "EQ0", "EQ1",
             "EQ2", "EQ3", "_H1", "_H2", "_H4", "_H8", "_H16", "_H32", "_H64", "_H128",
             "_H256", "_H512")
    lines = [f"{n} = {globals()[n]!r}" for n in names]
    for fn in (_exp_pq_py, _pow2_neg_py, _sigmoid_of_py):
        lines += ["", "", inspect.getsource(fn).rstrip()]
    lines += ["", "", "_exp_pq = njit(_exp_pq_py)", "_pow2_neg = njit(_pow2_neg_py)",
              "_sigmoid = njit(_sigmoid_of_py)"]
    return "\n".join(lines)


def _sigmoid_numpy(x):
    """``_sigmoid_of``'s operations on a float64 array or scalar, in NumPy (its values bit
    for bit: ops/elementwise.py's path while the kernel loads, and for 0-d values)."""
    with np.errstate(all="ignore"):
        a = np.abs(x)
        ac = np.where(a < _SIG_CLAMP, a, _SIG_CLAMP)
        ki = (ac * _LOG2E + 0.5).astype(np.int32)
        px, qx = _exp_pq_py(-ac, -ki.astype(np.float64))
        p1 = np.ldexp(1.0, -(ki >> 1))  # (2^-m exactly, as the kernel's selects)
        p2 = np.where(ki & 1, p1 * 0.5, p1)
        num = ((qx + px) * p1) * p2
        t = num / ((qx - px) + num)
        return np.where(x == x, np.where(x >= 0.0, 1.0 - t, t), x)


@njit
def _sigmoid(x, out):
    for i in range(len(x)):
        out[i] = _sigmoid_of(x[i])


@njit
def _fma(a, b, c, out):
    """``a * b + c`` rounded once, element by element (each of a, b, c as long as ``out``,
    or of length 1: a scalar): _fp.fma's operations in its order (Dekker's exact product,
    Knuth's exact sum, one rounding of their total), so its values bit for bit."""
    sa, sb, sc = len(a) > 1, len(b) > 1, len(c) > 1
    for i in range(len(out)):
        x = a[i if sa else 0]
        y = b[i if sb else 0]
        z = c[i if sc else 0]
        p = x * y
        t = 134217729.0 * x
        xh = t - (t - x)
        xl = x - xh
        t = 134217729.0 * y
        yh = t - (t - y)
        yl = y - yh
        e = ((xh * yh - p) + xh * yl + xl * yh) + xl * yl
        s = p + z
        v = s - p
        r = s + (((p - (s - v)) + (z - v)) + e)
        out[i] = r if r - r == 0.0 else p + z  # (r - r: 0 unless r is inf or nan)


stamp_together(_broadcast_binary, _sum_rows, _tanh, _sigmoid, _fma)
KERNELS = (_broadcast_binary, _sum_rows, _tanh, _sigmoid, _fma)


class _Ready:
    """A kernel as the eager forwards call it: its dispatcher once compiled for a dtype,
    else None (the caller computes with NumPy) while a thread loads it (or compiles it)."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.ready = {}  # dtype char -> the dispatcher, once compiled for it
        self.loading = set()

    def get(self, dt, args):
        d = self.ready.get(dt.char)
        if d is not None or DISABLED:  # (interpreted, a kernel is far slower than NumPy)
            return d
        k = self.kernel
        if not BACKGROUND or (k.ready and self._sig(args) in k.overloads):  # (warmup())
            d = self.ready[dt.char] = k.dispatcher
            return d
        if dt.char not in self.loading:
            self.loading.add(dt.char)
            start_thread(Exit.unless_exiting, self._load, dt, args,
                         name=f"tapegrad {k.__name__}")
        return None

    def _sig(self, args):
        return tuple(self.kernel.typeof_pyval(a) for a in args)

    entry = None  # the compiled function's entry point for the arguments ``first`` ran

    def first(self, dt, args):
        """Run the kernel on ``args`` through its dispatcher and keep the entry point of
        their signature (callers then call ``entry`` on arguments of the same types, which
        skips the dispatcher's typing of them: ~1 us a call); False while not loaded."""
        d = self.get(dt, args)
        if d is None:
            return False
        d(*args)
        if self.entry is None:
            self.entry = d.overloads[self._sig(args)].entry_point
        return True

    def _load(self, dt, args):
        self.kernel.compile(self._sig(args))  # (from Numba's cache, or compiled)
        self.ready[dt.char] = self.kernel.dispatcher


class _SmallUfunc:
    """A one-value rule (float64 to float64) as a NumPy ufunc compiled by Numba, for small
    arrays: its call costs a NumPy ufunc's (np.tanh's at 4 values), where the kernel's
    entry point unboxes two arrays (~0.6 us more, ~8% of bench_eager_vector's 4-value
    forward); its loop is not vectorised, so above UFUNC_MAX values the kernel runs.  Both
    compute one formula: a value does not depend on which ran (the ops call it under their
    quiet error state, as any ufunc: inf and nan set FP flags).  ``ufunc`` is None until a
    thread has built it (from Numba's cache, or compiled, ~2 s): the kernel runs meanwhile."""

    def __init__(self, fn):
        self.fn = fn
        self.ufunc = None
        self.lock = threading.Lock()
        self.loading = False

    def get(self):
        if self.ufunc is None and not self.loading and not DISABLED:
            self.loading = True
            if BACKGROUND:
                start_thread(Exit.unless_exiting, self.build, name=f"tapegrad {self.fn.__name__}")
            else:
                self.build()
        return self.ufunc

    def build(self):
        """Build the ufunc now (warmup(), or the thread get() starts); returns it."""
        with self.lock:
            if self.ufunc is None and not DISABLED:
                vectorize = load_numba().vectorize
                try:
                    u = vectorize(["float64(float64)"], nopython=True, cache=CACHE)(self.fn)
                except Exception:  # (no writable cache location, a damaged cache file: a
                    # ufunc need not be cached; _jit.py reports these for the kernels)
                    u = vectorize(["float64(float64)"], nopython=True)(self.fn)
                self.ufunc = getattr(u, "ufunc", u)  # (the NumPy ufunc itself: no dispatch)
        return self.ufunc


UFUNC_MAX = 16  # elements up to which tanh calls its ufunc (_SmallUfunc)
_BINARY = _Ready(_broadcast_binary)
_SIGMOID = _Ready(_sigmoid)
_FMA = _Ready(_fma)
_SUM = _Ready(_sum_rows)
_TANH = _Ready(_tanh)
_TANH_SMALL = _SmallUfunc(_tanh_of_py)
_F = _F64, _F32 = (np.dtype(np.float64), np.dtype(np.float32))


def _strides(shape):
    """Element strides of a C-contiguous array of ``shape`` read at 4 dims (right-aligned):
    0 on its dims of length 1, which broadcast."""
    out, step = [0, 0, 0, 0], 1
    shape = (1,) * (4 - len(shape)) + tuple(shape)
    for i in range(3, -1, -1):
        if shape[i] != 1:
            out[i] = step
            step *= shape[i]
    return out


def broadcast_binary(op, a, b, shape):
    """``a (op) b`` broadcast to ``shape`` (the result, C order) by the compiled kernel, or
    None where it does not apply (NumPy then): a and b C-contiguous arrays of one float
    dtype, writeable (one signature per dtype), at most 4 dims, and a large result."""
    dt = a.dtype
    if (len(shape) > 4 or dt is not b.dtype or dt not in _F or not a.flags.c_contiguous
            or not b.flags.c_contiguous or not a.flags.writeable or not b.flags.writeable):
        return None
    size = 1
    for s in shape:
        size *= s
    if size < MIN_SIZE:
        return None
    out = np.empty(shape, dt)
    full = np.array((1,) * (4 - len(shape)) + tuple(shape), np.int64)
    args = (op, a.reshape(-1), b.reshape(-1), out.reshape(-1), full,
            np.array(_strides(a.shape), np.int64), np.array(_strides(b.shape), np.int64))
    d = _BINARY.get(dt, args)
    if d is None:
        return None
    d(*args)
    return out


def sum_last(x, keepdim):
    """``x.sum(-1)`` (NumPy's values) by the compiled kernel, or None where it does not
    apply: x a C-contiguous, writeable float array, its last axis 2..128 long, many rows."""
    dt = x.dtype
    n = x.shape[-1] if x.ndim else 0
    if (not 1 < n <= PAIRWISE_BLOCK or dt not in _F or x.size < MIN_SIZE
            or not x.flags.c_contiguous or not x.flags.writeable):
        return None
    out = np.zeros(x.shape[:-1] + ((1,) if keepdim else ()), dt)
    args = (x.reshape(-1), out.reshape(-1), n)
    d = _SUM.get(dt, args)
    if d is None:
        return None
    d(*args)
    return out


# (globals: NumPy's module has a __getattr__, so CPython cannot specialise np.* loads)
_ndarray, _empty = np.ndarray, np.empty


def tanh(x):
    """tanh's eager forward (make_unary's NumPy function): ``_tanh`` for a float64 array
    (its NumPy fallback until compiled), ``np.tanh`` for anything else (float32's is
    vectorised already).  Every float64 array of any size takes the kernel's formula (a
    value does not depend on its array's size).  Up to UFUNC_MAX values the formula runs as
    a NumPy ufunc (``_SmallUfunc``: np.tanh's call cost); above, a 1-d C-contiguous
    writeable array, the common case, calls the compiled function's entry point, whose
    argument types are then known, without the dispatcher's typing of them (at 256 values
    ~4 us against NumPy's libm ~10, where NumPy has no SIMD tanh)."""
    if type(x) is not _ndarray or x.dtype is not _F64 or not x.ndim:
        return np.tanh(x)
    if x.size <= UFUNC_MAX:  # (any layout: a ufunc's result is a new C-contiguous array)
        uf = _TANH_SMALL.ufunc or _TANH_SMALL.get()
        if uf is not None:
            return uf(x)
    entry = _TANH.entry
    if entry is not None and x.ndim == 1 and x.flags.carray:
        out = _empty(len(x))
        entry(x, out)
        return out
    out = np.empty(x.shape)
    flat = x.reshape(-1) if x.flags.c_contiguous and x.flags.writeable else x.ravel().copy()
    if not _TANH.first(_F64, (flat, out.reshape(-1))):
        out.reshape(-1)[:] = _tanh_numpy(flat)  # (into out: a new C-contiguous array)
    return out


def sigmoid(x):
    """float64 sigmoid of a float64 array with dims by the compiled kernel (one pass
    instead of seven NumPy calls: an LSTM's (8, 128) gates ~0.6x the time), or None where
    it does not apply or is not loaded yet (the caller's NumPy then: the same values).  A
    C-contiguous writeable array, the common case, calls the kernel's entry point, as tanh
    (the dispatcher's typing of the two arguments cost ~1 us of a 1,024-value call)."""
    if x.dtype is not _F64 or not x.ndim:
        return None
    entry = _SIGMOID.entry
    if entry is not None and x.flags.carray:
        out = _empty(x.shape)
        entry(x.reshape(-1), out.reshape(-1))
        return out
    flat = x.reshape(-1) if x.flags.c_contiguous and x.flags.writeable else x.ravel().copy()
    out = np.empty(x.shape)
    return out if _SIGMOID.first(_F64, (flat, out.reshape(-1))) else None


tanh.fresh = True  # its result is a new C-contiguous array, as a ufunc's (make_unary)


def fma(a, b, c):
    """_fp.fma's values for float64 ndarrays a, b, c by the compiled kernel, or None where
    it does not apply or is not loaded yet (the caller's NumPy operations then: the same
    values): each 0-d or of one shape, C-contiguous and writeable.  Its ~20 NumPy calls
    were most of an optimizer step on small parameters (SGD's ``add_`` with alpha: ~30 us a
    4-value parameter)."""
    shape = ()
    for x in (a, b, c):
        if x.dtype is not _F64 or not x.flags.carray:
            return None
        if x.ndim:
            if shape and x.shape != shape:
                return None
            shape = x.shape
    out = _empty(shape)
    args = (a.reshape(-1), b.reshape(-1), c.reshape(-1), out.reshape(-1))
    entry = _FMA.entry
    if entry is not None:
        entry(*args)
        return out
    return out if _FMA.first(_F64, args) else None
