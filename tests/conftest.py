"""Shared helpers for the spec-driven tests: inputs drawn from a spec's domain, tapegrad's
vector-Jacobian product, central differences and the two oracles (HIPS autograd, PyTorch).

The helpers are plain functions, handed to tests by session fixtures of the same name, so
test modules never import this file (pytest loads conftest.py files under one module name).
"""
import collections
import gc
import os
import sys
import weakref
import zlib

import autograd
import autograd.numpy as anp
import numpy as np
import pytest

import scipy.linalg.cython_blas  # noqa: F401  (SciPy's OpenBLAS, which the kernels' np.dot calls)

import tapegrad as tg
from tapegrad import _blas
from tapegrad._state import state
from tapegrad.replay import DivergenceError
from tapegrad.tape import current_tape


def pytest_configure(config):
    # xdist's --dist loadfile hands out the files with the most tests first; the longest
    # files here hold few tests (test_jit's cold compiles, the interrupt sweeps, the docs
    # build), so they started last and ran alone on one core at the end: the order of
    # pytest_collection_modifyitems below is kept instead
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False
    one_blas_thread()


def one_blas_thread():
    """NumPy's and SciPy's OpenBLAS pools at one thread, here and in the tests' child
    processes (PyTorch's: pytest_runtest_setup).  The README's command runs a worker per core,
    so a BLAS worker thread only waits for a core another process holds: a 12 x 12
    solve_triangular took ~25 ms against 0.016 ms at one thread with the machine loaded
    (scripts36), and 4 BLAS-heavy test files 8% less CPU unloaded.  (tests/test_blas_threads.py
    sets the counts it tests.)"""
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    for pool in (_blas.numpy_pool(), _blas.pool_of(scipy.linalg.cython_blas.__file__)):
        if pool is not None:
            pool.set(1)


def pytest_collection_modifyitems(items):
    """Files with the most slow tests first (a stable sort: each file keeps its order)."""
    slow = collections.Counter(item.path for item in items if item.get_closest_marker("slow"))
    items.sort(key=lambda item: -slow[item.path])


def pytest_runtest_setup(item):
    """PyTorch, an oracle the test modules import, computes on one thread.  Its default of
    one OpenMP thread per core had every op of a test wait on threads contending with the
    other xdist worker (tests/torch_scripts/s1645's program under PyTorch: 4.5 s of CPU at
    two threads, 3.1 s at one; 20 s and 11 s on the machine loaded)."""
    torch = sys.modules.get("torch")
    if torch is not None and torch.get_num_threads() != 1:
        torch.set_num_threads(1)


def fresh_env(**settings):
    """The environment for a child interpreter: this one's, without its NUMBA_ and
    TAPEGRAD_ settings (a test's child chooses its own), plus ``settings``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "TAPEGRAD_"))}
    env.update(settings)
    return env


def input_shapes(spec, shape):
    """One shape per input: an entry of ``spec.shapes`` is shared by every input, or is a
    tuple holding one shape per input."""
    if shape and all(isinstance(s, tuple) for s in shape):
        return list(shape)
    return [shape] * spec.arity


def draw(spec, shape, rng, dtype=np.float64):
    """Random inputs for ``spec`` at ``shape``, uniform in its domain (away from kinks)."""
    lo, hi = spec.domain
    return [np.asarray(rng.uniform(lo, hi, s), dtype) for s in input_shapes(spec, shape)]


def leaves(arrays, requires_grad=True):
    """tapegrad leaves holding ``arrays`` (their dtype is kept)."""
    return [tg.tensor(a, requires_grad=requires_grad) for a in arrays]


def value(fn, arrays):
    """``fn`` at ``arrays`` as a float64 ndarray, recording nothing."""
    return np.asarray(fn(*leaves(arrays, requires_grad=False)), np.float64)


def tg_vjp(fn, arrays, u):
    """Jᵀu for each input, from tapegrad's reverse sweep (``autograd.grad``)."""
    xs = leaves(arrays)
    grads = tg.autograd.grad(fn(*xs), xs, grad_outputs=tg.tensor(u))
    return [np.asarray(g, np.float64) for g in grads]


def fd_dot(fn, arrays, i, v, u, h=1e-6):
    """⟨u, J_i v⟩ by central differences of ``fn`` along ``v`` in input ``i`` (float64)."""
    def at(t):
        xs = list(arrays)
        xs[i] = arrays[i] + t * v
        return np.vdot(u, value(fn, xs))
    return (at(h) - at(-h)) / (2 * h)


def autograd_vjp(ref, arrays, w):
    """HIPS autograd's gradient of ``sum(ref(x) * w)`` for each input."""
    def loss(*xs):
        return anp.sum(ref(anp, *xs) * w)
    return [np.asarray(autograd.grad(loss, i)(*arrays)) for i in range(len(arrays))]


def torch_vjp(fn, arrays, u):
    """PyTorch's value of ``fn`` (called on float64 torch tensors) and its Jᵀu per input."""
    import torch
    xs = [torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in arrays]
    out = fn(*xs)
    grads = torch.autograd.grad(out, xs, grad_outputs=torch.as_tensor(u, dtype=torch.float64))
    return out.detach().numpy(), [g.numpy() for g in grads]


@pytest.fixture
def rng(request):
    """A generator seeded by the test id: reruns draw the same values."""
    return np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))


@pytest.fixture
def tape():
    """This thread's tape, kept at its generation for the test: a live non-leaf holds its
    token, so no tensor dying elsewhere (a graph left in a cycle) resets it mid-test."""
    anchor = tg.tensor(0.0, requires_grad=True) * 1.0
    yield current_tape()
    del anchor


def _tape_token():
    """The token of this thread's current tape while a non-leaf tensor of its generation
    lives (the tape cannot reset meanwhile: tapegrad/tape.py), else None."""
    tape = state.tape
    ref = tape._token if tape is not None else None
    return ref() if ref is not None else None


def _held_since(before):
    """Whether a non-leaf holds this thread's tape now, other than the token ``before``
    (a weak reference, or None) that already held it when the test started."""
    tok = _tape_token()
    return tok is not None and (before is None or before() is not tok)


@pytest.fixture(autouse=True)
def release_the_tape():
    """A test that leaves a non-leaf tensor in a reference cycle (a namespace ``exec`` ran
    code in, whose functions hold it as their globals: test_docs.py, the README example of
    test_higher.py; a traceback kept by pytest.raises) leaves this thread's tape held until
    the cycle collector reaches it, which in a session with torch loaded can be hundreds
    of tests later once the cycle is in the oldest generation.  Until then no later test's
    graph resets the tape, and rows pile up on it (test_higher.py's constant-memory loop
    counted 12 MB after such a test).  So when the tape is held at the end of a test by a
    token that did not hold it at the start, cycles are collected now: the young
    generations first (the test's own cycles: ~0.1 ms), everything only if that was not
    enough (a full collection costs 0.2-0.7 s).  A non-leaf kept by a real reference (a
    module global) still holds the tape, and the tests that count rows see it."""
    before = _tape_token()
    before = weakref.ref(before) if before is not None else None  # (a strong one holds it)
    yield
    if _held_since(before):
        gc.collect(1)
        if _held_since(before):
            gc.collect()


@pytest.fixture
def collect_cycles():
    """Collect garbage cycles (pytest.raises keeps tracebacks, hence tensors, in cycles)
    after the test, not at a random allocation inside the next test's recording.  Modules
    that count hook calls or rows, or keep tracebacks, use it:
    ``pytestmark = pytest.mark.usefixtures("collect_cycles")``.

    Everything older than the test is frozen meanwhile, so the collection scans only what
    the test made (a full one takes 0.2-0.7 s once torch and jax are loaded: ~30 s per CI
    pass), and older garbage cannot be collected inside the test either; unfrozen after,
    it goes back to the oldest generation, as before."""
    gc.freeze()
    try:
        yield
        gc.collect()
    finally:
        gc.unfreeze()


@pytest.fixture(scope="session")
def torch():
    return pytest.importorskip("torch")


@pytest.fixture
def torch_float64(torch):
    """torch with float64 as its default dtype (tapegrad's) and its distributions' argument
    checks on (as by default: a real ``torch.compile`` anywhere earlier in the process, e.g.
    script s155, turns them off for good), both restored after the test."""
    old, checks = torch.get_default_dtype(), torch.distributions.Distribution._validate_args
    torch.set_default_dtype(torch.float64)
    torch.distributions.Distribution.set_default_validate_args(True)
    try:
        yield torch
    finally:
        torch.set_default_dtype(old)
        torch.distributions.Distribution.set_default_validate_args(checks)


def raises_as_torch(call, torch, prefix=False):
    """``call(tg)`` and ``call(torch)`` raise: tapegrad's exception is (a subclass of)
    PyTorch's with PyTorch's message (or, if ``prefix``, one that starts with it), and
    tapegrad's call leaves this thread's tape as it was."""
    tape = current_tape()
    tape.flush()
    before = (tape.nrows, tape.nslots, tape.nvals, len(tape.consts), len(tape.meta))
    errors = []
    for lib in (tg, torch):
        with pytest.raises(Exception) as info:
            call(lib)
        errors.append((info.type, str(info.value)))
        if lib is tg:
            tape.flush()
            assert (tape.nrows, tape.nslots, tape.nvals, len(tape.consts),
                    len(tape.meta)) == before
    (kind, message), (tkind, tmessage) = errors
    assert issubclass(kind, tkind), (kind, tkind)
    assert message.startswith(tmessage) if prefix else message == tmessage, (message, tmessage)


@pytest.fixture(name="raises_as_torch", scope="session")
def _raises_as_torch(torch):
    return lambda call, prefix=False: raises_as_torch(call, torch, prefix)


@pytest.fixture(name="draw", scope="session")
def _draw():
    return draw


@pytest.fixture(name="leaves", scope="session")
def _leaves():
    return leaves


@pytest.fixture(name="value", scope="session")
def _value():
    return value


@pytest.fixture(name="tg_vjp", scope="session")
def _tg_vjp():
    return tg_vjp


@pytest.fixture(name="fd_dot", scope="session")
def _fd_dot():
    return fd_dot


@pytest.fixture(name="autograd_vjp", scope="session")
def _autograd_vjp():
    return autograd_vjp


@pytest.fixture(name="torch_vjp", scope="session")
def _torch_vjp(torch):
    return torch_vjp


def eager_value_and_grad(f, x):
    """``f``'s value at ``x`` (a float64 array) and its gradient, eagerly (zeros when f's
    value does not depend on x): what a replay of f must give."""
    xt = tg.tensor(np.array(x, float), requires_grad=True)
    y = f(xt)
    y.backward()
    return float(y.detach().numpy()), (np.zeros_like(x) if xt.grad is None else
                                       xt.grad.numpy().copy())


def replays_as_eager(f, points, x0):
    """f traced and compiled at ``x0``: eager's value and gradient at every point, or
    DivergenceError from the traced tape (the compiled function retraces)."""
    t, c = tg.trace(f, x0), tg.compile(f)
    c.value_and_grad(x0)
    for x in points:
        want = eager_value_and_grad(f, x)
        got = [c.value_and_grad(x.copy())]
        try:
            got.append(t.value_and_grad(x.copy()))
        except DivergenceError:
            pass
        for v, g in got:
            assert np.isclose(v, want[0], rtol=1e-9, atol=1e-12) and \
                np.allclose(g, want[1], rtol=1e-9, atol=1e-12), (x, v, g, want)
