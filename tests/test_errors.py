"""Bad input: each case raises a clear error carrying PyTorch's key phrase (checked against
PyTorch's own message where PyTorch raises), names the op and the shapes or dtypes where
tapegrad's message gives them, and leaves the tape and the tensors as they were.
"""
import re
import threading

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn.functional as F
from tapegrad.tape import current_tape


def _state(t):
    return (t.nrows, t.nslots, t.nvals, len(t.consts), len(t.meta), t.rows.tobytes(),
            tuple(t.rbuf))


def snapshot(env=None):
    """Everything a failed call could have changed: this thread's current tape, and the
    tapes the non-leaves of ``env`` were recorded on (a swept tape may have been retired)."""
    t = current_tape()
    tapes = {id(t): t}
    for v in (env or {}).values():
        if v._tok is not None:  # a non-leaf holds its tape's token (tensor.py)
            tapes[id(v._tok.tape)] = v._tok.tape
    return {k: _state(tp) for k, tp in sorted(tapes.items())}


class Case:
    """``setup(L)`` builds inputs with library ``L`` (tapegrad or torch) and returns a dict;
    ``call(L, env)`` is the bad call.  ``phrase`` is PyTorch's key phrase; ``extra`` are
    the further words tapegrad's message or its notes must hold (op name, shapes, the fix);
    ``torch_raises`` says PyTorch raises the same phrase for the same call."""

    def __init__(self, setup, call, exc, phrase, extra=(), torch_raises=True,
                 rows_may_free=False):
        self.setup, self.call, self.exc, self.phrase = setup, call, exc, phrase
        self.extra, self.torch_raises, self.rows_may_free = extra, torch_raises, rows_may_free


def _x(L):
    return L.tensor([1.0, 2.0, 3.0], dtype=L.float64, requires_grad=True)


def _vec(L):
    x = _x(L)
    return {"x": x, "y": x * 2}


def _scalar(L):
    x = _x(L)
    return {"x": x, "s": (x * x).sum()}


def _swept(L):
    env = _scalar(L)
    env["s"].backward()
    return env


def _swept_by_grad(L):
    env = _scalar(L)
    L.autograd.grad(env["s"], env["x"])
    return env


def _no_grad(L):
    a = L.tensor(2.0, dtype=L.float64)
    return {"c": a * 3.0, "x": _x(L)}


def _two(L):
    env = _vec(L)
    env["u"] = L.tensor(1.0, dtype=L.float64, requires_grad=True)
    env["s"] = (env["x"] * 2).sum()
    return env


SHAPES_32 = ("(3,)", "(2,)")

CASES = {
    # -- backward / grad --------------------------------------------------------------
    "backward of a tensor without grad": Case(
        _no_grad, lambda L, e: e["c"].backward(), RuntimeError,
        "element 0 of tensors does not require grad and does not have a grad_fn"),
    "grad of a tensor without grad": Case(
        _no_grad, lambda L, e: L.autograd.grad(e["c"], e["x"]), RuntimeError,
        "element 0 of tensors does not require grad and does not have a grad_fn"),
    "grad: second output without grad": Case(
        lambda L: {**_scalar(L), **_no_grad(L)},
        lambda L, e: L.autograd.grad([e["s"], e["c"]], e["x"]), RuntimeError,
        "element 1 of tensors does not require grad and does not have a grad_fn"),
    "backward of a vector without gradient=": Case(
        _vec, lambda L, e: e["y"].backward(), RuntimeError,
        "grad can be implicitly created only for scalar outputs"),  # (PyTorch's words)
    "grad of a vector without grad_outputs": Case(
        _vec, lambda L, e: L.autograd.grad(e["y"], e["x"]), RuntimeError,
        "grad can be implicitly created only for scalar outputs"),
    "backward twice": Case(
        _swept, lambda L, e: e["s"].backward(), RuntimeError,
        "Trying to backward through the graph a second time", extra=("retain_graph=True",)),
    "grad twice": Case(
        _swept_by_grad, lambda L, e: L.autograd.grad(e["s"], e["x"]), RuntimeError,
        "Trying to backward through the graph a second time"),
    "backward after grad": Case(
        _swept_by_grad, lambda L, e: e["s"].backward(), RuntimeError,
        "Trying to backward through the graph a second time"),
    "unused input": Case(
        _two, lambda L, e: L.autograd.grad(e["s"], [e["x"], e["u"]]), RuntimeError,
        "Set allow_unused=True", extra=("index 1",), rows_may_free=True),
    "gradient= of the wrong shape": Case(
        _vec, lambda L, e: e["y"].backward(L.ones(2)), RuntimeError, "Mismatch in shape",
        extra=("torch.Size([2])", "torch.Size([3])")),
    "gradient= of the wrong rank": Case(
        _vec, lambda L, e: e["y"].backward(L.ones(1, 3)), RuntimeError, "Mismatch in shape",
        extra=("torch.Size([1, 3])", "torch.Size([3])")),
    "grad_outputs of the wrong shape": Case(
        _vec, lambda L, e: L.autograd.grad(e["y"], e["x"], grad_outputs=L.ones(3, 1)),
        RuntimeError, "Mismatch in shape", extra=("torch.Size([3, 1])", "torch.Size([3])")),
    "grad w.r.t. a tensor without grad": Case(
        lambda L: {**_scalar(L), "k": L.tensor(1.0)},
        lambda L, e: L.autograd.grad(e["s"], [e["k"]]), RuntimeError,
        "One of the differentiated Tensors does not require grad"),
    # -- requires_grad ------------------------------------------------------------------
    "int tensor(requires_grad=True)": Case(
        lambda L: {}, lambda L, e: L.tensor([1, 2], requires_grad=True), RuntimeError,
        "Only Tensors of floating point and complex dtype can require gradients",
        extra=("int64",)),
    "bool requires_grad_()": Case(
        lambda L: {"b": L.tensor([True])}, lambda L, e: e["b"].requires_grad_(), RuntimeError,
        "floating point", extra=("bool",)),
    "int zeros(requires_grad=True)": Case(
        lambda L: {}, lambda L, e: L.zeros(2, dtype=L.int64, requires_grad=True),
        RuntimeError, "Only Tensors of floating point and complex dtype can require gradients",
        extra=("int64",)),
    "requires_grad_(False) on a non-leaf": Case(
        _vec, lambda L, e: e["y"].requires_grad_(False), RuntimeError,
        "you can only change requires_grad flags of leaf variables", extra=("detach()",)),
    "retain_grad without grad": Case(
        lambda L: {"k": L.tensor(1.0)}, lambda L, e: e["k"].retain_grad(), RuntimeError,
        "can't retain_grad on Tensor that has requires_grad=False"),
    # -- conversion -----------------------------------------------------------------------
    "numpy() of a leaf that requires grad": Case(
        _vec, lambda L, e: e["x"].numpy(), RuntimeError,
        "Use tensor.detach().numpy() instead"),
    "numpy() of a non-leaf": Case(
        _vec, lambda L, e: e["y"].numpy(), RuntimeError, "Use tensor.detach().numpy() instead"),
    "item() of 3 elements": Case(
        _vec, lambda L, e: e["y"].item(), RuntimeError,
        "a Tensor with 3 elements cannot be converted to Scalar"),
    "bool() of 3 elements": Case(
        _vec, lambda L, e: bool(e["y"]), RuntimeError,
        "Boolean value of Tensor with more than one value is ambiguous"),
    # -- broadcasting -------------------------------------------------------------------
    "add: shapes (3,) and (2,)": Case(
        _vec, lambda L, e: e["y"] + L.tensor([1.0, 2.0], requires_grad=True), RuntimeError,
        "The size of tensor a (3) must match the size of tensor b (2) at non-singleton "
        "dimension 0", extra=("add",) + SHAPES_32),
    "sub with a constant": Case(
        _vec, lambda L, e: e["x"] - L.tensor([1.0, 2.0]), RuntimeError,
        "must match the size of tensor b", extra=("sub",) + SHAPES_32),
    "mul: fresh leaves": Case(
        lambda L: {"p": _x(L), "q": L.ones(2, dtype=L.float64, requires_grad=True)},
        lambda L, e: e["p"] * e["q"], RuntimeError, "must match the size of tensor b",
        extra=("mul",) + SHAPES_32),
    "div, reflected": Case(
        _vec, lambda L, e: L.ones(2, 2) / e["y"], RuntimeError,
        "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
        "dimension 1", extra=("div", "(2, 2)", "(3,)")),
    "pow": Case(
        _vec, lambda L, e: e["y"] ** L.ones(4, 1, 2), RuntimeError,
        "must match the size of tensor b", extra=("pow", "(3,)", "(4, 1, 2)")),
    "float32 operand": Case(
        lambda L: {"f": L.ones(3, dtype=L.float32, requires_grad=True)},
        lambda L, e: e["f"] * L.ones(2), RuntimeError, "must match the size of tensor b",
        extra=("mul",) + SHAPES_32),
    "mse_loss target of another size": Case(
        _vec, lambda L, e: F.mse_loss(e["y"], tg.ones(2)) if L is tg else
        L.nn.functional.mse_loss(e["y"], L.ones(2)), RuntimeError,
        "must match the size of tensor b"),
    # -- shapes, dims, dtypes -----------------------------------------------------------
    "reshape to a wrong size": Case(
        _vec, lambda L, e: e["y"].reshape(2, 2), RuntimeError,
        "shape '[2, 2]' is invalid for input of size 3"),
    "view to a wrong size": Case(
        _vec, lambda L, e: e["x"].view(4), RuntimeError,
        "shape '[4]' is invalid for input of size 3"),
    "sum dim out of range": Case(
        _vec, lambda L, e: e["y"].sum(1), IndexError, "Dimension out of range",
        extra=("sum", "[-1, 0]", "got 1")),
    "mean dim out of range": Case(
        _vec, lambda L, e: e["y"].mean(-2), IndexError, "Dimension out of range",
        extra=("mean", "got -2")),
    "size dim out of range": Case(
        _vec, lambda L, e: e["y"].size(2), IndexError, "Dimension out of range",
        extra=("size",)),
    "transpose dim out of range": Case(
        _vec, lambda L, e: e["y"].transpose(0, 3), IndexError, "Dimension out of range",
        extra=("transpose", "got 3")),
    "unsqueeze dim out of range": Case(
        _vec, lambda L, e: e["y"].unsqueeze(3), IndexError, "Dimension out of range",
        extra=("unsqueeze", "[-2, 1]")),
    "softmax dim out of range": Case(
        _vec, lambda L, e: F.softmax(e["y"], dim=1) if L is tg else
        L.nn.functional.softmax(e["y"], dim=1), IndexError, "Dimension out of range",
        extra=("softmax",)),
    "log_softmax dim out of range": Case(
        _vec, lambda L, e: F.log_softmax(e["y"], dim=-2) if L is tg else
        L.nn.functional.log_softmax(e["y"], dim=-2), IndexError, "Dimension out of range",
        extra=("log_softmax",)),
    "mean of an int tensor": Case(
        lambda L: {"i": L.tensor([1, 2, 3])}, lambda L, e: e["i"].mean(), RuntimeError,
        "mean(): could not infer output dtype. Input dtype must be either a floating point "
        "or complex dtype. Got: Long"),  # (PyTorch's words, no more)
    "mean(0) of an int tensor": Case(
        lambda L: {"i": L.tensor([[1, 2]])}, lambda L, e: e["i"].mean(0), RuntimeError,
        "could not infer output dtype. Input dtype must be either a floating point or complex "
        "dtype. Got: Long"),
    "index out of range": Case(
        _vec, lambda L, e: e["y"][3], IndexError,
        "index 3 is out of bounds for dimension 0 with size 3"),  # (PyTorch's words, no more)
    "too many indices": Case(
        _vec, lambda L, e: e["y"][0, 0], IndexError, "too many indices for tensor of dimension 1"),
    "expand to a clashing size": Case(
        _vec, lambda L, e: e["y"].expand(2, 4), RuntimeError,
        "The expanded size of the tensor (4) must match the existing size (3) at "
        "non-singleton dimension 1", extra=("expand",)),
    "unknown mse_loss reduction": Case(
        _vec, lambda L, e: (F if L is tg else L.nn.functional).mse_loss(
            e["y"], e["y"].detach(), reduction="avg"), ValueError,
        "avg is not a valid value for reduction", extra=("'mean', 'sum' or 'none'",)),
    "exp of a string": Case(
        lambda L: {}, lambda L, e: L.exp("a"), TypeError, "exp", extra=("str",)),
}

BUGS = {
}


def _params():
    for name in CASES:
        marks = [pytest.mark.xfail(strict=True, reason=BUGS[name])] if name in BUGS else []
        yield pytest.param(name, id=name, marks=marks)


@pytest.mark.filterwarnings("ignore:Using a target size")
@pytest.mark.parametrize("name", list(_params()))
def test_bad_input_raises_a_clear_error_and_changes_nothing(name):
    case = CASES[name]
    env = case.setup(tg)
    values = {k: np.array(v.detach(), copy=True) for k, v in env.items()}
    grads = {k: v.grad for k, v in env.items() if v.is_leaf}
    flags = {k: (v.requires_grad, v.is_leaf) for k, v in env.items()}
    before = snapshot(env)
    with pytest.raises(case.exc) as info:
        case.call(tg, env)
    after = snapshot(env)
    message = str(info.value)
    # tapegrad's context (op, shapes) is a note beside PyTorch's words (tapegrad/_errors.py)
    shown = "\n".join([message, *getattr(info.value, "__notes__", ())])
    del info  # a traceback holds the frames of the failed call
    assert case.phrase in message
    for word in case.extra:
        assert word in shown, f"{word!r} not in {shown!r}"
    if case.rows_may_free:  # PyTorch frees the graph before it finds the unused input
        # (the swept tape retires: the thread's next tape, still empty, is no change)
        def counts(snap):
            return {k: v[:5] for k, v in snap.items() if any(v[:5])}
        assert counts(after) == counts(before)
    else:
        assert after == before
    for k, v in env.items():
        np.testing.assert_array_equal(np.asarray(v.detach()), values[k])
        assert (v.requires_grad, v.is_leaf) == flags[k]
        if v.is_leaf:
            assert v.grad is grads[k]


@pytest.mark.filterwarnings("ignore:Using a target size", "ignore:Using backward()")
@pytest.mark.parametrize("name", [n for n in CASES if n not in BUGS])
def test_torch_raises_the_same_phrase(name, torch):
    """The key phrases are PyTorch's: the same call in PyTorch raises the same words."""
    case = CASES[name]
    env = case.setup(torch)
    if not case.torch_raises:
        case.call(torch, env)  # PyTorch supports it; tapegrad says it does not yet
        return
    with pytest.raises(Exception) as info:
        case.call(torch, env)
    phrase = case.phrase
    # PyTorch's wording of two phrases differs slightly in case or in a word
    alternatives = {
        "floating point": ["only Tensors of floating point"],
        "Only Tensors of floating point and complex dtype can require gradients": [
            "only Tensors of floating point dtype can require gradients"],
        "index 3 is out of bounds": ["index 3 is out of bounds for dimension 0 with size 3"],
        "Set allow_unused=True": ["Set allow_unused=True"],
    }
    message = str(info.value)
    assert any(p in message for p in [phrase] + alternatives.get(phrase, [])), message


# ---- more than one thread -------------------------------------------------------------------

def test_a_tensor_recorded_in_another_thread_gives_a_clear_error():
    made = {}

    def record():
        x = tg.tensor([1.0, 2.0], requires_grad=True)
        made["y"] = x * 2
        made["x"] = x

    t = threading.Thread(target=record)
    t.start()
    t.join()
    before = snapshot()
    with pytest.raises(RuntimeError, match=re.escape("another thread's tape")) as info:
        made["y"] * 3
    assert "detach()" in str(info.value)
    del info
    assert snapshot() == before
    # the detached value records anew in this thread
    z = (made["y"].detach() * made["x"]).sum()
    z.backward()
    assert made["x"].grad.tolist() == [2.0, 4.0]


# ---- a held exception does not break later recording -----------------------------------

def test_recording_works_while_a_backward_error_is_held():
    a = tg.tensor([1.0, 2.0], requires_grad=True)
    s = (a * a).sum()
    s.backward()
    with pytest.raises(RuntimeError, match="a second time") as info:
        s.backward()
    # info keeps the traceback, and with it the frames of the failed sweep, alive
    big = tg.tensor(np.ones(20000), requires_grad=True)
    y = (big * a.sum()).sum()
    for _ in range(9000):  # more than one flush of the pending scalar rows
        y = y * 1.0
    y.backward()
    assert big.grad.tolist()[:2] == [3.0, 3.0]
    assert info.value is not None
