"""An array constant saved by several rows of one graph is copied into the tape once
(``Tape._const_array``: its slot is reused while no write into any storage was made), and
every way of writing it in between or afterwards keeps PyTorch's results: the gradient
with the values each op read, or PyTorch's "modified by an inplace operation" error."""
import numpy as np
import pytest
import torch

import tapegrad as tg
from tapegrad._state import state


def _program(L, write, where):
    """``w * x`` and ``w**2 * x`` summed, x a constant written by ``write`` before the
    second use (``where == "between"``) or after both (``"after"``); w's gradient, or the
    error's first words."""
    x = L.tensor(np.linspace(0.1, 1.0, 6))
    w = L.tensor(np.float64(0.3), requires_grad=True)
    y = w * x
    if where == "between":
        write(L, x)
    z = (y + (w * w) * x).sum()
    if where == "after":
        write(L, x)
    try:
        z.backward()
    except RuntimeError as e:
        return str(e).split(";")[0]
    return w.grad.item()


def _nograd(L, x):
    with L.no_grad():
        x.mul_(2)


WRITES = {
    "none": lambda L, x: None,
    "in place": lambda L, x: x.mul_(2),
    "no_grad": _nograd,
    ".data": lambda L, x: x.data.add_(1),
    "detach": lambda L, x: x.detach().mul_(2),
    "view": lambda L, x: x[1:3].mul_(2),
    "setitem": lambda L, x: x.__setitem__(0, 5.0),
}


@pytest.mark.parametrize("where", ["between", "after"])
@pytest.mark.parametrize("write", sorted(WRITES))
def test_constant_written_matches_pytorch(write, where):
    got, want = _program(tg, WRITES[write], where), _program(torch, WRITES[write], where)
    if isinstance(want, str):
        assert got == want
    else:
        assert got == pytest.approx(want, rel=1e-14)


def _rows():
    return state.tape.arrays()[0]


def test_constant_slot_reused_until_a_write():
    x = tg.tensor(np.linspace(0.1, 1.0, 6))
    w = tg.tensor(np.float64(0.3), requires_grad=True)
    a, b = w * x, w * x
    rows = _rows()
    assert rows[-1, 3] == rows[-2, 3]  # one slot for x's two uses
    with tg.no_grad():
        x.add_(1)
    c = w * x
    rows = _rows()
    assert rows[-1, 3] != rows[-2, 3]  # written since: a new slot with the new values
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        (a + b).sum().backward()  # (the rows that saved the old values refuse)
    w.grad = None
    c.sum().backward()
    assert w.grad.item() == pytest.approx(float((np.linspace(0.1, 1.0, 6) + 1).sum()))


def test_escaped_constant_is_copied_at_each_use():
    """Memory the caller holds (from_numpy) is written where no version counts it: each use
    takes a slot of its own, as before the reuse."""
    arr = np.linspace(0.1, 1.0, 6)
    x = tg.from_numpy(arr)
    w = tg.tensor(np.float64(0.3), requires_grad=True)
    a = w * x
    arr *= 2
    b = w * x
    rows = _rows()
    assert rows[-1, 3] != rows[-2, 3]
    assert a is not b
