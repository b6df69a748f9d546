"""Values kept aside (Tape.push_array ``keep=False``): a slot whose values no recorded rule
reads (linear's output, a weight whose input needs no gradient...) gets its span reserved
but not copied.  Nothing may ever read such a span unfilled: a later row that reads the
slot, an in-place change of its tensor, and every reader of ``Tape.arrays()`` but the
eager sweep (create_graph, graph views) copy the values in first."""
import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn.functional as F
from tapegrad import arena as tape_mod
from tapegrad.tape import Tape


def _poison(monkeypatch):
    """Keep every value aside, however small (LAZY_MIN 1), and fill each reserved span
    with nan as it is reserved: a read of one shows."""
    real = Tape.push_array
    monkeypatch.setattr(tape_mod, "LAZY_MIN", 1)

    def push_array(self, a, keep=True, owned=False):
        s = real(self, a, keep, owned)
        if self.lazy and s in self.lazy:
            self.flush()
            dt, n = self.dtype, np.asarray(a).size
            np.frombuffer(self.vals, dt, n, dt.itemsize * self.offs[s])[:] = np.nan
        return s

    monkeypatch.setattr(Tape, "push_array", push_array)


@pytest.fixture
def poisoned(monkeypatch):
    _poison(monkeypatch)


RNG = np.random.default_rng(3)
X, W1, B1 = RNG.standard_normal((6, 5)), RNG.standard_normal((4, 5)), RNG.standard_normal(4)
W2, B2 = RNG.standard_normal((3, 4)), RNG.standard_normal(3)
Y = np.array([0, 2, 1, 1, 0, 2])


def mlp(lib, x, w1, b1, w2, b2):
    f = lib.nn.functional
    return f.cross_entropy(f.linear(f.linear(x, w1, b1).tanh(), w2, b2), lib.tensor(Y))


def reuse(lib, x, w1, b1, w2, b2):
    h = lib.nn.functional.linear(x, w1, b1)  # kept aside, then read by mul: filled
    return (h.tanh() * h).sum() + h.exp().sigmoid().sqrt().sum()


def softmaxes(lib, x, w1, b1, w2, b2):
    z = lib.nn.functional.linear(x, w1)
    return (z.log_softmax(1) * z.softmax(1)).sum() + z.relu().sum() + z.tan().sum() * 1e-3


def matmul_add(lib, x, w1, b1, w2, b2):
    h = (x @ w1.T + b1).tanh()  # matmul's output and the broadcast bias: kept aside
    z = h @ w2.T - b2
    return (z * z / (1.5 + b2)).sum() + (z - h @ w2.T).sum()  # z is read by mul: filled


PROGRAMS = [mlp, reuse, softmaxes, matmul_add]
# which inputs require grad: all, only the parameters (x constant), only the first weight
PATTERNS = [(1, 1, 1, 1, 1), (0, 1, 1, 1, 1), (0, 1, 0, 0, 0), (1, 0, 0, 0, 0)]


def _grads(lib, fn, rg, dtype, order):
    arrays = [a.astype(dtype) for a in (X, W1, B1, W2, B2)]
    ts = [lib.tensor(a, requires_grad=bool(r)) for a, r in zip(arrays, rg, strict=True)]
    wrt = [t for t, r in zip(ts, rg, strict=True) if r]
    out = fn(lib, *ts)
    gs = lib.autograd.grad(out, wrt, create_graph=order == 2, allow_unused=True)
    if order == 2:  # d/d wrt of sum(g * g) over the gradients that exist
        pairs = [(t, g) for t, g in zip(wrt, gs, strict=True) if g is not None]
        if not pairs:
            return []
        s = sum((g * g).sum() for _, g in pairs)
        gs = lib.autograd.grad(s, wrt, allow_unused=True)
    return [None if g is None else np.asarray(g.detach().numpy(), np.float64) for g in gs]


@pytest.mark.parametrize("order", [1, 2])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("rg", PATTERNS)
@pytest.mark.parametrize("fn", PROGRAMS, ids=lambda f: f.__name__)
def test_spans_kept_aside_are_never_read(fn, rg, dtype, order, monkeypatch):
    """With every value kept aside and nan in its span, gradients and second derivatives
    are bit for bit those of a tape that copies every value in (and PyTorch's)."""
    monkeypatch.setattr(tape_mod, "LAZY_MIN", 1 << 62)
    want = _grads(tg, fn, rg, dtype, order)
    _poison(monkeypatch)
    got = _grads(tg, fn, rg, dtype, order)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert (g is None) == (w is None)
        if g is not None:
            np.testing.assert_array_equal(g, w)
    torch = pytest.importorskip("torch")
    tol = 1e-10 if dtype == np.float64 else 2e-4
    for g, w in zip(got, _grads(torch, fn, rg, dtype, order), strict=True):
        if g is not None:
            np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


def test_an_mlp_step_copies_neither_the_first_weight_nor_the_first_output():
    """In the MLP step of benchmarks/bench_mlp.py (batch 256 x 100, hidden 256, 10 classes)
    W1 (its input needs no gradient) and the first linear output (tanh reads its own) are
    kept aside; values below LAZY_MIN elements (biases, the logits) are copied."""
    rng = np.random.default_rng(0)
    x = tg.tensor(rng.standard_normal((256, 100)))
    w1, b1, w2, b2 = (tg.tensor(rng.standard_normal(s), requires_grad=True)
                      for s in ((256, 100), 256, (10, 256), 10))
    h = F.linear(x, w1, b1)
    z = F.linear(h.tanh(), w2, b2)
    kept = {id(a) for a, _ in z._tok.tape.lazy.values()}
    assert kept == {id(w1._data), id(h._data)}


@pytest.mark.parametrize("step", ["leaf", "nonleaf"])
def test_inplace_change_after_recording_keeps_the_recorded_values(step, poisoned):
    """A kept-aside value changed in place afterwards is copied in first, so whatever
    reads it later (create_graph's second derivatives here) sees the values the forward
    used.  Both changes are ones PyTorch allows: the weight is not saved when the input
    needs no gradient, and tanh saves its output, not h."""
    def run(lib):
        x = lib.tensor(X, requires_grad=step == "nonleaf")
        w = lib.tensor(W1, requires_grad=True)
        h = lib.nn.functional.linear(x, w)
        y = (h.tanh() ** 2).sum()
        wrt = x if step == "nonleaf" else w
        if step == "leaf":
            with lib.no_grad():
                w.mul_(3.0)  # an optimizer step between forward and backward
        else:
            h.add_(1.0)
        (g,) = lib.autograd.grad(y, [wrt], create_graph=True)
        (gg,) = lib.autograd.grad((g * g).sum(), [wrt])
        return g.detach().numpy(), gg.numpy()

    torch = pytest.importorskip("torch")
    for g, w in zip(run(tg), run(torch), strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


def test_forward_pictures_show_values_kept_aside(poisoned):
    """tapegrad.viz reads slot values (Tape.slot_values): a kept-aside one is copied in."""
    x = tg.tensor(X)
    w = tg.tensor(W1, requires_grad=True)
    h = F.linear(x, w)
    y = h.tanh().sum()
    assert h._slot in y._tok.tape.lazy
    text = str(tg.viz.draw(y, view="forward", names={}))
    assert "nan" not in text
    assert f"{np.asarray(h)[0, 0]:.4f}" in text


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_every_op_of_the_table_reads_no_span_kept_aside(dtype, monkeypatch, rng, draw):
    """Each op of the table, its inputs differentiated all together and one at a time,
    composed with a consumer that reads its input (exp) and one that does not (tanh):
    with every value kept aside and its span poisoned, the gradients are unchanged."""
    from tapegrad.ops import SPECS

    cases = [(spec, draw(spec, shape, rng, dtype)) for spec in SPECS for shape in spec.shapes]

    def grads():
        got = []
        for spec, xs in cases:
            for only in [None, *range(len(xs))] if len(xs) > 1 else [None]:
                ts = [tg.tensor(x, requires_grad=only in (None, i)) for i, x in enumerate(xs)]
                out = spec.fn(*ts)
                if not out.requires_grad or out.dtype.kind != "f":
                    continue
                loss = (out.tanh() + (out * 1e-3).exp()).sum()
                wrt = [t for t in ts if t.requires_grad]
                gs = tg.autograd.grad(loss, wrt, allow_unused=True)
                got.append((spec.name, only, [None if g is None else np.asarray(g) for g in gs]))
        return got

    want = grads()
    _poison(monkeypatch)
    got = grads()
    assert len(got) == len(want) > 100
    for (name, only, a), (_, _, b) in zip(want, got, strict=True):
        for x, y in zip(a, b, strict=True):
            assert (x is None) == (y is None), (name, only)
            if x is not None:
                np.testing.assert_array_equal(x, y, err_msg=f"{name}, input {only} alone")


# ---- a unary row reading its input alone, kept aside (ValueArena.needed's ``alone``) ---------
UNARY = {"square": lambda d: d ** 2, "cube": lambda d: d ** 3, "sin": lambda d: d.sin(),
         "log": lambda d: (d * d + 1.0).log(), "pow": lambda d: (d * d + 1.0) ** 1.5}


def _kmeans(lib, pts, cen, unary, dim, op):
    p, c = lib.tensor(pts), lib.tensor(cen, requires_grad=True)
    d = p[:, None, :] - c[None, :, :]
    d2 = UNARY[unary](d).sum(-1)
    r = getattr(d2, op)(dim=dim)
    return c, d, (r if op.startswith("a") else r.values).sum()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("unary", UNARY)
@pytest.mark.parametrize("dim, op", [(0, "min"), (1, "min"), (1, "max"), (0, "amax")])
def test_a_unary_row_reads_its_input_where_it_is_kept(unary, dim, op, dtype, monkeypatch):
    """k-means' differences d (an op's result, kept aside: its row reads no value) squared
    (cubed, sin, ...): the square's row reads d where it is kept (Tape.ext), no copy into
    the arena.  With every span kept aside poisoned with nan, the loss and gradients are
    bit for bit those of a tape that copies every value in, at a second backward
    (retain_graph) too, and PyTorch's; ties included (repeated, rounded centroids)."""
    rng = np.random.default_rng(4)
    pts, cen = np.round(rng.standard_normal((40, 3)), 1), np.round(rng.standard_normal((9, 3)), 1)
    cen[5:] = cen[:4]
    pts, cen = pts.astype(dtype), cen.astype(dtype)

    def run(lib):
        c, d, loss = _kmeans(lib, pts, cen, unary, dim, op)
        if lib is tg:
            tape = loss._tok.tape
            read_aside = bool(tape.ext) and d._slot in tape.ext.values()
            assert read_aside == (tape_mod.LAZY_MIN == 1 and unary not in ("log", "pow"))
        loss.backward(retain_graph=True)
        g1 = c.grad.numpy().copy()
        c.grad = None
        loss.backward()
        return loss.item(), g1, c.grad.numpy()

    monkeypatch.setattr(tape_mod, "LAZY_MIN", 1 << 62)
    want = run(tg)
    _poison(monkeypatch)
    got = run(tg)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)
    torch = pytest.importorskip("torch")
    tol = 1e-10 if dtype == np.float64 else 2e-4
    for g, w in zip(got, run(torch), strict=True):
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


def _outcome(fn):
    try:
        return fn()
    except RuntimeError as e:
        return str(e)


@pytest.mark.parametrize("change", ["numpy", "detach_", "put", "add_", "anomaly",
                                    "create_graph", "saved hooks"])
def test_values_read_where_kept_are_those_the_op_made(change, monkeypatch):
    """Whatever happens to d after its square recorded it (its memory handed out and
    written, an in-place change, anomaly mode's checked sweep, second derivatives, saved
    tensor hooks), the outcome (gradients, or PyTorch's in-place error) is the one of a
    tape that copied d in when the square read it: values kept aside are copied in before
    their memory is handed out (tensor._settled) or another reader needs them."""
    rng = np.random.default_rng(5)
    pts, cen = rng.standard_normal((30, 4)), rng.standard_normal((6, 4))

    def run():
        c, d, loss = _kmeans(tg, pts, cen, "square", 1, "min")
        if change == "numpy":
            np.asarray(d.detach())[...] = 7.0
        elif change == "detach_":
            d.detach_()
        elif change == "put":
            d[0] = 3.0
        elif change == "add_":
            d.add_(1.0)
        if change == "anomaly":
            with tg.autograd.detect_anomaly():
                loss.backward()
            return c.grad.numpy()
        if change == "create_graph":
            (g,) = tg.autograd.grad(loss, [c], create_graph=True)
            return np.concatenate([g.detach().numpy(), tg.autograd.grad((g * g).sum(), [c])[0]
                                   .numpy()])
        if change == "saved hooks":
            with tg.autograd.graph.saved_tensors_hooks(lambda t: t * 1.0, lambda t: t):
                c2, _, loss2 = _kmeans(tg, pts, cen, "square", 1, "min")
            loss2.backward()
            return c2.grad.numpy()
        loss.backward()
        return c.grad.numpy()

    monkeypatch.setattr(tape_mod, "LAZY_MIN", 1 << 62)
    want = _outcome(run)
    monkeypatch.setattr(tape_mod, "LAZY_MIN", 1)  # (every value kept aside, d's square
    got = _outcome(run)  # reading d where it is)
    if isinstance(want, str):
        assert got == want
    else:
        np.testing.assert_array_equal(got, want)


def test_an_entry_whose_row_was_cut_off_reads_the_arena(monkeypatch):
    """needed(alone=True) notes the row recorded next; if that row never came (an error or
    an interrupt between the two), the row that takes its index (exp here, which reads its
    output, not d) must not run over d's kept array: the sweep checks the row and copies d
    in instead, and the gradients are those of a tape that copied every value in."""
    rng = np.random.default_rng(6)
    pts, cen = rng.standard_normal((20, 3)), rng.standard_normal((5, 3))

    def run(cut):
        p, c = tg.tensor(pts), tg.tensor(cen, requires_grad=True)
        d = p[:, None, :] - c[None, :, :]
        tape = d._tok.tape
        if cut:
            tape.needed(d._slot, True)
            assert tape.ext and d._slot in tape.ext.values()
        (d.exp().sum() + (d * 0.1).exp().sum()).backward()
        return c.grad.numpy()

    monkeypatch.setattr(tape_mod, "LAZY_MIN", 1 << 62)
    want = run(False)
    _poison(monkeypatch)
    np.testing.assert_array_equal(run(True), want)
