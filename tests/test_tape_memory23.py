"""The thread's tape splits into segments (tape.py ``Tape._split``): a graph kept alive pins
the segment it was recorded on, not every graph recorded after it.  Row counts and segment
lifetimes through tape introspection (never timings), and gradients across a segment
boundary against PyTorch: first and higher order, create_graph, views and in-place ops,
saved_tensors_hooks, tensor hooks, version counters."""
import gc
import random
import threading
import weakref

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.tape import SEGMENT, SPLIT_MIN, current_tape
from test_recycle import in_thread as _in_thread  # its own tapes and segment length (state.segment)

torch = pytest.importorskip("torch")

X = np.array([0.3, -1.2, 0.8, 2.0])


def _graph(n=4):
    a = tg.tensor(np.linspace(0.1, 1.0, n), requires_grad=True)
    return ((a * 2.0).exp() * a).sum()


def _split():
    """Begin a new segment now: the split is due, and a graph starts (an op on a leaf)."""
    tape = current_tape()
    assert tape._token() is not None  # (a live graph holds it: else no split is due)
    tape.split_at = 0
    tg.tensor(1.0, requires_grad=True) * 2.0
    assert current_tape() is not tape and tape.retired


def _live_tapes(tensors):
    """The distinct segments that ``tensors`` live on."""
    return {id(t._tok.tape): t._tok.tape for t in tensors if t._tok is not None}.values()


# ---- memory: rows bounded by the live graph, not by history ---------------------------
def test_one_kept_graph_pins_one_segment_whatever_follows():
    """(a) One kept graph, then N dropped ones: its segment holds at most ~SPLIT_MIN slots
    for every N, the thread's current tape holds nothing, and dropping it frees all."""
    gc.collect()
    kept = _graph()
    for n in (5000, 20000):
        for _ in range(n):
            _graph()
        seg = kept._tok.tape
        assert seg.nslots <= SPLIT_MIN + 16 and current_tape().nrows == 0
    ref = weakref.ref(kept._tok.tape)
    del kept, seg
    gc.collect()
    assert ref() is None


def test_losses_kept_in_a_list_pin_their_own_segments_only():
    """(b) A training loop that keeps every loss (as PyTorch keeps their graphs): each
    backward retires its tape, so step k's loss pins step k's tape and nothing else, and
    the total is the sum of the steps, the same as one step times the count."""
    w = tg.tensor(np.full(4, 0.5), requires_grad=True)
    losses = []
    for _ in range(50):
        loss = ((w * tg.tensor(X)).tanh() ** 2).sum()
        loss.backward()
        losses.append(loss)
    tapes = list(_live_tapes(losses))
    assert len(tapes) == 50
    assert {tp.nrows for tp in tapes} == {tapes[0].nrows} and tapes[0].nrows <= 8
    assert current_tape().nrows == 0


def test_graphs_kept_and_dropped_at_random_free_their_segments():
    """(c) Graphs kept and dropped at random: every kept graph's gradient stays exact
    across the segments made meanwhile, and once all are dropped no segment lives."""
    rng = random.Random(23)
    kept = []
    for i in range(6000):
        a = tg.tensor(np.linspace(0.1, 1.0, 4) + i * 1e-4, requires_grad=True)
        y = ((a * 2.0).exp() * a).sum()
        if rng.random() < 0.01:
            kept.append((a, y))
        if kept and rng.random() < 0.005:
            kept.pop(rng.randrange(len(kept)))
    segs = list(_live_tapes([y for _, y in kept]))
    assert len(segs) >= 2  # (the test's point: graphs on several segments)
    refs = [weakref.ref(tp) for tp in segs]
    for a, y in kept:  # d/da sum(exp(2a) a) = exp(2a) (2a + 1)
        y.backward()
        v = a.detach().numpy()
        np.testing.assert_allclose(a.grad.numpy(), np.exp(2 * v) * (2 * v + 1), rtol=1e-14)
    del segs, kept, y, a
    gc.collect()
    assert all(r() is None for r in refs)


def _segments(t):
    """How many segments ``t``'s graph reaches (its own and those its links reach)."""
    todo, seen = [t._tok.tape], set()
    while todo:
        tp = todo.pop()
        if id(tp) not in seen:
            seen.add(id(tp))
            todo += [tok.tape for tok, _ in tp.links if tok is not None]
    return len(seen)


def test_a_backward_across_many_segments_makes_the_next_steps_longer():
    """A step past SPLIT_MIN slots whose many sub-graphs (each a graph start) are combined
    only at its end spans many SEGMENT-slot segments; its backward makes the thread's next
    segments as long, so the same step again spans two, as before SEGMENT (a sweep and a
    link a segment: +45% backward for 200 sub-graphs); the gradients stay exact (torch)."""
    ws0 = [np.linspace(0.1, 1.0, 4) + i for i in range(120)]

    def step(lib, ws):
        base = ws[0] * 1.0
        for _ in range(SPLIT_MIN):
            base = base * 1.0001
        subs = [(w * 0.5).sin().sin().sin().sin().sin().sum() for w in ws]
        return lib.stack(subs).sum() + base.sum()

    def body():
        ws = [tg.tensor(w, requires_grad=True) for w in ws0]
        spans = []
        for _ in range(3):
            loss = step(tg, ws)
            spans.append(_segments(loss))
            loss.backward()
        return spans, [w.grad.numpy() for w in ws]
    spans, grads = _in_thread(body)
    assert spans[0] > 3 and spans[1] <= 2 and spans[2] <= 2
    wt = [torch.tensor(w, requires_grad=True) for w in ws0]
    for _ in range(3):
        step(torch, wt).backward()
    for g, w in zip(grads, wt):
        np.testing.assert_allclose(g, w.grad.numpy(), rtol=1e-12)


def test_graphs_kept_at_random_pin_small_segments_only():
    """(c) A graph kept at random among many dropped ones pins one small segment: past the
    first split, no graph spans two segments, so each holds at most ~SEGMENT slots (they
    doubled to 8192 and more, and 1% kept pinned every row), and the live segments hold
    well under half the rows recorded; every kept gradient is exact (as test above)."""
    _in_thread(_kept_at_random)


def _kept_at_random():
    rng = random.Random(5)
    kept, recorded = [], 0
    for i in range(8000):
        a = tg.tensor(np.linspace(0.1, 1.0, 4) + i * 1e-4, requires_grad=True)
        y = ((a * 2.0).exp() * a).sum()
        recorded += 4
        if rng.random() < 0.01:
            kept.append((a, y))
    segs = list(_live_tapes([y for _, y in kept]))
    first = min(segs, key=lambda tp: tp.gen)
    assert all(tp.nslots <= SEGMENT + 16 for tp in segs if tp is not first)
    assert sum(tp.nrows for tp in segs) < recorded / 2
    for a, y in kept:
        y.backward()
        v = a.detach().numpy()
        np.testing.assert_allclose(a.grad.numpy(), np.exp(2 * v) * (2 * v + 1), rtol=1e-14)


def test_retained_graphs_kept_across_iterations_are_exact_and_bounded():
    """(d) retain_graph=True graphs kept across iterations while others are dropped:
    backward through each again gives the same gradient, and the live segments are those
    of the kept graphs (their count bounded by the kept graphs, not by the dropped)."""
    w = tg.tensor(X.copy(), requires_grad=True)
    kept = []
    for i in range(30):
        y = (w * float(i + 1)).sin().sum()
        y.backward(retain_graph=True)
        kept.append(y)
        for _ in range(300):
            _graph()
    w.grad = None
    for y in kept:
        y.backward(retain_graph=True)
    want = sum(np.cos(X * (i + 1)) * (i + 1) for i in range(30))
    np.testing.assert_allclose(w.grad.numpy(), want, rtol=1e-12)
    rows = sum(tp.nrows for tp in _live_tapes(kept))
    assert rows <= 30 * (SPLIT_MIN + 16)
    assert current_tape().nrows <= 8


def test_threads_split_their_own_tapes():
    """(e) Threads: each keeps a graph and drops 6,000; each thread's segments are its own
    and bounded, and every kept gradient is exact."""
    out = {}
    alive = threading.Barrier(3)  # (all three alive at once: a finished thread's id is reused)

    def work(k):
        alive.wait()
        kept = _graph()
        for _ in range(6000):
            _graph()
        out[k] = (kept._tok.tape.nslots, current_tape().nrows, kept._tok.tape.owner)
        kept.backward()
        alive.wait()

    ts = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert len(out) == 3
    for nslots, rows, owner in out.values():
        assert nslots <= SPLIT_MIN + 16 and rows == 0
    assert len({o for _, _, o in out.values()}) == 3


def test_a_big_live_graph_makes_few_segments():
    """A graph alive throughout (nothing to free) splits at doubling sizes: a few LINK rows
    for ~20,000 graph starts, and its gradient is exact."""
    a = tg.tensor(0.5, requires_grad=True)
    y = tg.tensor(0.0)
    for i in range(10000):
        y = y + (a * float(i % 7)).sin()
    tape = current_tape()
    segs, links, tp = 1, len(tape.links), tape
    while tp.links:
        tp = tp.links[0][0].tape
        segs += 1
        links += len(tp.links)
    assert 2 <= segs <= 6 and links <= 2 * segs
    y.backward()
    assert a.grad.item() == pytest.approx(sum(np.cos(0.5 * (i % 7)) * (i % 7)
                                              for i in range(10000)), rel=1e-12)


def test_no_split_while_tracing():
    """A traced tape never splits (replay needs one tape)."""
    def f(x):
        y = x.sum()
        for _ in range(3000):
            y = y + (x * 2.0).sum()
        return y
    c = tg.compile(f)
    v, g = c.value_and_grad(X)
    assert v == pytest.approx(6001.0 * X.sum())
    np.testing.assert_allclose(g, np.full(4, 6001.0))


# ---- gradients across a segment boundary, against PyTorch --------------------------------
def _both(body):
    """body(lib, x) in tapegrad (with a split before its second half: body calls
    ``split()``) and in torch; returns both results."""
    got = []
    for lib in (tg, torch):
        x = lib.tensor(X, requires_grad=True, dtype=lib.float64)
        got.append(body(lib, x, _split if lib is tg else lambda: None))
    return got


def test_first_order_across_the_boundary():
    def body(lib, x, split):
        h = (x * 1.5).sin()
        split()
        w = lib.tensor(X[::-1].copy(), requires_grad=True)
        y = (h * (w * 2.0)).sum() + (h * h).sum()
        assert lib is torch or h._tok.tape is not y._tok.tape
        y.backward()
        return x.grad.numpy().copy(), w.grad.numpy().copy()
    (gx, gw), (tx, tw) = _both(body)
    np.testing.assert_allclose(gx, tx, rtol=1e-13)
    np.testing.assert_allclose(gw, tw, rtol=1e-13)


def test_create_graph_and_second_order_across_the_boundary():
    def body(lib, x, split):
        h = (x * x).exp()
        split()
        y = ((lib.tensor(X) * 0.5 + h) ** 2).sum()
        (g,) = lib.autograd.grad(y, x, create_graph=True)
        split()
        z = (g * lib.tensor(X).cos()).sum()
        z.backward()
        return g.detach().numpy().copy(), x.grad.numpy().copy()
    (g, h2), (tg_, th2) = _both(body)
    np.testing.assert_allclose(g, tg_, rtol=1e-12)
    np.testing.assert_allclose(h2, th2, rtol=1e-12)


def test_views_and_in_place_across_the_boundary():
    def body(lib, x, split):
        h = x * 2.0
        v = h[1:3]
        split()
        v.mul_(lib.tensor([3.0, -1.0]) * 1.0)  # (into h, recorded before the split)
        y = (h * h).sum() + v.sum() + (h[::2].exp() * x[1:3]).sum()
        y.backward()
        return y.item(), x.grad.numpy().copy()
    (y, g), (ty, tgr) = _both(body)
    assert y == pytest.approx(ty, rel=1e-14)
    np.testing.assert_allclose(g, tgr, rtol=1e-13)


def test_version_counter_across_the_boundary_raises_as_torch():
    """A value saved before the split and changed in place after it: backward refuses, as
    PyTorch does, on either side of the boundary."""
    msgs = []
    for lib in (tg, torch):
        x = lib.tensor(X, requires_grad=True)
        h = x * 2.0
        y = (h * h).sum()  # saves h
        if lib is tg:
            _split()
        h.add_(lib.tensor(1.0) * 1.0)
        with pytest.raises(RuntimeError) as e:
            y.backward()
        msgs.append(str(e.value))
    assert "modified by an inplace operation" in msgs[0]


def test_hooks_across_the_boundary():
    def body(lib, x, split):
        seen = []
        h = x.sin()
        h.register_hook(lambda g: seen.append(g.numpy().copy()) or g * 2.0)
        split()
        y = (h * (lib.tensor(X) * 1.0)).sum()
        y.backward()
        return seen, x.grad.numpy().copy()
    (seen, g), (tseen, tgr) = _both(body)
    assert len(seen) == len(tseen) == 1
    np.testing.assert_allclose(seen[0], tseen[0], rtol=1e-14)
    np.testing.assert_allclose(g, tgr, rtol=1e-14)


def test_saved_tensors_hooks_across_the_boundary():
    def body(lib, x, split):
        packed, unpacked = [], []

        def pack(t):
            packed.append(1)
            return t

        def unpack(t):
            unpacked.append(1)
            return t
        with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
            h = x.exp()
            split()
            y = (h * (lib.tensor(X) * 1.0).sin()).sum()
        y.backward()
        return len(unpacked) > 0, x.grad.numpy().copy()
    (u, g), (tu, tgr) = _both(body)
    assert u and tu
    np.testing.assert_allclose(g, tgr, rtol=1e-14)


def test_a_second_backward_across_the_boundary_raises_as_torch():
    """Without retain_graph the rows on both sides are freed: PyTorch's second-time error."""
    x = tg.tensor(X, requires_grad=True)
    h = x.exp()
    _split()
    y = (h * (tg.tensor(X) * 1.0)).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


def test_graph_views_cross_the_boundary():
    """grad_fn.next_functions of an op reading a tensor of an older segment lead to that
    tensor's node, as in PyTorch (the LINK row stands for it)."""
    names = []
    for lib in (tg, torch):
        x = lib.tensor(X, requires_grad=True)
        h = x.sin()
        if lib is tg:
            _split()
        y = h * (lib.tensor(X) * 1.0)
        assert lib is torch or y._tok.tape is not h._tok.tape
        f = y.grad_fn.next_functions[0][0]
        names.append((y.grad_fn.name(), f.name(), f.next_functions[0][0].name()))
    assert names[0] == names[1]
