"""The order of an in-place op's refusals, PyTorch's: the leaf (or a view of one, an
expand among them), then the written tensor's overlap, then the result's dtype (found by
tests/fuzz_autograd_api.py with its wider kinds, seeds 51008 and 51221)."""
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle

CASES = {
    "long expand mul float": lambda L: L.tensor(1).expand(3).mul_(2.0),
    "long expand add float tensor": lambda L: L.tensor([1]).expand(3).add_(
        L.tensor([0.5, 1, 2], dtype=L.float32)),
    "long expand iadd": lambda L: L.tensor([1]).expand(3).__iadd__(1.5),
    "long mul float32 tensor": lambda L: L.zeros(3, dtype=L.long).mul_(
        L.tensor(2.5, dtype=L.float32)),
    "expand of a leaf": lambda L: L.ones(1, requires_grad=True).expand(3).mul_(2.0),
    "view of an expand of a leaf": lambda L: L.ones(1, requires_grad=True).expand(2, 3)[0]
    .add_(1.0),
    "leaf by complex": lambda L: L.ones(3, requires_grad=True).add_(
        L.ones(3, dtype=L.complex64)),
    "float leaf expand no_grad": lambda L: _no_grad(L, lambda: L.ones(
        1, requires_grad=True).expand(3).mul_(2.0)),
}


def _no_grad(L, fn):
    with L.no_grad():
        return fn()


def _outcome(L, fn):
    try:
        fn(L)
        return "ran"
    except RuntimeError as e:
        return str(e).split("\n")[0]


@pytest.mark.parametrize("case", sorted(CASES))
def test_refusal_order_as_pytorch(case, torch):
    assert _outcome(tg, CASES[case]) == _outcome(torch, CASES[case])
