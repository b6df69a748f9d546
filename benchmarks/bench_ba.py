"""ADBench bundle adjustment (issue 21): the sparse Jacobian of ``ba1`` (n = 49 cameras,
m = 7,776 points, p = 31,843 observations) as a scipy CSR matrix, 3p x (11n + 3m + p),
31 nonzeros per observation.

The objective is written here from ADBench's definition (``../shared/adbench/README.md``,
arXiv 1807.10129): per observation, camera (Rodrigues rotation r, centre C, focal f,
principal point x0, radial distortion k1, k2), point X, weight w and feature:
``Y = R(r) (X - C)``, ``p = Y[:2] / Y[2]``, ``proj = f p (1 + k1 |p|^2 + k2 |p|^4) + x0``,
residuals ``w (proj - feat)`` (2) and ``1 - w^2`` (1).  The data file holds one camera,
point, weight and feature, which ADBench repeats: observation i joins camera i mod n and
point i mod m.

Group ``ba ba1 jacobian`` (each timed call gathers the observations' inputs, computes
every observation's (3, 15) block and assembles the CSR matrix; every result is checked
against the hand-written Numba Jacobian, 1e-10 relative):

- ``tapegrad jacobian_batch``: ``tg.compile(residuals, argnums=(0, 1, 2)).jacobian_batch``
  over the p observations (one forward and one reverse sweep over 3 seeds per point, all
  cores); the Rodrigues branch (``|r|^2 > 0``) is a guard, checked at every observation;
- ``numba hand-written``: the residuals' reverse mode derived by hand, one pass per
  observation (one core): the limit;
- ``torch.func vmap(jacrev)``: PyTorch's batched Jacobian (not ADBench's PyTorch entry,
  which loops over observations: 45.8 s published).

Published (GradBench, single thread): manual C++ 8.3 ms, Enzyme 7.8 ms.
"""
import os
from pathlib import Path

import numba
import numpy as np
import pytest
import scipy.sparse

from tapegrad import bench as tb

tb.passive_omp_waits()

DATA = Path(os.environ.get("TAPEGRAD_ADBENCH", Path(__file__).resolve().parents[2] / "shared"
                           / "adbench")) / "ba" / "ba1_n49_m7776_p31843.txt"
REL = 1e-10

if os.environ.get("NUMBA_DISABLE_JIT", "0") == "1":
    pytestmark = pytest.mark.skip("NUMBA_DISABLE_JIT=1: the kernels would run as Python")


def read_ba(path):
    """(n, m, p, cams (n, 11), points (m, 3), weights (p,), features (p, 2))."""
    with open(path) as fh:
        tokens = fh.read().split()
    n, m, p = (int(v) for v in tokens[:3])
    v = np.array(tokens[3:], np.float64)
    cam, x, w, feat = v[:11], v[11:14], v[14], v[15:17]
    return (n, m, p, np.tile(cam, (n, 1)), np.tile(x, (m, 1)), np.full(p, w),
            np.tile(feat, (p, 1)))


def _cross(lib, a, b):
    return lib.stack([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                      a[0] * b[1] - a[1] * b[0]])


def residuals(lib, cam, x, w, feat, branch=True):
    """The 3 residuals of one observation, on tapegrad or torch tensors.  ``branch``:
    Rodrigues' small-angle case as ADBench has it (torch.func.vmap cannot branch on data,
    and no camera of the data has r = 0)."""
    r, c, f, x0, k1, k2 = cam[0:3], cam[3:6], cam[6], cam[7:9], cam[9], cam[10]
    y = x - c
    s = (r * r).sum()
    if not branch or s > 0:
        theta = s.sqrt()
        cos, sin = theta.cos(), theta.sin()
        u = r / theta
        rot = y * cos + _cross(lib, u, y) * sin + u * ((u * y).sum() * (1 - cos))
    else:
        rot = y + _cross(lib, r, y)
    p = rot[0:2] / rot[2]
    rsq = (p * p).sum()
    proj = f * p * (1 + k1 * rsq + k2 * rsq * rsq) + x0
    return lib.cat([w * (proj - feat), (1 - w * w).reshape(1)])


@numba.njit(cache=False)
def _ba_blocks(cams, pts, weights, feats, ci, pi, out, wout):
    """Hand-derived reverse mode of ``residuals``: out (p, 2, 15) the reprojection rows
    (camera 11, point 3, weight 1), wout (p,) d(1 - w^2)/dw."""
    for i in range(len(ci)):
        cam, X, w = cams[ci[i]], pts[pi[i]], weights[i]
        Y = X - cam[3:6]
        r = cam[0:3]
        s = r[0] * r[0] + r[1] * r[1] + r[2] * r[2]
        th = np.sqrt(s)
        c, sn, it = np.cos(th), np.sin(th), 1.0 / th
        u = r * it
        cr = np.array([u[1] * Y[2] - u[2] * Y[1], u[2] * Y[0] - u[0] * Y[2],
                       u[0] * Y[1] - u[1] * Y[0]])
        d = u[0] * Y[0] + u[1] * Y[1] + u[2] * Y[2]
        t = d * (1.0 - c)
        P = Y * c + cr * sn + u * t
        p = P[0:2] / P[2]
        rsq = p[0] * p[0] + p[1] * p[1]
        f, k1, k2 = cam[6], cam[9], cam[10]
        L = 1.0 + k1 * rsq + k2 * rsq * rsq
        for j in range(2):
            g = out[i, j]
            proj = f * p[j] * L + cam[7 + j]
            g[14] = proj - feats[i, j]  # d/dw
            pb = w  # d/dproj_j
            g[6] = pb * p[j] * L  # d/df
            g[7:9] = 0.0
            g[7 + j] = pb
            qb = pb * f  # d/d(p_j L)
            p_bar = np.zeros(2)
            p_bar[j] = qb * L
            Lb = qb * p[j]
            g[9] = Lb * rsq
            g[10] = Lb * rsq * rsq
            rsqb = Lb * (k1 + 2.0 * k2 * rsq)
            p_bar += 2.0 * p * rsqb
            Pb = np.array([p_bar[0] / P[2], p_bar[1] / P[2],
                           -(p_bar[0] * p[0] + p_bar[1] * p[1]) / P[2]])
            Yb = Pb * c
            cb = Pb[0] * Y[0] + Pb[1] * Y[1] + Pb[2] * Y[2]
            crb = Pb * sn
            snb = Pb[0] * cr[0] + Pb[1] * cr[1] + Pb[2] * cr[2]
            ub = Pb * t
            tb_ = Pb[0] * u[0] + Pb[1] * u[1] + Pb[2] * u[2]
            db = tb_ * (1.0 - c)
            cb -= tb_ * d
            ub += db * Y
            Yb += db * u
            # cr = u x Y: u gets Y x crb, Y gets crb x u
            ub += np.array([Y[1] * crb[2] - Y[2] * crb[1], Y[2] * crb[0] - Y[0] * crb[2],
                            Y[0] * crb[1] - Y[1] * crb[0]])
            Yb += np.array([crb[1] * u[2] - crb[2] * u[1], crb[2] * u[0] - crb[0] * u[2],
                            crb[0] * u[1] - crb[1] * u[0]])
            rb = ub * it
            itb = ub[0] * r[0] + ub[1] * r[1] + ub[2] * r[2]
            thb = -itb * it * it - cb * sn + snb * c
            sb = thb / (2.0 * th)
            rb += 2.0 * r * sb
            g[0:3] = rb
            g[3:6] = -Yb
            g[11:14] = Yb
        wout[i] = -2.0 * w


class Problem:
    def __init__(self, path):
        self.n, self.m, self.p, self.cams, self.pts, self.w, self.feat = read_ba(path)
        self.ci = np.arange(self.p) % self.n
        self.pi = np.arange(self.p) % self.m
        p, n, m = self.p, self.n, self.m
        cols = np.empty((p, 15), np.int64)
        cols[:, :11] = 11 * self.ci[:, None] + np.arange(11)
        cols[:, 11:14] = 11 * n + 3 * self.pi[:, None] + np.arange(3)
        cols[:, 14] = 11 * n + 3 * m + np.arange(p)
        self.indices = np.concatenate([np.repeat(cols, 2, axis=0).ravel(), cols[:, 14]])
        self.indptr = np.concatenate([np.arange(0, 30 * p + 1, 15),
                                      30 * p + np.arange(1, p + 1)]).astype(np.int64)
        self.shape = (3 * p, 11 * n + 3 * m + p)

    def inputs(self):
        return self.cams[self.ci], self.pts[self.pi], self.w, self.feat

    def csr(self, rows, wrows):
        """rows (p, 2, 15): the reprojection rows' nonzeros; wrows (p,): the weight rows'."""
        data = np.concatenate([rows.reshape(-1), wrows])
        return scipy.sparse.csr_matrix((data, self.indices, self.indptr), shape=self.shape)

    def from_blocks(self, Jc, Jx, Jw):
        """(p, 3, 11), (p, 3, 3), (p, 3) Jacobian blocks as the CSR matrix."""
        rows = np.concatenate([Jc[:, :2], Jx[:, :2], Jw[:, :2, None]], axis=2)
        return self.csr(rows, Jw[:, 2])


def _tapegrad(prob):
    import tapegrad as tg
    tg.warmup()
    f = tg.compile(lambda cam, x, w, feat: residuals(tg, cam, x, w, feat), argnums=(0, 1, 2))
    return lambda: prob.from_blocks(*f.jacobian_batch(*prob.inputs()))


def _numba(prob):
    def call():
        out, wout = np.empty((prob.p, 2, 15)), np.empty(prob.p)
        _ba_blocks(prob.cams, prob.pts, prob.w, prob.feat, prob.ci, prob.pi, out, wout)
        return prob.csr(out, wout)
    return call


def _torch(prob):
    torch = pytest.importorskip("torch")
    jac = torch.func.vmap(torch.func.jacrev(
        lambda cam, x, w, feat: residuals(torch, cam, x, w, feat, branch=False),
        argnums=(0, 1, 2)))

    def call():
        blocks = jac(*(torch.from_numpy(np.ascontiguousarray(a)) for a in prob.inputs()))
        return prob.from_blocks(*(b.numpy() for b in blocks))
    return call


LIBRARIES = {"tapegrad jacobian_batch": _tapegrad, "numba hand-written": _numba,
             "torch.func vmap(jacrev)": _torch}


@pytest.fixture(scope="module")
def problem():
    if not DATA.exists():
        pytest.skip(f"ADBench data not found at {DATA} (set TAPEGRAD_ADBENCH)")
    return Problem(DATA)


@pytest.fixture(scope="module")
def reference(problem):
    return _numba(problem)()


@pytest.mark.parametrize("lib", list(LIBRARIES))
def test_ba_jacobian(benchmark, problem, reference, lib):
    call = LIBRARIES[lib](problem)
    J = call()  # the first call (traces, compiles) is not timed
    assert J.shape == reference.shape and J.nnz == 31 * problem.p
    np.testing.assert_array_equal(J.indices, reference.indices)
    np.testing.assert_allclose(J.data, reference.data, rtol=REL, atol=1e-12)
    benchmark.group = "ba ba1 jacobian"
    benchmark.extra_info.update(observations=problem.p, nnz=int(J.nnz))
    benchmark.pedantic(call, rounds=7, warmup_rounds=1)
