"""Small values wait in ``Tape.abuf`` (an op's result as it is, others as a copy; at most
PENDING_MAX elements) and go into the arena in one NumPy call at the next flush
(Tape.push_array).  The arena must end up exactly as if
each value had been copied at its push, whatever comes between: scalars, leaf copies
into kept capacity, growth, values kept aside, float32 arenas promoted to float64; and
a result shared with code that may change it in place (detach, detach_, np.asarray) is
copied in first, so the tape keeps the values the op computed.  (tapegrad's own in-place
ops never write into a recorded result: they rebase the tensor onto a new one.)
"""
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad import arena as tape_mod
from tapegrad.tape import Tape

# one push: (kind, size, float32?)
PUSH = st.tuples(st.sampled_from(["scalar", "owned", "copy", "aside", "view", "transposed"]),
                 st.integers(0, 12), st.booleans())


def _push(tape, kind, n, f32, rng):
    """Push one value of ``kind``; returns the values the arena must hold for it."""
    if kind == "scalar":
        v = float(rng.normal())
        tape.push_scalar(v)
        return np.array([v])
    a = rng.normal(size=n).astype(np.float32 if f32 else np.float64)
    if kind == "view":  # a view of another array is never kept by reference
        base = np.concatenate([a, a])
        a = base[:n]
    if kind == "transposed":  # its copy keeps the view's order: not C-contiguous (the
        a = a[:n - n % 2].reshape(-1, 2).T  # flush's bytes.join refuses its buffer)
    if kind == "aside":
        tape.push_array(a, keep=False)
    else:
        tape.push_array(a, owned=kind in ("owned", "view", "transposed"))
    expect = a.copy()  # (in C order, as the arena holds it)
    a[...] = np.nan  # a value kept by reference but not owned would show up as nan
    if kind in ("owned", "aside"):
        a[...] = expect  # owned results are never changed in place: put them back
    return expect.reshape(-1)


@settings(max_examples=300, deadline=None)
@given(st.lists(PUSH, max_size=40), st.lists(PUSH, max_size=40), st.integers(0, 2**32 - 1),
       st.sampled_from([0, tape_mod.JOIN_BELOW]))
@example([], [("owned", 0, False), ("owned", 0, False), ("owned", 1, True)], 0, 512)  # float32
@example([("owned", 3, False), ("transposed", 6, False), ("owned", 2, False)], [], 0, 512)
def test_the_arena_holds_each_value_as_pushed(first, second, seed, join_below):
    """Two generations on one tape: the second starts with the first's capacity (values
    written into it while earlier results still wait), and may outgrow it.  A flush takes
    the waiting values by bytes.join or np.concatenate (``join_below`` 0: always the
    latter)."""
    rng = np.random.default_rng(seed)
    old = tape_mod.LAZY_MIN, tape_mod.PENDING_MAX, tape_mod.JOIN_BELOW
    tape_mod.LAZY_MIN = 6  # values of 6+ elements pushed with keep=False are kept aside
    tape_mod.PENDING_MAX = 4  # and a flush each time 4+ elements wait
    tape_mod.JOIN_BELOW = join_below
    try:
        tape = Tape()
        for pushes in (first, second):
            tape.reset()
            want = [_push(tape, kind, n, f32, rng) for kind, n, f32 in pushes]
            if want and len(want) > 2:  # a reader in the middle flushes what is pending
                s = len(want) // 2
                np.testing.assert_array_equal(tape.slot_values(s), want[s].astype(np.float64))
            vals = tape.arrays()[2]
            expect = np.concatenate([np.zeros(0)] + want).astype(vals.dtype)
            np.testing.assert_array_equal(vals, expect)
            assert not tape.abuf
            del vals
    finally:
        tape_mod.LAZY_MIN, tape_mod.PENDING_MAX, tape_mod.JOIN_BELOW = old


def test_results_wait_and_are_copied_in_by_one_flush():
    tape = Tape()
    tape.push_scalar(-1.0)  # (a new tape's first push does not flush: it waits as well)
    a = np.arange(3.0)
    b = np.arange(3.0, 7.0)
    tape.push_array(a, owned=True)
    tape.push_array(b, owned=True)
    assert len(tape.abuf) == 3 and tape.abuf[1] is a and tape.abuf[2] is b
    tape.flush()
    assert not tape.abuf
    np.testing.assert_array_equal(tape.arrays()[2], np.arange(-1.0, 7.0))


def test_waiting_values_are_bounded():
    """The arrays of results that died wait too, until a flush: at most PENDING_MAX
    elements (plus the last value) wait at any time."""
    x = tg.tensor(np.ones(3000), requires_grad=True)
    y = x * 1.0
    tape = y._tok.tape
    most = 0
    for _ in range(100):
        y = y * 1.0001
        most = max(most, sum(a.size for a in tape.abuf))
    assert 0 < most <= tape_mod.PENDING_MAX + 3000
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 1.0001 ** 100)


def _y_and_z():
    a = tg.tensor([0.5, 1.0, 2.0], requires_grad=True)
    y = a * 3.0  # a small op result: waits in the tape's abuf
    z = (y * y).sum()  # its rule reads y
    return a, y, z


@pytest.mark.parametrize("share", [
    lambda y: y.detach().numpy(),
    lambda y: y.data.numpy(),
    lambda y: np.asarray(y),
    lambda y: y.detach_().numpy(),
], ids=["detach", "data", "asarray", "detach_"])
def test_a_shared_result_changed_in_place_leaves_the_tape_values(share):
    """The tape keeps the values the op computed (README Limits: writing into a non-leaf
    through an alias is not detected; the tape holds the old values)."""
    a, y, z = _y_and_z()
    share(y)[...] = 100.0
    z.backward()
    np.testing.assert_allclose(a.grad.numpy(), 18 * np.array([0.5, 1.0, 2.0]))


def test_a_recorded_grad_accumulated_in_place_keeps_its_recorded_values():
    """.grad recorded by backward(create_graph=True), then a plain backward adds into it in
    place (AccumulateGrad): g1's graph still differentiates at its recorded values."""
    x = tg.tensor([0.5, 1.5], requires_grad=True)
    with pytest.warns(UserWarning, match="reference cycle"):
        (x ** 3).sum().backward(create_graph=True)  # x.grad = 3 x^2, recorded
    g1 = x.grad
    (x ** 3).sum().backward()  # adds 3 x^2 into g1's values
    np.testing.assert_allclose(g1.detach().numpy(), 6 * np.array([0.25, 2.25]))
    (hx,) = tg.autograd.grad(g1.sum(), x)
    np.testing.assert_allclose(hx.numpy(), 6 * np.array([0.5, 1.5]))
    x.grad = None  # the cycle x -> .grad -> graph -> x would keep this thread's tape
