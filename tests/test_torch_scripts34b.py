"""Differences from PyTorch found by the scripts s1901 onward (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- scatter_reduce_ in place on a tensor with history (s1905, GNN mean aggregation) ------
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
def test_inplace_scatter_reduce_differentiates_as_pytorch(reduce, include_self,
                                                          torch_float64):
    got = []
    for L in (tg, torch_float64):
        h = L.linspace(-1, 1, 30).view(6, 5).requires_grad_()
        idx = L.tensor([1, 0, 2, 1, 3, 2]).unsqueeze(1).expand(-1, 5)
        out = (h * 2 + 1).scatter_reduce_(0, idx[:4], h[:4] * 3, reduce,
                                          include_self=include_self)
        g, = L.autograd.grad(out.pow(2).sum(), h, create_graph=True)
        g.pow(2).sum().backward()
        got.append((type(out.grad_fn).__name__, out.detach().numpy(), g.detach().numpy(),
                    h.grad.numpy()))
    assert got[0][0] == got[1][0]
    for a, b in zip(got[0][1:], got[1][1:], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
def test_inplace_scatter_and_index_reduce_into_fresh_zeros_as_pytorch(reduce, torch_float64):
    """A buffer without history (new_zeros) reduced into in place from a source that has
    one: the saved self was a view sharing the buffer's version counter."""
    got = []
    for L in (tg, torch_float64):
        h = L.linspace(-1, 1, 12).view(4, 3).requires_grad_()
        idx = L.tensor([1, 0, 1, 3])
        agg = h.new_zeros(5, 3).scatter_reduce_(0, idx.unsqueeze(1).expand(-1, 3), h * 2,
                                                reduce, include_self=False)
        outs = [agg]
        if reduce != "sum":  # (index_reduce has no sum)
            outs.append(L.ones(5, 3).index_reduce_(0, idx, h.exp(), reduce))
        L.stack(outs).pow(2).sum().backward()
        got.append(([type(o.grad_fn).__name__ for o in outs], [o.detach().numpy() for o in outs],
                    h.grad.numpy()))
    assert got[0][0] == got[1][0]
    for a, b in zip(got[0][1], got[1][1], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-13)
    np.testing.assert_allclose(got[0][2], got[1][2], rtol=1e-13)
