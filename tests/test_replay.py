"""Record once, replay many: replay equals eager, batches equal loops, guards never lie."""
import os
import pickle
import subprocess
import sys
import time

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import _sweep
from tapegrad.ops import SPECS

REPLAYABLE = [s for s in SPECS if s.replay]


def _weighted(spec, w):
    """A scalar function of the spec's op: sum(op(*xs) * w), w a fixed weight array."""
    return lambda *xs: (spec.fn(*xs) * tg.tensor(w)).sum()


def _eager(f, xs):
    ts = [tg.tensor(x, requires_grad=True) for x in xs]
    y = f(*ts)
    grads = tg.autograd.grad(y, ts, allow_unused=True)
    return float(y), [np.zeros_like(x) if g is None else np.asarray(g.detach())
                      for x, g in zip(xs, grads)]


def _draw(rng, spec, shape, k):
    lo, hi = spec.domain
    return [rng.uniform(lo, hi, size=shape) for _ in range(k)]


@pytest.mark.parametrize("spec", REPLAYABLE, ids=lambda s: s.name)
def test_replay_equals_eager_at_new_points(spec):
    rng = np.random.default_rng(1)
    shape = spec.shapes[-1]
    x1 = _draw(rng, spec, shape, spec.arity)
    w = rng.normal(size=np.shape(spec.fn(*[tg.tensor(x) for x in x1])._data))
    f = _weighted(spec, w)
    traced = tg.trace(f, *x1, argnums=tuple(range(spec.arity)))
    for _ in range(3):
        x2 = _draw(rng, spec, shape, spec.arity)
        v_ref, g_ref = _eager(f, x2)
        v, g = traced.value_and_grad(*x2)
        g = g if spec.arity > 1 else (g,)
        np.testing.assert_allclose(v, v_ref, rtol=1e-13, atol=1e-13)
        for gi, ri in zip(g, g_ref):
            np.testing.assert_allclose(gi, ri, rtol=1e-12, atol=1e-13)


@pytest.fixture(scope="module")
def compiled():
    """The sweep and replay kernels loaded (or compiled) before an exact comparison: while
    they load in the background the first calls run interpreted, and NumPy's libm and
    LLVM's may differ in the last ulp (atan2 did, with a warm cache, once the batch ran
    compiled and the single points had started interpreted)."""
    tg.warmup()


@pytest.mark.parametrize("spec", REPLAYABLE, ids=lambda s: s.name)
def test_batch_equals_loop_exactly(spec, compiled):
    rng = np.random.default_rng(2)
    shape = spec.shapes[-1]
    x1 = _draw(rng, spec, shape, spec.arity)
    w = rng.normal(size=np.shape(spec.fn(*[tg.tensor(x) for x in x1])._data))
    traced = tg.trace(_weighted(spec, w), *x1, argnums=tuple(range(spec.arity)))
    B = 37  # several blocks, the last one partial
    Xs = [rng.uniform(*spec.domain, size=(B, *shape)) for _ in range(spec.arity)]
    V, G = traced.value_and_grad_batch(*Xs)
    G = G if spec.arity > 1 else (G,)
    for b in range(B):
        v, g = traced.value_and_grad(*[X[b] for X in Xs])
        g = g if spec.arity > 1 else (g,)
        assert V[b] == v
        for Gi, gi in zip(G, g):
            np.testing.assert_array_equal(Gi[b], gi)


def rosen(x):
    return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()


def rosen_grad(x):
    g = np.zeros_like(x)
    t = x[1:] - x[:-1] ** 2
    g[:-1] = -400 * t * x[:-1] - 2 * (1 - x[:-1])
    g[1:] += 200 * t
    return g


def test_rosenbrock_batch_against_the_analytic_gradient():
    X = np.random.default_rng(3).normal(size=(1000, 10))
    V, G = tg.compile(rosen).value_and_grad_batch(X)
    np.testing.assert_allclose(G, np.array([rosen_grad(x) for x in X]), rtol=1e-12)
    np.testing.assert_allclose(V, [float(rosen(tg.tensor(x))) for x in X], rtol=1e-13)
    np.testing.assert_allclose(tg.batch_grad(rosen, X), G, rtol=0)


_C = np.random.default_rng(6).normal(size=12)
ALIASING = {  # f -> how many rows batch replay drops (contiguous copies become aliases)
    "output is x[2]": (lambda x: x[2], 1),
    "slice of a slice, a constant's slice": (
        lambda x: (x[1:][1:] * tg.tensor(_C)[2:]).sum(), 2),
    "slice of an intermediate": (lambda x: x.exp()[2:5].sum(), 1),
    "2-d rows, not columns": (
        lambda x: (x.reshape(3, 4)[1:, :] ** 2).sum() + x.reshape(3, 4)[:, 1:].sin().sum(), 3),
    "views of views": (lambda x: (x.view(2, 6)[1].view(3, 2)[0] * x[:2]).sum(), 5),
    "gathers": (lambda x: (x[[3, 4, 5]] * x[[5, 4, 3]]).sum(), 1),
    "steps and flips": (lambda x: (x[::2] * x[1::2]).sum() + (x.flip(0)[:5] * x[:5]).sum(), 2),
}


@pytest.mark.parametrize("name", ALIASING)
def test_aliased_copies_replay_as_eager(name):
    """Batch replay turns contiguous copies into aliases of their source: same values and
    gradients as eager."""
    f, dropped = ALIASING[name]
    rng = np.random.default_rng(7)
    traced = tg.trace(f, rng.normal(size=12))
    X = rng.normal(size=(37, 12))
    V, G = traced.value_and_grad_batch(X)
    plan = traced._plan
    assert len(traced.rows) - len(plan.fwd) == dropped
    for x, v, g in zip(X, V, G):
        v_ref, (g_ref,) = _eager(f, [x])
        np.testing.assert_allclose(v, v_ref, rtol=1e-13, atol=1e-13)
        np.testing.assert_allclose(g, g_ref, rtol=1e-13, atol=1e-13)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_thread_pool_survives_a_fork():
    """The replay threads persist between calls; a forked child (multiprocessing's default
    on Linux) has the pool object but not its threads, and must make its own."""
    from tapegrad import replay
    X = np.random.default_rng(8).normal(size=(20000, 10))
    f = tg.compile(rosen)
    G = f.grad_batch(X)  # large enough for every core: the pool exists now
    assert replay._CORES == 1 or replay._POOL[0] == os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: exit code 0 only if the batch comes back right
        ok = False
        try:
            ok = np.array_equal(f.grad_batch(X), G)
        finally:
            os._exit(0 if ok else 1)
    for _ in range(600):  # a child waiting on threads that do not exist would hang
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        pytest.fail("the forked child hung in batch replay")
    assert os.waitstatus_to_exitcode(status) == 0


def test_several_inputs_argnums_and_out():
    def f(x, y):
        return (x * y.sin()).sum() + (x ** 2).sum()

    x, y = np.array([1.0, 2.0]), np.array([0.5, -0.3])
    cf = tg.compile(f, argnums=(0, 1))
    gx, gy = cf.grad(x, y)
    np.testing.assert_allclose(gx, np.sin(y) + 2 * x)
    np.testing.assert_allclose(gy, x * np.cos(y))
    only_y = tg.compile(f, argnums=1).grad(x, y)
    np.testing.assert_allclose(only_y, x * np.cos(y))
    X, Y = np.random.default_rng(4).normal(size=(2, 50, 2))
    V, G = np.empty(50), np.empty((50, 4))
    V2, (GX, GY) = cf.value_and_grad_batch(X, Y, out=(V, G))
    assert V2 is V
    np.testing.assert_allclose(GX, np.sin(Y) + 2 * X)
    np.testing.assert_allclose(G[:, 2:], X * np.cos(Y))


def branchy(x):
    if x[0] > 0:  # a guard row: replay checks it at every point
        return (x * x).sum()
    return (x * 3).sum()


def branchy_grad(x):
    return 2 * x if x[0] > 0 else np.full_like(x, 3.0)


def test_guard_retrace_costs_one_trace_per_branch():
    X = np.random.default_rng(5).normal(size=(200, 3))
    f = tg.compile(branchy)
    G = f.grad_batch(X)
    np.testing.assert_allclose(G, np.array([branchy_grad(x) for x in X]))
    assert len(f.traces[((3,),)]) == 2
    G2 = f.grad_batch(-X)  # both branches cached: no new trace
    np.testing.assert_allclose(G2, np.array([branchy_grad(x) for x in -X]))
    assert len(f.traces[((3,),)]) == 2


def test_guard_raise_names_the_guard_the_line_and_the_point():
    X = np.array([[1.0, 2.0, 3.0], [1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]])
    traced = tg.trace(branchy, X[0])
    with pytest.raises(tg.DivergenceError, match=r"point 2 .*guard #0 \(bool at .*test_replay.py"):
        traced.grad_batch(X)
    with pytest.raises(tg.DivergenceError, match="point 1 "):  # traced at point 0
        tg.compile(branchy, on_divergence="raise").grad_batch(X[::-1])


def test_guard_mask_gives_nan_and_a_mask():
    X = np.array([[1.0, 2.0], [-1.0, 0.0], [2.0, 1.0]])
    f = tg.compile(branchy, on_divergence="mask")
    V, G = f.value_and_grad_batch(X)
    assert f.mask.tolist() == [True, False, True]
    assert np.isnan(V[1]) and np.isnan(G[1]).all()
    np.testing.assert_allclose(G[[0, 2]], 2 * X[[0, 2]])


def test_item_and_float_guard_on_the_exact_value():
    def f(x):
        # float() takes the value off the tape (a constant, as in PyTorch): only points
        # with that same value may replay this trace
        return x.sum() * float(x[0])

    traced = tg.trace(f, np.array([2.0, 1.0]))
    np.testing.assert_allclose(traced.grad([2.0, 5.0]), [2.0, 2.0])
    with pytest.raises(tg.DivergenceError, match="float"):
        traced.grad_batch(np.array([[2.0, 5.0], [3.0, 5.0]]))
    g = tg.compile(f).grad_batch(np.array([[2.0, 5.0], [3.0, 5.0]]))
    np.testing.assert_allclose(g, [[2.0, 2.0], [3.0, 3.0]])


def test_values_escaping_to_numpy_are_refused_while_tracing():
    with pytest.raises(RuntimeError, match="takes its values out of the tape"):
        tg.trace(lambda x: tg.tensor(np.sin(np.asarray(x))).sum() + x.sum(), np.ones(2))


def test_eager_mode_is_untouched_by_guards():
    x = tg.tensor([1.0, -2.0], requires_grad=True)
    y = branchy(x)
    y.backward()
    assert x.grad.tolist() == [2.0, -4.0]
    assert (x > 0).requires_grad is False


def test_save_load_pickle_roundtrip(tmp_path):
    traced = tg.trace(branchy, np.array([1.0, 2.0, 3.0]))
    path = tmp_path / "branchy.npz"
    traced.save(path)
    loaded = tg.load(path)
    X = np.random.default_rng(6).uniform(0.1, 1, size=(20, 3))
    np.testing.assert_array_equal(loaded.grad_batch(X), traced.grad_batch(X))
    assert loaded.guards == traced.guards
    with pytest.raises(tg.DivergenceError, match="without its function"):
        loaded.grad_batch(-X, on_divergence="retrace")
    clone = pickle.loads(pickle.dumps(traced))
    np.testing.assert_array_equal(clone.grad_batch(X), traced.grad_batch(X))


def test_pickled_trace_runs_in_another_process(tmp_path):
    traced = tg.trace(rosen, np.ones(4))
    path = tmp_path / "rosen.pkl"
    path.write_bytes(pickle.dumps(traced))
    code = (f"import pickle, numpy as np; t = pickle.load(open({str(path)!r}, 'rb')); "
            "print(repr(t.grad(np.array([1.5, 0.5, -1.0, 2.0])).tolist()))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=600)
    assert eval(out.stdout) == rosen_grad(np.array([1.5, 0.5, -1.0, 2.0])).tolist()


def test_listing_and_stats():
    traced = tg.trace(rosen, np.ones(3))
    st = traced.stats()
    assert st["rows"] == len(traced.rows) and st["guards"] == 0 and st["bytes"] > 0
    assert st["ops"]["PowBackward0"] == 3
    text = traced.listing()
    assert text.splitlines()[0] == "# inputs: v0[3]"
    assert "sum(v" in text and text.endswith(f"# output: v{traced.out_slot}")


def test_bad_input_is_refused_or_propagates():
    f = tg.compile(rosen)
    f.grad(np.ones(3))
    traced = f.traces[((3,),)][0]
    with pytest.raises(ValueError, match=r"shape \(5, 4\).*recorded for shape \(3,\)"):
        traced.grad_batch(np.ones((5, 4)))
    with pytest.raises(RuntimeError, match="only for scalar outputs"):  # a Jacobian's job
        tg.trace(lambda x: x * 2, np.ones(3)).grad(np.ones(3))
    V, G = f.value_and_grad_batch(np.zeros((0, 3)))
    assert V.shape == (0,) and G.shape == (0, 3)
    V, G = f.value_and_grad_batch(np.array([[np.nan, 1.0, 1.0], [np.inf, 1.0, 1.0]]))
    assert np.isnan(V[0]) and np.isnan(G[0, 0])
    v_eager, g_eager = _eager(rosen, [np.array([np.inf, 1.0, 1.0])])
    np.testing.assert_array_equal(V[1], v_eager)
    np.testing.assert_array_equal(G[1], g_eager[0])


def test_a_new_function_compiles_nothing():
    """Replay uses the same compiled interpreters for every function."""
    from tapegrad import _sweep
    tg.compile(rosen).grad_batch(np.ones((4, 3)))
    before = {k: len(d.signatures) for k, d in vars(_sweep).items() if hasattr(d, "signatures")}
    tg.compile(lambda x: (x.exp() * x.sin()).sum()).grad_batch(np.ones((4, 5)))
    after = {k: len(d.signatures) for k, d in vars(_sweep).items() if hasattr(d, "signatures")}
    assert before == after


def test_a_traced_sort_guards_its_order():
    """sort/topk take elements by this point's order: a trace guards that order, so points
    where it differs are retraced (the default), or raise, never replayed with it."""
    w = np.array([1.0, 10.0, 100.0])

    def f(x):
        return (x.sort().values * tg.tensor(w)).sum() + x.topk(1).values.sum()

    X = np.array([[3.0, 1.0, 2.0], [1.0, 2.0, 3.0], [2.0, 3.0, 1.0]])
    want = [float((np.sort(x) * w).sum() + x.max()) for x in X]
    f_c = tg.compile(f)
    np.testing.assert_allclose(f_c.value_batch(X), want, rtol=1e-14)
    f_r = tg.compile(f, on_divergence="raise")
    f_r(X[0])
    with pytest.raises(tg.DivergenceError):
        f_r.value_batch(X)



_POINTS = np.random.default_rng(8).normal(size=(2500, 2))


def _mixture(a, mu, L, unused):
    """ADBench GMM's rows at K = 3, d = 2 (bench_gmm.py), over 2,500 constant points: a
    plan of ~10^5 values, whose batch sweep zeroes adjoints slot by slot (_sweep._lazy_reach)."""
    xc = tg.tensor(_POINTS)[None] - mu[:, None]  # a constant's broadcast, a small bmm
    q = mu.exp()[:, None] * xc + xc @ L.transpose(1, 2)
    inner = (a + mu.sum(1))[:, None] - 0.5 * (q * q).sum(2)  # a sum over the last dim
    return tg.logsumexp(inner, 0).sum() + (a[1:] * a[:-1]).sum()  # slices: aliases


def test_a_large_arena_sweeps_lazily_as_the_one_point_path():
    """Batch replay over a large arena reaches slots lazily (zeroed on first touch, or
    written once; slices and their sources zeroed first; an input no row reaches gets
    zeros): the same gradient bit for bit as the one-point path, which zeroes them all."""
    rng = np.random.default_rng(9)
    c = tg.compile(_mixture, argnums=(0, 1, 2, 3))
    points = [tuple(rng.normal(size=s) for s in (3, (3, 2), (3, 2, 2), 4)) for _ in range(3)]
    c.value_and_grad(*points[0])
    t = next(iter(c.traces.values()))[0]
    assert len(t._plan.vals0) * 3 >= _sweep.LAZY_VALUES
    V, G = t.value_and_grad_batch(*[np.stack(p) for p in zip(*points, strict=True)])
    for i, args in enumerate(points):
        v, g = c.value_and_grad(*args)
        assert V[i] == v
        for gb, gp in zip(G, g, strict=True):
            np.testing.assert_array_equal(gb[i], gp)
        np.testing.assert_array_equal(g[3], 0.0)
        v_ref, g_ref = _eager(_mixture, args)
        np.testing.assert_allclose(v, v_ref, rtol=1e-12)
        for gp, gr in zip(g, g_ref, strict=True):
            np.testing.assert_allclose(gp, gr, rtol=1e-10, atol=1e-10)
