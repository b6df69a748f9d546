"""ADBench's Gaussian mixture objective (issue 21): the gradient of the log-likelihood with
a Wishart prior on ``gmm/1k`` (n = 1,000 points), d = 2..64, K = 5..100, with respect to
the alphas (K), the means (K, d) and the inverse-covariance factors (K, d + d(d-1)/2).

The objective is written here from ADBench's definition (``../shared/adbench/README.md``,
``FileFormat.md``, arXiv 1807.10129), once for every library (``gmm_objective``): with
``Q_k`` lower triangular, diagonal ``exp(q_k)`` and the off-diagonal ``l_k`` filled column
by column,

    f = -n d/2 log(2 pi) + sum_i logsumexp_k(alpha_k + sum(q_k) - |Q_k (x_i - mu_k)|^2 / 2)
        - n logsumexp(alpha)
        + sum_k (gamma^2/2 (|exp(q_k)|^2 + |l_k|^2) - m sum(q_k)) - K C(d, gamma, m)

``C = n' d (log gamma - log(2)/2) - log Gamma_d(n'/2)``, ``n' = d + m + 1`` (the
multivariate log-gamma).  ``test_objective_value`` checks it on ADBench's ``gmm/test.txt``
(8.07380408004975791).

Group ``gmm d=<d> K=<K>``, one value and gradient per round, every gradient checked against
tapegrad's eager one (1e-9 of the largest entry):

- ``tapegrad eager``: the objective on tensors requiring grad, ``backward()``;
- ``tapegrad replay``: ``tg.compile(f, argnums=(0, 1, 2)).value_and_grad`` (the one-point
  path: vector rows run by the general interpreter, no fused kernel);
- ``jax jit``: ``jax.jit(jax.value_and_grad(f, argnums=(0, 1, 2)))``, float64, blocked;
- ``torch eager``: the objective on tensors, ``torch.autograd.grad`` (its default threads).

``extra_info["first_call_s"]``: the untimed first call (trace; JAX's trace and XLA compile).
``--benchmark-disable`` (CI): d = 2, K = 5 only.

On the shared 2-core machine run it as the other benchmarks of vector work, one thread per
library and CPU time (benchmarks/README.md)::

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 \
    XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \
    python -m pytest benchmarks/bench_gmm.py --benchmark-only \
        --benchmark-timer=time.process_time --benchmark-columns=median,iqr,rounds

With OpenBLAS's default threads under a load average above the core count, its threads
waiting on each other dominate: tapegrad's batched product (100 products (1000, 32) @
(32, 32) at d = 32, K = 100) took 377 ms of CPU instead of 61, the whole gradient 1.8 s
instead of 0.27 s (2026-12-03, load average 4-10).
"""
import math
import os
import time
from pathlib import Path

import numpy as np
import pytest

from tapegrad import bench as tb

tb.passive_omp_waits()

DATA = Path(os.environ.get("TAPEGRAD_ADBENCH", Path(__file__).resolve().parents[2] / "shared"
                           / "adbench")) / "gmm"
CASES = [(2, 5), (10, 25), (20, 50), (32, 100), (64, 25)]
REL = 1e-9


def read_gmm(path):
    """(alphas (K,), means (K, d), icf (K, d + d(d-1)/2), x (n, d), gamma, m)."""
    with open(path) as fh:
        tokens = fh.read().split()
    d, K, n = (int(v) for v in tokens[:3])
    v = np.array(tokens[3:], np.float64)
    nicf = d + d * (d - 1) // 2
    sizes = np.cumsum([K, K * d, K * nicf, n * d])
    alphas, means, icf, x = np.split(v[:sizes[-1]], sizes[:-1])
    return (alphas, means.reshape(K, d), icf.reshape(K, nicf), x.reshape(n, d),
            float(v[sizes[-1]]), float(v[sizes[-1] + 1]))


def _tril_index(d):
    """For the flat (d, d) factor: 1 + the position of entry (i, j), i > j, among the
    off-diagonal parameters (packed column by column), and 0 above the diagonal."""
    idx = np.zeros((d, d), np.int64)
    p = 1
    for j in range(d):
        for i in range(j + 1, d):
            idx[i, j] = p
            p += 1
    return idx.reshape(-1)


def _log_gamma_d(a, p):
    return 0.25 * p * (p - 1) * math.log(math.pi) + sum(
        math.lgamma(a + 0.5 * (1 - j)) for j in range(1, p + 1))


def gmm_objective(lib, alphas, means, icf, x, gamma, m):
    """The objective on ``lib``'s arrays (``lib``: exp, logsumexp(a, dim), cat(list, dim),
    zeros(shape), swap(a): the last two axes swapped); x is a constant."""
    n, d = x.shape
    K = alphas.shape[0]
    qs = icf[:, :d]
    sum_qs = qs.sum(1)
    qdiag = lib.exp(qs)
    ls = icf[:, d:]
    # L_k: the off-diagonal factor, gathered from [0, l_k] (strictly lower triangular)
    L = lib.cat([lib.zeros((K, 1)), ls], 1)[:, _tril_index(d)].reshape(K, d, d)
    xc = x[None, :, :] - means[:, None, :]  # (K, n, d)
    qxc = qdiag[:, None, :] * xc + xc @ lib.swap(L)  # rows of Q_k (x_i - mu_k)
    inner = (alphas + sum_qs)[:, None] - 0.5 * (qxc * qxc).sum(2)  # (K, n)
    slse = lib.logsumexp(inner, 0).sum()
    npr = d + m + 1
    c = npr * d * (math.log(gamma) - 0.5 * math.log(2)) - _log_gamma_d(0.5 * npr, d)
    prior = (0.5 * gamma * gamma * ((qdiag * qdiag).sum() + (ls * ls).sum())
             - m * sum_qs.sum() - K * c)
    return (-n * d * 0.5 * math.log(2 * math.pi) + slse - n * lib.logsumexp(alphas, 0)
            + prior)


class _Lib:
    def __init__(self, **ops):
        self.__dict__.update(ops)


def _tapegrad_lib():
    import tapegrad as tg
    return tg, _Lib(exp=tg.exp, logsumexp=tg.logsumexp, cat=tg.cat, zeros=tg.zeros,
                    swap=lambda a: a.transpose(1, 2))


def _tapegrad_eager(data):
    tg, lib = _tapegrad_lib()
    tg.warmup()
    *params, x, gamma, m = data

    def call():
        ps = [tg.tensor(p, requires_grad=True) for p in params]
        y = gmm_objective(lib, *ps, x, gamma, m)
        y.backward()
        return y.item(), [p.grad.numpy() for p in ps]
    return call


def _tapegrad_replay(data):
    tg, lib = _tapegrad_lib()
    tg.warmup()
    *params, x, gamma, m = data
    f = tg.compile(lambda a, mu, q: gmm_objective(lib, a, mu, q, x, gamma, m),
                   argnums=(0, 1, 2))

    def call():
        v, g = f.value_and_grad(*params)
        return v, list(g)
    return call


def _jax(data):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    jnp = jax.numpy
    lib = _Lib(exp=jnp.exp, logsumexp=lambda a, dim: jax.scipy.special.logsumexp(a, dim),
               cat=jnp.concatenate, zeros=jnp.zeros, swap=lambda a: jnp.swapaxes(a, 1, 2))
    *params, x, gamma, m = data
    xj = jnp.asarray(x)
    vg = jax.jit(jax.value_and_grad(lambda a, mu, q: gmm_objective(lib, a, mu, q, xj, gamma, m),
                                    argnums=(0, 1, 2)))
    ps = [jnp.asarray(p) for p in params]

    def call():
        v, g = vg(*ps)
        return float(v), [np.asarray(t.block_until_ready()) for t in g]
    return call


def _torch(data):
    torch = pytest.importorskip("torch")
    lib = _Lib(exp=torch.exp, logsumexp=torch.logsumexp, cat=torch.cat,
               zeros=lambda s: torch.zeros(s, dtype=torch.float64),
               swap=lambda a: a.transpose(1, 2))
    *params, x, gamma, m = data
    xt = torch.from_numpy(x)

    def call():
        ps = [torch.tensor(p, requires_grad=True) for p in params]
        y = gmm_objective(lib, *ps, xt, gamma, m)
        gs = torch.autograd.grad(y, ps)
        return y.item(), [g.numpy() for g in gs]
    return call


LIBRARIES = {"tapegrad eager": _tapegrad_eager, "tapegrad replay": _tapegrad_replay,
             "jax jit": _jax, "torch eager": _torch}


def _load(d, K):
    return read_gmm(DATA / "1k" / f"gmm_d{d}_K{K}.txt")


def _cases(request):
    return CASES[:1] if request.config.getoption("benchmark_disable", False) else CASES


@pytest.fixture(scope="module")
def reference():
    """tapegrad's eager (value, gradients) per case, for every library's check."""
    cache = {}

    def get(d, K):
        if (d, K) not in cache:
            cache[d, K] = _tapegrad_eager(_load(d, K))()
        return cache[d, K]
    return get


@pytest.mark.parametrize("lib", list(LIBRARIES))
@pytest.mark.parametrize("case", CASES, ids=[f"d{d}-K{K}" for d, K in CASES])
def test_gmm_gradient(phase, request, reference, case, lib):
    if case not in _cases(request):
        pytest.skip("--benchmark-disable: d = 2, K = 5 only")
    d, K = case
    call = LIBRARIES[lib](_load(d, K))
    t0 = time.perf_counter()
    v, g = call()  # traces, compiles: not timed
    first = time.perf_counter() - t0
    want_v, want_g = reference(d, K)
    np.testing.assert_allclose(v, want_v, rtol=REL)
    for got, want, name in zip(g, want_g, ("alphas", "means", "icf"), strict=True):
        np.testing.assert_allclose(got, want, rtol=0, atol=REL * np.abs(want).max(),
                                   err_msg=f"{lib}: gradient of the {name}")
    phase(call, group=f"gmm d={d} K={K}", library=lib, phase="value+grad", ops=0,
          budget=1.0, d=d, K=K, first_call_s=first)


def test_objective_value():
    """ADBench's tiny case (d = 2, K = 3, n = 1): 8.07380408004975791."""
    tg, lib = _tapegrad_lib()
    *params, x, gamma, m = read_gmm(DATA / "test.txt")
    y = gmm_objective(lib, *[tg.tensor(p) for p in params], x, gamma, m)
    assert abs(y.item() - 8.07380408004975791) < 1e-12
