"""PyTorch's node names, values and gradients of ops that showed another node or another
aliasing: the ``<view>_copy`` functions, ``diag`` of a matrix (a copy, not a view),
``repeat_interleave`` (by a number; by a one-element tensor, which NumPy 2 refused),
``combinations``, ``as_strided``, ``linalg.householder_product`` and ``F.bilinear``."""
import numpy as np
import pytest

import tapegrad as tg

A = np.array([[0.3, -1.2, 0.5, 2.0], [1.1, 0.4, -0.7, 0.25], [-0.2, 0.9, 1.6, -1.5]])

CALLS = [lambda L, x: L.diagonal_copy(x), lambda L, x: L.diagonal_copy(x, 1),
         lambda L, x: L.expand_copy(x[:, :1], (3, 5)), lambda L, x: L.permute_copy(x, (1, 0)),
         lambda L, x: L.select_copy(x, 0, 1), lambda L, x: L.split_copy(x, 2, 1)[1],
         lambda L, x: L.squeeze_copy(x[:1]), lambda L, x: L.t_copy(x),
         lambda L, x: L.transpose_copy(x, 0, 1), lambda L, x: L.unbind_copy(x)[2],
         lambda L, x: L.unfold_copy(x, 1, 2, 1), lambda L, x: L.unsqueeze_copy(x, 0),
         lambda L, x: L.view_copy(x, (12,)), lambda L, x: L.narrow_copy(x, 1, 1, 2),
         lambda L, x: x.narrow_copy(0, 1, 2), lambda L, x: L.split_with_sizes_copy(x, [1, 2])[1],
         lambda L, x: L.as_strided_copy(x, (2, 2), (1, 2)), lambda L, x: L.alias_copy(x),
         lambda L, x: L.slice_copy(x, 1, 0, 2),
         lambda L, x: L.diag(x), lambda L, x: L.diag(x, -1), lambda L, x: L.diag(x[0]),
         lambda L, x: L.repeat_interleave(x, 2), lambda L, x: x.repeat_interleave(3, dim=1),
         lambda L, x: x.repeat_interleave(L.tensor([2]), dim=0),
         lambda L, x: x.repeat_interleave(L.tensor(2)),
         lambda L, x: x.repeat_interleave(L.tensor([1, 0, 2]), dim=0),
         lambda L, x: L.combinations(x[0], 2), lambda L, x: L.combinations(x[1], 3),
         lambda L, x: L.combinations(x[2], 2, with_replacement=True),
         lambda L, x: x.as_strided((2, 2), (1, 2)), lambda L, x: L.as_strided(x, (3,), (4,), 1),
         lambda L, x: L.linalg.householder_product(x.T, x[0, :3]),
         lambda L, x: L.linalg.householder_product(x[:, :3], x[1, :2]),
         lambda L, x: L.orgqr(x.T, x[2, :2]),
         lambda L, x: L.nn.functional.bilinear(x, x, L.ones(2, 4, 4) * 0.5),
         lambda L, x: L.nn.functional.bilinear(x[0], x[1], x[:2, :, None] - x[1:, None, :]),
         lambda L, x: L.nn.functional.bilinear(x, x, L.ones(2, 4, 4), L.ones(2))]


@pytest.mark.parametrize("call", CALLS)
def test_node_values_and_grads_as_pytorch(call, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        x = L.tensor(A, requires_grad=True)
        y = call(L, x)
        u = L.tensor(np.linspace(0.5, 1.5, y.numel()).reshape(tuple(y.shape)))
        (g,) = L.autograd.grad(y, x, u)
        got.append((str(y), g.numpy()))
    assert got[0][0] == got[1][0]
    np.testing.assert_allclose(got[0][1], got[1][1], rtol=1e-13, atol=1e-15)
    assert call(tg, tg.tensor(A)).grad_fn is None


@pytest.mark.parametrize("call", [lambda L, x: L.diag(x), lambda L, x: L.diag(x, 1),
                                  lambda L, x: L.linalg.householder_product(x.T, x[0, :2]),
                                  lambda L, x: L.diagonal_copy(x)])
def test_results_are_new_tensors_as_pytorch(call, torch_float64):
    """Writing into the result leaves x as it was, and the result is not a view."""
    torch = torch_float64
    for L in (tg, torch):
        x = L.tensor(A)
        y = call(L, x)
        y += 1.0
        assert not y._is_view()
        np.testing.assert_array_equal(x.numpy(), A)


def test_as_strided_result_stays_a_view_of_its_input(torch_float64):
    """as_strided keeps writing through to its input, named as PyTorch's node or not."""
    torch = torch_float64
    got = []
    for L in (tg, torch):
        base = L.tensor(A, requires_grad=True)
        x = base * 1
        v = x.as_strided((2, 2), (1, 2))
        v.mul_(3.0)
        (g,) = L.autograd.grad((x * x).sum(), base)
        got.append((x.detach().numpy().copy(), g.numpy()))
    np.testing.assert_allclose(got[0][0], got[1][0], rtol=1e-15)
    np.testing.assert_allclose(got[0][1], got[1][1], rtol=1e-14)
