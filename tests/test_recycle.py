"""Recycled buffers (tape.py): a training loop reuses one value arena and one adjoint buffer
per thread instead of faulting in fresh pages every step, and never hands out memory that
something can still read (a NumPy view, a kept gradient, another thread)."""
import threading
import weakref

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn.functional as F
from tapegrad import arena as tape_mod
from tapegrad.arena import adjoint_arena
from tapegrad.tape import current_tape

RNG = np.random.default_rng(7)
X = RNG.standard_normal((64, 8))
Y = RNG.integers(0, 3, 64)
W0 = RNG.standard_normal((3, 8)) * 0.3


@pytest.fixture(autouse=True, scope="module")
def _compiled_sweeps():
    """The compiled sweeps loaded first: until they are (a background thread loads them on
    first use), sweeps run interpreted, holding their buffers a while longer, and float32
    rules may round differently from the compiled ones: neither is what these tests check."""
    tg.warmup(float32=True, replay=False)


def _want_grad():
    z = X @ W0.T
    e = np.exp(z - z.max(1, keepdims=True))
    p = e / e.sum(1, keepdims=True)
    p[np.arange(64), Y] -= 1
    return p.T @ X / 64


def in_thread(fn):
    """Run ``fn()`` in a new thread (its own tape and spare buffers); re-raise its error."""
    out = {}

    def run():
        try:
            out["value"] = fn()
        except BaseException as e:
            out["error"] = e
    t = threading.Thread(target=run)
    t.start()
    t.join()
    if "error" in out:
        raise out["error"]
    return out.get("value")


def _step(w, x, y):
    """One training step; returns (capacity of the arena the step started with, values it
    recorded, its tape, w's gradient)."""
    w.grad = None
    tape = current_tape()
    capacity = len(tape.vals)
    loss = F.cross_entropy(F.linear(x, w), y)
    used = tape.nvals
    loss.backward()
    return capacity, used, tape, np.asarray(w.grad).copy()


def test_training_loop_reuses_the_arena_and_gradients_stay_exact():
    def body():
        w, x, y = tg.tensor(W0, requires_grad=True), tg.tensor(X), tg.tensor(Y)
        capacity, used, _, g = _step(w, x, y)
        assert capacity == 0  # a new thread's first tape grows its arena
        for _ in range(5):
            # every step records on a new tape (the last one retired), which starts with
            # the arena of the step before: room for the whole step, nothing to grow
            capacity, used, _, g = _step(w, x, y)
            assert capacity >= used > 0
            np.testing.assert_allclose(g, _want_grad(), rtol=1e-12, atol=1e-14)

    in_thread(body)


def test_an_arena_a_numpy_view_still_reads_is_not_recycled():
    def body():
        w, x, y = tg.tensor(W0, requires_grad=True), tg.tensor(X), tg.tensor(Y)
        tape = current_tape()
        loss = F.cross_entropy(F.linear(x, w), y)
        view = tape.arrays()[2]  # this step's values, a zero-copy view of its arena
        kept = view.copy()
        loss.backward()
        del loss, tape  # the tape resets; its arena stays pinned by the view
        capacity, _, _, g = _step(w, x, y)
        assert capacity == 0  # so the next tape got a new arena
        for _ in range(3):
            capacity, used, _, g = _step(w, x, y)
            assert capacity >= used  # which is recycled from then on
        np.testing.assert_array_equal(view, kept)
        np.testing.assert_allclose(g, _want_grad(), rtol=1e-12, atol=1e-14)

    in_thread(body)


def test_adjoint_buffer_is_reused_only_when_no_view_lives():
    def body():
        n = 1 << 16
        a = adjoint_arena(n)
        a[:] = 5.0
        b = adjoint_arena(n)  # a still lives: b must be other memory
        assert not np.shares_memory(a, b)
        del a, b
        c = adjoint_arena(n - 10)
        assert c.shape == (n - 10,)
        d = adjoint_arena(n)  # c lives: fresh
        assert not np.shares_memory(c, d)
        e = adjoint_arena(n, np.float32)  # float32 sweeps have their own
        assert e.dtype == np.float32 and not np.shares_memory(e, d)
        assert adjoint_arena(10).shape == (10,)  # small sweeps: plain np.empty

    in_thread(body)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_sweeps_read_no_adjoint_they_did_not_zero(dtype, monkeypatch, rng, draw):
    """adjoint_arena hands out its memory as it is: the sweep zeroes a slot's adjoints when
    it first reaches the slot (_rules.reach_input).  With nan in every unzeroed
    adjoint, every op of the table must give the same gradient, so no rule, hook, custom
    Function or gradient read-out ever reads an adjoint that was not zeroed."""
    from tapegrad.autograd import engine
    from tapegrad.ops import SPECS

    def poisoned(n, dt=np.float64):
        a = np.empty(n, dt)
        a.fill(np.nan)
        return a

    cases = []
    for spec in SPECS:
        for shape in spec.shapes:
            xs = draw(spec, shape, rng, dtype)
            out = spec.fn(*[tg.tensor(x) for x in xs])
            cases.append((spec, xs, rng.standard_normal(np.shape(np.asarray(out)))))

    def grads():
        got = []
        for spec, xs, u in cases:  # all inputs differentiated, then each alone (the others
            for only in [None, *range(len(xs))] if len(xs) > 1 else [None]:  # constants)
                ts = [tg.tensor(x, requires_grad=only in (None, i)) for i, x in enumerate(xs)]
                out = spec.fn(*ts)
                wrt = [t for t in ts if t.requires_grad]
                gs = tg.autograd.grad(out, wrt, grad_outputs=tg.tensor(u.astype(out.dtype)),
                                      allow_unused=True)
                got.append((spec.name, only, [None if g is None else np.asarray(g) for g in gs]))
        return got

    want = grads()
    monkeypatch.setattr(engine, "adjoint_arena", poisoned)
    for (name, only, a), (_, _, b) in zip(want, grads(), strict=True):
        for x, y in zip(a, b, strict=True):
            assert (x is None) == (y is None), (name, only)
            if x is not None:
                np.testing.assert_array_equal(x, y, err_msg=f"{name}, input {only} alone")


def test_buffers_above_the_cap_are_returned(monkeypatch):
    monkeypatch.setattr(tape_mod, "SPARE_MAX", 1 << 16)

    def body():
        w = tg.tensor(RNG.standard_normal((300, 300)), requires_grad=True)  # 9e4 values
        tape = current_tape()
        (w * 2.0).sum().backward()
        buf = tape.vals
        del tape
        assert current_tape().vals is not buf and len(current_tape().vals) == 0
        assert tape_mod._spare.adj is None  # the sweep's 9e4 adjoints were not kept

    in_thread(body)


@pytest.mark.parametrize("n_threads", [3])
def test_threads_keep_their_own_spares(n_threads):
    """Threads train at once; each reuses its own buffers and gets exact gradients."""
    barrier = threading.Barrier(n_threads)
    results, errors = [], []

    def body(seed):
        try:
            w, x, y = tg.tensor(W0, requires_grad=True), tg.tensor(X), tg.tensor(Y)
            barrier.wait()
            for _ in range(20):
                g = _step(w, x, y)[3]
                np.testing.assert_allclose(g, _want_grad(), rtol=1e-12, atol=1e-14)
            results.append(seed)
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    assert sorted(results) == list(range(n_threads))


def test_float32_training_loop_reuses_its_own_float32_arena():
    """A float32 loop records on a float32 arena (tape.py), kept and reused as the float64
    one is; a float64 graph in between takes the float64 spare and leaves it alone."""
    def body():
        w = tg.tensor(W0.astype(np.float32), requires_grad=True)
        x, y = tg.tensor(X.astype(np.float32)), tg.tensor(Y)
        last = None  # a weak reference to the arena of the step before
        for step in range(6):
            if step == 3:  # a float64 graph between two float32 steps
                (tg.tensor(W0, requires_grad=True) * 2.0).sum().backward()
            w.grad = None
            tape = current_tape()
            loss = F.cross_entropy(F.linear(x, w), y)
            assert tape.dtype == np.float32
            if last is not None:
                assert tape.vals is last()  # the same buffer, recycled
            last = weakref.ref(tape.vals)
            loss.backward()
            np.testing.assert_allclose(np.asarray(w.grad), _want_grad(), rtol=1e-5, atol=1e-6)
            del tape, loss

    in_thread(body)
