"""Fused kernels per tape (tapegrad/replay/fused.py, issue 21) against the interpreter and
the peers: batch value AND gradient of the extended Rosenbrock function, in its two forms
(``loop``: a scalar tape of ~11 rows per term; ``vector``: slices and ``.sum()``, 11 rows
of n - 1 elements), at B = 10^4 points (10^6 with ``TAPEGRAD_BENCH_BIG=1``: ~1 GB of
points at n = 100), n = 10 and 100.

Group ``fused <form> n=<n> B=<B>``, every peer on ONE thread where it has a choice:

- ``tapegrad fused``: the tape's generated kernel (``compile_fused(wait=True)`` first,
  untimed; its compile time is ``extra_info['compile_s']``), ``Traced.run(serial=True)``
  into preallocated outputs;
- ``tapegrad interpreter``: the same call with the fused tier off (``_replay_blocks``);
- ``numba hand-written``: the analytic value and gradient, one pass per point;
- ``jax jit(vmap(value_and_grad))``: X on the device, output blocked (XLA picks its
  threads).

- ``pytensor C`` / ``pytensor numba``: ``pytensor.function([X], [F, grad(F.sum(), X)])``
  over the whole batch as a PyTensor user writes it (the vector form on column slices
  ``X[:, 1:]``, the loop form on columns ``X[:, i]``), in its default mode (C thunks, its
  fused elementwise loops) and its Numba mode, ``trust_input`` set; compile apart
  (``extra_info['compile_s']``).  Optional: PyTensor pins numba <= 0.65.1, and runs here
  beside numba 0.68 when installed without its pins (benchmarks/README.md).  Left out of
  the smoke run (``--benchmark-disable``) but for the vector form at n = 10: its loop form
  compiles for 20-30 s at n = 100 on a quiet machine (110-170 s at load 20).

Group ``fresh n=<n> B=<B>``: ``value_and_grad_batch(X)`` (fresh outputs, all cores) against
``out=`` preallocated, fused: the first-touch cost of fresh outputs.  Chosen: outputs of
64 MB or more are pre-faulted in one ``madvise(MADV_POPULATE_WRITE)`` before a run on
several cores (fused.prefault; no reuse: outputs handed to the caller are theirs).  10^6
points, n = 100, wall min of 4, 18:55 UTC: out= 0.55 s, fresh 1.88 s (median 5.5 s),
filled first 0.86 s; with the pre-fault: out= 0.34 s, fresh 0.50 s (median 0.57 s).

Under ``--benchmark-disable`` (CI) only the vector form at n = 10 compiles a kernel (a few
seconds), at 1,000 points; every result is checked against the hand-written gradient, and
the fused kernel's bit for bit against the interpreter's.

Measured (2 cores shared with ~6 other jobs, load 8-9; medians, one thread; 13:20-13:35
UTC 2026-12-03, ``TAPEGRAD_BENCH_BIG=1``), time relative to hand-written Numba:

| case | fused | interpreter | JAX jit(vmap) | fused compile (cold / loaded) |
| --- | --- | --- | --- | --- |
| loop n=10, 10^4 | 1.25x | 4.66x | 7.34x | 7.1 s / 1.6 s |
| vector n=10, 10^4 | 1.26x | 4.04x | 6.39x | 4.3 s / 0.3 s |
| vector n=100, 10^4 | 6.69x | 12.5x | 12.5x | 7.1 s / 0.4 s |
| loop n=100, 10^4 | not fused (792 rows > MAX_ROWS) | 11.9x | 297x | - |
| loop n=100, 10^4 (16:05) | 1.83x min, 3.33x median | 11.8x | 421x | 22.5 s / 0.35 s |
| loop n=10, 10^6 | 1.63x | 5.98x | 11.0x | |
| vector n=10, 10^6 | 0.84x | 4.66x | 13.8x | |
| vector n=100, 10^6 | 1.97x | 5.82x | 14.5x | |

(cold: generate and compile in a new cache; loaded: another process, from the disk cache.)
The medians swing 2-4x between runs on this machine (vector n=100, 10^4: JAX 21.9 ms in
one run, 4.2 ms in another); with array adjoints no longer zeroed per point where a loop
first sets them, vector n=100 at 10^4 points, min of 15 x 5 calls: fused 2.4-2.5x the
hand-written time (3.2x before that change).  With loop results stored back only where
read (fused.py, ``_live``), 16:15 UTC, min: vector n=100 1.92x (2.50x in the run before,
same load); with a sum's reverse setting its operand's adjoint at first use (no zeroing
pass), 16:26 UTC: 1.67x min; with a sum taken in the loop that computes its operand (no
store and reload), 16:29 UTC: 1.56x min (vector n=10 unchanged: fused 152 us min).  The
medians of these runs (4-7x for fused and JAX alike) are the machine's load.
The loop form at n = 100 (1,089 rows) is fused since the kernels are single-assignment
(compile ~linear in rows; MAX_ROWS 2,500).

18:20-19:05 UTC (load 10-13; ``--benchmark-timer=time.process_time``), the same run of
every peer before (6225b37) and after this session's generator changes (inputs read from
X and adjoints summed in G, a sum's reverse in its loop, straight-line kernels
interleaved, zero starts dropped), min (median) relative to hand-written Numba, 10^4:

| case | fused before | fused after | interpreter | JAX jit(vmap) |
| --- | --- | --- | --- | --- |
| loop n=10 | 1.37x (1.24x) | 1.23x (1.46x) | 4.0x | 1.6-5.8x (7.3-7.7x) |
| loop n=100 | 1.83x (2.72x) | 1.40x (1.32x) | 6.4x | 169x |
| vector n=10 | 1.39x (1.56x) | 1.22x (1.10x) | 3.9x | 2.4-3.6x (7.3-8.7x) |
| vector n=100 | 1.58x (1.71x) | 1.15x (1.40x) | 5.4x | 2.6-3.7x (3.4-4.4x) |

Interleaved A/B of the generated kernels alone (tmp harness, CPU min of 30-60): vector
n=100 1.47x -> 1.19x, loop n=100 1.79x -> 1.38x, loop n=10 1.38x -> 1.19x, vector n=10
1.23x -> 1.06x.  10^6 points, fused only, min: loop n=10 1.37x -> 0.92x, vector n=10
1.16x -> 1.18x, vector n=100 1.86x -> 1.58x, loop n=100 2.13x -> 1.77x.  Cold compile
(wall, loaded): vector n=100 16.6 s -> 1.7 s, loop n=100 61 s -> 18.5 s.  The loop form
at n = 100 stays ~1.4x: kept bit for bit, the rules' arithmetic is ~19 flops a term
against the hand-written ~14 (``gy * 2.0 * a``, ``0.0 - g``), and the kernel is
throughput-bound on them.

10^6 against 10^4 points (2026-12-03 22:45-23:05 UTC, load ~13): the ratio does not grow
with the size.  In one process, interleaved, CPU medians of 11 rounds: loop n=100 1.34x at
10^6 against 1.35x on a 10^4-point slice (in L3) run 100 times, vector n=100 1.24x against
1.14x.  This group runs one thread into preallocated outputs, so fresh outputs, threads
and pre-faulting do not enter it (the ``fresh`` group has them).  The command
``TAPEGRAD_BENCH_BIG=1 pytest benchmarks/bench_fused.py --benchmark-timer=time.process_time
-k "B1000000 and n100 and (tapegrad_fused or hand)"``, min (median): vector 1.10x (1.16x),
loop 1.59x (1.49x); after ``0.0 - P`` -> ``-(P)`` (fused._drop_zero_starts; interleaved,
10^5 points, loop n=100 1.39x -> 1.28x, n=10 1.18x -> 1.05x): vector 1.09x (0.98x), loop
1.39x (1.44x).  The loop form's gap is its kernel's at every size.

2026-12-04 01:50-02:00 UTC (load 9-12), this command before (3acb77f) and after the
interleaved kernels' late loads and early gradient stores and the merged first loops
(``fused._interleave``, ``fused._merged``): ``pytest benchmarks/bench_fused.py -k "test_fused
and B10000 and n100" --benchmark-timer=time.process_time``, min (median) relative to
hand-written Numba:

| case | fused before | fused after (two runs) | interpreter | JAX jit(vmap) |
| --- | --- | --- | --- | --- |
| loop n=100 | 1.29x (1.41x) | 1.14x (0.87x), 1.13x (1.27x) | 5.8-6.9x | 166-173x |
| vector n=100 | 1.13x (1.23x) | 1.17x (1.36x), 1.17x (1.24x) | 5.1-5.5x | 2.8-3.0x |

Interleaved in one process (the generated kernels alone, 10^4 points, CPU, 60-100
rounds): loop n=100 1.126x -> 1.015x median, 1.265x -> 1.124x min (the 100 inputs and 100
gradients no longer live across the point: loads before their first use, each gradient
stored once summed); vector n=100, two runs, 1.216x/1.196x -> 1.169x/1.172x median,
1.182x/1.182x -> 1.160x/1.170x min (the forward loop and the reverse's first run as one:
t and 1 - x not stored and loaded).  At n = 10 the late loads and early stores ran 1-3%
slower (min), so they apply past 16 loads only (``fused.REGISTERS``): n = 10's kernels
are the same as before.
"""
import os
import time

import numba
import numpy as np
import pytest

import tapegrad as tg
from tapegrad import bench as tb
from tapegrad.replay import fused

if os.environ.get("NUMBA_DISABLE_JIT", "0") == "1":
    pytestmark = pytest.mark.skip("NUMBA_DISABLE_JIT=1: no fused kernels")

NS = (10, 100)
POINTS = (10**4, 10**6) if os.environ.get("TAPEGRAD_BENCH_BIG") == "1" else (10**4,)
SMOKE_POINTS = 1000
PEERS = ("tapegrad fused", "tapegrad interpreter", "numba hand-written",
         "jax jit(vmap(value_and_grad))", "pytensor C", "pytensor numba")
PYTENSOR_MODES = {"pytensor C": "FAST_RUN", "pytensor numba": "NUMBA"}
REL = 1e-10


@numba.njit(cache=True, nogil=True)
def rosen_value_and_grad_numba(X, V, G):
    """Hand-written value and analytic gradient, one point after another (one thread)."""
    n = X.shape[1]
    for p in range(X.shape[0]):
        prev = 0.0
        v = 0.0
        for i in range(n - 1):
            xi = X[p, i]
            t = X[p, i + 1] - xi * xi
            u = 1.0 - xi
            v += 100.0 * t * t + u * u
            G[p, i] = prev - 400.0 * t * xi - 2.0 * u
            prev = 200.0 * t
        G[p, n - 1] = prev
        V[p] = v


def _disabled(config):
    return bool(config.getoption("benchmark_disable", False))


def pytest_generate_tests(metafunc):
    if metafunc.function is test_fused:
        smoke = _disabled(metafunc.config)
        cases = [(form, n, B, peer) for form in ("loop", "vector") for n in NS
                 for B in ((SMOKE_POINTS,) if smoke else POINTS) for peer in PEERS
                 if not (smoke and peer in ("tapegrad fused", *PYTENSOR_MODES)
                         and (form, n) != ("vector", 10))]
        metafunc.parametrize("form,n,B,peer", cases,
                             ids=[f"{f}-n{n}-B{B}-{p.replace(' ', '_')}"
                                  for f, n, B, p in cases])
    if metafunc.function is test_fresh:
        smoke = _disabled(metafunc.config)
        B = SMOKE_POINTS if smoke else POINTS[-1]
        metafunc.parametrize("n,B,out", [(n, B, o) for n in ((10,) if smoke else NS)
                                         for o in (True, False)])


_COMPILED = {}


def _traced(form, n, fuse):
    """(Compiled, its trace, its kernel status) per form and n, compiled once a session."""
    key = (form, n, fuse)
    if key not in _COMPILED:
        f = tg.compile(tb.FORMS[form], fused=False)
        f.value_and_grad(tb.rosen_points(1, n)[0])  # (the trace)
        status = f.compile_fused(wait=True)[0] if fuse else "interpreted"
        _COMPILED[key] = (f, f.traces[((n,),)][0], status)
    return _COMPILED[key]


def _pytensor(form, n, mode):
    """(function, compile seconds): PyTensor's batch value and gradient of ``form``."""
    pytensor = pytest.importorskip("pytensor")
    X = pytensor.tensor.dmatrix("X")
    if form == "vector":
        a, b = X[:, :-1], X[:, 1:]
        F = (100 * (b - a ** 2) ** 2 + (1 - a) ** 2).sum(axis=1)
    else:
        F = sum(100 * (X[:, i + 1] - X[:, i] ** 2) ** 2 + (1 - X[:, i]) ** 2
                for i in range(n - 1))
    start = time.perf_counter()
    fn = pytensor.function([X], [F, pytensor.grad(F.sum(), X)], mode=mode)
    fn.trust_input = True  # (float64 C-ordered X: no conversion per call)
    return fn, time.perf_counter() - start


def _check(X, V, G):
    Gr = tb.rosen_grad_numpy(X)
    Vr = np.array([tb.rosen(x) for x in X[:50]])
    np.testing.assert_allclose(G, Gr, rtol=REL, atol=REL * np.abs(Gr).max())
    np.testing.assert_allclose(V[:50], Vr, rtol=REL)


def test_fused(benchmark, form, n, B, peer):
    benchmark.group = f"fused {form} n={n} B={B}"
    X = tb.rosen_points(B, n)
    V = np.empty(B)
    G = np.empty_like(X)
    info = {"points": B, "threads": 1}
    if peer in ("tapegrad fused", "tapegrad interpreter"):
        fuse = peer == "tapegrad fused"
        f, t, status = _traced(form, n, fuse)
        if fuse and status != "fused":
            pytest.skip(f"not fused: {status}")
        if fuse:
            info["compile_s"] = round(t._fused.seconds, 3)
        fused.set_enabled(fuse)
        bad = np.zeros(B, np.int64)
        try:
            t.run(X, True, out=(V, G), serial=True, bad=bad)  # (warm: buffers, threads)
            benchmark(t.run, X, True, out=(V, G), serial=True, bad=bad)
        finally:
            fused.set_enabled(True)
        if fuse:  # bit for bit the interpreter's
            fused.set_enabled(False)
            try:
                V0, G0, _ = t.run(X, True)
            finally:
                fused.set_enabled(True)
            assert np.array_equal(V, V0) and np.array_equal(G, G0)
        info["rows"] = len(t.rows)
    elif peer == "numba hand-written":
        rosen_value_and_grad_numba(X[:2], V[:2], G[:2])  # (compile or load, untimed)
        benchmark(rosen_value_and_grad_numba, X, V, G)
    elif peer in PYTENSOR_MODES:
        fn, info["compile_s"] = _pytensor(form, n, PYTENSOR_MODES[peer])
        fn(X)  # (first call: thunks and buffers, untimed)
        V[:], G[:] = benchmark(fn, X)
        info["threads"] = "pytensor"
    else:
        jax = pytest.importorskip("jax")
        jax.config.update("jax_enable_x64", True)
        jf = jax.jit(jax.vmap(jax.value_and_grad(tb.FORMS[form])))
        Xj = jax.device_put(X)
        jf(Xj)[1].block_until_ready()  # (trace and XLA compile, untimed)

        def run():
            v, g = jf(Xj)
            return g.block_until_ready(), v
        g, v = benchmark(run)
        V[:], G[:] = np.asarray(v), np.asarray(g)
        info["threads"] = "xla"
    _check(X, V, G)
    info["ns_per_point"] = round(benchmark.stats.stats.median / B * 1e9, 1) \
        if benchmark.stats else None
    benchmark.extra_info.update(info)


def test_fresh(benchmark, n, B, out):
    """Fused value_and_grad_batch on all cores: fresh outputs against out=."""
    benchmark.group = f"fresh n={n} B={B}"
    f, t, status = _traced("vector", n, True)
    if status != "fused":
        pytest.skip(f"not fused: {status}")
    X = tb.rosen_points(B, n)
    if out:
        V, G = np.empty(B), np.empty_like(X)
        V, G = benchmark(f.value_and_grad_batch, X, out=(V, G))
    else:
        V, G = benchmark(f.value_and_grad_batch, X)
    _check(X, V, G)
    benchmark.extra_info.update(points=B, out=out)
