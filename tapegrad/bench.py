"""Workloads for ``tapegrad bench`` and for ``benchmarks/bench_replay.py``: one definition.

Nothing here is imported by ``import tapegrad``; each peer (torch, jax, HIPS autograd) is
imported inside its builder, only when asked for, and a missing one raises
``ModuleNotFoundError`` (the CLI leaves it out, pytest skips it).

- Replay: gradients of the extended Rosenbrock function at B points of dimension n.
  ``rosen`` (vector ops) and ``rosen_loop`` (a scalar loop over components) are written
  once and run unchanged on tapegrad, JAX and torch arrays; the hand-written gradients
  (Numba, Numba ``parallel=True``, NumPy) are the practical limits.
- Eager: the scalar graph ``y = y * a + sin(y) * b`` (4 ops per step), record and backward.
- Start-up: import plus a first gradient, in a fresh interpreter.

``main()`` is ``tapegrad bench``: a quick run of all three against whichever peers are
installed, printing medians and ratios (library time over tapegrad's).
"""
import json
import math
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from importlib import metadata
from typing import Callable, Optional

import numba
import numpy as np


def passive_omp_waits():
    """``OMP_WAIT_POLICY=PASSIVE`` unless set: OpenMP threads sleep instead of spinning.

    libgomp's threads spin while they wait, and on a small machine shared with other work
    (2 cores here) a spinning thread starves the one it waits for: measured at 10^4 points,
    Numba's ``parallel=True`` gradient took 8 ms instead of 0.12 ms per call and
    torch.func's 74-214 ms instead of 1.7 ms.  Only takes effect before torch (or Numba's
    OpenMP layer) is loaded; tapegrad's own threads are plain threads and never spin.
    """
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    return os.environ["OMP_WAIT_POLICY"]


# -- the Rosenbrock workload ------------------------------------------------------------
def rosen(x):
    """Extended Rosenbrock with vector ops: tapegrad, torch and jax arrays alike."""
    return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()


def rosen_loop(x):
    """The same function as a scalar loop over components: ~11 ops per term."""
    return sum(100 * (x[i + 1] - x[i] ** 2) ** 2 + (1 - x[i]) ** 2 for i in range(x.shape[0] - 1))


FORMS = {"vector": rosen, "loop": rosen_loop}


def rosen_points(B, n, seed=0):
    """B points of dimension n, uniform in [-2, 2] (the function's interesting region)."""
    return np.random.default_rng(seed).uniform(-2.0, 2.0, size=(B, n))


def rosen_grad_numpy(X):
    """Hand-written, vectorised over points: df/dx_i = -400 t_i x_i - 2 (1 - x_i) + 200 t_{i-1},
    with t_i = x_{i+1} - x_i^2."""
    x = X[:, :-1]
    t = X[:, 1:] - x * x
    G = np.empty_like(X)
    G[:, :-1] = -400.0 * t * x - 2.0 * (1.0 - x)
    G[:, -1] = 0.0
    G[:, 1:] += 200.0 * t
    return G


@numba.njit(nogil=True)
def _rosen_grad_point(X, G, p):
    # one pass over the components, carrying 200 t_{i-1} into the next component
    n = X.shape[1]
    prev = 0.0
    for i in range(n - 1):
        xi = X[p, i]
        t = X[p, i + 1] - xi * xi
        G[p, i] = prev - 400.0 * t * xi - 2.0 * (1.0 - xi)
        prev = 200.0 * t
    G[p, n - 1] = prev


@numba.njit(cache=True, nogil=True)
def rosen_grad_numba(X):
    """Hand-written analytic gradient, one point after another: the single-core limit."""
    G = np.empty_like(X)
    for p in range(X.shape[0]):
        _rosen_grad_point(X, G, p)
    return G


@numba.njit(cache=True, nogil=True, parallel=True)
def rosen_grad_numba_parallel(X):
    """The same with the points spread over all cores (``prange``)."""
    G = np.empty_like(X)
    for p in numba.prange(X.shape[0]):
        _rosen_grad_point(X, G, p)
    return G


@dataclass
class Replay:
    """One library's batch gradient: ``run(prepare(X))`` returns the finished gradients."""

    library: str
    prepare: Callable  # X (B, n) ndarray -> the library's input (untimed: data already there)
    run: Callable  # that input -> gradients, computed to the end (JAX: blocked)
    to_numpy: Callable = np.asarray
    stats: Optional[Callable] = None  # () -> dict for extra_info (tapegrad's tape)
    threads: Optional[int] = None
    note: str = ""



def casadi_value_and_grad(F, n):
    """``x -> (f, gradient)`` by the CasADi ``Function`` F of (f, its gradient) of n inputs,
    called through ``Function.buffer()`` with preallocated NumPy arrays (CasADi's fastest
    call from Python; bench_single_point.py, bench_fastest_west.py)."""
    buf, evaluate = F.buffer()
    x_in, v, g = np.zeros(n), np.zeros(1), np.zeros(n)
    buf.set_arg(0, memoryview(x_in))
    buf.set_res(0, memoryview(v))
    buf.set_res(1, memoryview(g))

    def call(x, _keep=(buf, F)):  # (the buffer must outlive every call: CasADi segfaults)
        x_in[:] = x
        evaluate()
        return v[0], g
    return call

# library -> (module it needs, display name); the AD libraries get " (loop)" for that form
REPLAY_LIBRARIES = {
    "tapegrad": ("tapegrad", "tapegrad"),
    "numba": ("numba", "numba hand-written"),
    "numba-parallel": ("numba", "numba hand-written parallel"),
    "jax": ("jax", "jax jit(vmap(grad))"),
    "torch": ("torch", "torch.func vmap(grad)"),
    "numpy": ("numpy", "numpy hand-written"),
}
HAND_WRITTEN = ("numba", "numba-parallel", "numpy")  # the same code for either form


def replay_workload(library, form, n):
    """The ``Replay`` of ``library`` for ``FORMS[form]`` at dimension n."""
    name = REPLAY_LIBRARIES[library][1]
    if library not in HAND_WRITTEN and form != "vector":
        name += f" ({form})"
    return _REPLAY_BUILDERS[library](name, FORMS[form], n)


def _replay_tapegrad(name, f, n):
    import tapegrad as tg
    from tapegrad.replay import _CORES

    c = tg.compile(f)
    return Replay(name, lambda X: X, c.grad_batch,
                  stats=lambda: tg.trace(f, np.zeros(n)).stats(), threads=_CORES)


def _replay_numba(name, f, n):
    return Replay(name, lambda X: X, rosen_grad_numba, threads=1)


def _replay_numba_parallel(name, f, n):
    return Replay(name, lambda X: X, rosen_grad_numba_parallel, threads=numba.get_num_threads())


def _replay_numpy(name, f, n):
    return Replay(name, lambda X: X, rosen_grad_numpy, threads=1)


def _replay_jax(name, f, n):
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)  # float64, as every other library here
    jf = jax.jit(jax.vmap(jax.grad(f)))
    note = ("input already on the device (jnp.asarray, untimed); output blocked "
            "(block_until_ready): JAX's best case")
    return Replay(name, jnp.asarray, lambda X: jf(X).block_until_ready(), note=note)


def _replay_torch(name, f, n):
    import torch

    tf = torch.func.vmap(torch.func.grad(f))
    return Replay(name, torch.from_numpy, tf, to_numpy=lambda g: g.numpy(),
                  threads=torch.get_num_threads())


_REPLAY_BUILDERS = {
    "tapegrad": _replay_tapegrad,
    "numba": _replay_numba,
    "numba-parallel": _replay_numba_parallel,
    "jax": _replay_jax,
    "torch": _replay_torch,
    "numpy": _replay_numpy,
}


# -- the eager scalar graph -------------------------------------------------------------
Y0, A, B = 0.5, 0.999, 0.002  # as benchmarks/peers.py: values stay normal at 10^5 ops


@dataclass
class Eager:
    library: str
    record: Callable  # () -> graph
    backward: Optional[Callable] = None  # graph -> None


def eager_workload(library, n_ops):
    """``y = y * a + sin(y) * b`` for n_ops ops (4 per step) in ``library``."""
    k = n_ops // 4
    if library == "python-floats":
        def record():
            y = Y0
            for _ in range(k):
                y = y * A + math.sin(y) * B
            return y
        return Eager("python-floats", record)
    if library == "hips-autograd":
        import autograd
        import autograd.numpy as anp

        def f(a, b):
            y = Y0
            for _ in range(k):
                y = y * a + anp.sin(y) * b
            return y
        make = autograd.make_vjp(f, 0)
        return Eager("hips-autograd", lambda: make(A, B), lambda g: g[0](1.0))
    if library == "torch":
        import torch

        def leaf(v, rg):
            return torch.tensor(v, dtype=torch.float64, requires_grad=rg)
    else:
        import tapegrad as tg

        def leaf(v, rg):
            return tg.tensor(v, requires_grad=rg)
    a, b, y0 = leaf(A, True), leaf(B, True), leaf(Y0, False)

    def record():
        y = y0
        for _ in range(k):
            y = y * a + y.sin() * b
        return y

    def backward(y):
        a.grad = b.grad = None
        y.backward()
    return Eager(library, record, backward)


EAGER_LIBRARIES = {"tapegrad": "tapegrad", "torch": "torch", "hips-autograd": "autograd",
                   "python-floats": None}


# -- start-up ---------------------------------------------------------------------------
STARTUP = {  # library -> child code: import, then a first gradient of sin(x * x) at 2
    "tapegrad": "import tapegrad as tg\nx = tg.tensor(2.0, requires_grad=True)\n"
                "(x * x).sin().backward()\ng = x.grad.item()",
    "torch": "import torch\nx = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)\n"
             "(x * x).sin().backward()\ng = x.grad.item()",
    "jax": "import jax\njax.config.update('jax_enable_x64', True)\n"
           "g = float(jax.grad(lambda x: jax.numpy.sin(x * x))(2.0))",
    "hips-autograd": "import autograd, autograd.numpy as anp\n"
                     "g = autograd.grad(lambda x: anp.sin(x * x))(2.0)",
}
_CHILD = ("import time\nt0 = time.perf_counter()\n{code}\nt1 = time.perf_counter()\n"
          "assert abs(g - 4.0 * __import__('math').cos(4.0)) < 1e-12\nprint(t1 - t0)\n")


def startup_seconds(library):
    """Seconds from the first import to the first gradient, in a fresh interpreter (the
    current Numba cache: run ``tapegrad warmup`` first for the warm figure)."""
    out = subprocess.run([sys.executable, "-c", _CHILD.format(code=STARTUP[library])],
                         capture_output=True, text=True, timeout=600)
    if out.returncode:
        raise RuntimeError(f"start-up of {library} failed:\n{out.stderr[-2000:]}")
    return float(out.stdout.strip().splitlines()[-1])


# -- tapegrad bench ---------------------------------------------------------------------
def median_time(target, setup=None, budget=0.5, max_rounds=200):
    """Median seconds of ``target()`` over rounds filling ``budget`` (after one warm-up)."""
    times = []
    spent = 0.0
    for i in range(max_rounds + 1):
        arg = setup() if setup else None
        t0 = time.perf_counter()
        target(arg) if setup else target()
        dt = time.perf_counter() - t0
        if i:  # the first call is the warm-up
            times.append(dt)
            spent += dt
        if len(times) >= 3 and spent >= budget:
            break
    return float(np.median(times))


def _installed(module):
    if module is None:
        return True
    try:
        __import__(module)
        return True
    except ImportError:
        return False


def _version(library):
    dist = {"hips-autograd": "autograd", "numba-parallel": "numba", "python-floats": None}
    dist = dist.get(library, library)
    try:
        return metadata.version(dist) if dist else ""
    except metadata.PackageNotFoundError:
        return ""


def plan(quick=False, libraries=None):
    """The quick run as (workload, library, unit, units, measure) steps."""
    want = (lambda lib: lib in libraries) if libraries else (lambda lib: True)
    budget = 0.1 if quick else 0.5
    n_ops, n, points = 10**4, 10, 10**4
    steps = []
    eager = [lib for lib, module in EAGER_LIBRARIES.items() if want(lib) and _installed(module)]
    for lib in eager:
        steps.append((f"eager forward, {n_ops:,} ops", lib, "op", n_ops,
                      lambda lib=lib: median_time(eager_workload(lib, n_ops).record,
                                                  budget=budget)))
    for lib in eager:
        if lib != "python-floats":
            def bwd(lib=lib):
                w = eager_workload(lib, n_ops)
                return median_time(w.backward, setup=w.record, budget=budget)
            steps.append((f"eager backward, {n_ops:,} ops", lib, "op", n_ops, bwd))
    X = rosen_points(points, n)
    for lib, (module, _) in REPLAY_LIBRARIES.items():
        if not want(lib) or not _installed(module):
            continue

        def replay(lib=lib):
            w = replay_workload(lib, "vector", n)
            x = w.prepare(X)
            return median_time(lambda: w.run(x), budget=budget)
        steps.append((f"replay Rosenbrock n={n}, {points:,} points", lib, "point", points,
                      replay))
    runs = 1 if quick else 3
    for lib in STARTUP:
        if not want(lib) or not _installed(EAGER_LIBRARIES.get(lib, lib)):
            continue
        steps.append(("start-up: import + first gradient", lib, "", 1,
                      lambda lib=lib: float(np.median([startup_seconds(lib)
                                                       for _ in range(runs)]))))
    return steps


def _fmt_time(sec):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if sec >= scale:
            return f"{sec / scale:.3g} {unit}"
    return f"{sec * 1e9:.3g} ns"


def table(results):
    """Rows of (workload, library, median_s, unit, units) as an aligned text table."""
    head = ("workload", "library", "median", "per unit", "vs tapegrad")
    lines = []
    ref = {w: s for w, lib, s, _, _ in results if lib == "tapegrad"}
    last = None
    for w, lib, s, unit, units in results:
        per = f"{_fmt_time(s / units)}/{unit}" if unit else ""
        ratio = f"{s / ref[w]:.2f}" if w in ref else "-"
        name = f"{lib} {_version(lib)}".strip()
        lines.append((w if w != last else "", name, _fmt_time(s), per, ratio))
        last = w
    widths = [max(len(r[i]) for r in [head, *lines]) for i in range(5)]
    out = ["  ".join(h.ljust(wd) if i < 2 else h.rjust(wd)
                     for i, (h, wd) in enumerate(zip(head, widths, strict=True)))]
    for r in lines:
        if r[0] and len(out) > 1:
            out.append("")
        out.append("  ".join(c.ljust(wd) if i < 2 else c.rjust(wd)
                             for i, (c, wd) in enumerate(zip(r, widths, strict=True))))
    return "\n".join(out)


def _progress(i, total, text, stream=sys.stderr):
    bar = "#" * (20 * i // total)
    stream.write(f"\r[{bar:<20}] {i}/{total} {text[:60]:<60}")
    if i == total:
        stream.write("\n")
    stream.flush()


def main(quick=False, libraries=None, json_path=None):
    """``tapegrad bench``: warm the kernels, run every step, print the table."""
    import tapegrad as tg

    omp = passive_omp_waits()
    t0 = time.perf_counter()
    warm = tg.warmup()
    tg.trace(rosen, np.zeros(3)).grad_batch(np.zeros((2, 3)))  # the batch replay kernel
    print(f"kernels compiled or loaded from Numba's cache in {time.perf_counter() - t0:.2f} s "
          f"(tapegrad.warmup() {warm:.2f} s)", flush=True)
    steps = plan(quick, libraries)
    results = []
    for i, (workload, lib, unit, units, measure) in enumerate(steps):
        _progress(i, len(steps), f"{workload}: {lib}")
        try:
            results.append((workload, lib, measure(), unit, units))
        except Exception as e:  # a broken peer must not hide the others' results
            print(f"\n{lib} failed on {workload}: {type(e).__name__}: {e}", file=sys.stderr)
    _progress(len(steps), len(steps), "done")
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    print(f"\ntapegrad bench{' --quick' if quick else ''}: medians on {cpus} cores "
          f"(load average {load}; OMP_WAIT_POLICY={omp}); 'vs tapegrad' = library time / "
          "tapegrad time\n")
    print(table(results))
    if json_path:
        with open(json_path, "w") as fh:
            keys = ("workload", "library", "median_s", "unit", "units")
            json.dump([dict(zip(keys, r, strict=True)) for r in results], fh, indent=1)
    return 0
