"""Bad API input (issue 18): each call gets PyTorch 2.13's error class and key phrase, run
on both libraries, and leaves this thread's tape as it was.  (The hostile fuzzer,
tests/fuzz_hostile.py, draws the same classes at random: kind ``misuse``.)"""
import re

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.tape import current_tape

torch = pytest.importorskip("torch")


def _leaf(L, dtype=None):
    return L.tensor([1.0, 2.0, 3.0], dtype=dtype or L.float64, requires_grad=True)


def _assign(L, g):
    x = _leaf(L)
    x.grad = g(L)
    (x * x).sum().backward()
    return x.grad


# (id, call(L), error class, phrase both messages carry)
CASES = [
    ("to_float32_string", lambda L: _leaf(L).to("float32"), RuntimeError,
     "device string"),
    ("to_banana", lambda L: _leaf(L).to("banana"), RuntimeError, "device string"),
    ("grad_int_tensor", lambda L: _assign(L, lambda L: L.tensor([1, 2, 3])), RuntimeError,
     "attempting to assign a gradient with dtype 'long"),
    ("grad_float32_on_float64", lambda L: _assign(
        L, lambda L: L.tensor([1.0, 2.0, 3.0], dtype=L.float32)), RuntimeError,
     "attempting to assign a gradient with dtype 'float'"),
    ("grad_string", lambda L: _assign(L, lambda L: "a"), TypeError,
     "assigned grad expected to be a Tensor or None but got grad of type str"),
    ("grad_wrong_size", lambda L: _assign(L, lambda L: L.ones(2, dtype=L.float64)),
     RuntimeError, "attempting to assign a gradient of size '[2]' to a tensor of size '[3]'"),
    ("full_string", lambda L: L.full((2,), "a"), TypeError,
     "full(): argument 'fill_value' (position 2) must be Number, not str"),
    ("full_none", lambda L: L.full((2,), None), TypeError,
     "must be Number, not NoneType"),
    ("zeros_float", lambda L: L.zeros(2.5), TypeError,
     "zeros(): argument 'size' (position 1) must be tuple of ints, not float"),
    ("zeros_string", lambda L: L.zeros("a"), TypeError,
     "zeros(): argument 'size' (position 1) must be tuple of ints, not str"),
    ("ones_tuple_with_string", lambda L: L.ones((2, "a")), TypeError,
     "ones(): argument 'size' failed to unpack the object at pos 2"),
    ("zeros_negative", lambda L: L.zeros(2, -1), RuntimeError,
     "zeros: Dimension size must be non-negative"),
    ("tensor_requires_grad_yes", lambda L: L.tensor([1.0], requires_grad="yes"), TypeError,
     "tensor(): argument 'requires_grad' must be bool, not str"),
    ("zeros_requires_grad_yes", lambda L: L.zeros(2, requires_grad="yes"), TypeError,
     "zeros(): argument 'requires_grad' must be bool, not str"),
    ("requires_grad__yes", lambda L: L.ones(2).requires_grad_("yes"), TypeError,
     "requires_grad_(): argument 'requires_grad' (position 1) must be bool, not str"),
    ("set_requires_grad_yes", lambda L: setattr(L.ones(2), "requires_grad", "yes"),
     RuntimeError, "requires_grad must be a bool"),
    ("linear_string", lambda L: L.nn.Linear("a", 3), TypeError, None),
    ("var_correction_string", lambda L: _leaf(L).var(correction="a"), TypeError, "var()"),
    ("reshape_string", lambda L: _leaf(L).reshape("a"), TypeError,
     "reshape(): argument 'shape'"),
    ("reshape_float_array", lambda L: _leaf(L).reshape(np.array(1.0)), TypeError,
     "reshape(): argument 'shape'"),
    ("hessian_of_a_vector_function", lambda L: L.autograd.functional.hessian(
        lambda x: x * x, L.ones(3, dtype=L.float64)), RuntimeError, "single element"),
    ("hvp_wrong_v", lambda L: L.autograd.functional.hvp(
        lambda x: (x ** 3).sum(), L.ones(3, dtype=L.float64), L.ones(2, dtype=L.float64)),
     RuntimeError, "v has invalid size: should be"),
    ("tensor_beyond_int64", lambda L: L.tensor([2 ** 63]), ValueError,
     "Overflow when unpacking long long"),
    ("grad_inputs_empty", lambda L: L.autograd.grad((_leaf(L) * 2).sum(), []), RuntimeError,
     "`inputs` argument to `grad()` cannot be empty."),
    ("grad_inputs_none", lambda L: L.autograd.grad((_leaf(L) * 2).sum(), None), TypeError,
     None),
    ("backward_inputs_empty", lambda L: (_leaf(L) * 2).sum().backward(inputs=[]),
     RuntimeError, "`inputs` argument to `backward()` cannot be empty."),
    ("backward_numpy_gradient", lambda L: (_leaf(L) * 2).backward(np.ones(3)), TypeError,
     "gradients can be either Tensors or None, but got"),
]


# the functional transforms run the user's function first: its rows are the user's (freed
# with its tensors, as PyTorch frees its graph), not a half-recorded op
USER_ROWS = ("hessian_of_a_vector_function", "grad_inputs_empty", "grad_inputs_none",
             "backward_inputs_empty", "backward_numpy_gradient")  # (their ``(x * 2)`` rows)


@pytest.fixture
def same_tape(request):
    anchor = tg.tensor(0.0, requires_grad=True) * 1.0  # keeps the tape alive
    tape = current_tape()
    rows = tape.nrows
    yield
    if request.node.callspec.params["name"] not in USER_ROWS:
        assert current_tape() is tape and tape.nrows == rows, "a failed call left rows"
    del anchor


@pytest.mark.parametrize("name,call,error,phrase", CASES, ids=[c[0] for c in CASES])
def test_refused_as_pytorch_refuses(name, call, error, phrase, same_tape):
    with pytest.raises(error) as want:
        call(torch)
    with pytest.raises(error) as got:
        call(tg)
    if phrase is not None:
        for e in (want, got):
            assert phrase in str(e.value).replace("torch.Size(", "").replace("tapegrad", "")


def test_linear_names_the_argument():
    with pytest.raises(TypeError, match="Linear\\(\\): argument 'in_features' must be a "
                                        "non-negative int, got 'a'"):
        tg.nn.Linear("a", 3)
    with pytest.raises(TypeError, match="'out_features'"):
        tg.nn.Linear(3, 2.0)
    assert tuple(tg.nn.Linear(np.int64(2), 0).weight.shape) == (0, 2)


def test_valid_neighbours_still_work():
    """What PyTorch accepts next to each refusal: NumPy ints, lists, 0-d tensors, bools."""
    assert tuple(tg.zeros(np.int64(2), 3).shape) == (2, 3) == tuple(torch.zeros(np.int64(2), 3)
                                                                    .shape)
    assert tuple(tg.ones([2, 3]).shape) == (2, 3)
    assert tg.full((2,), tg.tensor(1.5)).tolist() == [1.5, 1.5]
    assert tg.full((2,), True).dtype == tg.bool
    assert tg.tensor([1.0], requires_grad=np.bool_(True)).requires_grad
    x = _leaf(tg)
    x.grad = tg.ones(3)
    (x * x).sum().backward()
    assert x.grad.tolist() == [3.0, 5.0, 7.0]
    assert float(_leaf(tg).var(correction=0)) == pytest.approx(2 / 3)
    assert tuple(_leaf(tg).reshape(np.int64(3), 1).shape) == (3, 1)


def test_float32_grad_on_float32_leaf_accumulates_in_float32():
    x = _leaf(tg, tg.float32)
    x.grad = tg.ones(3, dtype=tg.float32)
    (x * x).sum().backward()
    assert x.grad.dtype == tg.float32 and x.grad.tolist() == [3.0, 5.0, 7.0]


def test_batch_grad_with_no_points_says_what_to_pass():
    with pytest.raises(TypeError, match=re.escape("batch_grad(fn, *Xs): no points given")):
        tg.batch_grad(lambda x: (x * x).sum())
    f = tg.compile(lambda x: (x * x).sum())
    with pytest.raises(TypeError, match="compile: no inputs given"):
        f.grad_batch()
    np.testing.assert_array_equal(tg.batch_grad(lambda x: (x * x).sum(), np.ones((2, 3))),
                                  2 * np.ones((2, 3)))


@pytest.mark.parametrize("content", [b"hello", b"", "npz", "torch"])
def test_trace_loader_on_a_non_trace_file_says_what_it_reads(tmp_path, content):
    path = tmp_path / "file.npz"
    if content == "npz":
        np.savez(path, weights=np.ones(3))
    elif content == "torch":
        torch.save({"w": torch.ones(2)}, path)
    else:
        path.write_bytes(content)
    with pytest.raises(ValueError, match="is not a trace file: .*written by Traced.save"):
        tg.replay.load(path)
