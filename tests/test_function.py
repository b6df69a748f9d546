"""Custom ops (``tapegrad.autograd.Function``): PyTorch's API and errors, one tape row per
apply whose backward runs in Python while the rest of the sweep stays compiled.

Programs written once against a library ``L`` (tapegrad or torch) compare the two.
"""

import numpy as np
import pytest

import tapegrad as tg
import tapegrad._kernels
import tapegrad.tape
from tapegrad.ops.custom import CUSTOM, CUSTOM_OUT
from tapegrad.tape import OP_MASK, current_tape

pytestmark = pytest.mark.usefixtures("collect_cycles")


def make_log1pexp(L):
    """A numerically stable softplus, log(1 + exp(x)) = max(x, 0) + log1p(exp(-|x|)), with
    the hand-written backward grad * sigmoid(x)."""

    class Log1pexp(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.clamp(min=0) + (-x.abs()).exp().log1p()

        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return grad * x.sigmoid()

    return Log1pexp


def model_grads(L, x, y, w, b, v):
    """A Linear layer, the custom op, a second layer and an MSE loss; returns the loss and
    the gradients of the parameters."""
    lin = L.nn.Linear(3, 4).double()
    out = L.nn.Linear(4, 1).double()
    with L.no_grad():
        lin.weight.copy_(L.tensor(w))
        lin.bias.copy_(L.tensor(b))
        out.weight.copy_(L.tensor(v))
        out.bias.zero_()
    h = make_log1pexp(L).apply(lin(L.tensor(x)))
    loss = L.nn.functional.mse_loss(out(h).squeeze(1), L.tensor(y))
    loss.backward()
    grads = [p.grad for p in (lin.weight, lin.bias, out.weight)]
    return float(loss.detach()), [np.asarray(g.detach().numpy(), np.float64) for g in grads]


def _model_data():
    rng = np.random.default_rng(0)
    return (rng.normal(size=(5, 3)) * 20, rng.normal(size=5), rng.normal(size=(4, 3)),
            rng.normal(size=4), rng.normal(size=(1, 4)))


def test_log1pexp_model_matches_torch():
    torch = pytest.importorskip("torch")
    x, y, w, b, v = _model_data()
    loss, grads = model_grads(tg, x, y, w, b, v)
    loss_t, grads_t = model_grads(torch, x, y, w, b, v)
    assert loss == pytest.approx(loss_t, rel=1e-12)
    for g, gt in zip(grads, grads_t, strict=True):
        np.testing.assert_allclose(g, gt, rtol=1e-10, atol=1e-12)


def test_log1pexp_matches_finite_differences_and_is_stable():
    Log1pexp = make_log1pexp(tg)
    x = tg.tensor([-800.0, -3.0, 0.0, 2.5, 800.0], requires_grad=True)
    y = Log1pexp.apply(x)
    np.testing.assert_allclose(y.detach().numpy()[1:4], np.log1p(np.exp([-3.0, 0.0, 2.5])))
    assert y.detach().numpy()[4] == 800.0  # log(1 + exp(800)) overflows; this does not
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [0.0, 1 / (1 + np.exp(3)), 0.5,
                                                1 / (1 + np.exp(-2.5)), 1.0], atol=1e-300)
    x, y, w, b, v = _model_data()
    _, grads = model_grads(tg, x, y, w, b, v)
    h = 1e-6
    for i in range(w.size):  # central differences on the first layer's weights
        d = np.zeros(w.size)
        d[i] = h
        up = model_grads(tg, x, y, w + d.reshape(w.shape), b, v)[0]
        down = model_grads(tg, x, y, w - d.reshape(w.shape), b, v)[0]
        assert grads[0].ravel()[i] == pytest.approx((up - down) / (2 * h), rel=1e-6, abs=1e-8)


class MulAdd(tg.autograd.Function):
    """(a * b * k, a + b): two tensor inputs, a non-tensor one, two outputs."""

    @staticmethod
    def forward(ctx, a, k, b, *, shift=0.0):
        ctx.save_for_backward(a, b)
        ctx.k = k
        return a * b * k + shift, a + b

    @staticmethod
    def backward(ctx, gp, gq):
        a, b = ctx.saved_tensors
        return gp * b * ctx.k + gq, None, gp * a * ctx.k + gq


def test_several_inputs_outputs_and_non_tensor_args():
    a = tg.tensor([1.0, 2.0], requires_grad=True)
    b = tg.tensor([3.0, 4.0], requires_grad=True)
    p, q = MulAdd.apply(a, 3, b, shift=1.0)
    np.testing.assert_allclose(p.detach().numpy(), [10.0, 25.0])
    assert p.grad_fn is q.grad_fn and p.grad_fn.name() == "MulAddBackward"
    assert repr(q) == "tensor([4., 6.], grad_fn=<MulAddBackward>)"
    assert (q * 1).grad_fn.next_functions[0] == (q.grad_fn, 1)  # output 1 of the node
    (p.sum() + (q * q).sum()).backward()
    np.testing.assert_allclose(a.grad.numpy(), 3 * b.detach().numpy() + 2 * q.detach().numpy())
    np.testing.assert_allclose(b.grad.numpy(), 3 * a.detach().numpy() + 2 * q.detach().numpy())
    # only the second output used: the first one's gradient comes in as zeros
    a.grad = b.grad = None
    _, q = MulAdd.apply(a, 3, b)
    ga, gb = tg.autograd.grad(q.sum(), [a, b])
    np.testing.assert_allclose(ga.numpy(), [1.0, 1.0])
    np.testing.assert_allclose(gb.numpy(), [1.0, 1.0])


def test_one_row_per_apply_and_no_row_without_grad():
    tape = current_tape()
    a = tg.tensor(2.0, requires_grad=True)
    y = make_log1pexp(tg).apply(a)
    ops = [r[0] & OP_MASK for r in tape.arrays()[0].tolist()]
    assert ops.count(CUSTOM) == 1 and CUSTOM_OUT not in ops
    n = tape.nrows
    assert not make_log1pexp(tg).apply(tg.tensor(2.0)).requires_grad
    with tg.no_grad():
        assert not make_log1pexp(tg).apply(a).requires_grad
    assert tape.nrows == n  # forward ran under no_grad: its ops recorded nothing either
    assert y.requires_grad and not y.is_leaf


def test_needs_input_grad_and_forward_under_no_grad():
    seen = {}

    class Probe(tg.autograd.Function):
        @staticmethod
        def forward(ctx, a, k, b):
            seen["needs"] = ctx.needs_input_grad
            seen["grad_mode"] = tg.is_grad_enabled()
            return a * b

        @staticmethod
        def backward(ctx, g):
            seen["backward_needs"] = ctx.needs_input_grad
            return g, None, None

    a = tg.tensor([1.0], requires_grad=True)
    Probe.apply(a, 2, tg.tensor([3.0])).sum().backward()
    assert seen == {"needs": (True, False, False), "grad_mode": False,
                    "backward_needs": (True, False, False)}
    assert a.grad.tolist() == [1.0]  # the gradient for b (no grad) is dropped, as in PyTorch


def mark_nondiff(L, log):
    class ArgmaxScale(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            i = x.argmax()
            ctx.mark_non_differentiable(i)
            return x * 2, i

        @staticmethod
        def backward(ctx, g, gi):
            log.append(("gi", gi.tolist(), str(gi.dtype).split(".")[-1]))
            return g * 2

    x = L.tensor([1.0, 3.0, 2.0], requires_grad=True)
    y, i = ArgmaxScale.apply(x)
    log.append(("i", i.requires_grad, int(i)))
    y.sum().backward()
    log.append(("grad", x.grad.tolist()))


def materialize(L, log):
    class Two(L.autograd.Function):
        @staticmethod
        def forward(ctx, x, flag):
            ctx.set_materialize_grads(flag)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            log.append((None if g1 is None else g1.tolist(), None if g2 is None else g2.tolist()))
            return g2 * 3, None

    for flag in (True, False):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        _, b = Two.apply(x, flag)
        b.sum().backward()
        log.append(x.grad.tolist())


@pytest.mark.parametrize("program", [mark_nondiff, materialize])
def test_like_torch(program):
    torch = pytest.importorskip("torch")
    ours, theirs = [], []
    program(tg, ours)
    program(torch, theirs)
    assert ours == theirs
    assert ours  # the program did log something


def test_setup_context_style():
    class Sq(tg.autograd.Function):
        @staticmethod
        def forward(x):
            return x * x

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2 * x * g

    x = tg.tensor(3.0, requires_grad=True)
    Sq.apply(x).backward()
    assert x.grad.item() == 6.0


def _raising(backward):
    class Bad(tg.autograd.Function):
        @staticmethod
        def forward(ctx, k, x):
            return x * 2

    Bad.backward = staticmethod(backward)
    return Bad


@pytest.mark.parametrize("backward, error, message", [
    (lambda ctx, g: g, RuntimeError,
     "function BadBackward returned an incorrect number of gradients (expected 2, got 1)"),
    (lambda ctx, g: (None, tg.ones(3)), RuntimeError,
     "Function BadBackward returned an invalid gradient at index 0 - got [3] but expected "
     "shape compatible with [2]"),
    (lambda ctx, g: (g, g), RuntimeError,
     "function BadBackward returned a gradient different than None at position 1, but the "
     "corresponding forward input was not a Variable"),
    (lambda ctx, g: (None, 1.0), RuntimeError, "expected Variable or None (got float)"),
    (lambda ctx, g: (None, g, g), RuntimeError,
     "function BadBackward returned an incorrect number of gradients (expected 2, got 3)"),
])
def test_backward_errors(backward, error, message):
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = _raising(backward).apply(3, x)
    with pytest.raises(error) as e:
        y.sum().backward()
    assert message in str(e.value)


def test_trailing_none_and_broadcast_gradient_accepted():
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    _raising(lambda ctx, g: (None, g, None)).apply(3, x).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]
    x.grad = None
    _raising(lambda ctx, g: (None, tg.ones(3, 2))).apply(3, x).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]  # summed to the input's shape, as PyTorch does


def test_save_for_backward_rejects_non_tensors():
    class S(tg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(3)
            return x

    with pytest.raises(TypeError, match="save_for_backward can only save variables, but "
                                        "argument 0 is of type int"):
        S.apply(tg.tensor(1.0, requires_grad=True))


def test_saved_tensor_modified_in_place():
    Log1pexp = make_log1pexp(tg)
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    w = x * 1
    y = Log1pexp.apply(w)
    with tg.no_grad():
        w.mul_(2)
    with pytest.raises(RuntimeError, match=r"one of the variables needed for gradient "
                       r"computation has been modified by an inplace operation: "
                       r"\[torch.DoubleTensor \[2\]\], which is output 0 of Mul, is at "
                       r"version 1; expected version 0 instead"):
        y.sum().backward()
    # a saved output modified in place names the custom op
    class Exp(tg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            y, = ctx.saved_tensors
            return g * y

    y = Exp.apply(x)
    z = y * 1
    with tg.no_grad():
        y.add_(1)
    with pytest.raises(RuntimeError, match="which is output 0 of Exp, is at version 1"):
        z.sum().backward()


def test_retain_graph_and_second_backward():
    Log1pexp = make_log1pexp(tg)
    x = tg.tensor([0.5, -1.0], requires_grad=True)
    y = Log1pexp.apply(x * 2).sum()
    y.backward(retain_graph=True)
    y.backward()
    expect = 2 * 2 / (1 + np.exp(-2 * x.detach().numpy()))
    np.testing.assert_allclose(x.grad.numpy(), expect)
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()
    # the freed row dropped its saved tensors: the ctx says so too
    captured = {}

    class Keep(tg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            captured["ctx"] = ctx
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g

    Keep.apply(x).sum().backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        _ = captured["ctx"].saved_tensors


def test_exception_in_backward_propagates_and_tape_stays_usable():
    calls = []

    class Flaky(tg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 3

        @staticmethod
        def backward(ctx, g):
            calls.append(1)
            if len(calls) == 1:
                raise ValueError("boom")
            return g * 3

    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = (Flaky.apply(x.sin()) * 2).sum()
    with pytest.raises(ValueError, match="boom"):
        y.backward()
    assert x.grad is None
    y.backward()  # the failed sweep freed nothing
    np.testing.assert_allclose(x.grad.numpy(), 6 * np.cos([1.0, 2.0]))
    z = (x * x).sum()  # and the tape records on
    z.backward()
    np.testing.assert_allclose(x.grad.numpy(), 6 * np.cos([1.0, 2.0]) + 2 * np.array([1, 2]))


def test_long_graph_sweeps_compiled_between_custom_rows(monkeypatch):
    calls = []

    class Scale(tg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1.5

        @staticmethod
        def backward(ctx, g):
            calls.append(1)
            return g * 1.5

    sweeps = []
    real = tapegrad._kernels._reverse_sweep
    # one tape segment for the whole chain (its splits: tests/test_tape_memory23.py)
    monkeypatch.setitem(tapegrad.tape._FRESH, "split_at", 1 << 40)

    def counting(*args):
        sweeps.append(1)
        return real(*args)

    x = tg.tensor(0.3, requires_grad=True)
    y = x
    n_custom = 0
    for i in range(5000):
        y = y.sin() + 0.5
        if i % 1000 == 999:
            y = Scale.apply(y)
            n_custom += 1
    tape = current_tape()
    assert tape.nrows == 10000 + n_custom
    monkeypatch.setattr(tapegrad._kernels, "_reverse_sweep", counting)
    y.backward()
    assert len(calls) == n_custom == 5
    assert len(sweeps) == n_custom + 1  # one compiled stretch above each custom row, one below
    # the same chain without the custom op, scaled by hand, gives the same gradient
    g = x.grad.item()
    x.grad = None
    monkeypatch.setattr(tapegrad._kernels, "_reverse_sweep", real)
    y = x
    for i in range(5000):
        y = y.sin() + 0.5
        if i % 1000 == 999:
            y = y * 1.5
    y.backward()
    assert g == pytest.approx(x.grad.item(), rel=1e-12)


def hooks_program(L, log):
    Log1pexp = make_log1pexp(L)
    x = L.tensor([0.5, -1.0], dtype=L.float64, requires_grad=True)
    x.register_hook(lambda g: log.append(("x", g.tolist())))
    x.register_post_accumulate_grad_hook(lambda t: log.append(("x-post", t.grad.tolist())))
    y = Log1pexp.apply(x * 2)
    y.register_hook(lambda g: log.append(("y", g.tolist())) or g * 10)
    z = (y * y).sum()
    z.backward()
    log.append(("grad", np.round(x.grad.numpy(), 12).tolist()))


def test_hooks_on_custom_output_and_input():
    torch = pytest.importorskip("torch")
    ours, theirs = [], []
    hooks_program(tg, ours)
    hooks_program(torch, theirs)
    assert [e[0] for e in ours] == ["y", "x", "x-post", "grad"]
    assert [e[0] for e in ours] == [e[0] for e in theirs]
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a[1], b[1], rtol=1e-12)


def test_anomaly_mode_names_the_custom_op():
    class NanBack(tg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g * float("nan")

    x = tg.tensor([1.0], requires_grad=True)
    with pytest.warns(UserWarning):
        with tg.autograd.detect_anomaly():
            make_log1pexp(tg).apply(x).sum().backward()  # fine: no NaN
            assert x.grad.tolist() == pytest.approx([1 / (1 + np.exp(-1.0))])
            y = NanBack.apply(x * 2).sum()
            with pytest.raises(RuntimeError, match="Function 'NanBackBackward' returned nan "
                                                   "values in its 0th output."):
                y.backward()


def test_float32_inputs_keep_float32():
    seen = []

    class Twice(tg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            seen.append(g.dtype)
            return g * 2

    x = tg.tensor([1.0, 2.0], dtype=tg.float32, requires_grad=True)
    y = Twice.apply(x)
    assert y.dtype == tg.float32
    y.sum().backward()
    assert seen == [tg.float32] and x.grad.dtype == tg.float32
    assert x.grad.tolist() == [2.0, 2.0]


def test_trace_refuses_custom_function():
    Log1pexp = make_log1pexp(tg)
    with pytest.raises(RuntimeError, match="custom autograd.Function Log1pexp cannot be traced"):
        tg.trace(lambda x: Log1pexp.apply(x).sum(), np.ones(3))


def test_tape_resets_when_graph_dies():
    """Saved non-leaves are kept by slot, not by reference: the record does not keep its own
    tape alive (a training loop runs in constant memory)."""
    Log1pexp = make_log1pexp(tg)
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    tape = current_tape()
    for _ in range(3):
        y = Log1pexp.apply(x * 2)  # saves x * 2, a non-leaf
        del y
        assert tape.nrows == 0 and tape.custom == {}


def test_record_interface_for_create_graph():
    """``tape.custom[row]``: outputs, inputs, and backward(grads) under the caller's grad mode."""
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    c = tg.tensor([5.0, 6.0])
    p, q = MulAdd.apply(x, 2, c)
    tape = current_tape()
    (row, rec), = tape.custom.items()
    assert tape.arrays()[0][row, 0] & OP_MASK == CUSTOM
    assert rec.outputs == [p._slot, q._slot]
    assert rec.inputs == [s for s, t in tape.leaves if t is x] + [-1]  # x's slot (one use)
    with tg.no_grad():
        ga, gc_ = rec.backward([tg.ones(2), None])  # None: zeros (materialized)
    assert ga.tolist() == [10.0, 12.0] and gc_ is None and not ga.requires_grad
    y = make_log1pexp(tg).apply(x)
    rec = tape.custom[max(tape.custom)]
    with tg.enable_grad():  # the caller's grad mode: the gradient is itself on the tape
        gx, = rec.backward([tg.ones(2)])
    assert gx.requires_grad  # grad * sigmoid(x), x read back from the saved tensor
    (ggx,) = tg.autograd.grad(gx.sum(), [x])
    s = 1 / (1 + np.exp(-x.detach().numpy()))
    np.testing.assert_allclose(ggx.numpy(), s * (1 - s))
    assert y.requires_grad


def test_listing_and_graph_views():
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    p, q = MulAdd.apply(x * 1, 2, x)
    listing = str(current_tape())
    assert "MulAdd" in listing
    node = p.grad_fn
    assert [type(n).__name__ if n is not None else None for n, _ in node.next_functions] == \
        ["MulBackward0", "AccumulateGrad"]  # (node classes are named as PyTorch's)
    assert node.next_functions[0][0].name() == "MulBackward0"


def test_mark_dirty_on_a_view_is_refused_clearly():
    class Dirty(tg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

    base = tg.tensor([1.0, 2.0], requires_grad=True) * 1
    with pytest.raises(NotImplementedError, match="Dirty: ctx.mark_dirty on a view"):
        Dirty.apply(base[:1])  # (see test_torch_scripts17 for the supported cases)


def test_readme_example_runs_and_prints_what_it_says(capsys):
    import pathlib
    readme = (pathlib.Path(__file__).resolve().parent.parent / "README.md").read_text()
    code = readme.split("## Custom ops")[1].split("```python\n")[1].split("```")[0]
    env = {}
    exec(compile(code, "README.md", "exec"), env)
    env.clear()  # (the page's class holds env as its globals: the cycle would keep its graph)
    printed = capsys.readouterr().out.splitlines()
    expected = [line.split("# ")[1] for line in code.splitlines() if line.startswith("print(")]
    assert printed == expected


def double_backward(L, log):
    """Second derivatives through custom ops (the record's backward runs under enable_grad
    for create_graph, so its ops are recorded): one output, and two outputs."""
    Log1pexp = make_log1pexp(L)

    class MulAddL(L.autograd.Function):
        @staticmethod
        def forward(ctx, a, k, b):
            ctx.save_for_backward(a, b)
            ctx.k = k
            return a * b * k, a + b

        @staticmethod
        def backward(ctx, gp, gq):
            a, b = ctx.saved_tensors
            return gp * b * ctx.k + gq, None, gp * a * ctx.k + gq

    x = L.tensor([0.5, -1.0, 2.0], dtype=L.float64, requires_grad=True)
    b = L.tensor([2.0, 3.0, -0.5], dtype=L.float64, requires_grad=True)
    g, = L.autograd.grad(Log1pexp.apply(x * 1.5).sum(), [x], create_graph=True)
    gg, = L.autograd.grad((g * g).sum(), [x])
    log.append(gg.tolist())
    p, q = MulAddL.apply(x, 2, b)
    gx, gb = L.autograd.grad((p * q).sum(), [x, b], create_graph=True)
    log.append([t.tolist() for t in L.autograd.grad((gx * gb).sum(), [x, b])])


def test_double_backward_through_custom_ops_matches_torch():
    torch = pytest.importorskip("torch")
    ours, theirs = [], []
    double_backward(tg, ours)
    double_backward(torch, theirs)
    np.testing.assert_allclose(np.array(ours[0]), np.array(theirs[0]), rtol=1e-12)
    np.testing.assert_allclose(np.array(ours[1]), np.array(theirs[1]), rtol=1e-12)
