"""torch.linalg names added for scripts: lu_factor_ex, ldl_factor(_ex)/ldl_solve (values
only, as PyTorch's), vander, householder_product, tensorinv, tensorsolve (composites,
gradients against PyTorch), and eig/eigvals's clear refusal of complex input
(their real-matrix results: tests/test_torch_scripts22.py)."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


def _both(torch, call, arrays, atol=1e-12):
    """Values and weighted-sum gradients of ``call(L, *tensors)`` in tapegrad and torch."""
    out = []
    for L in (tg, torch):
        xs = [L.tensor(a, requires_grad=True) for a in arrays]
        y = call(L, *xs)
        w = np.sin(np.arange(y.numel()) + 1.0).reshape(tuple(y.shape))
        (y * L.tensor(w)).sum().backward()
        out.append([np.asarray(y.detach())] + [np.asarray(x.grad) for x in xs])
    for a, b in zip(*out, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=atol)


def test_lu_factor_ex_reports_zero_pivots(torch, raises_as_torch):
    A = np.random.default_rng(0).standard_normal((2, 3, 3))
    A[1, 2] = 2 * A[1, 0]
    r, tr = tg.linalg.lu_factor_ex(tg.tensor(A)), torch.linalg.lu_factor_ex(torch.tensor(A))
    np.testing.assert_allclose(np.asarray(r.LU), tr.LU.numpy(), atol=1e-14)
    np.testing.assert_array_equal(np.asarray(r.pivots), tr.pivots.numpy())
    np.testing.assert_array_equal(np.asarray(r.info), tr.info.numpy())
    assert r.info.dtype == tg.int32
    raises_as_torch(lambda L: L.linalg.lu_factor_ex(L.tensor([[1.0, 2.0], [2.0, 4.0]]),
                                                    check_errors=True))


def test_ldl_factor_and_solve_match_torch(torch, raises_as_torch):
    rng = np.random.default_rng(1)
    A = rng.standard_normal((2, 4, 4))
    A = A + A.swapaxes(-1, -2)
    B = rng.standard_normal((2, 4, 3))
    r = tg.linalg.ldl_factor_ex(tg.tensor(A, requires_grad=True))
    tr = torch.linalg.ldl_factor_ex(torch.tensor(A))
    np.testing.assert_allclose(np.asarray(r.LD.detach()), tr.LD.numpy(), atol=1e-14)
    np.testing.assert_array_equal(np.asarray(r.pivots), tr.pivots.numpy())
    np.testing.assert_array_equal(np.asarray(r.info), tr.info.numpy())
    LD, piv = tg.linalg.ldl_factor(tg.tensor(A))
    X = tg.linalg.ldl_solve(LD, piv, tg.tensor(B))
    np.testing.assert_allclose(np.asarray(X), np.linalg.solve(A, B), atol=1e-12)
    for L in (tg, torch):  # no derivative in PyTorch: backward raises its error
        with pytest.raises(RuntimeError, match="derivative for aten::linalg_ldl_factor_ex is "
                                               "not implemented"):
            L.linalg.ldl_factor(L.tensor(A, requires_grad=True)).LD.sum().backward()
    raises_as_torch(lambda L: L.linalg.ldl_factor(L.ones(2, 3)))
    raises_as_torch(lambda L: L.linalg.ldl_factor(L.ones(3)))


@pytest.mark.parametrize("shape,N", [((3,), None), ((2, 3), None), ((2, 3), 2), ((4,), 6)])
def test_vander_matches_torch(torch, shape, N):
    x = np.random.default_rng(2).standard_normal(shape)
    _both(torch, lambda L, v: L.linalg.vander(v, N=N), [x])


def test_vander_integer_and_errors(torch, raises_as_torch):
    np.testing.assert_array_equal(np.asarray(tg.linalg.vander(tg.tensor([1, 2, 3]))),
                                  torch.linalg.vander(torch.tensor([1, 2, 3])).numpy())
    raises_as_torch(lambda L: L.linalg.vander(L.tensor([1.0, 2.0]), N=1))
    raises_as_torch(lambda L: L.linalg.vander(L.tensor(2.0)))


@pytest.mark.parametrize("shape,k", [((5, 3), 3), ((2, 4, 4), 2), ((3, 1), 1), ((6, 4), 3)])
def test_householder_product_matches_torch(torch, shape, k):
    rng = np.random.default_rng(k)
    _both(torch, lambda L, a, t: L.linalg.householder_product(a, t),
          [rng.standard_normal(shape), rng.standard_normal(shape[:-2] + (k,))])


def test_householder_product_of_geqrf_is_q(torch):
    A = np.random.default_rng(3).standard_normal((5, 3))
    qr, tau = torch.geqrf(torch.tensor(A))
    Q = tg.linalg.householder_product(tg.tensor(qr.numpy()), tg.tensor(tau.numpy()))
    np.testing.assert_allclose(np.abs(np.asarray(Q)), np.abs(np.linalg.qr(A)[0]), atol=1e-12)


@pytest.mark.parametrize("call", [
    lambda L: L.linalg.householder_product(L.ones(3, 4), L.ones(2)),
    lambda L: L.linalg.householder_product(L.ones(4, 3), L.ones(4)),
    lambda L: L.linalg.householder_product(L.ones(4, 3), L.ones(2, 2)),
    lambda L: L.linalg.householder_product(L.ones(4), L.ones(2)),
    lambda L: L.linalg.householder_product(L.ones(2, 4, 3), L.ones(3, 2)),
    lambda L: L.linalg.tensorinv(L.ones(4, 6, 8, 3), ind=0),
    lambda L: L.linalg.tensorinv(L.ones(4, 6, 8, 4), ind=2),
    lambda L: L.linalg.tensorsolve(L.ones(2, 3, 5), L.ones(2, 3)),
    lambda L: L.linalg.tensorsolve(L.ones(6, 4, 3, 2), L.ones(6, 4), dims=(0, 2)),
])
def test_linalg_errors_as_torch(raises_as_torch, call):
    raises_as_torch(call)


def test_tensorinv_and_tensorsolve_match_torch(torch):
    rng = np.random.default_rng(4)
    _both(torch, lambda L, a: L.linalg.tensorinv(a, 2), [rng.standard_normal((4, 6, 8, 3))])
    _both(torch, lambda L, a: L.linalg.tensorinv(a, 1), [rng.standard_normal((6, 2, 3))])
    _both(torch, lambda L, a, b: L.linalg.tensorsolve(a, b),
          [rng.standard_normal((2, 3, 6)), rng.standard_normal((2, 3))])
    _both(torch, lambda L, a, b: L.linalg.tensorsolve(a, b, dims=(0,)),
          [rng.standard_normal((6, 2, 3)), rng.standard_normal((2, 3))])


@pytest.mark.parametrize("name", ["eig", "eigvals"])
def test_eig_refuses_complex_matrices_clearly(name):
    with pytest.raises(Exception, match="complex"):
        getattr(tg.linalg, name)(tg.eye(2) * 1j)
