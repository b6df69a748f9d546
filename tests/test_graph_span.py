"""Costs in proportion to the graph: a backward sweeps only its graph's rows, and a
backward without retain_graph moves the thread to a fresh tape, older tapes reached by
LINK rows (tape.py, autograd/span.py, engine._sweep_all).  Every gradient is checked
against PyTorch on the same program."""
import gc
import weakref

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.autograd.span import graph_span
from tapegrad.tape import SECOND_TIME, SPLIT_MIN, current_tape

torch = pytest.importorskip("torch")


def _both(program):
    """Run ``program(lib)`` with tapegrad and with torch; compare what it returns."""
    got = program(tg)
    want = program(torch)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g.detach()), w.detach().numpy(), rtol=1e-12,
                                   atol=1e-14)


def _w(lib, v=(0.5, -1.0, 2.0)):
    return lib.tensor(list(v), dtype=lib.float64, requires_grad=True)


def test_gan_step_reads_a_graph_recorded_before_a_backward():
    def program(L):
        w, v = _w(L), _w(L, (1.5, 0.3, -0.7))
        fake = (w * w).sin()
        (fake.detach() * v).sum().backward()  # the discriminator's step
        (fake * v).sum().backward()  # the generator's: through fake's graph, still alive
        return w.grad, v.grad
    _both(program)


def test_stray_graph_from_before_the_loop_can_still_be_differentiated():
    def program(L):
        w, v = _w(L), _w(L, (1.5, 0.3, -0.7))
        baseline = (w * 3).exp()
        for _ in range(3):
            ((w * v).sum() - baseline.detach().sum()).pow(2).backward()
        g, = L.autograd.grad((baseline * w).sum(), [w])
        return w.grad, v.grad, g
    _both(program)


def test_create_graph_through_an_older_tape():
    def program(L):
        w = _w(L)
        h = (w * w).sin()
        (w * 3).sum().backward()
        g, = L.autograd.grad((h * w).sum(), [w], create_graph=True)
        g2, = L.autograd.grad(g.sum(), [w])
        return g, g2
    _both(program)


def test_create_graph_through_an_older_tape_with_maps_in_its_meta_pool():
    """An adjoint row emitted onto the newer tape (expand, sum over a dim, softmax) reads
    its map from a copy of the older tape's meta pool."""
    def program(L):
        w = _w(L)
        h = (w[:, None] * w[None, :]).sum(0).softmax(0) + w.max()
        (w * 3).sum().backward()
        g, = L.autograd.grad((h * w).sum(), [w], create_graph=True)
        g2, = L.autograd.grad((g * g).sum(), [w])
        return g, g2
    _both(program)


def test_backward_create_graph_and_retain_grad_across_tapes():
    def program(L):
        w = _w(L)
        h = (w * 2).tanh()
        h.retain_grad()
        (w.sum() * 2).backward()
        w.grad = None
        ((h * h).sum() * w.sum()).backward()
        return w.grad, h.grad
    _both(program)


def test_outputs_on_two_tapes_in_one_backward():
    def program(L):
        w = _w(L)
        a = (w * w).sum()
        (w * 5).sum().backward()
        w.grad = None
        b = (w.exp() * 2).sum()
        L.autograd.backward([a, b])
        return (w.grad,)
    _both(program)


def test_a_freed_graph_behind_a_link_raises_the_second_time_error():
    for L in (tg, torch):
        w = _w(L)
        h = (w * 2).tanh()
        (h * 3).sum().backward()  # frees h's graph
        with pytest.raises(RuntimeError, match="backward through the graph a second time"):
            (h * w).sum().backward()
    w = _w(tg)
    h = (w * 2).tanh()
    (h * 3).sum().backward()
    with pytest.raises(RuntimeError, match=SECOND_TIME[:40]):
        (h * w).sum().backward()


def test_carrying_a_swept_tensor_across_steps_keeps_no_chain_of_tapes():
    """An RNN-style state carried on without detach() after its graph was freed: each
    step's backward raises (as PyTorch's does), and no tape is kept alive by the links."""
    w = _w(tg)
    h = (w * 1.0).tanh()
    tapes = []
    for _ in range(20):
        h = (h * w).tanh()
        tapes.append(weakref.ref(h._tok.tape))
        loss = h.sum()
        try:
            loss.backward()
        except RuntimeError as e:
            assert "second time" in str(e)
        del loss
    gc.collect()
    assert len({id(t()) for t in tapes if t() is not None}) <= 2


def test_grad_fn_chain_runs_through_a_link():
    w = _w(tg)
    h = (w * w).sin()
    (w * 3).sum().backward()
    y = (h * w).sum()
    mul = y.grad_fn.next_functions[0][0]
    assert [n.name() if n is not None else None for n, _ in mul.next_functions] == \
        ["SinBackward0", "torch::autograd::AccumulateGrad"]


def test_hooks_on_a_non_leaf_of_an_older_tape_run():
    seen = []
    w = _w(tg)
    h = w * 2
    h.register_hook(lambda g: seen.append(np.asarray(g).copy()))
    (w.sum()).backward()
    (h * h).sum().backward()
    np.testing.assert_allclose(seen[0], 2 * np.asarray(h.detach()))
    np.testing.assert_allclose(np.asarray(w.grad), 1 + 8 * np.asarray(w.detach()))


def test_a_hooked_leaf_reached_on_two_tapes_gets_one_call_with_the_whole_gradient():
    seen = {}
    for L in (tg, torch):
        calls = seen[L] = []
        w = _w(L)
        w.register_hook(lambda g, calls=calls: calls.append(np.asarray(g.detach()).copy()))
        h = (w * w).sin()
        (w * 3).sum().backward()  # w's hook runs here too
        w.grad = None
        calls.clear()
        (h * w).sum().backward(retain_graph=True)  # w on both tapes
        g, = L.autograd.grad((h * w).sum(), [w])
        calls.append(np.asarray(g.detach()).copy())
        calls.append(np.asarray(w.grad.detach()).copy())
    assert len(seen[tg]) == len(seen[torch]) == 4
    for a, b in zip(seen[tg], seen[torch]):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_span_of_a_tiny_graph_beside_a_large_one():
    x = tg.tensor(0.5, requires_grad=True)
    y = x
    for _ in range(1000):
        y = y * 1.0001 + 0.1  # 2,000 rows the tiny graph does not reach
    w = _w(tg)
    small = (w * w).sum()
    tape = current_tape()
    rows, offs, vals, consts, meta = tape.arrays(fill=False)
    lo, hi = graph_span(tape, rows, meta, [small._slot])
    assert (lo, hi) == (2000, 2002)
    lo, hi = graph_span(tape, rows, meta, [y._slot])
    assert (lo, hi) == (0, 2000)
    del rows, offs, vals, consts, meta
    small.backward()
    y.backward()  # the large graph was not freed by the small backward
    np.testing.assert_allclose(np.asarray(w.grad), 2 * np.asarray(w.detach()))
    assert np.isclose(x.grad.item(), 1.0001 ** 1000)


def test_a_training_loop_with_a_stray_non_leaf_keeps_a_bounded_number_of_tapes():
    w = tg.tensor(np.linspace(-1, 1, 16), requires_grad=True)
    X = tg.tensor(np.linspace(0, 1, 64 * 16).reshape(64, 16))
    baseline = (X @ w).tanh()  # kept alive, never differentiated
    tapes, first = [], None
    for _ in range(50):
        loss = ((X @ w).tanh() - 0.5).pow(2).mean()
        loss.backward()
        with tg.no_grad():
            w -= 0.1 * w.grad
        w.grad = None
        tapes.append(weakref.ref(loss._tok.tape))
        first = first or (baseline._tok.tape.nrows, baseline._tok.tape.nbytes())
    gc.collect()
    alive = [t for t in tapes if t() is not None]
    assert len(alive) <= 2, f"{len(alive)} step tapes still alive"
    # the stray's tape holds its own rows and step 1's, never a later step's
    assert (baseline._tok.tape.nrows, baseline._tok.tape.nbytes()) == first


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b"]), st.sampled_from(["mul", "sin", "add"])),
                min_size=1, max_size=30),
       st.lists(st.integers(0, 29), max_size=4))
def test_interleaved_graphs_give_torchs_gradients(ops, cuts):
    """Two graphs recorded interleaved, with backward calls of the first between them
    (each retires the tape): the second's gradient is PyTorch's."""
    def program(L):
        p, q = _w(L), _w(L, (0.3, 0.2, -0.1))
        a, b = p * 1.0, q * 1.0
        out = []
        for i, (which, op) in enumerate(ops):
            t = a if which == "a" else b
            t = t * q if op == "mul" else t.sin() if op == "sin" else t + p
            if which == "a":
                a = t
            else:
                b = t
            if i in cuts:
                g, = L.autograd.grad((a * a).sum(), [p])
                out.append(g)
                a = (p * 1.0).cos()  # a fresh graph for a
        g, = L.autograd.grad(b.sum(), [q], allow_unused=True)
        out.append(g if g is not None else L.zeros(3, dtype=L.float64))
        return out
    _both(program)



@pytest.mark.parametrize("op", ["sin", "exp", "neg"])
def test_unary_scalar_op_that_starts_a_new_segment_is_differentiable(op):
    """A unary op on a 0-d leaf new to the tape starts a graph; on a long tape a live graph
    holds, that begins a new segment (tape.py Tape._split): its output must be a tensor of
    the new segment's generation (ops/_pointwise.py's inline scalar path), or its backward
    would treat it as a leaf and give no gradient."""
    def program(L):
        x = L.tensor(0.5, dtype=L.float64, requires_grad=True)
        y = x
        for _ in range(SPLIT_MIN):  # kept alive: the tape is long enough to split
            y = y * 1.0001
        w = L.tensor(0.3, dtype=L.float64, requires_grad=True)
        z = getattr(w, op)()
        z.backward()
        y.backward()
        return w.grad, x.grad
    _both(program)
