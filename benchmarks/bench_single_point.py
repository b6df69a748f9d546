"""One call at ONE point: Rosenbrock's value and gradient at n = 10 (issue 21's fast path).

Group ``one point n=10`` (pytest-benchmark), every library in the same run, each result
checked against the hand-written gradient (1e-12 relative):

- ``tapegrad compile``: ``tg.compile(rosen).value_and_grad(x)`` in its steady state (the
  single-point fast path, bound once per trace, calling the tape's fused kernel, which takes
  over after ``FUSE_AFTER`` points: compiled ahead here, so that no round runs beside the
  background compile, whose thread's CPU time ``time.process_time`` would count);
- ``tapegrad compile interpreted``: the same before the fused kernel (``fused=False``):
  one call of the packed plan's interpreter, ``_replay_point``;
- ``tapegrad traced``: the steady state on the ``Traced`` tape (``tg.jit.trace``);
- ``tapegrad general path``: the batch machinery at B = 1, which every call took before
  (and which still answers what the fast path does not take: other dtypes, layouts,
  diverging guards);
- ``tapegrad compiled work``: the interpreter's kernel call alone (``_replay_point``,
  through its dispatcher), the floor of ``tapegrad compile interpreted``;
- ``casadi buffered``: an SX ``Function`` of (f, gradient) called through
  ``Function.buffer()`` with preallocated NumPy outputs (CasADi's fastest Python call;
  optional: ``pip install casadi``, skipped without it);
- ``pytensor C`` / ``pytensor numba``: ``pytensor.function([x], [f, grad(f, x)])`` in
  its default mode (C thunks) and its Numba mode, ``trust_input`` set (PyTensor's fastest
  Python call; optional, see benchmarks/README.md for installing it beside numba 0.68);
- ``jax jit``: ``jax.jit(jax.value_and_grad(rosen))``, the result blocked;
- ``numba hand-written``: an ``@njit`` function returning (f, gradient) (the limit);
- ``torch eager``: forward and ``autograd.grad`` (for scale).
"""
import numpy as np
import pytest

from tapegrad import bench as tb

tb.passive_omp_waits()

N = 10
REL = 1e-12


def _x():
    return np.linspace(-1.5, 1.5, N)


def _want(x):
    return tb.rosen(x), tb.rosen_grad_numpy(x[None])[0]


def _tapegrad_compile(fused=None):
    import tapegrad as tg
    tg.warmup()  # the kernels loaded from Numba's cache now, not interpreted meanwhile
    f = tg.compile(tb.rosen, fused=fused)
    if fused is None:
        f.compile_fused(_x(), wait=True)
    return f.value_and_grad


def _tapegrad_traced():
    import tapegrad as tg
    tg.warmup()
    t = tg.jit.trace(tb.rosen, _x())
    t.compile_fused(wait=True)
    return t.value_and_grad


def _tapegrad_general():
    import tapegrad as tg
    tg.warmup()
    t = tg.jit.trace(tb.rosen, _x())

    def call(x):  # the path every call took before the fast path (and takes what it skips)
        V, G = t._batch(t._stack((x,), batch=False), grad=True)
        return V[0], t._split(G, batched=False)
    return call


def _tapegrad_work():
    import tapegrad as tg
    from tapegrad import _kernels
    tg.warmup()
    t = tg.jit.trace(tb.rosen, _x())
    t.value_and_grad(_x())  # a first call binds _kernels' name to the compiled dispatcher
    plan = t._make_plan()
    ints = plan.packed()
    work = np.empty(plan.point_need())

    kernel = _kernels._replay_point  # (taken before that call, it stays a slow wrapper)

    def call(x):
        g = np.empty(N)
        kernel(ints, x, g, work)
        return work[0], g
    return call


def _casadi():
    ca = pytest.importorskip("casadi")
    xs = ca.SX.sym("x", N)
    f = ca.sum1(100 * (xs[1:] - xs[:-1] ** 2) ** 2 + (1 - xs[:-1]) ** 2)
    return tb.casadi_value_and_grad(ca.Function("F", [xs], [f, ca.gradient(f, xs)]), N)


def _pytensor(mode):
    pytensor = pytest.importorskip("pytensor")
    x = pytensor.tensor.dvector("x")
    f = tb.rosen(x)
    fn = pytensor.function([x], [f, pytensor.grad(f, x)], mode=mode)
    fn.trust_input = True  # (the caller passes float64 vectors: no conversion per call)
    return fn


def _jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    vg = jax.jit(jax.value_and_grad(tb.rosen))

    def call(x):
        v, g = vg(x)
        return float(v), np.asarray(g.block_until_ready())
    return call


def _numba():
    import numba

    @numba.njit(cache=False)
    def value_and_grad(x):
        n = x.shape[0]
        g = np.zeros(n)
        v = 0.0
        for i in range(n - 1):
            d = x[i + 1] - x[i] * x[i]
            e = 1.0 - x[i]
            v += 100.0 * d * d + e * e
            g[i] += -400.0 * d * x[i] - 2.0 * e
            g[i + 1] += 200.0 * d
        return v, g
    return value_and_grad


def _torch():
    torch = pytest.importorskip("torch")

    def call(x):
        t = torch.tensor(x, requires_grad=True)
        y = tb.rosen(t)
        (g,) = torch.autograd.grad(y, t)
        return float(y), g.numpy()
    return call


LIBRARIES = {"tapegrad compile": _tapegrad_compile,
             "tapegrad compile interpreted": lambda: _tapegrad_compile(fused=False),
             "tapegrad traced": _tapegrad_traced,
             "tapegrad general path": _tapegrad_general,
             "tapegrad compiled work": _tapegrad_work, "casadi buffered": _casadi,
             "pytensor C": lambda: _pytensor("FAST_RUN"),
             "pytensor numba": lambda: _pytensor("NUMBA"),
             "jax jit": _jax, "numba hand-written": _numba, "torch eager": _torch}


@pytest.mark.parametrize("lib", list(LIBRARIES))
def test_one_point(benchmark, lib):
    call = LIBRARIES[lib]()
    x = _x()
    v, g = call(x)  # the first call (traces, compiles) is not timed
    want_v, want_g = _want(x)
    np.testing.assert_allclose(v, want_v, rtol=REL)
    np.testing.assert_allclose(g, want_g, rtol=REL)
    benchmark.group = f"one point n={N}"
    benchmark.extra_info["n"] = N
    benchmark(call, x)
