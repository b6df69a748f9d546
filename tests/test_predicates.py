"""Value tests (isnan, isinf, isfinite) and nelement as PyTorch's; while tracing, a value
test is a comparison row, so replay re-evaluates it at every point."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle
VALUES = [1.0, np.inf, -np.inf, np.nan, -0.0, 2.5e308 / 10, -3.0]


@pytest.mark.parametrize("name", ["isnan", "isinf", "isfinite"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_value_tests_as_pytorch(name, dtype, torch):
    x = np.array(VALUES, dtype=dtype)
    ours = getattr(tg, name)(tg.tensor(x))
    theirs = getattr(torch, name)(torch.tensor(x))
    assert ours.dtype == tg.bool and ours.tolist() == theirs.tolist()
    assert getattr(tg.tensor(x), name)().tolist() == theirs.tolist()


def test_nelement_as_pytorch(torch):
    assert tg.ones(2, 3).nelement() == torch.ones(2, 3).nelement() == 6


def test_value_tests_replay_at_other_points():
    f = tg.compile(lambda x: tg.where(tg.isfinite(x), x, 0.0).sum())
    X = np.array([[1.0, np.inf, 2.0], [np.nan, 3.0, -np.inf], [4.0, 5.0, 6.0]])
    np.testing.assert_array_equal(f.value_batch(X), [3.0, 3.0, 15.0])


LOGIC = {
    "and": lambda L, a, b, i: a & b, "or": lambda L, a, b, i: a | b,
    "xor": lambda L, a, b, i: a ^ b, "not": lambda L, a, b, i: ~a,
    "int_and": lambda L, a, b, i: i & 6, "int_not": lambda L, a, b, i: ~i,
    "logical_and": lambda L, a, b, i: L.logical_and(a, i), "logical_or": lambda L, a, b, i:
    L.logical_or(a, b), "logical_xor": lambda L, a, b, i: L.logical_xor(i, b),
    "logical_not": lambda L, a, b, i: L.logical_not(i), "all": lambda L, a, b, i: L.all(a),
    "any": lambda L, a, b, i: a.any(), "all_dim": lambda L, a, b, i: L.all(i.reshape(2, 2), 1),
    "any_keepdim": lambda L, a, b, i: L.any(i.reshape(2, 2), 0, keepdim=True),
}


@pytest.mark.parametrize("name", sorted(LOGIC))
def test_boolean_logic_as_pytorch(name, torch):
    def run(L):
        a = L.tensor([True, False, True, False])
        b = L.tensor([True, True, False, False])
        i = L.tensor([0, 3, 5, 6])
        return LOGIC[name](L, a, b, i)
    ours, theirs = run(tg), run(torch)
    assert ours.tolist() == theirs.tolist()
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]


def test_closeness_as_pytorch(torch):
    x, y = [1.0, 2.0, np.nan], [1.0 + 1e-9, 2.1, np.nan]
    for equal_nan in (False, True):
        ours = tg.isclose(tg.tensor(x), tg.tensor(y), equal_nan=equal_nan).tolist()
        theirs = torch.isclose(torch.tensor(x, dtype=torch.float64),
                               torch.tensor(y, dtype=torch.float64), equal_nan=equal_nan)
        assert ours == theirs.tolist()
    assert tg.allclose(tg.tensor([1.0]), tg.tensor([1.0 + 1e-9])) is True
    assert tg.equal(tg.ones(2), tg.ones(2)) and not tg.equal(tg.ones(2), tg.ones(3))
    with pytest.raises(RuntimeError, match="\"bitwise_and_cpu\" not implemented for 'Double'"):
        tg.ones(2) & tg.ones(2)


def test_eager_logic_refuses_traced_values():
    with pytest.raises(RuntimeError, match="takes its values out of the tape"):
        tg.trace(lambda x: (x * tg.tensor(float(tg.all(x > 0)))).sum(), [1.0, 2.0])
