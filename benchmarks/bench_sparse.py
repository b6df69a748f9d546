"""Sparse derivatives (issue 24): ``tapegrad.sparse`` against dense evaluation and JAX.

The pattern and colouring are made once, untimed (a plan); each round evaluates at the
point and assembles the scipy CSR matrix.  JAX gets the same colouring
(``vmap`` of ``jvp`` or of a Hessian-vector product over the colours' seeds, jitted,
decompressed the same way): JAX has no sparsity detection of its own.

- ``sparse ba1 jacobian``: ADBench ba1 (bench_ba.py's data and reference) as ONE vector
  function of all 55,710 parameters (cameras, points, weights) with 95,529 residuals,
  written vectorised here: tapegrad's sparse Jacobian (pattern from the tape, 14 column
  colours, products J V by one tangent sweep with a lane per colour), JAX's
  ``jit(vmap(jvp))`` over the same 14 seeds, bench_ba's per-observation ``jacobian_batch``
  (the structure given by hand) and the hand-written Numba Jacobian (the floor).  The
  dense Jacobian would hold 5.3e9 entries: it is timed on a 500-observation slice instead
  (``sparse ba p=500 jacobian``: sparse, tapegrad's dense ``jacobian``,
  ``jax.jit(jax.jacfwd)``).
- ``sparse hessian n=<n>``: f(x) = Rosenbrock + x0 * sum(x[1:]^2) (a band of width 3 and
  a dense first row and column: an arrow), star-coloured into 4 products.  At n = 2000,
  the dense peers too: tapegrad's ``compile(f).hessian`` (n Hessian-vector products by
  replay) and ``jax.jit(jax.hessian(f))``; at n = 10^5 (a dense Hessian would be 80 GB)
  tapegrad's sparse Hessian against JAX's HVPs over the same colours.
"""
import os

import numpy as np
import pytest
import scipy.sparse
from bench_ba import DATA, Problem, _ba_blocks

import tapegrad as tg
from tapegrad import bench as tb

tb.passive_omp_waits()

if os.environ.get("NUMBA_DISABLE_JIT", "0") == "1":
    pytestmark = pytest.mark.skip("NUMBA_DISABLE_JIT=1: the kernels would run as Python")


def _jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    return jax


# -- the objectives, written once for tapegrad and jax.numpy ------------------------------
def _cat(lib, parts, axis):
    return lib.cat(parts, axis) if lib is tg else lib.concatenate(parts, axis=axis)


def _rowsum(lib, a):
    return a.sum(1, keepdim=True) if lib is tg else a.sum(axis=1, keepdims=True)


def ba_residuals(lib, z, n, m, ci, pi, feat):
    """All observations' residuals: [w (proj - feat) row by row (2p), 1 - w^2 (p)], as
    bench_ba.residuals per observation (no Rodrigues branch: no camera has r = 0)."""
    cams = z[:11 * n].reshape(n, 11)[ci]
    X = z[11 * n:11 * n + 3 * m].reshape(m, 3)[pi]
    w = z[11 * n + 3 * m:]
    r, c, f = cams[:, 0:3], cams[:, 3:6], cams[:, 6:7]
    x0, k1, k2 = cams[:, 7:9], cams[:, 9:10], cams[:, 10:11]
    y = X - c
    theta = _rowsum(lib, r * r) ** 0.5
    cos, sin = theta.cos() if lib is tg else lib.cos(theta), \
        theta.sin() if lib is tg else lib.sin(theta)
    u = r / theta
    cross = _cat(lib, [u[:, 1:2] * y[:, 2:3] - u[:, 2:3] * y[:, 1:2],
                       u[:, 2:3] * y[:, 0:1] - u[:, 0:1] * y[:, 2:3],
                       u[:, 0:1] * y[:, 1:2] - u[:, 1:2] * y[:, 0:1]], 1)
    rot = y * cos + cross * sin + u * (_rowsum(lib, u * y) * (1 - cos))
    q = rot[:, 0:2] / rot[:, 2:3]
    rsq = _rowsum(lib, q * q)
    proj = f * q * (1 + k1 * rsq + k2 * rsq * rsq) + x0
    return _cat(lib, [(w.reshape(-1, 1) * (proj - feat)).reshape(-1), 1 - w * w], 0)


def arrow(lib, x):
    """Rosenbrock plus x0 times the squares of the rest: band and arrow."""
    return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum() \
        + x[0] * (x[1:] ** 2).sum()


class BA:
    """ba1 as one vector function of all its parameters."""

    def __init__(self):
        prob = self.prob = Problem(DATA)
        self.z = np.concatenate([prob.cams.ravel(), prob.pts.ravel(), prob.w])
        self.args = (prob.n, prob.m, prob.ci, prob.pi, prob.feat)

    def f(self, lib):
        feat = self.args[4] if lib is tg else lib.asarray(self.args[4])
        return lambda z: ba_residuals(lib, z, *self.args[:4], feat)


def _decompress(P, colors, B):
    """The CSR matrix with pattern P from B (m, k) = J V (V the colours' indicators)."""
    rows = np.repeat(np.arange(P.shape[0]), np.diff(P.indptr))
    return scipy.sparse.csr_matrix((B[rows, colors[P.indices]], P.indices, P.indptr),
                                   shape=P.shape)


def _seeds(colors):
    return np.eye(int(colors.max()) + 1)[colors].T  # (k, n)


# -- BA ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ba1():
    if not DATA.exists():
        pytest.skip(f"ADBench data not found at {DATA} (set TAPEGRAD_ADBENCH)")
    ba = BA()
    prob = ba.prob
    data, out, wout = prob.data()  # (the hand-written blocks, written into the CSR data)
    _ba_blocks(prob.cams, prob.pts, prob.w, prob.feat, prob.ci, prob.pi, out, wout)
    return ba, prob.csr(data)


@pytest.fixture(scope="module")
def ba1_plan(ba1):
    ba, _ = ba1
    return tg.sparse.jacobian_plan(ba.f(tg), ba.z)


def _ba_tapegrad_sparse(ba, plan):
    return lambda: plan(ba.z)


def _ba_jax_colours(ba, plan):
    jax = _jax()
    F = ba.f(jax.numpy)
    V = jax.numpy.asarray(_seeds(plan.colors))
    jv = jax.jit(lambda z: jax.vmap(lambda v: jax.jvp(F, (z,), (v,))[1])(V))
    z = jax.numpy.asarray(ba.z)
    return lambda: _decompress(plan.pattern, plan.colors, np.asarray(jv(z)).T)


def _ba_per_observation(ba, plan):
    import bench_ba
    return bench_ba._tapegrad(ba.prob)


def _ba_numba(ba, plan):
    import bench_ba
    return bench_ba._numba(ba.prob)


BA_LIBRARIES = {"tapegrad sparse": _ba_tapegrad_sparse,
                "jax jit(vmap(jvp)) same colours": _ba_jax_colours,
                "tapegrad jacobian_batch per observation": _ba_per_observation,
                "numba hand-written": _ba_numba}


@pytest.mark.parametrize("lib", list(BA_LIBRARIES))
def test_sparse_ba1_jacobian(benchmark, ba1, ba1_plan, lib):
    ba, ref = ba1
    call = BA_LIBRARIES[lib](ba, ba1_plan)
    J = call()
    assert J.shape == ref.shape
    # (the reference stores the principal point's two structural zeros per observation;
    # the pattern read from the tape has 29 nonzeros per observation)
    assert abs(J - ref).max() <= 1e-10 * abs(ref).max()
    benchmark.group = "sparse ba1 jacobian"
    benchmark.extra_info.update(rows=J.shape[0], cols=J.shape[1], nnz=int(ref.nnz),
                                colors=ba1_plan.ncolors, mode=ba1_plan.mode)
    benchmark.pedantic(call, rounds=7, warmup_rounds=1)


@pytest.fixture(scope="module")
def ba_small():
    if not DATA.exists():
        pytest.skip(f"ADBench data not found at {DATA} (set TAPEGRAD_ADBENCH)")
    ba = BA()
    p = 500
    n, m = ba.prob.n, int(ba.prob.pi[:p].max()) + 1
    z = np.concatenate([ba.prob.cams.ravel(), ba.prob.pts[:m].ravel(), ba.prob.w[:p]])
    args = (n, m, ba.prob.ci[:p], ba.prob.pi[:p], ba.prob.feat[:p])
    return z, args


def _small_f(lib, args):
    feat = args[4] if lib is tg else lib.asarray(args[4])
    return lambda z: ba_residuals(lib, z, *args[:4], feat)


def _small_sparse(z, args):
    plan = tg.sparse.jacobian_plan(_small_f(tg, args), z)
    return lambda: plan(z).toarray()


def _small_dense(z, args):
    c = tg.compile(_small_f(tg, args))
    return lambda: c.jacobian(z)


def _small_jax(z, args):
    jax = _jax()
    jf = jax.jit(jax.jacfwd(_small_f(jax.numpy, args)))
    zj = jax.numpy.asarray(z)
    return lambda: np.asarray(jf(zj))


SMALL = {"tapegrad sparse": _small_sparse, "tapegrad dense jacobian": _small_dense,
         "jax jit(jacfwd) dense": _small_jax}


@pytest.mark.parametrize("lib", list(SMALL))
def test_sparse_ba_small_dense_vs_sparse(benchmark, ba_small, lib):
    z, args = ba_small
    call = SMALL[lib](z, args)
    J = call()
    want = tg.compile(_small_f(tg, args)).jacobian(z)
    np.testing.assert_allclose(J, want, rtol=1e-9, atol=1e-9 * abs(want).max())
    benchmark.group = "sparse ba p=500 jacobian"
    benchmark.extra_info.update(shape=list(J.shape))
    benchmark.pedantic(call, rounds=5, warmup_rounds=1)


# -- Hessians ---------------------------------------------------------------------------
def _x(n):
    return np.random.default_rng(0).uniform(-1, 1, n)


def _h_sparse(n):
    x = _x(n)
    plan = tg.sparse.hessian_plan(lambda x: arrow(tg, x), x)
    return lambda: plan(x), plan


def _h_dense_hvp(n):
    x = _x(n)
    c = tg.compile(lambda x: arrow(tg, x))
    return lambda: c.hessian(x), None


def _h_jax_dense(n):
    jax = _jax()
    h = jax.jit(jax.hessian(lambda x: arrow(jax.numpy, x)))
    x = jax.numpy.asarray(_x(n))
    return lambda: np.asarray(h(x)), None


def _h_jax_colours(n):
    jax = _jax()
    plan = tg.sparse.hessian_plan(lambda x: arrow(tg, x), _x(n))
    g = jax.grad(lambda x: arrow(jax.numpy, x))
    V = jax.numpy.asarray(_seeds(plan.colors))
    hv = jax.jit(lambda x: jax.vmap(lambda v: jax.jvp(g, (x,), (v,))[1])(V))
    x = jax.numpy.asarray(_x(n))
    take = plan._take

    def call():
        G = np.asarray(hv(x))  # (k, n): (H V).T
        P = plan.pattern
        return scipy.sparse.csr_matrix((G.reshape(-1)[take], P.indices, P.indptr),
                                       shape=P.shape)
    return call, plan


HESSIAN = {"tapegrad sparse": _h_sparse, "tapegrad dense by n HVPs": _h_dense_hvp,
           "jax jit(hessian) dense": _h_jax_dense,
           "jax jit(vmap(hvp)) same colours": _h_jax_colours}
CASES = [(2000, lib) for lib in HESSIAN] + [
    (100_000, "tapegrad sparse"), (100_000, "jax jit(vmap(hvp)) same colours")]


@pytest.mark.parametrize("n,lib", CASES)
def test_sparse_hessian(benchmark, n, lib):
    call, plan = HESSIAN[lib](n)
    H = call()
    want = _h_sparse(n)[0]() if lib != "tapegrad sparse" else tg.compile(
        lambda x: arrow(tg, x)).hvp(_x(n), np.ones(n))
    if lib == "tapegrad sparse":
        np.testing.assert_allclose(H @ np.ones(n), want, rtol=1e-10)
    elif hasattr(H, "toarray"):
        assert abs(H - want).max() <= 1e-10 * abs(want).max()
    else:
        np.testing.assert_allclose(np.asarray(H.toarray() if hasattr(H, "toarray") else H),
                                   want.toarray(), rtol=1e-10, atol=1e-8)
    benchmark.group = f"sparse hessian n={n}"
    if plan is not None:
        benchmark.extra_info.update(colors=plan.ncolors, nnz=int(plan.pattern.nnz))
    benchmark.pedantic(call, rounds=5, warmup_rounds=1)
