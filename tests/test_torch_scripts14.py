"""The gaps found by the second round of outsiders' scripts (tests/torch_scripts/s40_*
and up, run by tests/test_torch_scripts13.py), each checked against PyTorch."""
import numpy as np
import pytest

import tapegrad as tg

SIZE_KEYWORD = [lambda L: L.zeros(size=(2, 1)), lambda L: L.ones(size=[3]),
                lambda L: L.empty(size=(0, 2)), lambda L: L.zeros(size=(2,), dtype=L.int64),
                lambda L: L.ones(size=(), requires_grad=True),
                lambda L: L.empty(2, 3, memory_format=L.contiguous_format, pin_memory=False)]


@pytest.mark.parametrize("make", SIZE_KEYWORD)
def test_creation_takes_size_by_keyword(make, torch):
    ours, theirs = make(tg), make(torch)
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert ours.requires_grad == theirs.requires_grad
    assert str(ours.dtype).replace("64", "32") == str(theirs.dtype).replace("64", "32")


@pytest.mark.parametrize("call", [lambda L: L.zeros(2, foo=1), lambda L: L.ones(2, size=(3,)),
                                  lambda L: L.empty(1, size=(2,))])
def test_creation_refuses_a_second_size_or_an_unknown_keyword(call, raises_as_torch):
    raises_as_torch(call)


def _create_graph_grads(L):
    x = L.tensor([2.0, -1.0], dtype=L.float64, requires_grad=True)
    w = L.tensor([0.5, 3.0], dtype=L.float64, requires_grad=True)
    got = []
    for _ in range(2):  # the first is copied into .grad, the second added to it
        (x ** 3 * w).sum().backward(create_graph=True)
        got.append((type(x.grad.grad_fn).__name__, x.grad.tolist()))
    first = x.grad
    (x.grad * x).sum().backward()  # (through both: d/dx sum(2 * 3x^2 w * x) = 18 x^2 w)
    got.append(w.grad.tolist())
    v = L.tensor([1.0], dtype=L.float64, requires_grad=True)
    (v * 2).sum().backward(create_graph=True)  # a constant gradient: nothing recorded
    got.append((v.grad.grad_fn, v.grad.requires_grad, first.requires_grad))
    return got


def test_backward_with_create_graph_copies_the_first_gradient_into_grad(torch):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # (the reference-cycle warning)
        ours, theirs = _create_graph_grads(tg), _create_graph_grads(torch)
    assert ours[:2] == theirs[:2] == [
        ("CopyBackwards", [6.0, 9.0]), ("AddBackward0", [12.0, 18.0])]
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-14)
    assert ours[3] == theirs[3]


def test_a_copied_gradient_owns_its_values():
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    (g,) = tg.autograd.grad(y, x, create_graph=True)
    copied = tg.ops.shape.named_result(g, "CopyBackwards", copy=True)
    copied.data.zero_()
    assert g.tolist() == [2.0, 4.0] and copied.grad_fn.next_functions[0][0] is g.grad_fn


@pytest.mark.parametrize("name", ["hann_window", "hamming_window", "blackman_window",
                                  "bartlett_window"])
@pytest.mark.parametrize("periodic", [True, False])
def test_windows_are_pytorchs_to_the_bit(name, periodic, torch):
    """PyTorch's formulas in its order (blackman's ends were -1.4e-17 and printed as -0.;
    bartlett's halves rounded apart)."""
    for n in range(12):
        ours = getattr(tg, name)(n, periodic=periodic, dtype=tg.float64).numpy()
        theirs = getattr(torch, name)(n, periodic=periodic, dtype=torch.float64).numpy()
        assert np.array_equal(ours, theirs) and np.array_equal(np.signbit(ours),
                                                               np.signbit(theirs)), n
    ours = tg.hamming_window(7, True, 0.6, 0.3, dtype=tg.float64)
    assert ours.tolist() == torch.hamming_window(7, True, 0.6, 0.3, dtype=torch.float64).tolist()
