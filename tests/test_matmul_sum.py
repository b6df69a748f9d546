"""A weight gradient's product, summed over a long dim (ops/linalg.py ``_sum_dot``): made in
blocks of at most ``_SUM_MNK`` multiply-adds (OpenBLAS's small-matrix kernel: ADBench GMM
d = 64's batched product backward ~25% faster in that product), the blocks added in order.
Its bits are that blocked sum's, in eager and replay alike, and within the rounding bound
of a sum of that many terms of an extended-precision sum and of PyTorch's."""
import numba
import numpy as np
import pytest
import torch

import tapegrad as tg
from tapegrad.nn import functional as F
from tapegrad.ops import linalg as L

EPS = np.finfo(np.float64).eps


@pytest.fixture(scope="module", autouse=True)
def compiled():
    tg.warmup()


@numba.njit
def _blocked(X, Y, blk):
    # X^T @ Y, X and Y row-major with the summed dim first: blocks of blk of its rows,
    # transposed (Numba's BLAS called on the same layouts as the rule), added in order
    out = np.dot(X[:blk].T, Y[:blk])
    for s in range(blk, X.shape[0], blk):
        out = out + np.dot(X[s:s + blk].T, Y[s:s + blk])
    return out


def _blk(P, Q):
    return L._SUM_MNK // (P * Q)


def _bound(X, Y, blk):
    # |fl(sum) - sum| <= (terms in a block + blocks) eps sum |terms| (each term rounded
    # once, each partial sum once)
    S = X.shape[1]
    n = min(blk, S) + -(-S // blk)
    return n * EPS * (np.abs(X) @ np.abs(Y))


def _exact(X, Y):
    return (X.astype(np.longdouble) @ Y.astype(np.longdouble)).astype(np.float64)


# (batches, rows summed, d_in, d_out, weight transposed as ADBench GMM's xc @ L^T)
CASES = [(3, 1000, 64, 64, True),   # GMM d = 64: blocks of 128 rows
         (2, 1000, 32, 32, False),  # blocks of 512
         (1, 1000, 64, 64, False),
         (2, 1000, 20, 20, True)]   # GMM d = 20: 1310 >= 1000, one call as before


@pytest.mark.parametrize("nb,M,K,N,bt", CASES)
def test_weight_gradient_is_the_blocked_sum(nb, M, K, N, bt):
    rng = np.random.default_rng(nb * M + K)
    x, W, c = rng.normal(size=(nb, M, K)), rng.normal(size=(nb, N, K) if bt else
                                                        (nb, K, N)), rng.normal(size=(nb, M, N))
    xt, Wt = tg.tensor(x, requires_grad=True), tg.tensor(W, requires_grad=True)
    (((xt @ Wt.transpose(1, 2)) if bt else (xt @ Wt)) * tg.tensor(c)).sum().backward()
    xq, Wq = torch.tensor(x, requires_grad=True), torch.tensor(W, requires_grad=True)
    (((xq @ Wq.transpose(1, 2)) if bt else (xq @ Wq)) * torch.tensor(c)).sum().backward()
    gW, blk = Wt.grad.numpy(), _blk(K, N)
    for i in range(nb):  # gW^T = c^T x (bt), gW = x^T c
        X, Y = (c[i], x[i]) if bt else (x[i], c[i])
        np.testing.assert_array_equal(gW[i], _blocked(X, Y, blk))
        X = X.T
        bound = _bound(X, Y, blk)
        assert (np.abs(gW[i] - _exact(X, Y)) <= bound).all()
        assert (np.abs(gW[i] - Wq.grad.numpy()[i]) <= bound + _bound(X, Y, M)).all()
    np.testing.assert_allclose(xt.grad.numpy(), xq.grad.numpy(), rtol=1e-12, atol=1e-12)


def test_replay_equals_eager():
    # replay runs the same rule: the same blocked sums, bit for bit
    rng = np.random.default_rng(5)
    x, W, c = rng.normal(size=(2, 1000, 64)), rng.normal(size=(2, 64, 64)), \
        rng.normal(size=(2, 1000, 64))

    def f(x, W):
        return ((x @ W.transpose(1, 2)) * tg.tensor(c)).sum()
    _, (gx, gW) = tg.compile(f, argnums=(0, 1)).value_and_grad(x, W)
    xt, Wt = tg.tensor(x, requires_grad=True), tg.tensor(W, requires_grad=True)
    f(xt, Wt).backward()
    np.testing.assert_array_equal(np.asarray(gW), Wt.grad.numpy())
    np.testing.assert_array_equal(np.asarray(gx), xt.grad.numpy())


def test_linear_weight_gradient():
    # linear's backward is the same rule: gW = gY^T x over 2000 rows, in blocks of 341
    rng = np.random.default_rng(6)
    x, W, c = rng.normal(size=(2000, 32)), rng.normal(size=(48, 32)), rng.normal(size=(2000, 48))
    Wt = tg.tensor(W, requires_grad=True)
    (F.linear(tg.tensor(x), Wt) * tg.tensor(c)).sum().backward()
    Wq = torch.tensor(W, requires_grad=True)
    (torch.nn.functional.linear(torch.tensor(x), Wq) * torch.tensor(c)).sum().backward()
    blk = _blk(48, 32)
    np.testing.assert_array_equal(Wt.grad.numpy(), _blocked(c, x, blk))
    bound = _bound(c.T, x, blk)
    assert (np.abs(Wt.grad.numpy() - _exact(c.T, x)) <= bound).all()
    assert (np.abs(Wt.grad.numpy() - Wq.grad.numpy()) <= bound + _bound(c.T, x, 2000)).all()
