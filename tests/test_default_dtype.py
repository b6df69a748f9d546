"""set_default_dtype / get_default_dtype as in PyTorch: float32 code runs in float32."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle

MAKES = {
    "tensor_list": lambda L: L.tensor([1.0, 2.0]), "tensor_scalar": lambda L: L.tensor(2.0),
    "zeros": lambda L: L.zeros(2), "ones": lambda L: L.ones(2, 2), "empty": lambda L: L.empty(3),
    "full": lambda L: L.full((2,), 1.5), "arange_float": lambda L: L.arange(0.0, 1.0, 0.25),
    "arange_int": lambda L: L.arange(3), "linspace": lambda L: L.linspace(0, 1, 3),
    "eye": lambda L: L.eye(2), "rand": lambda L: L.rand(2), "randn": lambda L: L.randn(2),
    "ints": lambda L: L.tensor([1, 2]), "linear_weight": lambda L: L.nn.Linear(2, 3).weight,
    "scalar_product": lambda L: L.tensor([1.0]) * 2.5,
    "sum_of_list": lambda L: (L.tensor([1.0, 2.0], requires_grad=True) ** 2).sum(),
}


@pytest.fixture
def float32_default(torch):
    old = tg.get_default_dtype(), torch.get_default_dtype()
    tg.set_default_dtype(tg.float32)
    torch.set_default_dtype(torch.float32)
    try:
        yield
    finally:
        tg.set_default_dtype(old[0])
        torch.set_default_dtype(old[1])


@pytest.mark.parametrize("name", sorted(MAKES))
def test_float32_default_gives_pytorchs_dtypes(name, torch, float32_default):
    ours, theirs = MAKES[name](tg), MAKES[name](torch)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]


def test_float32_default_graph_is_float32_end_to_end(torch, float32_default):
    x = tg.tensor([0.5, 1.5], requires_grad=True)
    (x.sin() * x).sum().backward()
    assert x.dtype == x.grad.dtype == tg.float32
    tx = torch.tensor([0.5, 1.5], requires_grad=True)
    (tx.sin() * tx).sum().backward()
    np.testing.assert_allclose(np.asarray(x.grad), tx.grad.numpy(), rtol=1e-6)


def test_only_float_defaults(torch):
    for L in (tg, torch):
        with pytest.raises(TypeError, match="only floating-point types are supported"):
            L.set_default_dtype(L.int64)
    assert tg.get_default_dtype() == tg.float64  # tapegrad's own default
