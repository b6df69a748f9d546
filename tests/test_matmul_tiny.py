"""A BLAS product's backward whose adjoint holds tiny (subnormal) rows (ops/linalg.py
``_mm_blas_rev_tiny``): those rows' products are made apart, scaled into the normal range
(BLAS is ~100x slower on subnormal operands), the other rows come from the same BLAS call
as before, bit for bit; eager, one-point and batch replay agree bit for bit."""
import numpy as np
import pytest

import tapegrad as tg
from tapegrad.ops import linalg as L

u = np.uint64
TINY = 2.0 ** -1074  # the smallest subnormal


@pytest.fixture(scope="module", autouse=True)
def compiled():
    tg.warmup()


def _bits(got, want):
    np.testing.assert_array_equal(np.asarray(got).view(np.int64),
                                  np.asarray(want, np.float64).view(np.int64))


def _case(rng, M, K, N, tiny_rows):
    """vals = [A (M, K), B (K, N), y], adj = [0, 0, gy (M, N)]: gy's ``tiny_rows``
    subnormal (a softmax weight underflowing times O(1) values)."""
    A, B = rng.normal(size=(M, K)), rng.normal(size=(K, N))
    gy = rng.normal(size=(M, N))
    gy[tiny_rows] *= 1e-310
    vals = np.concatenate([A.ravel(), B.ravel(), np.zeros(M * N)])
    adj = np.concatenate([np.zeros(M * K + K * N), gy.ravel()])
    return A, B, gy, vals, adj


def _rev(adj, vals, M, K, N, bt=False, need=(True, True), write=(False, False)):
    L._mm_blas_rev(adj, vals, u(M * K + K * N), u(0), u(M * K), u(M), u(K), u(N), u(1),
                   *need, bt, *write)


def _plain(M, K, N, A, B, gy, bt=False):
    """(gA, gB) by _mm_blas_rev for an adjoint without tiny rows: the plain BLAS calls
    (Numba's BLAS, SciPy's OpenBLAS: not NumPy's, which may round otherwise)."""
    vals = np.concatenate([A.ravel(), B.ravel(), np.zeros(M * N)])
    adj = np.concatenate([np.zeros(M * K + K * N), gy.ravel()])
    assert (np.abs(gy[gy != 0]) >= 2.0 ** -960).all()
    _rev(adj, vals, M, K, N, bt)
    return adj[:M * K].reshape(M, K), adj[M * K:M * K + K * N].reshape(B.shape)


def _seq_dot(X, Y):
    """X @ Y summed over k ascending, one product at a time (ops/linalg.py _small_dot)."""
    out = np.zeros((X.shape[0], Y.shape[1]))
    for k in range(X.shape[1]):
        out = out + X[:, k:k + 1] * Y[k:k + 1, :]
    return out


def _scale(g):
    s = 1.0  # as _scaled_rows: the largest |value| to [0.25, 0.5), s at most 2^960
    while np.abs(g).max() * s < 0.25 and s < 2.0 ** 960:
        s *= 2
    return s


@pytest.mark.parametrize("rows", [[3, 4, 20, 33, 60, 77, 90, 120, 150, 199],
                                  list(range(0, 200, 10))])
@pytest.mark.parametrize("write", [(False, False), (True, True)])
def test_other_rows_are_the_plain_calls(write, rows):
    """gA's rows without tiny values are the plain call's bit for bit (the same call, the
    tiny rows zeroed); the tiny rows are their own product scaled into range and back;
    gB is the call with those rows zeroed plus their terms, made alike."""
    rng = np.random.default_rng(1)
    M, K, N = 200, 16, 24  # (10 tiny rows: their products by loops; 20: by BLAS)
    A, B, gy, vals, adj = _case(rng, M, K, N, rows)
    _rev(adj, vals, M, K, N, write=write)
    gA, gB = adj[:M * K].reshape(M, K), adj[M * K:M * K + K * N].reshape(K, N)
    _bits(adj[M * K + K * N:], gy.ravel())  # (zeroed in place while it ran, put back)
    gz = gy.copy()
    gz[rows] = 0.0
    zA, zB = _plain(M, K, N, A, B, gz)
    keep = np.setdiff1d(np.arange(M), rows)
    _bits(gA[keep], zA[keep])
    s = _scale(gy[rows])
    if len(rows) * K * N >= L._BLAS_MIN:
        sA, sB = _plain(len(rows), K, N, A[rows], B, gy[rows] * s)
    else:
        sA, sB = _seq_dot(gy[rows] * s, B.T), _seq_dot(A[rows].T, gy[rows] * s)
    _bits(gA[rows], sA * (1 / s))
    _bits(gB, zB + sB * (1 / s))
    # and close to the exact products (the tiny rows: to the subnormal grid's rounding)
    exact = gy @ B.T
    np.testing.assert_allclose(gA[keep], exact[keep], rtol=1e-13)
    assert np.all(np.abs(gA[rows] - exact[rows]) <= 4 * K * TINY)
    np.testing.assert_allclose(gB, A.T @ gy, rtol=1e-13)


def test_tiny_rows_rounded_once():
    """Two products of 2^-1075 each: BLAS rounds each to 0 (a tie, to even); the scaled
    rows sum them first, 2^-1074, the exact value.  Fails if the rows go through BLAS."""
    M, K, N = 128, 64, 2  # (64 tiny rows: 64 x 2 x (64 + 2) >= _TINY_WORK)
    vals = np.concatenate([np.zeros(M * K), np.full(K * N, 0.5), np.zeros(M * N)])
    adj = np.zeros(M * K + K * N + M * N)
    gy = np.zeros((M, N))
    gy[::2] = TINY  # gA[m, k] = sum over n of gy[m, n] B[k, n] = 2 x 2^-1075
    adj[M * K + K * N:] = gy.ravel()
    _rev(adj, vals, M, K, N, need=(True, False))
    gA = adj[:M * K].reshape(M, K)
    assert (gA[::2] == TINY).all() and (gA[1::2] == 0).all()


def test_few_tiny_rows_stay_in_the_call():
    """One tiny row in a (64, 64) @ (64, 2) product is below _TINY_WORK: BLAS takes it as
    it is (its two products of 2^-1075 each round to 0 there)."""
    M, K, N = 64, 64, 2
    vals = np.concatenate([np.zeros(M * K), np.full(K * N, 0.5), np.zeros(M * N)])
    adj = np.zeros(M * K + K * N + M * N)
    adj[M * K + K * N + 5 * N:M * K + K * N + 6 * N] = TINY
    _rev(adj, vals, M, K, N, need=(True, False))
    assert (adj[:M * K] == 0).all()


def test_transposed_operand_and_overflow_fallback():
    """F.linear's product (W stored as (N, K)); then a tiny row holding a value of 1e-200
    too (scaled by ~2^663 only) times W's 1e308s: the scaled product overflows where the
    plain one does not, and the plain call is made instead (results as before)."""
    rng = np.random.default_rng(2)
    M, K, N = 50, 20, 30
    x, W = rng.normal(size=(M, K)), rng.normal(size=(N, K))
    gy = rng.normal(size=(M, N))
    gy[[1, 9, 17, 25, 33, 41]] *= 1e-312
    vals = np.concatenate([x.ravel(), W.ravel(), np.zeros(M * N)])
    adj = np.concatenate([np.zeros(M * K + N * K), gy.ravel()])
    _rev(adj, vals, M, K, N, bt=True)
    gx, gW = adj[:M * K].reshape(M, K), adj[M * K:M * K + N * K].reshape(N, K)
    gz = gy.copy()
    gz[[1, 9, 17, 25, 33, 41]] = 0.0
    zx, zW = _plain(M, K, N, x, W, gz, bt=True)
    keep = np.setdiff1d(np.arange(M), [1, 9, 17, 25, 33, 41])
    _bits(gx[keep], zx[keep])
    np.testing.assert_allclose(gW, gy.T @ x, rtol=1e-13)
    assert np.all(np.abs(gx[[1, 9]] - (gy @ W)[[1, 9]]) <= 4 * N * TINY)
    W[:6] = 1e308
    gy[1, :6] = 1e-200
    vals = np.concatenate([x.ravel(), W.ravel(), np.zeros(M * N)])
    adj = np.concatenate([np.zeros(M * K + N * K), gy.ravel()])
    assert np.isinf((gy[1] * _scale(gy[1])) @ W).any() and np.isfinite(gy[1] @ W).all()
    with np.errstate(all="ignore"):
        _rev(adj, vals, M, K, N, bt=True)
    gx = adj[:M * K].reshape(M, K)
    assert np.isfinite(gx[1]).all()  # (the scaled rows would give inf)
    np.testing.assert_allclose(gx[[1, 9]], (gy @ W)[[1, 9]], rtol=1e-13, atol=4 * N * TINY)


def test_gradient_eager_replay_batch_and_torch():
    """(W * (A @ B)).sum() with W's rows tiny in places (a softmax's weights underflowing,
    as ADBench GMM's at d = 64): the product's adjoint is W.  Eager, one-point and batch
    replay agree bit for bit; torch to rounding."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    nb, M, K, N = 3, 40, 16, 24
    W = rng.normal(size=(nb, M, N))
    W[:, 1::2] *= 1e-310
    W[0, 2] = 1e-200  # (a normal row times 1e-200: below 2^-960 too, scaled likewise)
    W[1, 4, :3] = 0.0

    def model(A, B):
        return (W * (A @ B)).sum()

    pts = [(rng.normal(size=(nb, M, K)), rng.normal(size=(nb, K, N))) for _ in range(3)]
    f = tg.compile(model, argnums=(0, 1), fused=False)
    f.value_and_grad(*pts[0])
    t = next(iter(f.traces.values()))[0]
    V, G = t.value_and_grad_batch(*[np.stack(p) for p in zip(*pts, strict=True)])
    for i, (A0, B0) in enumerate(pts):
        A, B = (tg.tensor(z, requires_grad=True) for z in (A0, B0))
        model(A, B).backward()
        v, g = f.value_and_grad(A0, B0)
        _bits(v, V[i])  # (eager sums its forward otherwise: its value is not compared)
        At, Bt = (torch.tensor(z, requires_grad=True) for z in (A0, B0))
        yt = (torch.from_numpy(W) * (At @ Bt)).sum()
        for ge, gp, gb, gt in zip((A.grad.numpy(), B.grad.numpy()), g, G,
                                  torch.autograd.grad(yt, (At, Bt)), strict=True):
            _bits(gp, ge)
            _bits(gb[i], ge)
            np.testing.assert_allclose(ge, gt.numpy(), rtol=1e-13, atol=1e-320)
        tiny = np.abs(A.grad.numpy()) < 2.0 ** -960
        assert tiny.sum() >= nb * (M // 3) * K  # (the rows the test is about)


def test_scalings_are_the_multiplies():
    """_scaled_rows and _rows_replaced make subnormals from integer mantissas (no microcode
    assist), not by multiplying: the same bits as g * s and ys * inv + 0.0 on +-0, the
    smallest subnormals, the largest, 2^-1022 and its neighbours, ties to even of the
    product's rounding (odd mantissas scaled down by 2), NaN and inf, either sign."""
    rng = np.random.default_rng(4)
    sub = np.array([0.0, TINY, 2 * TINY, 3 * TINY, 2.0 ** -1022 - TINY, 2.0 ** -1022,
                    2.0 ** -1022 + TINY, 1e-310, 2.0 ** -961, 1e-300, 2.0 ** -960])
    g = np.concatenate([sub, -sub, rng.normal(size=13) * 1e-312,
                        rng.normal(size=13) * 2.0 ** -970]).reshape(4, 12)
    rows = np.array([0, 1, 3], np.int64)
    gs, s = L._scaled_rows(g, rows)
    assert s == _scale(g[rows])
    _bits(gs, g[rows] * s)
    odd = np.arange(1, 2 ** 12, 2, dtype=np.float64)[:96]  # mantissa ... .5 after one halving
    for inv in (2.0 ** -1, 2.0 ** -60, 2.0 ** -959, 1.0):
        ys = np.concatenate([odd * (TINY / inv) * 0.5, [0.0, -0.0, np.nan, np.inf, -np.inf],
                             rng.normal(size=24) * 2.0 ** -1000 / inv,
                             rng.normal(size=24) * 2.0 ** -1050 / inv,
                             [2.0 ** -1022 / inv, -2.0 ** -1022 / inv, 2.0 ** -1023 / inv]])
        ys = np.concatenate([ys, -ys[:96]]).reshape(-1, 8)
        M, N = ys.shape[0] + 2, 8
        rws = np.arange(1, M - 1, dtype=np.int64)
        for write in (True, False):
            adj = np.full(M * N + 3, 7.0)
            with np.errstate(all="ignore"):
                L._rows_replaced(adj, u(1), np.zeros((M, 1)), np.zeros((1, N)), ys, rws, inv,
                                 u(1), u(0), write)
                want = ys * inv + 0.0
            got = adj[1:1 + M * N].reshape(M, N)[1:-1]
            _bits(got, want if write else want + 7.0)
