"""Differences from PyTorch found by the scripts s438 onward (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch."""
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- autograd.functional: a wrong-sized v is refused in PyTorch's words (_validate_v) --------
def _f(L):
    return L.autograd.functional


@pytest.mark.parametrize("call", [
    lambda L: _f(L).jvp(lambda a: a, L.ones(3), L.ones(2)),
    lambda L: _f(L).jvp(lambda a, b: a, (L.ones(3), L.ones(3)), (L.ones(2), L.ones(3))),
    lambda L: _f(L).jvp(lambda a, b: a, (L.ones(3), L.ones(3)), (L.ones(3),)),
    lambda L: _f(L).vjp(lambda a: a, L.ones(3), (L.ones(2), L.ones(2))),
    lambda L: _f(L).vjp(lambda a: (a, a), L.ones(3), (L.ones(3), L.ones(2))),
    lambda L: _f(L).vjp(lambda a: (a, a), L.ones(3), (L.ones(3),)),
    lambda L: _f(L).vjp(lambda a: a, L.ones(3), L.ones(2)),  # (no row left by the call)
    lambda L: _f(L).hvp(lambda a: a.sum(), L.ones(3), L.ones(2)),
    lambda L: _f(L).vhp(lambda a: a.sum(), (L.ones(3),), (L.ones(3), L.ones(3))),
    lambda L: _f(L).vhp(lambda a: a.sum(), L.ones(3), (L.ones(3), L.ones(3))),
])
def test_functional_v_of_the_wrong_size_refused_as_pytorch(call, raises_as_torch):
    raises_as_torch(call)


# ---- a number stored into an integer tensor out of its dtype's range: PyTorch's error --------
@pytest.mark.parametrize("call", [
    lambda L: L.full((2,), 300, dtype=L.int8), lambda L: L.full((1,), -1.0, dtype=L.uint8),
    lambda L: L.full((1,), float("nan"), dtype=L.int64), lambda L: L.full((1,), -0.5,
                                                                          dtype=L.uint8), lambda L: L.full((1,), 2 ** 40,
                                                                         dtype=L.int32),
    lambda L: L.full_like(L.ones(2, dtype=L.int16), 40000),
    lambda L: L.ones(2, dtype=L.uint8).new_full((1,), -256),
    lambda L: L.ones(3, dtype=L.int8).fill_(128),
    lambda L: L.ones(3, dtype=L.int8).masked_fill(L.tensor([True, False, True]), -129),
    lambda L: L.where(L.tensor([True, False]), L.ones(2, dtype=L.int8), 300),
    lambda L: L.where(L.tensor([True, False]), 2 ** 40, L.ones(2, dtype=L.int8)),
    lambda L: L.ones(3, dtype=L.int8).clamp(max=300),
    lambda L: L.ones(3, dtype=L.uint8).index_fill(0, L.tensor([0]), 1e3),
    lambda L: L.ones(3, dtype=L.int8).scatter(0, L.tensor([0]), 300),
    lambda L: L.ones(3, dtype=L.int8).__setitem__(0, 300),
])
def test_number_out_of_an_integer_dtype_refused_as_pytorch(call, raises_as_torch):
    raises_as_torch(call)


@pytest.mark.parametrize("call", [  # in range, or wrapped as PyTorch wraps them
    lambda L: L.full((2,), -1, dtype=L.uint8), lambda L: L.full((1,), -255, dtype=L.uint8),
    lambda L: L.full((1,), 126.9, dtype=L.int8), lambda L: L.full((1,), 300, dtype=L.bool),
    lambda L: L.ones(2, dtype=L.uint8).fill_(-1), lambda L: L.ones(2, dtype=L.int8) + 300,
    lambda L: L.where(L.tensor([True, False]), L.ones(2, dtype=L.int8), 1.5),
    lambda L: L.where(L.tensor([True, False]), L.ones(2, dtype=L.uint8), -1),
    lambda L: L.ones(3, dtype=L.int8).clamp(max=2.5),
    lambda L: L.full((1,), 1e40, dtype=L.float16),
])
def test_numbers_pytorch_stores_into_integer_tensors(call, torch_float64):
    ours, theirs = call(tg), call(torch_float64)
    assert str(ours.dtype) == str(theirs.dtype) and ours.tolist() == theirs.tolist()


# ---- weight norm: PyTorch's fused node over the first or last dim ----------------------------
@pytest.mark.parametrize("make", [
    lambda L: L.nn.utils.parametrizations.weight_norm(L.nn.Linear(3, 2)),
    lambda L: L.nn.utils.parametrizations.weight_norm(L.nn.Linear(3, 2), dim=1),
    lambda L: L.nn.utils.parametrizations.weight_norm(L.nn.Linear(3, 2), dim=None),
    lambda L: L.nn.utils.parametrizations.weight_norm(L.nn.Conv2d(2, 3, 3), dim=1),
    lambda L: L.nn.utils.parametrizations.weight_norm(L.nn.Conv2d(2, 3, 3), dim=-1),
])
def test_weight_norm_node_as_pytorchs(make, torch_float64):
    ours, theirs = make(tg).weight.grad_fn, make(torch_float64).weight.grad_fn
    assert ours.name() == theirs.name()
    assert [type(f).__name__ for f, _ in ours.next_functions] == \
        [type(f).__name__ for f, _ in theirs.next_functions]


def test_weight_norm_function_values_and_gradients(torch_float64):
    """torch._weight_norm(v, g, dim) against PyTorch, and its gradient against finite
    differences (the node's name does not change the composite's rule)."""
    import numpy as np
    v0 = np.arange(1.0, 13.0).reshape(3, 4) / 7 - 0.5
    for dim, gshape in ((0, (3, 1)), (1, (1, 4)), (-1, ())):
        g0 = np.linspace(0.5, 2.0, int(np.prod(gshape))).reshape(gshape)
        res = []
        for L in (tg, torch_float64):
            v, g = L.tensor(v0, requires_grad=True), L.tensor(g0, requires_grad=True)
            w = L._weight_norm(v, g, dim)
            (w * L.tensor(v0)).sum().backward()
            res.append((w.detach().numpy(), v.grad.numpy(), g.grad.numpy()))
        for a, b in zip(*res):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
        assert tg.autograd.gradcheck(lambda v, g, d=dim: tg._weight_norm(v, g, d),
                                     (tg.tensor(v0, requires_grad=True),
                                      tg.tensor(g0, requires_grad=True)))


# ---- PyTorch's message first, tapegrad's op name and shapes after it --------------------------
@pytest.mark.parametrize("call", [
    lambda L: L.ones(3, 4) + L.ones(2, 4), lambda L: L.ones(3, 4).expand(2, 4),
    lambda L: L.ones(3, 4).squeeze(3), lambda L: L.ones(3, 4).sum(dim=2),
    lambda L: L.ones(3, 4).transpose(0, 2),
    lambda L: L.zeros(2, 2).masked_fill(L.tensor([True, False, True]), 1.0),
])
def test_messages_start_with_pytorchs(call, raises_as_torch):
    raises_as_torch(call, prefix=True)


# ---- LBFGS: an unknown line search is refused by step, as PyTorch's ---------------------------
def test_lbfgs_unknown_line_search_refused_by_step_as_pytorch(torch_float64):
    states = []
    for L in (tg, torch_float64):
        w = L.tensor([3.0, -1.0], requires_grad=True)
        opt = L.optim.LBFGS([w], line_search_fn="armijo")  # (accepted here)
        assert opt.defaults["line_search_fn"] == "armijo"

        def closure(opt=opt, w=w):
            opt.zero_grad()
            loss = (w ** 2).sum()
            loss.backward()
            return loss
        with pytest.raises(RuntimeError, match="^only 'strong_wolfe' is supported$"):
            opt.step(closure)
        states.append((opt.state[w]["func_evals"], opt.state[w]["n_iter"], w.tolist()))
    assert states[0] == states[1]


# ---- `-` on bool tensors: PyTorch's RuntimeError, not NumPy's TypeError ------------------------
@pytest.mark.parametrize("call", [
    lambda L: -L.tensor([True, False]), lambda L: L.neg(L.tensor([True])),
    lambda L: L.tensor(True).neg(), lambda L: L.tensor([True]).neg_(),
    lambda L: L.negative(L.tensor([True])),
    lambda L: L.tensor([True]) - L.tensor([True]), lambda L: L.tensor([True]) - 1,
    lambda L: 1 - L.tensor([True]), lambda L: L.sub(L.tensor([True]), True),
    lambda L: L.rsub(L.tensor([True]), True), lambda L: L.tensor([1]) - L.tensor([True]),
    lambda L: L.tensor([1.5]) - L.tensor([True]), lambda L: 1.5 - L.tensor([True]),
    lambda L: L.tensor([2.0]) - True, lambda L: L.tensor([True]).sub_(L.tensor([True])),
    lambda L: L.tensor([True, False]) - L.tensor([[True], [False]]),
])
def test_minus_on_bool_refused_as_pytorch(call, raises_as_torch):
    raises_as_torch(call)


# ---- integers to negative integer powers ----------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda L: L.tensor([2]).pow(-1), lambda L: L.tensor([2, 3]) ** -2,
    lambda L: L.tensor(2) ** -1, lambda L: L.tensor([True]) ** -1,
    lambda L: L.tensor([2]).pow_(-2),
])
def test_integer_to_a_negative_number_power_refused_as_pytorch(call, raises_as_torch):
    raises_as_torch(call)


@pytest.mark.parametrize("call", [
    lambda L: L.pow(L.tensor([2, 1, -1, -1, 0, 3]), L.tensor([-1, -3, -3, -2, 1, 2])),
    lambda L: 2 ** L.tensor([-1, 0, 3]), lambda L: L.tensor([[1], [-1], [5]]) ** L.tensor([-1, -2]),
    lambda L: L.tensor([2, 3]) ** 0, lambda L: L.tensor([2]) ** -1.0,
])
def test_integer_powers_with_negative_exponent_tensors_as_pytorch(call, torch_float64):
    ours, theirs = call(tg), call(torch_float64)
    assert str(ours.dtype) == str(theirs.dtype) and ours.tolist() == theirs.tolist()
