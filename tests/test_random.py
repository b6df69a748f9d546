"""Random numbers with PyTorch's signatures: the shapes, dtypes, ranges, errors and the
effect of seeding match PyTorch's (the numbers themselves come from NumPy's streams)."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle

CALLS = {
    "rand": lambda L, g: L.rand(2, 3, generator=g),
    "rand_size": lambda L, g: L.rand(size=(4,), generator=g),
    "randn": lambda L, g: L.randn(3, generator=g, dtype=L.float32),
    "randn_size": lambda L, g: L.randn(size=(2, 2), generator=g),
    "rand_like": lambda L, g: L.rand_like(L.ones(2, 2, dtype=L.float32)),
    "randn_like": lambda L, g: L.randn_like(L.ones(3, dtype=L.float64)),
    "randint": lambda L, g: L.randint(3, 9, (50,), generator=g),
    "randint_high": lambda L, g: L.randint(4, (2, 25), generator=g),
    "randperm": lambda L, g: L.randperm(7, generator=g),
    "normal_numbers": lambda L, g: L.normal(2.0, 0.5, (30,), generator=g),
    "normal_tensors": lambda L, g: L.normal(L.zeros(4, dtype=L.float64),
                                            L.ones(4, dtype=L.float64), generator=g),
    "bernoulli": lambda L, g: L.bernoulli(L.full((40,), 0.5, dtype=L.float64), generator=g),
    "multinomial": lambda L, g: L.multinomial(L.tensor([0.2, 0.0, 0.8]), 5, replacement=True,
                                              generator=g),
    "multinomial_rows": lambda L, g: L.multinomial(L.tensor([[1.0, 2.0, 0.0], [0.0, 1.0, 1.0]]),
                                                   2, generator=g),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_shape_dtype_and_range_as_pytorch(name, torch):
    ours = CALLS[name](tg, tg.Generator().manual_seed(1))
    theirs = CALLS[name](torch, torch.Generator().manual_seed(1))
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1] or \
        (str(theirs.dtype) == "torch.float32" and ours.dtype == tg.float64)  # default dtype
    a, b = np.asarray(ours), theirs.numpy()
    assert a.min() >= min(b.min(), 0) - 5 and a.max() <= max(b.max(), 1) + 5
    if name.startswith(("randint", "randperm", "multinomial", "bernoulli")):
        assert set(np.unique(a)) <= set(range(int(b.max()) + 10))
    if name == "randperm":
        assert sorted(a.tolist()) == list(range(7))
    if name.startswith("multinomial"):
        assert (a != 1).all() if name == "multinomial" else True  # a zero weight never drawn
        if name == "multinomial_rows":  # without replacement: distinct, from the nonzeros
            assert all(len(set(r)) == 2 for r in a.tolist()) and 2 not in a[0] and 0 not in a[1]


def test_seeding_repeats_the_stream():
    tg.manual_seed(123)
    a = (tg.rand(3), tg.randn(2), tg.randint(10, (4,)), tg.nn.Linear(2, 2).weight.detach())
    tg.manual_seed(123)
    b = (tg.rand(3), tg.randn(2), tg.randint(10, (4,)), tg.nn.Linear(2, 2).weight.detach())
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y))
    g1, g2 = tg.Generator().manual_seed(5), tg.Generator().manual_seed(5)
    np.testing.assert_array_equal(np.asarray(tg.randn(4, generator=g1)),
                                  np.asarray(tg.randn(4, generator=g2)))
    assert g1.initial_seed() == 5 and isinstance(tg.manual_seed(0), tg.Generator)


def test_multinomial_without_replacement_draws_zero_weights_last(torch):
    for L in (tg, torch):
        d = L.multinomial(L.tensor([1.0, 0.0, 3.0]), 3).tolist()
        assert sorted(d) == [0, 1, 2] and d[2] == 1


@pytest.mark.parametrize("bad", [
    lambda L: L.multinomial(L.tensor([1.0, 0.0]), 3),  # more samples than categories
    lambda L: L.multinomial(L.tensor([-1.0, 2.0]), 1),
    lambda L: L.bernoulli(L.tensor([1.5])),
    lambda L: L.randint(0, 5, (2,), requires_grad=True),
], ids=["multinomial_too_many", "multinomial_negative", "bernoulli_p", "randint_grad"])
def test_errors_as_pytorch(bad, torch):
    with pytest.raises(RuntimeError):
        bad(torch)
    with pytest.raises(RuntimeError):
        bad(tg)
