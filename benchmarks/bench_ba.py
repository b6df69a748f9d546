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
  over the p observations by the trace's fused kernel (``compile_fused(wait=True)`` first,
  untimed; ``extra_info['compile_s']``): per observation one forward and the reverse for
  the 3 seeds side by side as lanes (tapegrad/replay/fused.py), all cores; the Rodrigues
  branch (``|r|^2 > 0``) is a guard, checked at every observation.  The cameras and points
  are read by index (``index=(ci, pi, None, None)``) and the blocks' 31 nonzeros written
  into the CSR data (``out=(data, start, mask)``) by the trace's direct kernel for that
  mask (``compile_fused(..., mask=)``, untimed): it reads ``cams[ci[i]]`` itself and
  writes the kept entries straight to the data, and the lanes and entries the mask drops
  are dead code (tapegrad/replay/fused.py ``direct_source``);
- ``tapegrad stacked inputs``: the same kernel on inputs gathered and stacked by NumPy
  (``cams[ci]``, ...), its (p, 3, 17) blocks copied into the CSR data (``from_blocks``):
  the call before ``index=``/``out=``;
- ``tapegrad interpreter``: the ``index=``/``out=`` call with no fused kernel (the inputs
  gathered by NumPy, ``_seeded_blocks``, one fancy-index store): what runs before the
  kernel is ready;
- ``numba hand-written``: the residuals' reverse mode derived by hand, one pass per
  observation (one core): the limit;
- ``torch.func vmap(jacrev)``: PyTorch's batched Jacobian (not ADBench's PyTorch entry,
  which loops over observations: 45.8 s published).

Both Numba peers write their blocks straight into the CSR data array, as tapegrad's
``out=`` does (from its chunk buffer); torch's and ``stacked inputs``' are copied there
(``Problem.from_blocks``).

Group ``ba ba1 kernel, one thread``: the blocks alone (outputs preallocated, no gathering
or CSR), the fused kernel against the hand-written one.

Measured 2026-12-03 15:55-16:23 UTC, 2 cores shared with ~6 other jobs (load 9-11; medians
swing 2-4x between runs, so both min and median), time relative to hand-written Numba:

| group | fused | interpreter | torch vmap(jacrev) |
| --- | --- | --- | --- |
| jacobian, run A: min / median | 3.5x / 3.8x | 8.7x / 7.2x | 21x / 17x |
| jacobian, run B: min / median | 3.8x / 3.1x | 5.0x / 5.8x | 3.3x / 4.0x |
| jacobian, run C: min / median | 5.9x / 2.3x | 21x / 5.5x | 73x / 18x |
| kernel, one thread (two runs): min / median | 1.51x, 1.50x / 1.78x, 1.17x | | |

(Before this kernel, the same group measured the interpreter at 10.5x the hand-written
time, median, 15:30 UTC.)  The fused kernel compiles in 7-25 s (cold, loaded machine).
Under this load the hand-written peer's own time swings 3.6-28 ms min; an interleaved
in-process loop (60 rounds, min) gave: kernel one thread 3.4 ms against 2.25 ms, the whole
timed call 26.8 ms against 11.5 ms (2.3x), of which gathering, stacking, the fresh (p, 3,
17) gradient and the copy into the CSR data are ~60% on tapegrad's side.

With ``index=`` and ``out=`` (18:33 UTC, load 8-9, process time, one run; ms, min / median):

| jacobian | min | median |
| --- | --- | --- |
| numba hand-written | 3.12 | 3.46 |
| tapegrad jacobian_batch (index=, out=) | 6.90 (2.21x) | 7.23 (2.09x) |
| tapegrad stacked inputs (before) | 9.59 (3.07x) | 12.25 (3.54x) |
| tapegrad interpreter | 27.3 (8.75x) | 29.7 (8.57x) |
| torch.func vmap(jacrev) | 103 (33x) | 108 (31x) |
| kernel, one thread: fused / hand-written | 3.39 / 2.27 (1.49x) | 4.15 / 2.81 (1.48x) |

Three more runs gave 2.13x, 2.26x and 1.95x min (1.86x median; stacked 3.15x, 3.16x,
2.58x): about 2x, not reliably under it; an interleaved in-process
loop (60 rounds) 2.09x min, 2.04x median (stacked 2.55x, 2.64x).  Where tapegrad's ~6.5 ms
go (process time, in-process): the fused kernel on 1024-observation chunks ~3.4 (the
hand-written 2.3), gathering the chunks' inputs 0.33, scattering their blocks into the CSR
data 0.6-0.75, the second thread's overhead ~0.3, validating index/out 0.12, the CSR matrix
0.4 (both pay it).  What is left beyond the kernel's 1.5x is the gather and scatter passes:
the kernel reading ``cams[ci[i]]`` and writing the CSR data itself would remove them.

With the direct kernel (``out=``'s mask written into a kernel of its own that reads by
index and writes the CSR data; 22:40-23:05 UTC, load ~13, ``--benchmark-timer=
time.process_time``, one run; ms, min / median, ratio to hand-written):

| jacobian | min | median |
| --- | --- | --- |
| numba hand-written | 3.54 | 3.72 |
| tapegrad jacobian_batch (index=, out=: direct kernel) | 4.62 (1.30x) | 4.78 (1.29x) |
| tapegrad stacked inputs | 10.3 (2.90x) | 10.8 (2.90x) |
| tapegrad interpreter | 30.5 (8.62x) | 32.8 (8.82x) |
| torch.func vmap(jacrev) | 63.0 (17.8x) | 68.8 (18.5x) |
| kernel 1 thread: hand-written | 2.24 | 2.53 |
| kernel 1 thread: direct | 2.63 (1.17x) | 3.39 (1.34x) |
| kernel 1 thread: seeded | 3.33 (1.49x) | 3.81 (1.50x) |

Interleaved in one process (40 rounds, CPU): the whole call 1.29x min, 1.34x median (the
chunked gather/kernel/scatter path 1.91x, 2.01x); kernels alone, one thread, direct 1.08x,
1.25x, seeded 1.39x, 1.68x.  Where the seeded kernel's 1.5x went: its third lane (the seed
of ``1 - w^2``) ran the whole reverse on zeros, it computed the features' columns (not in
argnums) and stored 51 entries and 3 values a point; the direct kernel's source holds the
mask, so that code is dead (dropped before Numba sees it) and its seeds are literals
(unit seeds alone: 1.50x -> 1.41x).

The plain call (``tapegrad stacked inputs``: ``jacobian_batch(*inputs)``, the blocks copied
into the CSR matrix) now runs a direct kernel too ("dense": blocks (p, 3, 17), inputs read
where they are, only argnums' columns; compiled here untimed, ``gather.request_dense``),
and ``vjp_batch`` a
"vjp" kernel (one lane a point).  In one process, 40 rounds interleaved, CPU, ms median /
min (hand-written kernel one thread 2.64 / 2.25; 2026-12-04 02:04 UTC): plain
``jacobian_batch`` by the seeded kernel 11.3 / 8.4, by the dense kernel 7.2 / 5.5;
``vjp_batch`` 6.4 / 4.8 -> 3.0 / 2.5.  One run of this file (process_time), min / median:
``stacked inputs`` 7.10 / 8.18 ms (1.94x / 2.00x) and 7.87 / 8.91 ms (2.31x / 2.39x) in two
runs, against 8.45 / 9.01 ms (2.01x / 1.96x) before, the same hour (the hand-written peer's
own time swung 3.4-4.2 ms min); kernel group: direct 1.06x / 1.22x, dense 1.22x / 1.58x,
seeded 1.30x / 1.61x.

The plain call's page faults (branch jac26, 2026-12-06 16:30-16:40 UTC, load 8-15).  In a
kept process (``benchmarks/ab_ba.py``: one worker per checkout and case, interleaved rounds,
CPU medians) the plain call took 14.7-15.6 ms against the hand-written 3.3-3.4 (4.5x): ~1,900
first-touch page faults a call (``getrusage``), its 13 MB fresh (p, 3, 17) result among the
call's other fresh arrays (the gathered inputs 3.6 MB, the CSR data 7.9 MB), so glibc gave
the heap's top back to the OS at every call (with ``MALLOC_TRIM_THRESHOLD_`` and
``MALLOC_MMAP_THRESHOLD_`` raised: 7.1 ms, no faults).  pytest-benchmark's few rounds
mostly missed it (2.14-2.29x).  The result and its values are now recycled: the arrays the
thread's last call returned, once the caller dropped every view of them
(``replay._recycled``).  ``TAPEGRAD_ADBENCH=/work/shared/adbench AB_ROUNDS=21 python
benchmarks/ab_ba.py /work/main /work/wt-jac26 --index`` (16:40 UTC), ms, ratio to the
hand-written 3.26:

| call | main (3d2b583) | jac26 |
| --- | --- | --- |
| ``stacked inputs`` (plain ``jacobian_batch``) | 14.67 (4.50x) | 7.13 (2.19x) |
| ``jacobian_batch(index=, out=)`` | 4.17 (1.28x) | 3.94 (1.21x) |

(A run at 16:32, 15 rounds: 15.56 / 7.76 ms, 4.54x / 2.27x; index= 1.27x / 1.21x.)  Where
the plain call's ~7 ms go now (in one process, 30 rounds interleaved, CPU medians,
hand-written call 2.99, its kernel alone 2.30): gathering the inputs (``cams[ci]``,
``pts[pi]``) 0.66, ``jacobian_batch`` 3.45 (the dense kernel on both cores 3.36, on one
3.11: 1.35x the hand-written kernel, as it writes every entry of the (3, 17) blocks where
``out=``'s kernel writes the 31 the mask keeps), ``from_blocks`` 2.70 (four strided NumPy
copies into the CSR data, 1.0 + 0.5 + 0.2 + 0.03, and the CSR matrix, 0.4, which the
hand-written pays too).  The case's own NumPy (gather and copy) is ~2.4 ms, near the
hand-written call's whole time, so this case stays above 2x (2.2-2.3x) however fast the
library's part: ``jacobian_batch`` itself is 1.15x the hand-written call.  This file's
command above, same tree (16:39 UTC, load 9), min / median: hand-written 2.80 / 2.95 ms,
``index=, out=`` 4.00 / 4.09 (1.43x / 1.39x), stacked inputs 6.44 / 6.69 (2.30x / 2.27x),
interpreter 25.4 / 26.0 (9.0x / 8.8x), torch 54.9 / 58.2 (19.6x / 19.8x); kernels one
thread: direct 1.12x / 1.13x, dense 1.32x / 1.32x, seeded 1.43x / 1.41x.

``TAPEGRAD_ADBENCH=/work/shared/adbench python benchmarks/profile_ba.py 30`` (every part
interleaved in one process, CPU medians, ms, and page faults a call; 16:44 UTC, load 4-7),
main (3d2b583, run with ``PYTHONPATH=/work/main``) / jac26: hand-written 3.20 / 3.02 (its
kernel 2.29 / 2.26); ``index=, out=`` 5.76, 710 faults (1.80x) / 4.02, 0 (1.33x); the plain
call 12.50, 1,974 faults (3.91x) / 6.56, 0 (2.17x); its parts: gathering the inputs 1.43
/ 0.65, ``jacobian_batch`` 4.52, 477 faults / 3.40, 0, ``from_blocks`` 2.94 / 3.01; the
dense kernel alone on both cores 3.21 / 3.23, on one 3.00 / 3.02.  (In that mix main's
``index=`` call faulted too: the other calls' churn had glibc give its CSR data back.)

Published (GradBench, single thread): manual C++ 8.3 ms, Enzyme 7.8 ms.
"""
import os
from pathlib import Path

import numba
import numpy as np
import pytest
import scipy.sparse

from tapegrad import bench as tb
from tapegrad.replay import fused, gather

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
    """Hand-derived reverse mode of ``residuals``, scalars only (no array per observation):
    out (p, 2, 15) the reprojection rows (camera 11, point 3, weight 1), wout (p,)
    d(1 - w^2)/dw."""
    for i in range(len(ci)):
        cam, X, w = cams[ci[i]], pts[pi[i]], weights[i]
        r0, r1, r2 = cam[0], cam[1], cam[2]
        y0, y1, y2 = X[0] - cam[3], X[1] - cam[4], X[2] - cam[5]
        th = np.sqrt(r0 * r0 + r1 * r1 + r2 * r2)
        c, sn, it = np.cos(th), np.sin(th), 1.0 / th
        u0, u1, u2 = r0 * it, r1 * it, r2 * it
        x0_, x1_, x2_ = u1 * y2 - u2 * y1, u2 * y0 - u0 * y2, u0 * y1 - u1 * y0  # u x y
        d = u0 * y0 + u1 * y1 + u2 * y2
        t = d * (1.0 - c)
        P0 = y0 * c + x0_ * sn + u0 * t
        P1 = y1 * c + x1_ * sn + u1 * t
        P2 = y2 * c + x2_ * sn + u2 * t
        q0, q1 = P0 / P2, P1 / P2
        rsq = q0 * q0 + q1 * q1
        f, k1, k2 = cam[6], cam[9], cam[10]
        L = 1.0 + k1 * rsq + k2 * rsq * rsq
        for j in range(2):
            g = out[i, j]
            qj = q0 if j == 0 else q1
            g[14] = f * qj * L + cam[7 + j] - feats[i, j]  # d/dw
            g[6] = w * qj * L  # d/df
            g[7] = w if j == 0 else 0.0
            g[8] = w if j == 1 else 0.0
            qb = w * f  # d/d(q_j L)
            Lb = qb * qj
            g[9] = Lb * rsq
            g[10] = Lb * rsq * rsq
            rsqb = Lb * (k1 + 2.0 * k2 * rsq)
            q0b = 2.0 * q0 * rsqb + (qb * L if j == 0 else 0.0)
            q1b = 2.0 * q1 * rsqb + (qb * L if j == 1 else 0.0)
            P0b, P1b = q0b / P2, q1b / P2
            P2b = -(q0b * q0 + q1b * q1) / P2
            cb = P0b * y0 + P1b * y1 + P2b * y2
            c0b, c1b, c2b = P0b * sn, P1b * sn, P2b * sn  # the cross product's adjoint
            snb = P0b * x0_ + P1b * x1_ + P2b * x2_
            tb_ = P0b * u0 + P1b * u1 + P2b * u2
            db = tb_ * (1.0 - c)
            cb -= tb_ * d
            # u x y: u gets y x cb, y gets cb x u
            u0b = P0b * t + db * y0 + (y1 * c2b - y2 * c1b)
            u1b = P1b * t + db * y1 + (y2 * c0b - y0 * c2b)
            u2b = P2b * t + db * y2 + (y0 * c1b - y1 * c0b)
            y0b = P0b * c + db * u0 + (c1b * u2 - c2b * u1)
            y1b = P1b * c + db * u1 + (c2b * u0 - c0b * u2)
            y2b = P2b * c + db * u2 + (c0b * u1 - c1b * u0)
            itb = u0b * r0 + u1b * r1 + u2b * r2
            sb = (-itb * it * it - cb * sn + snb * c) / (2.0 * th)
            g[0] = u0b * it + 2.0 * r0 * sb
            g[1] = u1b * it + 2.0 * r1 * sb
            g[2] = u2b * it + 2.0 * r2 * sb
            g[3], g[4], g[5] = -y0b, -y1b, -y2b
            g[11], g[12], g[13] = y0b, y1b, y2b
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
        # where each observation's 3 Jacobian rows begin in the CSR data (rows 2i, 2i + 1
        # and 2p + i), and which entries of its (3, 15) block the CSR keeps
        self.start = self.indptr[np.stack([2 * np.arange(p), 2 * np.arange(p) + 1,
                                           2 * p + np.arange(p)], axis=1)]
        self.mask = np.ones((3, 15), bool)
        self.mask[2, :14] = False  # 1 - w^2 depends on w alone

    def inputs(self):
        return self.cams[self.ci], self.pts[self.pi], self.w, self.feat

    def data(self):
        """A fresh CSR data array, and its views rows (p, 2, 15) (the reprojection rows'
        nonzeros) and wrows (p,) (the weight rows'): each peer writes its Jacobian there
        once (no concatenation)."""
        data = np.empty(31 * self.p)
        return data, data[:30 * self.p].reshape(self.p, 2, 15), data[30 * self.p:]

    def csr(self, data):
        return scipy.sparse.csr_matrix((data, self.indices, self.indptr), shape=self.shape)

    def from_blocks(self, Jc, Jx, Jw):
        """(p, 3, 11), (p, 3, 3), (p, 3) Jacobian blocks as the CSR matrix."""
        data, rows, wrows = self.data()
        rows[:, :, :11] = Jc[:, :2]
        rows[:, :, 11:14] = Jx[:, :2]
        rows[:, :, 14] = Jw[:, :2]
        wrows[:] = Jw[:, 2]
        return self.csr(data)


def _tapegrad(prob, fuse=True, info=None, stacked=False):
    """jacobian_batch by the trace's fused kernel (compiled first, untimed: its compile
    time goes to ``info['compile_s']``), or (``fuse`` False) by the interpreter: the
    cameras and points read by index, the blocks written into the CSR data (``index=``,
    ``out=``), or (``stacked``) the inputs gathered and the blocks copied by NumPy."""
    import tapegrad as tg
    tg.warmup()
    f = tg.compile(lambda cam, x, w, feat: residuals(tg, cam, x, w, feat), argnums=(0, 1, 2),
                   fused=False)
    if fuse:
        mask = None if stacked else prob.mask  # (out='s mask: its direct kernel too)
        status = f.compile_fused(*(a[0] for a in prob.inputs()), wait=True, mask=mask)
        assert status == ["fused"], status
        if stacked:  # (the plain call's own kernel: tapegrad/replay/gather.py run_dense)
            t = next(iter(f.traces.values()))[0]
            assert gather.request_dense(t, "dense", wait=True) == "fused"
        if info is not None:
            info["compile_s"] = round(next(iter(f.traces.values()))[0]._fused.seconds, 3)
    if stacked:
        return lambda: prob.from_blocks(*f.jacobian_batch(*prob.inputs()))
    index = (prob.ci, prob.pi, None, None)  # observation i: camera ci[i], point pi[i]

    def call():
        data = np.empty(31 * prob.p)
        f.jacobian_batch(prob.cams, prob.pts, prob.w, prob.feat, index=index,
                         out=(data, prob.start, prob.mask))
        return prob.csr(data)
    return call


def _interpreted(prob, info=None):
    return _tapegrad(prob, False, info)


def _stacked(prob, info=None):
    return _tapegrad(prob, True, info, stacked=True)


def _numba(prob, info=None):
    def call():
        data, out, wout = prob.data()
        _ba_blocks(prob.cams, prob.pts, prob.w, prob.feat, prob.ci, prob.pi, out, wout)
        return prob.csr(data)
    return call


def _torch(prob, info=None):
    torch = pytest.importorskip("torch")
    jac = torch.func.vmap(torch.func.jacrev(
        lambda cam, x, w, feat: residuals(torch, cam, x, w, feat, branch=False),
        argnums=(0, 1, 2)))

    def call():
        blocks = jac(*(torch.from_numpy(np.ascontiguousarray(a)) for a in prob.inputs()))
        return prob.from_blocks(*(b.numpy() for b in blocks))
    return call


LIBRARIES = {"tapegrad jacobian_batch": _tapegrad, "tapegrad stacked inputs": _stacked,
             "tapegrad interpreter": _interpreted,
             "numba hand-written": _numba, "torch.func vmap(jacrev)": _torch}


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
    info = {}
    call = LIBRARIES[lib](problem, info=info)
    J = call()  # the first call (traces, compiles) is not timed
    assert J.shape == reference.shape and J.nnz == 31 * problem.p
    np.testing.assert_array_equal(J.indices, reference.indices)
    np.testing.assert_allclose(J.data, reference.data, rtol=REL, atol=1e-12)
    benchmark.group = "ba ba1 jacobian"
    benchmark.extra_info.update(observations=problem.p, nnz=int(J.nnz), **info)
    benchmark.pedantic(call, rounds=7, warmup_rounds=1)


@pytest.mark.parametrize("lib", ["tapegrad fused kernel", "tapegrad direct kernel",
                                 "tapegrad dense kernel", "numba hand-written"])
def test_ba_kernel(benchmark, problem, reference, lib):
    """The Jacobian blocks alone, on one thread, outputs preallocated: the fused kernel
    (``Traced.run_seeded(serial=True)`` on the stacked inputs), and the direct kernel of
    ``out=``'s mask (cameras and points read by index, entries written to the CSR data),
    against the hand-written one, without the CSR assembly of ``test_ba_jacobian``."""
    benchmark.group = "ba ba1 kernel, one thread"
    if lib == "numba hand-written":
        data, out, wout = problem.data()
        args = (problem.cams, problem.pts, problem.w, problem.feat, problem.ci, problem.pi,
                out, wout)
        _ba_blocks(*args)
        benchmark(_ba_blocks, *args)
        np.testing.assert_array_equal(data, reference.data)
        return
    import tapegrad as tg
    f = tg.compile(lambda cam, x, w, feat: residuals(tg, cam, x, w, feat), argnums=(0, 1, 2),
                   fused=False)
    assert f.compile_fused(*(a[0] for a in problem.inputs()), wait=True) == ["fused"]
    t = next(iter(f.traces.values()))[0]
    if lib == "tapegrad dense kernel":  # (the plain jacobian_batch's: (p, 3, 17) blocks)
        srcs = [np.ascontiguousarray(a.reshape(len(a), -1)) for a in problem.inputs()]
        at = gather.dense_offsets(t, "dense")
        assert gather.request_dense(t, "dense", wait=True) == "fused"
        k = fused.direct_kernel(t, at, kind="dense")
        G, V = np.empty((problem.p, 3, at.shape[1])), np.empty((problem.p, 3))
        args = (srcs, [np.zeros(0, np.int64)] * 4, G.reshape(-1), gather._NO_START, at,
                np.zeros(problem.p, np.int64))
        assert k.run_direct(*args, serial=True, V=V)
        benchmark(k.run_direct, *args, serial=True, V=V)
        J = problem.from_blocks(G[:, :, :11], G[:, :, 11:14], G[:, :, 14])
        np.testing.assert_allclose(J.data, reference.data, rtol=REL, atol=1e-12)
        benchmark.extra_info["compile_s"] = round(k.seconds, 3)
        return
    if lib == "tapegrad direct kernel":
        at = gather.offsets(t, problem.mask)
        assert gather.request_direct(t, problem.mask, wait=True) == "fused"
        k = fused.direct_kernel(t, at)
        data = np.empty(31 * problem.p)
        srcs = [np.ascontiguousarray(a.reshape(len(a), -1)) for a in
                (problem.cams, problem.pts, problem.w, problem.feat)]
        idxs = [problem.ci, problem.pi, np.zeros(0, np.int64), np.zeros(0, np.int64)]
        args = (srcs, idxs, data, np.ascontiguousarray(problem.start), at,
                np.zeros(problem.p, np.int64))
        assert k.run_direct(*args, serial=True)
        benchmark(k.run_direct, *args, serial=True)
        np.testing.assert_allclose(data, reference.data, rtol=REL, atol=1e-12)
        benchmark.extra_info["compile_s"] = round(k.seconds, 3)
        return
    X = t._stack(problem.inputs(), batch=True)
    U = np.eye(3)[None]
    k = t._fused
    V, G, bad = np.empty((len(X), 3)), np.empty((len(X), 3, X.shape[1])), np.zeros(len(X), np.int64)
    assert k.run_seeded(X, U, V, G, bad, serial=True)
    benchmark(k.run_seeded, X, U, V, G, bad, serial=True)
    J = problem.from_blocks(G[:, :, :11], G[:, :, 11:14], G[:, :, 14])
    np.testing.assert_allclose(J.data, reference.data, rtol=REL, atol=1e-12)
    benchmark.extra_info["compile_s"] = round(k.seconds, 3)
