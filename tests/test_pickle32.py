"""Tensors through pickle as PyTorch's: values, dtype and requires_grad, loaded as new
leaves (no graph, no .grad).  A tensor whose slots held a weakref (a detach of a leaf, a
view, a non-leaf) was refused by pickle, and a complex tensor raised.  And copy.copy /
copy.deepcopy as PyTorch's (a non-leaf's copy kept its node; its deep copy was made, and a
detached tensor's deep copy took along what it was detached from)."""
import copy
import pickle

import numpy as np
import pytest

import tapegrad as tg

CASES = {
    "leaf": lambda L, x: x,
    "leaf_after_detach": lambda L, x: (x.detach(), x)[1],
    "detached": lambda L, x: x.detach(),
    "non_leaf": lambda L, x: x * 2,
    "view": lambda L, x: L.arange(6.0).view(2, 3)[:, 1],
    "transposed": lambda L, x: L.arange(6.0).view(2, 3).t(),
    "scalar": lambda L, x: L.tensor(3.5),
    "float32": lambda L, x: L.tensor([1.5, -2.0], dtype=L.float32),
    "int32": lambda L, x: L.tensor([1, 2], dtype=L.int32),
    "bool": lambda L, x: L.tensor([True, False]),
    "empty": lambda L, x: L.zeros(0, 3),
    "complex": lambda L, x: L.tensor([1 + 2j, -0.5j]),
    "complex_grad": lambda L, x: L.tensor([1 + 2j], requires_grad=True),
    "negative_zero_nan": lambda L, x: L.tensor([-0.0, float("nan"), float("inf")]),
}


def _state(t):
    return (repr(t), t.requires_grad, t.is_leaf, t.grad, tuple(t.shape), str(t.dtype))


@pytest.mark.parametrize("name", list(CASES))
def test_pickle_round_trip_as_pytorch(name, torch_float64):
    got = []
    for L in (tg, torch_float64):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        (x * x).sum().backward()  # (x on the tape, with a .grad: neither is pickled)
        t = CASES[name](L, x)
        u = pickle.loads(pickle.dumps(t))
        got.append(_state(u)[:3] + _state(u)[4:])
        if u.dtype.is_floating_point and u.numel():  # a copy of the values, not a view
            with L.no_grad():
                u.reshape(-1)[0] = 42.0  # (a view of u where u is contiguous)
            assert float(t.detach().reshape(-1)[0]) != 42.0
    assert got[0] == got[1]


def test_loaded_leaf_trains_on_its_own():
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).sum().backward()
    y = pickle.loads(pickle.dumps(x))
    (y * y).sum().backward()
    np.testing.assert_array_equal(y.grad.numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])


def test_containers_modules_and_parameters(torch_float64):
    got = []
    for L in (tg, torch_float64):
        L.manual_seed(0)
        m = L.nn.Linear(2, 1)
        m.weight.data = L.tensor([[0.5, -1.0]])
        m(L.ones(1, 2)).sum().backward()
        state = pickle.loads(pickle.dumps({"m": m, "w": m.weight * 2, "v": [m.bias.detach()]}))
        got.append((type(state["m"].weight).__name__, state["m"].weight.tolist(),
                    state["m"].weight.requires_grad, state["w"].requires_grad,
                    state["v"][0].requires_grad))
    assert got[0] == got[1]


COPIED = {
    "leaf_with_grad": lambda L, x, y: x, "non_leaf": lambda L, x, y: y,
    "detached_non_leaf": lambda L, x, y: y.detach(), "int": lambda L, x, y: L.tensor([1, 2]),
    "scalar": lambda L, x, y: L.tensor(2.5), "float32": lambda L, x, y: L.tensor(
        [1.5], dtype=L.float32), "view": lambda L, x, y: L.arange(6.0).view(2, 3)[:, 1],
    "complex": lambda L, x, y: L.tensor([1 + 2j], requires_grad=True),
    "parameter": lambda L, x, y: L.nn.Parameter(L.ones(2)),
}


@pytest.mark.parametrize("how", ["copy", "deepcopy"])
@pytest.mark.parametrize("name", list(COPIED))
def test_copies_as_pytorch(name, how, torch_float64):
    """copy.copy: a new leaf on the same memory (a non-leaf's node is not copied);
    copy.deepcopy: a new leaf of copied values with a deep copy of .grad (a Parameter's
    left behind), refused for a non-leaf in PyTorch's words."""
    got = []
    for L in (tg, torch_float64):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        x.grad = L.tensor([5.0, 6.0])
        y = x * 2
        t = COPIED[name](L, x, y)
        try:
            c = getattr(copy, how)(t)
        except RuntimeError as e:
            got.append(str(e))
            continue
        state = (repr(c), c.requires_grad, c.is_leaf, c.grad_fn, type(c).__name__ ==
                 "Parameter", None if c.grad is None else c.grad.tolist(), c is t)
        # (a Parameter's copy.copy holds a copy of its values here, PyTorch's shares them)
        if t.dtype.is_floating_point and not t.is_complex() and name != "parameter":
            with L.no_grad():
                c.view(-1)[0] = 9.0  # (shared by copy, not by deepcopy)
            state += (float(t.detach().reshape(-1)[0]) == 9.0,)
        got.append(state)
    assert got[0] == got[1]


def test_deepcopy_of_a_module_keeps_shared_parameters_shared(torch_float64):
    got = []
    for L in (tg, torch_float64):
        m = L.nn.Sequential(L.nn.Linear(2, 2), L.nn.Tanh(), L.nn.Linear(2, 2))
        m[2].weight = m[0].weight  # (tied)
        m(L.ones(1, 2)).sum().backward()
        m2 = copy.deepcopy(m)
        got.append((m2[2].weight is m2[0].weight, m2[0].weight is m[0].weight,
                    m2[0].weight.grad is None, type(m2[0].weight).__name__))
    assert got[0] == got[1]


def test_pickling_inside_a_trace_is_refused():
    def f(x):
        pickle.dumps(x)
        return x.sum()
    with pytest.raises(Exception, match="pickle"):
        tg.trace(f, np.ones(2))
