"""An array leaf that requires grad takes one slot per tape for all its uses while nothing
can have changed its values (Tape.adopt): the gradients are PyTorch's, and any write into
a tensor's storage between two uses (in place under no_grad, through ``detach()`` or a
NumPy view, by an optimizer) gives the next use a new slot holding the values it read; a
write through ``.data`` rewrites the slot the uses share (PyTorch's ``.data``: the rows
recorded before read the new values too)."""
import numpy as np
import pytest

import tapegrad as tg
from tapegrad.tape import current_tape

torch = pytest.importorskip("torch")
V = np.array([0.5, -1.25, 2.0])


def _uses(w):
    return current_tape().slots_of(w)


def test_a_leaf_used_many_times_takes_one_slot_and_torchs_gradient():
    x = np.array([1.5, 0.25, -2.0])
    grads = []
    for mod in (tg, torch):
        w = mod.tensor(V.copy(), requires_grad=True)
        y = (w * mod.tensor(x)).sin() + w * w + (w + 1.0).exp() * w
        if mod is tg:
            assert len(_uses(w)) == 1
        y.sum().backward()
        grads.append(np.asarray(w.grad.detach()))
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-13)


def _write_through(kind, w):
    with tg.no_grad():
        if kind == "inplace":
            w.mul_(2.0)
        elif kind == "data":
            w.data.mul_(2.0)
        elif kind == "detach":
            w.detach().mul_(2.0)
        elif kind == "numpy":
            w.detach().numpy()[:] *= 2.0
        else:  # an optimizer's step (on w's storage)
            w.grad = tg.ones(3)
            tg.optim.SGD([w], lr=0.1, momentum=0.5).step()
            w.grad = None


@pytest.mark.parametrize("kind", ["inplace", "data", "detach", "numpy", "optimizer"])
def test_a_write_between_two_uses_gives_the_second_use_the_new_values(kind):
    """d/dw of sum(3 w) + sum(w2 * w2), w2 the values the second use read (the first use
    saves no value: PyTorch allows the write)."""
    w = tg.tensor(V.copy(), requires_grad=True)
    y = (w * 3.0).sum()
    w1 = np.array(w.tolist())  # (tolist: no NumPy view escapes)
    _write_through(kind, w)
    w2 = np.array(w.tolist())  # (tolist: no NumPy view escapes)
    z = (w * w).sum()
    # a NumPy view handed out: w's memory is the caller's, so each use copies it; a write
    # through .data goes into the slot the uses read (PyTorch's: no version, new values)
    assert len(_uses(w)) == {"numpy": 3, "data": 1}.get(kind, 2)
    (y + z).backward()
    np.testing.assert_allclose(w.grad.numpy(), 3.0 + 2 * w2, rtol=1e-15)
    if kind == "inplace":
        assert np.array_equal(w2, 2 * w1)


def test_a_new_tape_adopts_the_leaf_again():
    w = tg.tensor(V.copy(), requires_grad=True)
    for _ in range(3):
        (w * w).sum().backward()
        with tg.no_grad():
            w -= 0.25 * w.grad  # w <- w / 2
        w.grad = None
    np.testing.assert_array_equal(w.detach().numpy(), V / 8)


@pytest.mark.parametrize("how", ["from_numpy", "as_tensor", "view_before"])
def test_a_write_into_memory_the_caller_holds_reaches_the_next_use(how):
    """The caller's NumPy array shares the leaf's memory (from_numpy, as_tensor, or a view
    taken before the first use): a write into it between two uses is seen by the second
    use, as in PyTorch, which reads the leaf's memory at each op."""
    a = V.copy()
    if how == "view_before":
        w = tg.tensor(a, requires_grad=True)
        a = w.detach().numpy()
    else:
        w = getattr(tg, how)(a).requires_grad_()
    y = (w * 3.0).sum()
    a *= 2.0
    z = (w * w).sum()
    assert len(_uses(w)) == 3  # each use copies the memory the caller holds
    np.testing.assert_allclose(float(z), float((2.0 * V * 2.0 * V).sum()), rtol=1e-15)
    (y + z).backward()
    np.testing.assert_allclose(np.asarray(w.grad), 3.0 + 2.0 * (2.0 * V), rtol=1e-15)
    t = torch.from_numpy(V.copy()).requires_grad_()
    ((t * 3.0).sum() + (t * t).sum()).backward()  # (torch, unwritten: the same formula)
    np.testing.assert_allclose(t.grad.numpy(), 3.0 + 2.0 * V, rtol=1e-15)


def test_the_escaped_registry_forgets_dead_arrays_and_never_mistakes_a_reused_id():
    """arena._ESCAPED (id of a root array -> a weak reference): an entry counts only while
    it leads to its own array, so an array born at a dead one's address is not escaped, a
    view's root is, and the dict stays bounded however many arrays are handed out."""
    from tapegrad import arena
    arena._drop_dead()  # (earlier tests of this process may hold escaped arrays alive)
    bound = max(64, 2 * (len(arena._ESCAPED) + 1))
    for _ in range(5000):
        np.asarray(tg.tensor(np.ones(3)))  # escapes a new array, which dies at once
    assert len(arena._ESCAPED) <= bound
    a = np.ones(4)
    assert not arena.escaped(a)
    arena.escape(a[1:])  # (a view: its root is noted)
    assert arena.escaped(a) and arena.escaped(a[::2])
    dead = np.ones(4)
    arena.escape(dead)
    key = id(dead)
    del dead
    assert key in arena._ESCAPED and arena._ESCAPED[key]() is None
    fresh = [np.ones(4) for _ in range(50)]  # (some may take the dead one's address)
    assert not any(arena.escaped(f) for f in fresh)


def test_a_write_into_another_tensor_keeps_the_leafs_slot_and_its_gradient_bits():
    """A write elsewhere (here, or in another thread: WRITES counts every tensor's) leaves
    an unchanged leaf its one slot, so its adjoints are summed in one slot's order, as
    PyTorch sums them: split at the write, 1e16 + 1 - 1e16 would give 0 here, not 1."""
    other = tg.zeros(2)
    grads = []
    for mod in (tg, torch):
        x = mod.tensor([1.0], requires_grad=True)
        y = x * 1.0 + x * 1e16
        with tg.no_grad():
            other.add_(1.0)
        y = y + x * -1e16
        if mod is tg:
            assert len(_uses(x)) == 1
        y.sum().backward()
        grads.append(np.asarray(x.grad.detach()))
    assert grads[0].tolist() == grads[1].tolist() == [1.0]
