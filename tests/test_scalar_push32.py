"""A 0-d leaf's first use on a tape (``ValueArena.push_float``: straight into the arena, after
the pending arrays, or behind pending scalars) and the constants beside it (read by their
rules or not, changed in place after the op), against PyTorch: values, gradients, in-place
changes between the forward and the backward, float32, every kind of flush, and replay of
the recorded tape at new inputs (issue 20: the polynomial fit)."""
import threading

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.tape import current_tape

torch = pytest.importorskip("torch")

X = np.linspace(-np.pi, np.pi, 2000)
INIT = (0.1, 0.2, -0.1, 0.05)


def _close(a, b, rtol=1e-12):
    np.testing.assert_allclose(np.asarray(a.detach()), b.detach().numpy(), rtol=rtol,
                               atol=rtol * max(1.0, float(np.abs(b.detach().numpy()).max())))


def _fit(lib, steps, n=2000):
    """The polynomial fit's loop (bench_scripts.poly_fit): each step's loss and gradients."""
    x = lib.tensor(X[:: 2000 // n])
    target = lib.tensor(np.sin(X[:: 2000 // n]))
    ps = a, b, c, d = [lib.tensor(np.float64(v), requires_grad=True) for v in INIT]
    out = []
    for _ in range(steps):
        y = a + b * x + c * x ** 2 + d * x ** 3
        loss = ((y - target) ** 2).sum()
        loss.backward()
        out.append((loss.item(), [p.grad.item() for p in ps]))
        with lib.no_grad():
            for p in ps:
                p -= 1e-6 * p.grad
                p.grad = None
    return out, [p.item() for p in ps]


@pytest.mark.parametrize("n", [2000, 4])
def test_poly_fit_steps_match_torch(n):
    (got, pg), (want, pw) = _fit(tg, 6, n), _fit(torch, 6, n)
    for (lg, gg), (lw, gw) in zip(got, want, strict=True):
        assert lg == pytest.approx(lw, rel=1e-12)
        np.testing.assert_allclose(gg, gw, rtol=1e-11)
    np.testing.assert_allclose(pg, pw, rtol=1e-12)


def _pending(state):
    """Make this thread's tape wait as ``state`` says before the op under test."""
    tape = current_tape()
    if state == "nothing":  # a new graph: the tape's first values
        return None
    w = tg.tensor(np.arange(3.0) + 0.5, requires_grad=True)
    keep = w * 2.0  # arrays wait (abuf)
    if state == "scalars":
        keep = (keep.sum() * 3.0, keep)  # scalars wait behind them (vbuf)
        assert tape.vbuf
    else:
        assert tape.abuf and not tape.vbuf
    return keep


@pytest.mark.parametrize("state", ["nothing", "arrays", "scalars"])
@pytest.mark.parametrize("grad_x", [False, True])
def test_zero_d_leaf_first_use(state, grad_x):
    """p * x + q * x ** 2 + p with 0-d leaves p, q adopted in each pending state: values and
    gradients as torch's (p is used twice: one slot for its generation)."""
    tg_keep = _pending(state)
    xs = np.linspace(-1.0, 2.0, 7)
    res = {}
    for lib in (tg, torch):
        p = lib.tensor(np.float64(0.75), requires_grad=True)
        q = lib.tensor(np.float64(-1.25), requires_grad=True)
        x = lib.tensor(xs, requires_grad=grad_x)
        y = p * x + q * x ** 2 + p
        (y * y).sum().backward()
        res[lib] = y, p.grad, q.grad, x.grad
    for a, b in zip(res[tg], res[torch], strict=True):
        if b is None:
            assert a is None
        else:
            _close(a, b)
    del tg_keep


def test_zero_d_leaf_changed_in_place_between_uses():
    """A 0-d leaf used, changed under no_grad, used again in the same graph: each use reads
    its value then (two slots), and the gradient sums both uses, as torch's."""
    _pending("arrays")
    res = {}
    for lib in (tg, torch):
        p = lib.tensor(np.float64(0.5), requires_grad=True)
        x = lib.tensor(np.linspace(0.0, 1.0, 5))
        y1 = p * x
        with lib.no_grad():
            p -= 0.25
        y = y1 + p * x ** 2
        (y * y).sum().backward()
        res[lib] = y, p.grad, p
    for a, b in zip(res[tg], res[torch], strict=True):
        _close(a, b)


def test_zero_d_leaf_read_by_a_rule_then_changed_is_refused():
    """p's value is read by x's rule (x requires grad): changed in place after the op, the
    backward raises torch's error (the version counter), as before."""
    p = tg.tensor(0.5, requires_grad=True)
    x = tg.tensor(np.arange(5.0), requires_grad=True)
    y = p * x
    with tg.no_grad():
        p -= 0.1
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def _change(lib, t, how):
    """Change constant ``t``'s values in place: recorded (grad mode on: t is rebased onto a
    new array), under no_grad or through its NumPy memory (both write t's array itself)."""
    if how == "recorded":
        t.add_(1.0)
        t.mul_(-3.0)
    elif how == "no_grad":
        with lib.no_grad():
            t.add_(1.0)
            t.mul_(-3.0)
    else:
        a = t.numpy()
        a += 1.0
        a *= -3.0


@pytest.mark.parametrize("n", [5, 2000, 5000])
@pytest.mark.parametrize("retain", [False, True])
@pytest.mark.parametrize("how", ["recorded", "no_grad", "numpy"])
def test_unread_constant_changed_after_use(n, retain, how):
    """``y - t`` does not read t (torch does not save it): t changed in place after the op
    leaves the loss and gradient as torch's.  n = 5 waits and is copied at the flush, 2,000
    is kept aside by the sweep, 5,000 was kept aside already; a retained graph's second
    backward copies every value in first."""
    xs = np.linspace(0.5, 2.0, n)
    res = {}
    for lib in (tg, torch):
        _pending("arrays") if lib is tg else None
        w = lib.tensor(np.float64(0.5), requires_grad=True)
        t = lib.tensor(np.cos(xs))
        r = w * lib.tensor(xs) - t
        _change(lib, t, how)  # (torch: t is no saved tensor, so no version error)
        loss = (r ** 2).sum()
        loss.backward(retain_graph=retain)
        g1 = w.grad.clone()
        if retain:
            loss.backward()
        res[lib] = loss, g1, w.grad, r
    for a, b in zip(res[tg], res[torch], strict=True):
        _close(a, b)


def test_unread_constant_then_read():
    """A constant first used where no rule reads it, then where one does ((y - t) * t), with
    an in-place change in between: the second use reads t's new values, as torch's."""
    xs = np.linspace(0.5, 2.0, 2000)
    res = {}
    for lib in (tg, torch):
        w = lib.tensor(np.float64(0.5), requires_grad=True)
        t = lib.tensor(np.cos(xs))
        r = w * lib.tensor(xs) - t
        t.add_(2.0)
        loss = (r * t * w).sum()
        loss.backward()
        res[lib] = loss, w.grad
    for a, b in zip(res[tg], res[torch], strict=True):
        _close(a, b)


@pytest.mark.parametrize("pdtype", ["float64", "float32"])
def test_zero_d_leaf_float32(pdtype):
    """A 0-d leaf (float64 or float32) by a float32 vector, first op of a graph and after
    float32 arrays wait: float32 results and gradients of the leaf's dtype, as torch's."""
    xs = np.linspace(-2.0, 2.0, 300).astype(np.float32)
    res = {}
    for lib in (tg, torch):
        x = lib.tensor(xs, requires_grad=True)
        p = lib.tensor(np.array(0.75, pdtype), requires_grad=True)
        q = lib.tensor(np.array(-0.5, pdtype), requires_grad=True)
        y = p * x
        z = (y * x + q * x + p).sum()
        z.backward()
        res[lib] = y, z, p.grad, q.grad, x.grad
    for a, b in zip(res[tg], res[torch], strict=True):
        assert str(a.dtype) == str(b.dtype)
        _close(a, b, 1e-5)


def test_poly_fit_replays_at_new_inputs():
    """The fit's loss traced with 0-d parameters, replayed at new parameters and points: its
    value and gradient as torch's eager ones."""
    t_np = np.sin(X[:50])

    def loss(a, b, c, d, x):
        y = a + b * x + c * x ** 2 + d * x ** 3
        return ((y - tg.tensor(t_np)) ** 2).sum()

    traced = tg.trace(loss, *[np.float64(v) for v in INIT], X[:50], argnums=(0, 1, 2, 3, 4))
    rng = np.random.default_rng(3)
    for _ in range(3):
        args = [*rng.normal(size=4), rng.normal(size=50)]
        v, g = traced.value_and_grad(*args)
        ts = [torch.tensor(a, requires_grad=True) for a in args]
        a, b, c, d, x = ts
        want = ((a + b * x + c * x ** 2 + d * x ** 3 - torch.tensor(t_np)) ** 2).sum()
        want.backward()
        assert v == pytest.approx(want.item(), rel=1e-12)
        for gi, ti in zip(g, ts, strict=True):
            np.testing.assert_allclose(gi, ti.grad.numpy(), rtol=1e-11, atol=1e-11)


@pytest.mark.parametrize("how", ["no_grad", "numpy"])
def test_read_constant_keeps_its_values_at_the_op(how):
    """A constant that b's rule reads (b * x: b's gradient is sum(gy * x)) changed in its own
    array after the op: torch refuses (its version counter), and so does tapegrad, or reads
    the new values (NumPy's write, no version); tapegrad's copy at the op keeps the values
    the forward used, so the gradient is torch's for the unchanged x."""
    xs = np.linspace(0.5, 2.0, 2000)
    b = tg.tensor(np.float64(0.5), requires_grad=True)
    x = tg.tensor(xs.copy())
    _pending("arrays")
    loss = ((b * x) ** 2).sum()
    _change(tg, x, how)
    if how == "no_grad":
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            loss.backward()
        return
    loss.backward()
    bt = torch.tensor(np.float64(0.5), requires_grad=True)
    ((bt * torch.tensor(xs)) ** 2).sum().backward()
    _close(b.grad, bt.grad)


def _in_thread(fn):
    """fn() in a new thread (a tape and arena of its own, grown from empty); its result."""
    out = {}

    def run():
        try:
            out["r"] = fn()
        except BaseException as e:  # (re-raised in the caller)
            out["e"] = e

    th = threading.Thread(target=run)
    th.start()
    th.join()
    if "e" in out:
        raise out["e"]
    return out["r"]


def _constants_program(lib, xs, big, change, retain):
    """w * x0 (a constant x0 its rule reads, copied in while arrays wait), more constants,
    then ``big`` more values (past the arena's kept capacity, or a LAZY_MIN-sized one), an
    in-place change of x0 before the backward: the loss, w's gradient and the result."""
    w = lib.tensor(np.float64(0.5), requires_grad=True)
    v = lib.tensor(xs * 0.5, requires_grad=True)
    x0, x1 = lib.tensor(xs), lib.tensor(xs[::-1].copy())
    y = (v * 2.0) * w * x0 + w * x1 * v
    if big:
        z = lib.tensor(np.linspace(1.0, 2.0, big))
        y = y + (w * z).sum()
    y = (y * w) * x1 + (v * w) * x0  # (after a flush that big's push made: more wait)
    if change:
        _change(lib, x0, change)
    loss = (y * y).sum()
    loss.backward(retain_graph=retain)
    if retain:
        loss.backward()
    return loss, w.grad, v.grad, y


@pytest.mark.parametrize("big", [0, 3000, 5000])
@pytest.mark.parametrize("change", [None, "no_grad", "numpy"])
@pytest.mark.parametrize("retain", [False, True])
def test_constants_read_by_rules_while_arrays_wait(big, change, retain):
    """Constants read by their rules, pushed while arrays wait (a copy each), keep the
    values of the op through every flush: the sweep's, a retained graph's (every value
    copied), one past the arena's kept capacity (on a new thread, whose arena kept the
    capacity of smaller graphs) and one before a LAZY_MIN-sized value; x0 changed in
    place after the op (torch: unchanged x0, as tapegrad copies at the op)."""
    xs = np.linspace(0.5, 2.0, 1500)

    def tg_run():
        for _ in range(3):  # (the arena's kept capacity: these graphs' values)
            _constants_program(tg, xs, 0, None, False)
        return _constants_program(tg, xs, big, change, retain)

    if change == "no_grad":  # (a version both count: both refuse)
        with pytest.raises(RuntimeError, match="modified by an inplace operation") as e:
            _constants_program(torch, xs, big, change, retain)
        with pytest.raises(RuntimeError, match=str(e.value).split(" Hint:")[0].replace(
                "[", r"\[").replace("]", r"\]")):
            _in_thread(tg_run)
        return
    got = _in_thread(tg_run)
    want = _constants_program(torch, xs, big, None, retain)
    for a, b in zip(got, want, strict=True):
        _close(a, b)


def test_constants_in_a_float32_graph_promoted():
    """A float32 constant copied in while float32 arrays wait, then a 0-d float64 leaf (which
    promotes the arena to float64): values and gradients as torch's."""
    xs = np.linspace(0.5, 2.0, 1500).astype(np.float32)
    res = {}
    for lib in (tg, torch):
        v = lib.tensor(xs * 0.5, requires_grad=True)
        x0 = lib.tensor(xs)
        p = lib.tensor(np.float64(0.75), requires_grad=True)
        y = (v * 2.0) * x0
        y = y * p + v
        loss = (y * y).sum()
        loss.backward()
        res[lib] = loss, y, p.grad, v.grad
    for a, b in zip(res[tg], res[torch], strict=True):
        assert str(a.dtype) == str(b.dtype)
        _close(a, b, 1e-5)
