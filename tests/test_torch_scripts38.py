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


def _saved_operands(L):
    a = L.tensor([1.0, 2.0], requires_grad=True)
    b, c = L.tensor([3.0, 4.0]), L.tensor([0.5, 1.5], requires_grad=True)
    nodes = [(a * b).grad_fn, (a / b).grad_fn, a.atan2(b).grad_fn,
             (a ** b).grad_fn, (b ** c).grad_fn, (a ** c).grad_fn]
    return [(n.name(), n._saved_other if "Pow" not in n.name() else n._saved_exponent,
             n._saved_self if "Pow" in n.name() else None) for n in nodes]


@pytest.mark.oracle
def test_saved_operands_that_need_no_grad_print_as_plain_tensors(torch_float64):
    """(beside s2291) ``(a * b).grad_fn._saved_other`` of a ``b`` needing no grad printed
    ``tensor([3., 4.], grad_fn=<MulBackward0>)``: PyTorch's is the plain tensor.  And
    ``x ** t``'s node (PowBackward1) saves the exponent as ``_saved_exponent``, PyTorch's
    name (it answered ``_saved_other``)."""
    assert repr(_saved_operands(tg)) == repr(_saved_operands(torch_float64))
