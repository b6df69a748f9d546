"""Fused kernels per traced tape (tapegrad/replay/fused.py, issue 21).

Compiling is slow (seconds per kernel), so one kernel, of a tape that mixes the covered
ops and a guard, is compiled once for the module (``mixed``) and shared; the many tapes of
the property test run their generated source as Python instead (the same text Numba
compiles, with the IEEE ``math`` of tapegrad/_ieee_math.py), against the interpreter.
"""
import inspect
import os
import subprocess
import sys
import threading
import weakref

import numpy as np
import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad import _ieee_math
from tapegrad.replay import fused, gather

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT", "0") == "1",
                                reason="fused kernels are off under NUMBA_DISABLE_JIT=1")

BIG = 20_000  # points: more than the interpreter runs as Python on a cold cache, so the
# comparisons are with its compiled kernel (tapegrad/_kernels.py, INTERPRET_LIMIT)


@pytest.fixture(scope="module", autouse=True)
def cache_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("fused")
    old = os.environ.get("TAPEGRAD_FUSED_DIR")
    os.environ["TAPEGRAD_FUSED_DIR"] = str(d)
    yield d
    if old is None:
        del os.environ["TAPEGRAD_FUSED_DIR"]
    else:
        os.environ["TAPEGRAD_FUSED_DIR"] = old


# -- random programs over the covered ops ---------------------------------------------------
UNARY = [
    lambda a: -a, lambda a: a.abs(), lambda a: a.tanh().exp(), lambda a: (a.abs() + 1).log(),
    lambda a: (a.abs() + 0.5).log2(), lambda a: a.abs().log1p(), lambda a: a.tanh().expm1(),
    lambda a: a.abs().sqrt(), lambda a: a.sin(), lambda a: a.cos(), lambda a: a.tanh().tan(),
    lambda a: a.sigmoid(), lambda a: a.relu(), lambda a: a.atan(), lambda a: a.tanh().sinh(),
    lambda a: a.tanh().cosh(), lambda a: a.sign() * a, lambda a: a.floor() + a.ceil() + a,
    lambda a: a.clamp(-0.5, 0.8), lambda a: a + 2.5, lambda a: a - 1.5, lambda a: 3.0 - a,
    lambda a: a * 0.7, lambda a: a / 3.0, lambda a: 2.0 / (a * a + 1.0), lambda a: a ** 2,
    lambda a: a ** 3, lambda a: (a.abs() + 0.1) ** 1.5, lambda a: 2.0 ** a.tanh(),
    lambda a: a.sum(), lambda a: a.mean(), lambda a: a.flip(0) if a.dim() else a,
    lambda a: a[1:] if a.dim() else a,
    lambda a: a[tg.tensor([0] * a.shape[0])] if a.dim() else a,
]
BINARY = [
    lambda a, b: a + b, lambda a, b: a - b, lambda a, b: a * b, lambda a, b: a / (b * b + 1.0),
    lambda a, b: tg.maximum(a, b), lambda a, b: tg.minimum(a, b), lambda a, b: tg.atan2(a, b),
    lambda a, b: (a.abs() + 0.5) ** b.tanh(), lambda a, b: tg.where(a > b, a, b * 2.0),
    lambda a, b: (a * 1.0) @ b if a.dim() == b.dim() == 1 else a * b,
    lambda a, b: (a.reshape(-1, 1) @ b.reshape(1, -1)).sum() if a.dim() == b.dim() == 1 else a + b,
]


def _fit(a, b):
    """a and b cut to one length (a scalar broadcasts as it is)."""
    if a.dim() and b.dim() and a.shape != b.shape:
        m = min(a.shape[0], b.shape[0])
        return a[:m], b[:m]
    return a, b


def program(steps, vector=False):
    """A random function of x: a scalar, or (``vector``) every value it made, and their
    sums, as one vector (cat and stack)."""
    def f(x):
        vals = [x, x[0] * 1.0]
        for kind, i, j in steps:
            a = vals[i % len(vals)]
            if not a.numel():
                a = x
            if kind < len(UNARY):
                vals.append(UNARY[kind](a))
            else:
                b = vals[j % len(vals)]
                a, b = _fit(a, b if b.numel() else x)
                vals.append(BINARY[(kind - len(UNARY)) % len(BINARY)](a, b))
        vals = [v for v in vals if v.numel()]
        if vector:
            return tg.cat([tg.stack([v.sum() for v in vals]), *(v.reshape(-1) for v in vals)])
        return sum(v.sum() for v in vals)
    return f


def run_source(t, X, grad=True, U=None):
    """The generated batch kernel run as Python: (V, G, bad); with seeds U (a vector
    output), the seeded kernel's (V, G, bad) as ``Traced.run_seeded``'s."""
    src = fused.generate(t)
    src = src.replace("import math\n", "", 1).replace("from numba import njit\n", "", 1)

    def njit(fn=None, **options):
        return fn if fn is not None else (lambda g: g)
    ns = {"njit": njit, "math": _ieee_math}
    exec(compile(src, "<fused>", "exec"), ns)  # noqa: S102
    plan = t._plan
    B = len(X)
    bad = np.zeros(B, np.int64)
    C = plan.vals0 if len(plan.vals0) else np.zeros(1)
    K = plan.consts if len(plan.consts) else np.zeros(1)
    if U is not None:
        V, G = np.empty((B, t.out_size)), np.empty((B, U.shape[1], X.shape[1]))
        ns["seeded"](X, U, V, G, bad, C, K, 0, B)
        return V, G, bad
    V = np.empty(B)
    G = np.empty((B, X.shape[1])) if grad else np.empty((0, 0))
    ns["batch"](X, V, G, bad, C, K, 0, B)
    return V, G, bad


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(UNARY) + len(BINARY) - 1), st.integers(0, 9),
                          st.integers(0, 9)), min_size=1, max_size=10),
       st.sampled_from([1, 3]), st.integers(0, 2**31), st.booleans())
def test_generated_source_matches_interpreter(steps, n, seed, unroll):
    rng = np.random.default_rng(seed)
    x0 = rng.normal(size=n)
    t = tg.trace(program(steps), x0)
    X = np.ascontiguousarray(np.vstack([x0, rng.normal(size=(5, n))]))
    old = fused.UNROLL_LINES
    fused.UNROLL_LINES = old if unroll else 0  # (loops over arrays, or every element a local)
    try:
        with np.errstate(all="ignore"):
            V, G, bad = run_source(t, X)
    except (ZeroDivisionError, OverflowError):  # Python's floats where Numba gives inf/nan
        reject()
    finally:
        fused.UNROLL_LINES = old
    V0, G0, bad0 = t.run(X, True)
    assert np.array_equal(bad, bad0)
    np.testing.assert_allclose(V, V0, rtol=1e-10, atol=1e-10, equal_nan=True)
    np.testing.assert_allclose(G, G0, rtol=1e-10, atol=1e-10, equal_nan=True)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(UNARY) + len(BINARY) - 1), st.integers(0, 9),
                          st.integers(0, 9)), min_size=1, max_size=8),
       st.sampled_from([1, 3]), st.integers(0, 2**31), st.booleans(), st.booleans())
def test_seeded_source_matches_interpreter(steps, n, seed, unroll, each):
    """A vector output's kernel (one forward, one reverse per seed row) against
    ``run_seeded``: the Jacobian's unit seeds, or seeds of their own at every point."""
    rng = np.random.default_rng(seed)
    x0 = rng.normal(size=n)
    t = tg.trace(program(steps, vector=True), x0)
    X = np.ascontiguousarray(np.vstack([x0, rng.normal(size=(3, n))]))
    m = t.out_size
    U = rng.normal(size=(len(X), m + 1, m)) if each else np.eye(m)[None]  # (lanes, and one)
    old = fused.UNROLL_LINES
    fused.UNROLL_LINES = old if unroll else 0
    try:
        with np.errstate(all="ignore"):
            V, G, bad = run_source(t, X, U=U)
    except (ZeroDivisionError, OverflowError):
        reject()
    finally:
        fused.UNROLL_LINES = old
    V0, G0, bad0 = t.run_seeded(X, U)
    assert np.array_equal(bad, bad0)
    np.testing.assert_allclose(V, V0, rtol=1e-10, atol=1e-10, equal_nan=True)
    np.testing.assert_allclose(G, G0, rtol=1e-10, atol=1e-10, equal_nan=True)


# -- one compiled kernel, shared -------------------------------------------------------------
def mixed_f(x):
    """Every family of covered op, and a guard (on x[0] > 0)."""
    s = x[1:] - x[:-1] ** 2
    y = 100.0 * s ** 2 + (1.0 - x[:-1]) ** 2
    z = x.sin() * x.cos() + x.tanh().exp() / (x * x + 1.0) + x.sigmoid().log()
    z = z + tg.maximum(x, x.flip(0)) + tg.where(x > 0.5, x ** 3, x.abs().sqrt())
    w = (x.reshape(2, 2) @ x.reshape(2, 2)).sum() + x @ x + x.clamp(-1.0, 1.0).mean()
    if x[0] > 0:
        w = w * 2.0
    else:
        w = w - 1.0
    return y.sum() + z.sum() + w + (x[0] * 3.0).relu() + 2.0 ** x[1] + tg.atan2(x[2], x[3])


@pytest.fixture(scope="module")
def mixed():
    """The kernel of mixed_f with its loops kept (the unrolled form of small tapes is the
    same text written out, checked as Python above)."""
    f = tg.compile(mixed_f, fused=False)
    x0 = np.array([0.5, -1.0, 2.0, 0.25])
    old = fused.UNROLL_LINES
    fused.UNROLL_LINES = 0
    try:
        assert f.compile_fused(x0, wait=True) == ["fused"]
    finally:
        fused.UNROLL_LINES = old
    return f, f.traces[((4,),)][0]


def points(B, seed=0, positive=True):
    X = np.random.default_rng(seed).uniform(-2.0, 2.0, (B, 4))
    if positive:
        X[:, 0] = np.abs(X[:, 0]) + 0.01
    return X


def test_kernel_bit_for_bit(mixed):
    f, t = mixed
    X = points(BIG)
    V1, G1, bad1 = t.run(X, True)  # the kernel's
    fused.set_enabled(False)
    try:
        V0, G0, bad0 = t.run(X, True)  # the interpreter's
        p0 = t.value_and_grad(X[7].copy())
    finally:
        fused.set_enabled(True)
    assert not bad1.any() and not bad0.any()
    assert np.array_equal(V0, V1) and np.array_equal(G0, G1)
    p1 = t.value_and_grad(X[7].copy())  # the single-point kernel
    assert hasattr(t._local, "point")  # (its buffers: the fused kernel served the point)
    assert p1[0] == p0[0] and np.array_equal(p1[1], p0[1]) and p0[0] == V0[7]
    V2 = t.run(X[:100], False)[0]  # values only
    assert np.array_equal(V2, V0[:100])
    Xr = X[:10].copy()
    Xr.setflags(write=False)  # another Numba type: the kernel declines (never compiles here)
    assert t._fused.run(Xr, V2[:10], G1[:10], np.zeros(10, np.int64)) is False


def test_guards_fall_back(mixed):
    f, t = mixed
    X = points(2000, seed=1, positive=False)  # about half the points take the other branch
    V, G = f.value_and_grad_batch(X)  # retraced for those: the interpreter runs them
    fused.set_enabled(False)
    try:
        V0, G0 = tg.compile(mixed_f).value_and_grad_batch(X)
        Vm, Gm = t.value_and_grad_batch(X, on_divergence="mask")
    finally:
        fused.set_enabled(True)
    assert np.array_equal(V, V0) and np.array_equal(G, G0)
    Vk, Gk = t.value_and_grad_batch(X, on_divergence="mask")
    neg = X[:, 0] <= 0
    assert neg.any() and np.isnan(Vk[neg]).all() and np.array_equal(Vk, Vm, equal_nan=True)
    assert np.array_equal(Gk, Gm, equal_nan=True)
    x = X[np.argmax(neg)].copy()
    assert t.fused_status() == "fused"
    with pytest.raises(tg.replay.DivergenceError):
        t.value_and_grad_batch(x[None])
    assert f.value_and_grad(x)[0] == V[np.argmax(neg)]  # the single point: retraced


def test_background_takeover(mixed, monkeypatch):
    """The first results come from the interpreter while the kernel compiles (the compile
    is held here until they are in), then the kernel answers, bit for bit the same."""
    release = threading.Event()
    build = fused.build

    def held(t):
        assert release.wait(60)
        return build(t)
    monkeypatch.setattr(fused, "build", held)
    monkeypatch.setattr(fused, "UNROLL_LINES", 0)  # (the fixture's source: no second compile)
    f = tg.compile(mixed_f, fused=True)
    X = points(BIG, seed=2)
    V0, G0 = f.value_and_grad_batch(X)  # queues the kernel and answers at once
    t = f.traces[((4,),)][0]
    assert t.fused_status() == "queued"
    x = X[3].copy()
    p0 = f.value_and_grad(x)
    release.set()
    assert t.compile_fused(wait=True) == "fused"
    V1, G1 = f.value_and_grad_batch(X)
    assert np.array_equal(V0, V1) and np.array_equal(G0, G1)
    p1 = f.value_and_grad(x)
    assert p0[0] == p1[0] and np.array_equal(p0[1], p1[1])


def test_disabled(mixed):
    f, t = mixed
    fused.set_enabled(False)
    try:
        assert t.fused_status() == "disabled" and fused.kernel(t, 1) is None
        assert tg.compile(mixed_f, fused=True).compile_fused(np.ones(4)) == ["disabled"]
    finally:
        fused.set_enabled(True)
    assert t.fused_status() == "fused"


def test_auto_after_points():
    """Without fused=True, a tape is queued once it has evaluated FUSE_AFTER points."""
    f = tg.compile(lambda x: (x.logsumexp(0) * 2.0), fused=None)  # logsumexp: no template
    X = points(100)
    old = fused.FUSE_AFTER
    fused.FUSE_AFTER = 150
    try:
        f.value_and_grad_batch(X)
        t = f.traces[((4,),)][0]
        assert t.fused_status() == "interpreted"
        V, G = f.value_and_grad_batch(X)
        status = t.compile_fused(wait=True)
    finally:
        fused.FUSE_AFTER = old
    assert status.startswith("ineligible: logsumexp (opcode 54, LogsumexpBackward0)")
    assert "logsumexp" not in fused.covered_names() and "matmul" in fused.covered_names()
    assert np.array_equal(f.value_and_grad_batch(X)[1], G)  # still the interpreter's


def test_disk_cache_reused_by_another_process(mixed, cache_dir):
    """A second process loads the machine code from the disk cache: no compile."""
    code = "\n".join(["import numpy as np, tapegrad as tg", inspect.getsource(mixed_f), """
from tapegrad.replay import fused
fused.UNROLL_LINES = 0  # (as the fixture: the same source, so the same key)
f = tg.compile(mixed_f, fused=False)
print(f.compile_fused(np.array([0.5, -1.0, 2.0, 0.25]), wait=True))
k = f.traces[((4,),)][0]._fused
print(sum(k.batch.stats.cache_hits.values()), sum(k.batch.stats.cache_misses.values()))
"""])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, TAPEGRAD_FUSED_DIR=str(cache_dir), PYTHONPATH=root)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[-3:] == ["['fused']", "1 0", ""]


def test_cache_bound(tmp_path):
    """Beyond the bound the oldest kernels (by their source's age) are deleted."""
    for i, key in enumerate("abcd"):
        src = tmp_path / f"tg_fused_{key}.py"
        src.write_bytes(b"#" * 300_000)
        (tmp_path / "__pycache__").mkdir(exist_ok=True)
        (tmp_path / "__pycache__" / f"tg_fused_{key}.point-1.py312.nbc").write_bytes(b"x" * 1000)
        os.utime(src, (1000 + i, 1000 + i))
    assert fused.cache_bytes(tmp_path) == 4 * 301_000
    gone = fused.evict(tmp_path, limit_mb=0.6, keep=("a",))
    assert gone == ["b", "c"]
    left = sorted(p.name for p in tmp_path.rglob("tg_fused_*"))
    assert left == ["tg_fused_a.point-1.py312.nbc", "tg_fused_a.py",
                    "tg_fused_d.point-1.py312.nbc", "tg_fused_d.py"]


# -- a vector output: the seeded kernel (jacobian, vjp, jvp) -----------------------------------
def vec_f(x, y):
    """Three blocks (cat) and a stack of scalars: elementwise, reductions, a product; a
    guard (y[2] > 0)."""
    s = tg.stack([x[0].sin() * y[1], (x[1:] ** 2).sum(), tg.atan2(x[2], y[0])])
    if y[2] > 0:
        s = s * 2.0
    return tg.cat([(x * y.sum()).exp(), s, (x @ y).reshape(1) / (y * y + 1.0).sum()])


@pytest.fixture(scope="module")
def vec():
    f = tg.compile(vec_f, argnums=(0, 1), fused=False)
    assert f.compile_fused(np.ones(3), np.ones(3), wait=True) == ["fused"]
    t = f.traces[((3,), (3,))][0]
    assert t._fused.seeded is not None and t._fused.batch is None
    assert gather.request_dense(t, "dense", wait=True) == "fused"  # (jacobian_batch's)
    return f, t


def _interpreted(call, *args, **kwargs):
    fused.set_enabled(False)
    try:
        return call(*args, **kwargs)
    finally:
        fused.set_enabled(True)


def _spy(monkeypatch, k, name):
    """Count the calls of kernel k's method ``name`` that it served (True)."""
    served = []
    method = getattr(k, name)

    def counted(*args, **kwargs):
        served.append(method(*args, **kwargs))
        return served[-1]
    monkeypatch.setattr(k, name, counted)
    return served


def _bits(a):
    return np.ascontiguousarray(a).view(np.int64)  # (-0.0 is not 0.0; NaNs by payload)


def test_vector_kernel_bit_for_bit(vec, monkeypatch):
    """The seeded kernel (one point, vjp_batch before its own kernel is ready) and the
    plain jacobian_batch's and jvp_batch's direct kernel ("dense", compiled by the
    fixture) against the interpreter, as bits: NaN, inf and signed zeros."""
    f, t = vec
    served = _spy(monkeypatch, t._fused, "run_seeded")
    dense = fused.direct_kernel(t, gather.dense_offsets(t, "dense"), kind="dense")
    by_dense = _spy(monkeypatch, dense, "run_direct")
    rng = np.random.default_rng(3)
    X, Y = rng.normal(size=(BIG, 3)) * 0.5, rng.normal(size=(BIG, 3)) * 0.5
    Y[:, 2] = np.abs(Y[:, 2]) + 0.1
    X[3, 1], Y[6, 0], X[9], Y[9, :2] = np.nan, np.inf, -0.0, 0.0  # (on the flipped rows)
    J = f.jacobian_batch(X, Y)
    assert by_dense == [True] and served == []
    J0 = _interpreted(f.jacobian_batch, X, Y)
    assert all(np.array_equal(_bits(a), _bits(b)) for a, b in zip(J, J0, strict=True))
    v = rng.normal(size=(BIG, 7))
    v[2] = -0.0
    V, (gx, gy) = f.vjp_batch(X, Y, v=v)  # (queues its own kernel: the seeded one answers)
    assert served == [True]
    V0, (gx0, gy0) = _interpreted(f.vjp_batch, X, Y, v=v)
    assert all(np.array_equal(_bits(a), _bits(b)) for a, b in [(V, V0), (gx, gx0), (gy, gy0)])
    tx, ty = rng.normal(size=(BIG, 3)), rng.normal(size=(BIG, 3))
    V, jv = f.jvp_batch(X, Y, v=(tx, ty))
    assert by_dense == [True] * 2
    V0, jv0 = _interpreted(f.jvp_batch, X, Y, v=(tx, ty))
    assert np.array_equal(_bits(V), _bits(V0)) and np.array_equal(_bits(jv), _bits(jv0))
    x, y = X[5].copy(), Y[5].copy()
    assert all(np.array_equal(a, b[5]) for a, b in zip(f.jacobian(x, y), J, strict=True))
    assert served == [True] * 2
    assert gather.request_dense(t, "vjp", wait=True) == "fused"
    by_vjp = _spy(monkeypatch, fused.direct_kernel(t, gather.dense_offsets(t, "vjp"),
                                                   kind="vjp"), "run_direct")
    for u in (v, v * -0.0):  # (zero seeds of both signs: 0.0 * inf and signed zeros)
        V, (gx, gy) = f.vjp_batch(X, Y, v=u)
        V0, (gx0, gy0) = _interpreted(f.vjp_batch, X, Y, v=u)
        assert all(np.array_equal(_bits(a), _bits(b))
                   for a, b in [(V, V0), (gx, gx0), (gy, gy0)])
    assert by_vjp == [True] * 2
    Y[::3, 2] *= -1.0  # the other branch at a third of the points: retraced (interpreted)
    J = f.jacobian_batch(X, Y)
    assert by_dense == [True] * 3
    J0 = _interpreted(tg.compile(vec_f, argnums=(0, 1)).jacobian_batch, X, Y)
    assert all(np.array_equal(_bits(a), _bits(b)) for a, b in zip(J, J0, strict=True))
    Vm, Jm = t.vjp_batch(X, Y, v=v, on_divergence="mask")
    assert np.isnan(Vm[::3]).all() and not np.isnan(Vm[1::3]).any()
    assert np.array_equal(Vm, _interpreted(t.vjp_batch, X, Y, v=v, on_divergence="mask")[0],
                          equal_nan=True)


def test_plain_jacobian_batch_recycles_dropped_results(vec, monkeypatch):
    """The plain jacobian_batch's fresh (B, m, n) result (6.7 MB here) is the array an
    earlier call returned once the caller dropped every view of it (replay._recycled: no
    first-touch page faults a call), never while one is alive: a held result keeps its
    bits, a new call gets another array; every result the interpreter's bits."""
    f, t = vec
    dense = fused.direct_kernel(t, gather.dense_offsets(t, "dense"), kind="dense")
    by_dense = _spy(monkeypatch, dense, "run_direct")
    rng = np.random.default_rng(5)
    X, Y = rng.normal(size=(BIG, 3)) * 0.5, np.abs(rng.normal(size=(BIG, 3))) + 0.1
    J = f.jacobian_batch(X, Y)
    kept = weakref.ref(J[0].base)
    del J
    assert kept() is not None  # (without recycling: freed here)
    J = f.jacobian_batch(X * 2.0, Y)
    assert J[0].base is kept() and J[1].base is kept()
    K = f.jacobian_batch(X, Y)  # (J held: a fresh array)
    assert K[0].base is not J[0].base
    assert by_dense == [True] * 3
    for got, x in ((J, X * 2.0), (K, X)):
        want = _interpreted(f.jacobian_batch, x, Y)
        assert all(np.array_equal(_bits(a), _bits(b)) for a, b in zip(got, want, strict=True))


def test_vector_kernel_against_torch(vec):
    torch = pytest.importorskip("torch")
    f, t = vec

    def tf(x, y):  # (y[2] > 0 at every point: vmap cannot branch)
        s = torch.stack([x[0].sin() * y[1], (x[1:] ** 2).sum(), torch.atan2(x[2], y[0])]) * 2.0
        return torch.cat([(x * y.sum()).exp(), s, (x @ y).reshape(1) / (y * y + 1.0).sum()])
    rng = np.random.default_rng(4)
    X, Y = rng.normal(size=(50, 3)), rng.normal(size=(50, 3))
    Y[:, 2] = np.abs(Y[:, 2]) + 0.1
    Jx, Jy = f.jacobian_batch(X, Y)
    Tx, Ty = torch.func.vmap(torch.func.jacrev(tf, argnums=(0, 1)))(
        torch.from_numpy(X), torch.from_numpy(Y))
    np.testing.assert_allclose(Jx, Tx.numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(Jy, Ty.numpy(), rtol=1e-12, atol=1e-12)


def test_scalar_kernel_serves_jacobian(mixed, monkeypatch):
    """A scalar output's Jacobian (the seed 1.0) runs its batch kernel: its gradient."""
    f, t = mixed
    served = _spy(monkeypatch, t._fused, "run_seeded")
    X = points(BIG, seed=5)
    J = t.jacobian_batch(X)
    assert served == [True]
    assert np.array_equal(J, _interpreted(t.jacobian_batch, X))
    assert np.array_equal(J, t.grad_batch(X))
    v = np.full(BIG, 2.0)  # (another seed: the interpreter answers)
    monkeypatch.setattr(fused, "DIRECT_MASKS", 0)  # (vjp_batch's own kernel: not queued)
    assert np.array_equal(t.vjp_batch(X, v=v)[1], _interpreted(t.vjp_batch, X, v=v)[1])
    assert served[-1] is False


def _csr_layout(B, mask):
    """out = (data, start, mask) for blocks stored point after point, the last point
    first (a layout other than the blocks' own), and the data that layout expects."""
    count = mask.sum(axis=1)
    start = (B - 1 - np.arange(B))[:, None] * count.sum() + (np.cumsum(count) - count)
    return np.full(B * count.sum(), np.nan), start


def _expected(blocks, start, mask):
    data = np.full(len(blocks) * mask.sum(), np.nan)
    for b in range(len(blocks)):
        for i in range(len(mask)):
            row = blocks[b, i][mask[i]]
            data[start[b, i]:start[b, i] + len(row)] = row
    return data


def test_gathered_kernel_bit_for_bit(vec, monkeypatch):
    """jacobian_batch(index=, out=) by the fused kernel in chunks (tapegrad/replay/
    gather.py) equals the plain call on gathered inputs bit for bit; diverging points are
    resolved as ever (retrace, mask, raise)."""
    f, t = vec
    chunks = _spy(monkeypatch, gather, "run_fused")
    rng = np.random.default_rng(6)
    P, Y = rng.normal(size=(40, 3)) * 0.5, rng.normal(size=(BIG, 3)) * 0.5
    Y[:, 2] = np.abs(Y[:, 2]) + 0.1
    idx = rng.integers(0, 40, BIG)
    Jx, Jy = f.jacobian_batch(P, Y, index=(idx, None))
    assert len(chunks) == 1
    J0x, J0y = f.jacobian_batch(P[idx], Y)
    assert np.array_equal(Jx, J0x) and np.array_equal(Jy, J0y)
    mask = rng.random((7, 6)) < 0.7
    data, start = _csr_layout(BIG, mask)
    blocks = np.concatenate([J0x, J0y], axis=2)
    assert f.jacobian_batch(P, Y, index=(idx, None), out=(data, start, mask)) is data
    assert len(chunks) == 2
    assert np.array_equal(data, _expected(blocks, start, mask), equal_nan=True)
    d0 = _interpreted(f.jacobian_batch, P, Y, index=(idx, None),
                      out=(np.full_like(data, np.nan), start, mask))
    assert np.array_equal(data, d0, equal_nan=True)
    Y[::3, 2] *= -1.0  # the other branch at a third of the points
    J0x, J0y = f.jacobian_batch(P[idx], Y)
    Jx, Jy = f.jacobian_batch(P, Y, index=(idx, None))
    assert np.array_equal(Jx, J0x) and np.array_equal(Jy, J0y)
    f.jacobian_batch(P, Y, index=(idx, None), out=(data, start, mask))
    blocks = np.concatenate([J0x, J0y], axis=2)
    assert np.array_equal(data, _expected(blocks, start, mask), equal_nan=True)
    Jm = t.jacobian_batch(P, Y, index=(idx, None), on_divergence="mask")[0]
    assert np.isnan(Jm[::3]).all() and np.array_equal(Jm[1::3], J0x[1::3])
    assert np.array_equal(t.mask, np.arange(BIG) % 3 != 0)
    with pytest.raises(tg.DivergenceError, match="point 0 takes another branch"):
        t.jacobian_batch(P, Y, index=(idx, None))


def test_gathered_scalar_kernel(mixed):
    """A scalar output's index= runs its batch kernel (the gradient is the block)."""
    f, t = mixed
    X = points(300, seed=7)
    idx = np.random.default_rng(7).integers(0, 300, BIG)
    assert np.array_equal(t.jacobian_batch(X, index=(idx,)), t.jacobian_batch(X[idx]))


def _direct_check(f, t, P, Y, idx, mask, monkeypatch):
    """jacobian_batch(index=, out=) by t's direct kernel equals the plain call's blocks on
    gathered inputs bit for bit (NaN and inf points, the other branch included)."""
    assert fused.direct_status(t, gather.offsets(t, mask)) == "fused"
    served = _spy(monkeypatch, fused.direct_kernel(t, gather.offsets(t, mask)), "run_direct")
    data, start = _csr_layout(len(Y), mask)
    f.jacobian_batch(P, Y, index=(idx, None), out=(data, start, mask))
    assert served == [True]
    blocks = np.concatenate(f.jacobian_batch(P[idx], Y), axis=2)
    assert np.array_equal(data, _expected(blocks, start, mask), equal_nan=True)


def test_direct_kernel_bit_for_bit(vec, monkeypatch):
    """The direct kernel (inputs read by index, kept entries written to data; tapegrad/
    replay/fused.py direct_source), written out in locals with the mask in its source: a
    row of the mask all False (its lane never runs), inf and NaN inputs, a guard."""
    f, t = vec
    rng = np.random.default_rng(8)
    P, Y = rng.normal(size=(40, 3)) * 0.5, rng.normal(size=(BIG, 3)) * 0.5
    Y[:, 2] = np.abs(Y[:, 2]) + 0.1
    Y[::5, 2] *= -1.0
    Y[7, 0], P[3, 1] = np.inf, np.nan
    mask = rng.random((7, 6)) < 0.7
    mask[2] = False
    assert set(f.compile_fused(wait=True, mask=mask)) == {"fused"}
    _direct_check(f, t, P, Y, rng.integers(0, 40, BIG), mask, monkeypatch)


def test_direct_kernel_loops(monkeypatch):
    """The direct kernel of a tape kept in loops: seeds' rows and offsets read at run time."""
    monkeypatch.setattr(fused, "UNROLL_LINES", 0)
    f = tg.compile(lambda x, y: tg.cat([(x * y).sin(), (x[:2] / y[1:]).exp()]),
                   argnums=(0, 1), fused=False)
    rng = np.random.default_rng(9)
    P, Y = rng.normal(size=(30, 3)), rng.normal(size=(BIG, 3))
    Y[4, 1] = np.inf
    mask = rng.random((5, 6)) < 0.6
    f.jacobian(P[0], Y[0])
    t = f.traces[((3,), (3,))][0]
    assert gather.request_direct(t, mask, wait=True) == "fused"  # (no seeded kernel)
    _direct_check(f, t, P, Y, rng.integers(0, 30, BIG), mask, monkeypatch)


def test_zero_signs_bit_for_bit(monkeypatch):
    """Where the generator drops a zero start (``0.0 + P`` -> ``P``, ``0.0 - P`` -> ``-P``,
    fused._drop_zero_starts), the kernel's zeros keep the interpreter's signs: Rosenbrock's
    loop form at its minimum (every adjoint term a zero) and beside it, compared as bits
    (np.array_equal takes -0.0 for 0.0).  Scheduled as a long tape's (fused.REGISTERS:
    loads late, gradients stored early)."""
    monkeypatch.setattr(fused, "REGISTERS", 0)
    f = tg.compile(lambda x: sum(100 * (x[i + 1] - x[i] ** 2) ** 2 + (1 - x[i]) ** 2
                                 for i in range(3)), fused=False)
    X = np.array([[1.0, 1.0, 1.0, 1.0], [-1.0, 1.0, 1.0, 1.0], [1.0, 1.0, -1.0, 1.0],
                  [0.0, 0.0, 0.0, 0.0], [-0.0, 0.0, -0.0, 0.0]])
    assert f.compile_fused(X[0], wait=True) == ["fused"]
    t = f.traces[((4,),)][0]
    assert "G[p, 0] = " in fused.generate(t).split("V[p] = ")[0]  # (stored early)
    V, G, _ = t.run(X, True)
    V0, G0, _ = _interpreted(t.run, X, True)
    assert np.array_equal(G.view(np.int64), G0.view(np.int64))
    assert np.array_equal(V.view(np.int64), V0.view(np.int64))


def test_merged_loops_bit_for_bit(monkeypatch):
    """The vector form's kernel in loops, its forward loop and the reverse's first run as
    one (fused._merged: the reverse reads t and 1 - x from the forward's locals): as bits
    against the interpreter at signed zeros and inf (a NaN's sign aside, as before the
    merge: ``-(P)``, fused._drop_zero_starts), and with values only."""
    monkeypatch.setattr(fused, "UNROLL_LINES", 0)
    f = tg.compile(lambda x: (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum(),
                   fused=False)
    X = np.array([[1.0, 1.0, 1.0, 1.0, 1.0], [-0.0, 0.0, -0.0, 0.0, -0.0],
                  [1.0, np.nan, -1.0, 1.0, 2.0], [np.inf, 1.0, -np.inf, 0.5, -0.0]])
    f.value_and_grad(X[0])
    t = f.traces[((5,),)][0]
    assert "else:" in fused.generate(t).split("def batch")[1]
    assert t.compile_fused(wait=True) == "fused"
    for grad in (True, False):
        V, G, _ = t.run(X, grad)
        V0, G0, _ = _interpreted(t.run, X, grad)
        for a, b in [(V, V0)] + [(G, G0)] * grad:
            assert np.array_equal(np.isnan(a), np.isnan(b))
            assert np.array_equal(_bits(np.nan_to_num(a)), _bits(np.nan_to_num(b)))


def test_captured_constant_in_straight_line_kernel():
    """A captured constant tensor's values are hoisted into the kernel's setup; the value-
    only copy of a straight-line forward renames only the names it assigns (it renamed the
    setup's too: ``NameError: v6__1v``, and the interpreter ran every batch).  Values and
    gradients as bits against the interpreter, with and without the gradient."""
    W = tg.tensor([1.0, -2.5, 3.0])
    f = tg.compile(lambda x: (x * x * W).sum(), fused=False)
    X = np.random.default_rng(3).normal(size=(40, 3))
    assert f.compile_fused(X[0], wait=True) == ["fused"]
    t = f.traces[((3,),)][0]
    for grad in (False, True):
        V, G, bad = t.run(X, grad)
        V0, G0, _ = _interpreted(t.run, X, grad)
        assert not bad.any() and np.array_equal(V, V0) and np.array_equal(G, G0)
        assert np.allclose(V, (X * X * W.numpy()).sum(1))
    assert np.allclose(G, 2 * X * W.numpy())
