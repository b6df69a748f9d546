"""A tensor's pickled state (pickle's BUILD, copy's reconstruction): only values,
requires_grad, .grad and a subclass's own attributes are taken from it.  A crafted
weights_only file (Tensor is an allowed global) set a tensor's tape slot and generation,
so a backward through it indexed the tape's arrays with the file's number."""
import copy
import io
import os
import pickle

import numpy as np
import pytest

import tapegrad as tg


def _crafted(state):
    class Crafted:  # pickles as Tensor(ones(3)), then BUILD with ``state``
        def __reduce__(self):
            return (tg.Tensor, (np.ones(3),), state)
    buf = io.BytesIO()
    tg.save({"w": Crafted()}, buf)
    buf.seek(0)
    return buf


def test_crafted_slot_and_generation_are_not_taken():
    x = tg.ones(3, requires_grad=True)
    y = x * 2  # (a live graph on this thread's tape: its generation is the file's)
    buf = _crafted((None, {"_data": np.full(3, 5.0), "_rg": True,
                           "_slot": 10 ** 9, "_gen": y._gen}))
    w = tg.load(buf)["w"]
    assert w.is_leaf and w.requires_grad and w._slot == -1
    (y * w).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [10.0, 10.0, 10.0])
    np.testing.assert_array_equal(w.grad.numpy(), [2.0, 2.0, 2.0])


@pytest.mark.parametrize("state", [
    (None, {"_slot": 10 ** 9, "_gen": 1, "_rg": True}),  # no values
    (None, {"_data": "abc"}),
    (None, {"_data": np.ones(3), "_rg": 1}),  # requires_grad not a bool
    (None, {"_data": np.ones(3), "_grad": tg.ones(4)}),  # .grad of another shape
    ({"attr": 1}, {"_data": np.ones(3)}),  # a Tensor has no __dict__
    "nonsense",
])
def test_crafted_state_is_refused_by_weights_only_load(state):
    with pytest.raises(pickle.UnpicklingError, match="Tensor state"):
        tg.load(_crafted(state))


class Tagged(tg.Tensor):
    __slots__ = ("tag",)


class Noted(tg.Tensor):
    pass


def test_subclass_pickles_with_its_own_slots_and_attributes():
    x = Tagged(tg.arange(3.0)).requires_grad_()
    x.tag = "t"
    back = pickle.loads(pickle.dumps(x))
    assert type(back) is Tagged and back.tag == "t" and back.requires_grad and back.is_leaf
    np.testing.assert_array_equal(back.detach().numpy(), [0.0, 1.0, 2.0])
    n = Noted(tg.ones(2)).requires_grad_()
    n.note = {"k": 1}
    (n * 3).sum().backward()
    d = copy.deepcopy(n)
    assert type(d) is Noted and d.note == {"k": 1} and d.note is not n.note
    np.testing.assert_array_equal(d.grad.numpy(), n.grad.numpy())
    assert d.grad is not n.grad
    (d * 2).sum().backward()  # the copy is a leaf of its own: n's gradient is unchanged
    np.testing.assert_array_equal(n.grad.numpy(), [3.0, 3.0])
    np.testing.assert_array_equal(d.grad.numpy(), [5.0, 5.0])


def _rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="Linux's /proc only")
def test_legacy_sizes_constructor_does_not_write_its_zeros():
    # torch.Tensor(n, m) (which weights_only allows a file to call) made zeros and copied
    # them: every page written, twice; NumPy's zeros come from calloc, written when used
    before = _rss_bytes()
    x = tg.Tensor(5000, 5000)  # 200 MB
    grown = _rss_bytes() - before
    assert x.shape == (5000, 5000) and x.dtype == tg.float64 and x[17, 4999].item() == 0.0
    assert grown < 50 * 2 ** 20, grown
