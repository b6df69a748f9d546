"""Replay against eager where tests/fuzz_replay_api23.py and its probes found them apart.
Silently wrong before: a Module that f calls, ``MOD(x)``, whose parameter is rebound while
the old one lives on (in an optimizer), whose library forward reads a setting changed
between calls (LeakyReLU's slope), or that gains or loses a forward hook; an f that reseeds
a global generator and draws.  Wrong answers where eager answers: the compiled call with
tensors raising where f writes an argument in place or runs Python in its backward (a
custom Function, a hook) instead of running f eagerly.  A value made under inference_mode
and saved for backward: eager raises, replay answered (semantics22's xfail)."""
import os

import numpy as np
import pytest

import tapegrad as tg
import fuzz_replay_api23 as fuzz

torch = pytest.importorskip("torch")

X = np.array([3.0, -4.0, 0.5, 1.0])


class Scale(tg.nn.Module):
    def __init__(self):
        super().__init__()
        self.p = tg.nn.Parameter(tg.full((4,), 0.5))
        self.q = tg.nn.Parameter(tg.tensor(1.5))

    def forward(self, v):
        return v * self.p + self.q


def _torch_scale(x, p, q):
    x = torch.tensor(x, requires_grad=True)
    y = (x * torch.tensor(p) + torch.tensor(q)).sum()
    y.backward()
    return y.item(), x.grad.numpy()


@pytest.mark.parametrize("rebind", ["p", "q"])
def test_module_f_calls_with_a_parameter_rebound_retraces(rebind):
    """f calls MOD(x) and never names MOD.p: rebinding MOD.p (or MOD.q) to a new Parameter
    while the old one lives on in an optimizer's list must trace again (replay answered with
    the old parameter's values, silently), in every call path."""
    mod = Scale()
    opt = tg.optim.SGD(mod.parameters(), lr=0.1)  # (holds the old parameters)

    def f(x):
        return mod(x).sum()
    c = tg.compile(f)
    t = tg.trace(f, X)
    c.value_and_grad(X)
    new = tg.nn.Parameter(tg.full((4,), -2.0) if rebind == "p" else tg.tensor(-3.0))
    setattr(mod, rebind, new)
    want = _torch_scale(X, mod.p.detach().numpy(), mod.q.detach().numpy())
    v, g = c.value_and_grad(X)
    assert v == want[0]
    np.testing.assert_array_equal(g, want[1])
    V, G = c.value_and_grad_batch(np.stack([X, X]))
    np.testing.assert_array_equal(V, [want[0]] * 2)
    np.testing.assert_array_equal(G, [want[1]] * 2)
    with pytest.raises(RuntimeError, match="one has changed since"):
        t.value_and_grad(X)
    assert opt.param_groups[0]["params"][0] is not mod.p or rebind == "q"


def test_library_module_setting_and_weight_changed_between_calls():
    """A library Module f calls: its forward (tapegrad's code, never looked into) reads a
    setting (LeakyReLU's negative_slope) and a parameter (Linear's weight rebound while the
    optimizer holds the old one); both changes must trace again, as eagerly."""
    lin = tg.nn.Linear(4, 2)
    act = tg.nn.LeakyReLU(0.1)
    opt = tg.optim.SGD(lin.parameters(), lr=0.1)
    c = tg.compile(lambda x: act(lin(x)).sum())
    c.value_and_grad(X)
    for change in ("slope", "weight"):
        if change == "slope":
            act.negative_slope = 0.5
        else:
            lin.weight = tg.nn.Parameter(tg.tensor([[1.0, -2.0, 0.5, 0.0], [-1.0, 1.0, 1.0, 2.0]]))
        x = tg.tensor(X, requires_grad=True)
        y = act(lin(x)).sum()
        y.backward()
        v, g = c.value_and_grad(X)
        np.testing.assert_allclose(v, y.item(), rtol=1e-12, err_msg=change)  # (BLAS order)
        np.testing.assert_allclose(g, x.grad.numpy(), rtol=1e-12, err_msg=change)
    assert len(opt.param_groups[0]["params"]) == 2


@pytest.mark.parametrize("shape", [(4,), ()])
@pytest.mark.parametrize("mode", ["grad", "no_grad"])
def test_compiled_call_writing_an_argument_in_place_runs_f_eagerly(mode, shape):
    """f writes its second argument in place (w.add_, under no_grad or not), called with a
    w that does not require grad (or, under no_grad, one that does): eagerly f writes the
    caller's w and answers; the compiled call raised "a leaf Variable that requires grad is
    being used in an in-place operation" (its trace takes every argument as a leaf that
    requires grad).  It now runs f eagerly, as torch.compile breaks its graph: the same
    value, gradient and write.  A 0-d w (the scalar in-place path) too."""
    def f(x, w):
        if mode == "grad":
            w.add_(1.0)
        else:
            with tg.no_grad():
                w.add_(1.0)
        return (x * w).sum()

    def run(fn):
        x = tg.tensor(X[:shape[0]] if shape else X[0], requires_grad=True)
        w = tg.tensor(x.detach().numpy() * 2.0, requires_grad=mode == "no_grad")
        y = fn(x, w)
        return y.item(), tg.autograd.grad(y, x)[0].numpy(), w.detach().numpy()
    c = tg.compile(f)
    want = run(f)
    for _ in range(2):
        got = run(c)
        assert got[0] == want[0]
        np.testing.assert_array_equal(got[1], want[1])
        np.testing.assert_array_equal(got[2], want[2])
    with pytest.raises(RuntimeError, match="in-place operation|no_grad on a leaf"):
        c.value_and_grad(X[0], X[0]) if not shape else c.value_and_grad(X, X)  # (refused
        # at arrays, as eagerly where grad mode is on)


@pytest.mark.parametrize("hook", ["forward", "forward_pre"])
def test_module_hook_registered_or_removed_after_the_trace_retraces(hook):
    """A forward (pre-)hook registered on a Module f calls after the trace, then removed:
    eagerly each changes f's value; replay went on without it, silently."""
    lin = tg.nn.Linear(4, 2)
    c = tg.compile(lambda x: lin(x).sum())

    def want():
        x = tg.tensor(X, requires_grad=True)
        y = lin(x).sum()
        y.backward()
        return y.item(), x.grad.numpy()
    c.value_and_grad(X)
    h = lin.register_forward_hook(lambda m, i, o: o * 2.0) if hook == "forward" else \
        lin.register_forward_pre_hook(lambda m, i: (i[0] * 3.0,))
    for _ in range(2):
        v, g = c.value_and_grad(X)
        wv, wg = want()
        np.testing.assert_allclose(v, wv, rtol=1e-12)
        np.testing.assert_allclose(g, wg, rtol=1e-12)
        h.remove()


@pytest.mark.parametrize("gen", ["tapegrad", "numpy"])
def test_f_that_reseeds_then_draws_is_refused_at_every_trace(gen):
    """f reseeds a global generator and draws (``tg.manual_seed(5)`` then dropout): after one
    eager call the generator stands where f leaves it, so a trace then saw no draw (the state
    after equal to the state before) and replay froze that call's draws, silently (eager
    draws from the caller's state at the top of f).  Every trace now refuses it; the
    compiled call with tensors runs f eagerly, drawing as f does; the caller's generator
    state is as a trace found it."""
    def f(x):
        if gen == "tapegrad":
            v = x * tg.rand_like(x)
            tg.manual_seed(5)
            return (v + tg.nn.functional.dropout(x, 0.5)).sum()
        v = x * float(np.random.rand())
        np.random.seed(5)
        return (v * float(np.random.rand())).sum()
    f(tg.tensor(X))  # the generator now stands where f leaves it
    c = tg.compile(f)
    with pytest.raises(RuntimeError, match="f drew random numbers"):
        c.value_and_grad(X)
    with pytest.raises(RuntimeError, match="f drew random numbers"):
        tg.trace(f, X)
    tg.manual_seed(3)
    np.random.seed(3)
    want = f(tg.tensor(X, requires_grad=True)).item()
    tg.manual_seed(3)
    np.random.seed(3)
    assert c(tg.tensor(X, requires_grad=True)).item() == want


def test_a_trace_leaves_the_callers_generators_as_they_were():
    """A trace sets fresh generator states while f runs (to see any draw) and puts the
    caller's back: the draws after it are those without it."""
    tg.manual_seed(1)
    np.random.seed(1)
    want = (tg.rand(3).numpy(), np.random.rand(3))
    tg.manual_seed(1)
    np.random.seed(1)
    tg.compile(lambda x: (x * x).sum()).value_and_grad(X)
    np.testing.assert_array_equal(tg.rand(3).numpy(), want[0])
    np.testing.assert_array_equal(np.random.rand(3), want[1])


def _inf(x):
    with tg.inference_mode():
        return x * 2.0


INFERENCE = {  # f, and whether eagerly an op saves the inference tensor for backward
    "saved by mul": (lambda x: (_inf(x) * x).sum(), True),
    "saved by div": (lambda x: (x / (_inf(x).abs() + 1.0)).sum(), False),
    "cloned first": (lambda x: (_inf(x).clone() * x).sum(), False),
    "added": (lambda x: (_inf(x) + x).sum(), False),
    "squared alone": (lambda x: (_inf(x) * _inf(x) + x).sum(), False),
    "saved by pow": (lambda x: (x.abs() ** _inf(x)).sum(), True),
    "under no_grad": (lambda x: (x * tg.no_grad()(lambda: _inf(x) * x)()).sum(), False),
}


@pytest.mark.parametrize("case", sorted(INFERENCE))
def test_inference_tensor_saved_for_backward_as_eagerly(case):
    """A value f makes under inference_mode: where an op outside it saves the value for its
    backward (an operand requiring grad records it), eager raises PyTorch's "Inference
    tensors cannot be saved for backward", and so does replay now (it answered); where no op
    saves it (a clone, an add, an op of inference tensors alone, no_grad), replay answers as
    eagerly.  Called with tensors that do not require grad, f runs eagerly (no op records:
    its value)."""
    f, raises = INFERENCE[case]
    c = tg.compile(f)
    x = tg.tensor(X, requires_grad=True)
    if raises:
        with pytest.raises(RuntimeError, match="Inference tensors cannot be saved"):
            f(x)
        with pytest.raises(RuntimeError, match="Inference tensors cannot be saved"):
            c.value_and_grad(X)
        with pytest.raises(RuntimeError, match="Inference tensors cannot be saved"):
            c(tg.tensor(X, requires_grad=True))
        assert c(tg.tensor(X)).item() == f(tg.tensor(X)).item()
        return
    y = f(x)
    y.backward()
    v, g = c.value_and_grad(X)
    assert v == y.item()
    np.testing.assert_array_equal(g, x.grad.numpy())


class _Cube(tg.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a
    @staticmethod
    def backward(ctx, g):  # (not a*a's gradient: the call must run this backward)
        a, = ctx.saved_tensors
        return 3.0 * a * g


def _tensor_hook(x):
    y = x * 1.0
    y.register_hook(lambda g: g * 5.0)
    return (y * y).sum()


_LIN = tg.nn.Linear(4, 1)
_LIN.register_full_backward_hook(lambda m, gi, go: (gi[0] * 2.0,))
PYTHON_BACKWARD = {"custom Function": lambda x: _Cube.apply(x).sum(),
                   "register_hook": _tensor_hook,
                   "Module backward hook": lambda x: _LIN(x).sum()}


@pytest.mark.parametrize("case", sorted(PYTHON_BACKWARD))
def test_compiled_call_with_python_in_backward_runs_f_eagerly(case):
    """f runs Python in its backward (a custom Function, a tensor hook, a Module's full
    backward hook): tracing refuses it, and the compiled call with tensors raised that
    refusal where docs/replay.md says it runs f eagerly (torch.compile's graph break).  It
    now does: eager's value and gradient; value_and_grad at arrays still refuses."""
    f = PYTHON_BACKWARD[case]
    c = tg.compile(f)
    got = []
    for fn in (f, c, c):
        x = tg.tensor(X, requires_grad=True)
        y = fn(x)
        y.backward()
        got.append((y.item(), x.grad.numpy()))
    for v, g in got[1:]:
        assert v == got[0][0]
        np.testing.assert_array_equal(g, got[0][1])
    with pytest.raises(RuntimeError, match="tapegrad.trace:"):
        c.value_and_grad(X)


def test_fuzz_replay_api23_programs():
    """The stop-gradient and state fuzz: TAPEGRAD_FUZZ23=N runs N programs (default 30)."""
    n = int(os.environ.get("TAPEGRAD_FUZZ23", "30"))
    stats, failures = fuzz.run(0, n, out=lambda s: None)
    assert not failures, failures[0]
    assert stats["ok"] >= n // 4, stats  # (most programs replay: the fuzz tests something)


@pytest.mark.parametrize("how", ["grad = None", "zero_grad"])
def test_f_reading_a_grad_rebound_by_backward_retraces(how):
    """f reads ``w.grad`` of a tensor from outside; ``w.grad = None`` (or an optimizer's
    zero_grad) and a backward bind a new tensor there while the old one lives on: replay
    went on with the old gradient, silently.  An accumulation in place was seen already."""
    w = tg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (w * w).sum().backward()
    opt = tg.optim.SGD([w], lr=0.1)

    def f(x):
        return (x * w.grad).sum()
    c = tg.compile(f)
    assert c(X[:3]) == f(tg.tensor(X[:3])).item()
    (w * w).sum().backward()  # (in place: 2 w + 2 w)
    assert c(X[:3]) == f(tg.tensor(X[:3])).item()
    keep = w.grad
    if how == "zero_grad":
        opt.zero_grad()
    else:
        w.grad = None
    (w * 3.0).sum().backward()
    assert w.grad is not keep
    assert c(X[:3]) == f(tg.tensor(X[:3])).item() == 3.0 * X[:3].sum()
