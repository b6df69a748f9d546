"""Gaps found by tests/torch_scripts/s2261-s2300, each against PyTorch."""
import pytest

import tapegrad as tg

SAVED = [lambda L, a, b: a.exp(), lambda L, a, b: a * b, lambda L, a, b: a * 2,
         lambda L, a, b: a ** 2, lambda L, a, b: a.sin(), lambda L, a, b: a / b,
         lambda L, a, b: a.relu(), lambda L, a, b: a.tanh(), lambda L, a, b: a / 3]


def _saved_listed(L, call):
    a = L.tensor([1.0, 2.0], requires_grad=True)
    b = L.tensor([3.0, 4.0], requires_grad=True)
    y = call(L, a, b)
    before = [k for k in dir(y.grad_fn) if k.startswith("_saved")]
    y.sum().backward()  # (freed: still listed, reading one raises)
    return before, [k for k in dir(y.grad_fn) if k.startswith("_saved")]


@pytest.mark.oracle
@pytest.mark.parametrize("call", SAVED)
def test_dir_of_a_node_lists_its_saved_values(call, torch_float64):
    """(s2291) ``dir(y.grad_fn)`` listed no ``_saved_*`` attribute, though reading one
    worked: the tutorial's way of finding what a node saved printed an empty list."""
    assert _saved_listed(tg, call) == _saved_listed(torch_float64, call)
