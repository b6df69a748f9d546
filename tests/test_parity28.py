"""Parity with PyTorch, each item against it: what tests/fuzz_autograd_api.py found from
seed 70000 on (helper fuzz28)."""
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


def _v(t):
    return None if t is None else [round(x, 10) for x in t.detach().reshape(-1).tolist()]


# (seeds 70040, 70111: a non-leaf that retains grad, on a path to grad()'s or backward's
# inputs: PyTorch's engine runs its retain_grad hook with its node, needed for the inputs)
def _retained(L, call, create_graph):
    a = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = L.tensor([1.0, 1.0, 2.0], requires_grad=True)
    y = a * 2
    z = y * b
    w = a.sin()
    for t in (y, z, w):
        t.retain_grad()
    out = (z + w).sum()
    ins = {"a": [a], "b": [b], "y": [y], "yb": [y, b]}
    seen = []
    for which in ("a", "y", "b", "yb"):
        if call == "grad":
            L.autograd.grad(out, ins[which], retain_graph=True, create_graph=create_graph)
        else:
            out.backward(inputs=ins[which], retain_graph=True, create_graph=create_graph)
        seen.append([(_v(t.grad), t.grad is not None and t.grad.requires_grad)
                     for t in (y, z, w)])
    return seen


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("call", ["grad", "backward"])
def test_retained_non_leaves_on_the_needed_path_get_their_grad(torch, call, create_graph):
    assert _retained(tg, call, create_graph) == _retained(torch, call, create_graph)
