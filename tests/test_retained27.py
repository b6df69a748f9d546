"""The ``.grad`` of non-leaves, against PyTorch (found by tests/fuzz_autograd_api.py with
its wider kinds, seeds 50000-51000): ``backward(inputs=[non-leaf])`` retains the input's grad
as PyTorch's engine does (``retain_grad()`` on every input tensor, so later backwards fill
it too, and one that does not require grad is refused in retain_grad's words), and a
retained non-leaf's gradients add out of place (retain_grad's hook: ``grad + new``, a
first one cloned), where a leaf's add in place (AccumulateGrad)."""
import warnings

import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


def _rec(t):
    """What a program sees of a tensor: values, flags, the grad_fn's name."""
    if t is None:
        return None
    fn = t.grad_fn
    return (np.asarray(t.detach(), np.float64).round(10).tolist(), t.requires_grad,
            None if fn is None else type(fn).__name__)


def _inputs_retained(L):
    a = L.tensor([1.0, -2.0, 3.0], requires_grad=True)
    t0 = a * 2
    y = (t0 * 2 + a).sum()
    y.backward(inputs=[t0], retain_graph=True)
    out = [t0.retains_grad, _rec(t0.grad), _rec(a.grad)]
    y.backward(retain_graph=True)  # (t0 retains its grad now: 2 + 2)
    out += [_rec(t0.grad), _rec(a.grad)]
    L.autograd.backward(y, inputs=t0)  # (one tensor, not a list)
    return out + [_rec(t0.grad)]


def _unreached_input(L):
    a = L.tensor([1.0, -2.0, 3.0], requires_grad=True)
    b = a * 3
    (a * 5).sum().backward(inputs=[b])
    return [b.retains_grad, _rec(b.grad), _rec(a.grad)]


def _edge_not_retained(L):  # (a GradientEdge is no tensor: nothing retained)
    a = L.tensor([1.0, -2.0, 3.0], requires_grad=True)
    t = a * 5
    (t * 2).sum().backward(inputs=[L.autograd.graph.get_gradient_edge(t)])
    return [t.retains_grad, _rec(t.grad), _rec(a.grad)]


def _create_graph_input(L):
    a = L.tensor([1.0, -2.0, 3.0], requires_grad=True)
    t = a * 3
    z = (t * t).sum()
    z.backward(inputs=[t], create_graph=True)
    out = [t.retains_grad, _rec(t.grad)]
    (t * 2).sum().backward()
    return out + [_rec(t.grad)]


def _kept_grad_unchanged(L):
    a = L.tensor([1.0, -2.0, 3.0], requires_grad=True)
    h = a * 2
    h.retain_grad()
    y = (h * h).sum()
    y.backward(retain_graph=True)
    g1 = h.grad
    y.backward(retain_graph=True)
    out = [_rec(g1), _rec(h.grad), g1 is h.grad]
    ga = a.grad
    y.backward()  # (a leaf's grad: added in place)
    return out + [ga is a.grad, _rec(ga)]


def _kept_scalar_grad(L):
    a = L.tensor([1.0, -2.0, 3.0], requires_grad=True)
    s = a.sum() * 1.0
    s.retain_grad()
    (s * 3).backward(retain_graph=True)
    s1 = s.grad
    (s * 3).backward()
    return [_rec(s1), _rec(s.grad)]


def _float32_retained(L):
    a = L.tensor([1.5, -2.0], dtype=L.float32, requires_grad=True)
    h = a.exp()
    h.retain_grad()
    for _ in range(3):
        (h * a).sum().backward(retain_graph=True)
    return [_rec(h.grad), str(h.grad.dtype).split(".")[-1], _rec(a.grad)]


def _create_graph_retained(L):
    a = L.tensor([1.0, -2.0, 3.0], requires_grad=True)
    h = a * 3
    h.retain_grad()
    z = (h * h).sum()
    z.backward(create_graph=True)
    out = [_rec(h.grad)]
    z.backward()
    return out + [_rec(h.grad), _rec(a.grad)]


def _refused(L):
    a = L.tensor([1.0, -2.0, 3.0], requires_grad=True)
    n = L.tensor([1.0, 2.0, 3.0])
    y = (a * 2).sum()
    out = []
    for inp in ([n], [a, n], n):
        try:
            y.backward(inputs=inp, retain_graph=True)
            out.append("ran")
        except RuntimeError as e:
            out.append(str(e))
    return out + [_rec(a.grad)]


PROGRAMS = [_inputs_retained, _unreached_input, _edge_not_retained, _create_graph_input,
            _kept_grad_unchanged, _kept_scalar_grad, _float32_retained,
            _create_graph_retained, _refused]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda f: f.__name__.strip("_"))
def test_non_leaf_grads_as_pytorch(program, torch):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (torch's non-leaf .grad warning: not the point)
        theirs = program(torch)
        ours = program(tg)
    assert ours == theirs


def test_a_kept_non_leaf_grad_keeps_its_values():
    # without torch: a retained non-leaf's .grad read before a second backward is unchanged
    a = tg.tensor([1.0, 2.0], requires_grad=True)
    h = a * a
    h.retain_grad()
    h.sum().backward(retain_graph=True)
    first = h.grad
    h.sum().backward()
    np.testing.assert_array_equal(np.asarray(first), [1.0, 1.0])
    np.testing.assert_array_equal(np.asarray(h.grad), [2.0, 2.0])
