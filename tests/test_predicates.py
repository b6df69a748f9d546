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
