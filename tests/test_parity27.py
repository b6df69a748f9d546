"""Parity with PyTorch, each item against it: what tests/fuzz_autograd_api.py found from
seed 60000 on (helper fuzz27)."""
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


def _error(L, f):
    """(type name, message's first line) of what ``f(L)`` raises, or None."""
    try:
        f(L)
    except Exception as e:  # noqa: BLE001 (compared)
        return type(e).__name__, str(e).split("\n")[0]
    return None


def _grad_of(gouts, two=False, batched=True):
    def f(L):
        a = L.tensor([1.0, 2.0], requires_grad=True)
        outs = [a * 2, a * 3] if two else a * 2
        g = [L.ones(*s) for s in gouts] if two else L.ones(*gouts) if gouts else \
            L.tensor(1.0)
        L.autograd.grad(outs, a, grad_outputs=g, is_grads_batched=batched)
    return f


# (seed 60498: grad_outputs whose per-seed shape is not the output's)
@pytest.mark.parametrize("shape", [(3,), (2, 3), (4, 2, 2), (3, 3), ()])
def test_batched_grad_outputs_of_the_wrong_shape_raise_torchs_error(torch, shape):
    theirs = _error(torch, _grad_of(shape))
    assert theirs is not None
    assert _error(tg, _grad_of(shape)) == theirs


def test_batched_grad_outputs_of_different_batch_sizes_raise_torchs_error(torch):
    f = _grad_of([(2, 2), (3, 2)], two=True)
    theirs = _error(torch, f)
    assert theirs is not None and theirs[0] == "ValueError"
    assert _error(tg, f) == theirs


def test_the_batched_shape_error_also_names_the_real_shapes():
    with pytest.raises(RuntimeError) as e:
        _grad_of((3, 3))(tg)
    assert "grad_output[0] is [3, 3]: a batch of 3 seeds of shape [3]" in str(e.value)


@pytest.mark.parametrize("shape", [(3,), (2, 2), (1, 2)])
def test_grad_outputs_of_the_wrong_shape_name_them_as_torch_sizes(torch, shape):
    f = _grad_of(shape, batched=False)
    theirs = _error(torch, f)
    assert theirs is not None
    assert _error(tg, f) == theirs


# (seed 60373: a value packed by saved_tensors_hooks, modified in place before backward)
@pytest.mark.parametrize("pack", ["same", "clone"])
@pytest.mark.parametrize("op", ["mul", "sin"])
def test_leaves_packed_by_hooks_are_not_version_checked(torch, pack, op):
    def run(L):
        a = L.tensor([1.0, -2.0, 3.0], dtype=L.float64, requires_grad=True)
        h = (lambda t: t) if pack == "same" else (lambda t: t.clone())
        with L.autograd.graph.saved_tensors_hooks(h, lambda t: t):
            y = a * a if op == "mul" else a.sin()
        with L.no_grad():
            a.mul_(2.0)
        y.sum().backward()
        return a.grad.tolist()
    assert run(tg) == pytest.approx(run(torch), rel=1e-12)


def test_a_value_saved_outside_the_hooks_is_still_version_checked(torch):
    def run(L):
        a = L.tensor([1.0, -2.0, 3.0], dtype=L.float64, requires_grad=True)
        with L.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            y = a * 2.0
        z = y * a  # (saves a and y outside the hooks)
        with L.no_grad():
            a.mul_(2.0)
        return _error(L, lambda L: z.sum().backward())
    theirs = run(torch)
    assert theirs is not None and "modified by an inplace operation" in theirs[1]
    assert run(tg)[1].startswith(theirs[1][:60])


# (seed 60662: backward(inputs=[]) of a tensor that does not require grad)
@pytest.mark.parametrize("how", ["function", "method"])
@pytest.mark.parametrize("out", ["no_grad", "vector"])
def test_empty_inputs_are_refused_before_the_outputs_are_checked(torch, how, out):
    def run(L):
        y = L.tensor([1.0, 2.0], requires_grad=out == "vector") * 2
        if how == "method":
            return _error(L, lambda L: y.backward(inputs=[]))
        return _error(L, lambda L: L.autograd.backward([y], inputs=[]))
    theirs = run(torch)
    assert theirs is not None and "cannot be empty" in theirs[1]
    assert run(tg) == theirs
