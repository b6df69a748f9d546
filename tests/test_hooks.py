"""Tensor hooks, retain_grad and the non-leaf .grad warning, against PyTorch.

Each program below runs once with ``L = tapegrad`` and once with ``L = torch`` and logs
what its hooks see, in order; the two logs must be equal (hook order, replacement
gradients, accumulation).  The engine tests pin that the unhooked sweep stays one compiled
call and a hooked one is a few stretches (autograd/hooks.py).
"""
import warnings

import numpy as np
import pytest

import tapegrad as tg
import tapegrad._kernels

pytestmark = pytest.mark.usefixtures("collect_cycles")


def _r(g):
    return np.round(np.asarray(g.detach().numpy() if hasattr(g, "detach") else g,
                               np.float64), 9).tolist()


def tutorial(L, log):
    a = L.tensor(2.0, requires_grad=True)
    b = L.tensor(3.0)
    c = a * b
    d = L.tensor(4.0, requires_grad=True)
    e = c * d
    for n, t in (("a", a), ("d", d), ("c", c), ("e", e)):
        t.register_hook(lambda g, n=n: log.append((n, _r(g))))
    for n, t in (("a", a), ("d", d)):
        t.register_post_accumulate_grad_hook(lambda t, n=n: log.append((n + "-post", _r(t.grad))))
    e.backward()
    log.append(("grads", _r(a.grad), _r(d.grad)))


def same_op_leaves(L, log):
    a = L.tensor(2.0, requires_grad=True)
    b = L.tensor(3.0, requires_grad=True)
    for n, t in (("a", a), ("b", b)):
        t.register_hook(lambda g, n=n: log.append(n))
    (a * b).backward()


def diamond(L, log):
    x = L.tensor(2.0, requires_grad=True)
    w = L.tensor(3.0, requires_grad=True)
    h = x * w
    u = h.sin()
    v = h.cos()
    o = u * v + x
    for n, t in (("x", x), ("w", w), ("h", h), ("u", u), ("v", v), ("o", o)):
        t.register_hook(lambda g, n=n: log.append((n, _r(g))))
    o.backward()


def arrays(L, log):
    x = L.tensor([1.0, 2.0], requires_grad=True)
    w = L.tensor([3.0, 4.0], requires_grad=True)
    y = (x * w).sum() + (x * x).sum()  # x used three times: one hook call, summed
    z = y * w.sum()
    for n, t in (("x", x), ("w", w), ("y", y), ("z", z)):
        t.register_hook(lambda g, n=n: log.append((n, _r(g))))
        if t.is_leaf:
            t.register_post_accumulate_grad_hook(lambda t, n=n: log.append((n + "-post",)))
    z.backward()


def replacement(L, log):
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.register_hook(lambda g: g * 10)  # retain_grad sees the replacement, as in PyTorch
    z = (y * y).sum()
    z.backward()
    log.append((_r(y.grad), _r(x.grad)))


def chained(L, log):
    x = L.tensor(1.0, requires_grad=True)
    y = x * 3
    y.register_hook(lambda g: g + 1)
    y.register_hook(lambda g: log.append(("second sees", _r(g))))  # None: keeps g
    y.register_hook(lambda g: g * 2)
    y.backward()
    log.append(_r(x.grad))


def leaf_replacement(L, log):
    x = L.tensor([1.0, -1.0], requires_grad=True)
    x.register_hook(lambda g: g * 5)
    (x * 3).sum().backward()
    log.append(_r(x.grad))
    (x * 3).sum().backward()  # accumulates the hooked gradient again
    log.append(_r(x.grad))


def grad_applies_hooks(L, log):
    x = L.tensor(1.0, requires_grad=True)
    x.register_hook(lambda g: g * 5)
    log.append(_r(L.autograd.grad(x * 3, x)[0]))
    y = x * 2
    y.register_hook(lambda g: g * 7)
    log.append(_r(L.autograd.grad(y * 3, x, retain_graph=True)[0]))
    log.append(_r(L.autograd.grad(y * 3, y)[0]))  # a hooked non-leaf input: hooked value


def removed(L, log):
    x = L.tensor(1.0, requires_grad=True)
    h1 = x.register_hook(lambda g: log.append("h1"))
    x.register_hook(lambda g: log.append("h2"))
    h1.remove()
    h1.remove()  # a second remove does nothing
    with x.register_hook(lambda g: log.append("h3")):
        (x * 2).backward()
    (x * 2).backward()


def hook_outlives_tensor(L, log):
    x = L.tensor(1.0, requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: log.append(("y", _r(g))))
    z = y * 3
    del y  # the hook lives with the graph, as on PyTorch's grad_fn
    z.backward()


def retain_graph_twice(L, log):
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.register_hook(lambda g: log.append(("y", _r(g))) or g * 2)
    x.register_post_accumulate_grad_hook(lambda t: log.append(("post", _r(t.grad))))
    z = y.sum()
    z.backward(retain_graph=True)
    z.backward()


def cat_inputs(L, log):
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = L.tensor([3.0], requires_grad=True)
    z = L.tensor([5.0, 6.0, 7.0], requires_grad=True)
    w = L.cat([x * 2, y, z]) * L.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    out = (w.sum() + z.sum()) * y.sum()
    for n, t in (("x", x), ("y", y), ("z", z), ("w", w)):
        t.register_hook(lambda g, n=n: log.append((n, _r(g))))
    out.backward()
    log.append(len(L.cat([x, y, z]).grad_fn.next_functions))


def inputs_only(L, log):
    a = L.tensor(2.0, requires_grad=True)
    d = L.tensor(4.0, requires_grad=True)
    a.register_hook(lambda g: log.append(("a", _r(g))))
    d.register_hook(lambda g: log.append(("d", _r(g))))
    (a * d).backward(inputs=[a])
    log.append((_r(a.grad), d.grad is None))


def unreached(L, log):
    x = L.tensor(1.0, requires_grad=True)
    y = x * 2
    side = x * 5
    side.register_hook(lambda g: log.append("side"))
    y.register_hook(lambda g: log.append(("y", _r(g))))
    y.backward()


def grad_mode_in_hooks(L, log):
    x = L.tensor(1.0, requires_grad=True)
    w = L.tensor(3.0, requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: log.append(("y", L.is_grad_enabled(), (g * w).requires_grad)))
    x.register_hook(lambda g: log.append(("x", L.is_grad_enabled())))
    x.register_post_accumulate_grad_hook(lambda t: log.append(("post", L.is_grad_enabled())))
    y.backward()
    log.append(L.is_grad_enabled())


PROGRAMS = [tutorial, same_op_leaves, diamond, arrays, replacement, chained, leaf_replacement,
            grad_applies_hooks, removed, hook_outlives_tensor, retain_graph_twice, cat_inputs,
            inputs_only, unreached, grad_mode_in_hooks]


@pytest.mark.oracle
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_hooks_match_torch(program):
    torch = pytest.importorskip("torch")
    torch.set_default_dtype(torch.float64)
    try:
        expected, got = [], []
        program(torch, expected)
        program(tg, got)
    finally:
        torch.set_default_dtype(torch.float32)
    assert got == expected


def test_tutorial_hook_order():
    """The order PyTorch shows (AccumulateGrad runs as soon as it is ready), pinned."""
    log = []
    tutorial(tg, log)
    assert [x[0] for x in log] == ["e", "d", "d-post", "c", "a", "a-post", "grads"]
    assert log[-1] == ("grads", 12.0, 6.0)


def test_errors_match_torch():
    with pytest.raises(RuntimeError, match="cannot register a hook on a tensor that doesn't "
                                           "require gradient"):
        tg.tensor(1.0).register_hook(print)
    with pytest.raises(RuntimeError, match="post accumulate grad hooks cannot be registered "
                                           "on non-leaf tensors"):
        (tg.tensor(1.0, requires_grad=True) * 2).register_post_accumulate_grad_hook(print)
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: g[:1])
    with pytest.raises(RuntimeError, match="hook '<lambda>' has changed the size of value"):
        y.sum().backward()
    z = x * 3
    z.register_hook(lambda g: "not a tensor")
    with pytest.raises(TypeError, match="returned str"):
        z.sum().backward()
    w = x * 4
    w.register_hook(lambda g: g.float())
    with pytest.raises(RuntimeError, match=r"hook '<lambda>' has changed the type of value \(was "
                                           r"torch.DoubleTensor got torch.FloatTensor\)"):
        w.sum().backward()


# -- the non-leaf .grad warning ---------------------------------------------------------

_WARNING = "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed"


def _grad_warnings(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        fn()
    return [x for x in w if _WARNING in str(x.message)]


def test_nonleaf_grad_warns_as_torch():
    x = tg.tensor(1.0, requires_grad=True)
    y = x * 2
    w = _grad_warnings(lambda: y.grad)
    assert len(w) == 1 and w[0].category is UserWarning
    assert w[0].filename == __file__  # points at the user's line, not at tapegrad
    assert "use .retain_grad() on the non-leaf Tensor" in str(w[0].message)
    y.retain_grad()
    assert _grad_warnings(lambda: y.grad) == []
    assert _grad_warnings(lambda: x.grad) == []
    assert _grad_warnings(lambda: (tg.tensor(1.0) * 2).grad) == []  # no grad: a leaf


@pytest.mark.oracle
def test_nonleaf_grad_warning_text_matches_torch():
    torch = pytest.importorskip("torch")
    x = torch.tensor(1.0, requires_grad=True)
    y = x * 2
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        y.grad  # noqa: B018
    theirs = str(w[0].message).split(" (Triggered internally")[0]
    mine = str(_grad_warnings(lambda: (tg.tensor(1.0, requires_grad=True) * 2).grad)[0].message)
    assert mine == theirs


def test_retain_grad_populates_nonleaf_grad():
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    y.retain_grad()
    assert y.retains_grad and not x.retains_grad
    (y * 3).sum().backward(retain_graph=True)
    assert y.grad.tolist() == [3.0, 3.0]
    (y * 3).sum().backward()
    assert y.grad.tolist() == [6.0, 6.0]  # accumulates, as on leaves
    x.retain_grad()  # a no-op on a leaf
    with pytest.raises(RuntimeError, match="can't retain_grad on Tensor that has "
                                           "requires_grad=False"):
        tg.tensor(1.0).retain_grad()


def test_grad_setter_checks_shape():
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    x.grad = tg.tensor([0.5, 0.5])
    assert x.grad.tolist() == [0.5, 0.5]
    x.grad = None
    with pytest.raises(RuntimeError, match="attempting to assign a gradient of size .\\[3\\]. "
                                           "to a tensor of size .\\[2\\]."):
        x.grad = tg.tensor([1.0, 2.0, 3.0])


# -- the engine: stretches between hooked rows, one call without hooks -------------------

@pytest.fixture
def sweep_calls(monkeypatch):
    """Counts calls of the compiled reverse sweep."""
    calls = []
    kernel = tapegrad._kernels._reverse_sweep

    def counting(*args):
        calls.append(args[-3:-1])
        return kernel(*args)
    monkeypatch.setattr(tapegrad._kernels, "_reverse_sweep", counting)
    return calls


def _chain(n):
    x = tg.tensor(0.5, requires_grad=True)
    ys = [x]
    for _ in range(n):
        ys.append(ys[-1].sin() * 1.01)
    return x, ys


def test_unhooked_backward_is_one_compiled_call(sweep_calls):
    x, ys = _chain(50)
    ys[-1].backward()
    assert len(sweep_calls) == 1


def test_hooked_nonleaf_splits_the_sweep_in_two(sweep_calls):
    x, ys = _chain(50)
    seen = []
    ys[20].register_hook(lambda g: seen.append(float(g)))
    ys[-1].backward()
    assert len(sweep_calls) == 2 and len(seen) == 1
    # the first stretch ends just above the row that produced ys[20]
    row = tg.autograd.graph.views(ys[20]._tok.tape).row_of[ys[20]._slot]
    assert sweep_calls[0][0] == row + 1 and sweep_calls[1] == (0, row + 1)


def test_hooked_gradients_equal_unhooked():
    """An identity hook anywhere leaves every gradient as it was."""
    def run(hook_at):
        x, ys = _chain(30)
        w = tg.tensor([0.3, -0.2, 0.9], requires_grad=True)
        out = (ys[-1] * w).exp().sum()
        if hook_at is not None:
            ys[hook_at].register_hook(lambda g: g)
            w.register_hook(lambda g: g)
        out.backward()
        return float(x.grad), w.grad.tolist()
    base = run(None)
    for k in (0, 1, 15, 30):
        assert run(k) == base


def test_hook_that_computes_its_own_gradient(torch):
    """A hook may record and differentiate a graph of its own (under enable_grad) while the
    outer backward is running, as in PyTorch: its new leaves and rows are not part of the
    outer sweep (they used to raise IndexError there)."""
    def run(L):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        h = x * 3
        inner = {}

        def hook(g):
            with L.enable_grad():
                z = L.tensor([0.5, 0.25], requires_grad=True)
                (inner["gz"],) = L.autograd.grad((z * z).sum(), [z])
            return g * 2

        h.register_hook(hook)
        (h * h).sum().backward()
        return x.grad, inner["gz"]

    (gx, gz), (tgx, tgz) = run(tg), run(torch)
    np.testing.assert_array_equal(np.asarray(gx), tgx.numpy())
    np.testing.assert_array_equal(np.asarray(gz), tgz.numpy())


def test_every_hook_handle_is_torch_utils_hooks_removable_handle():
    """A tensor's, a module's and an optimizer's hook handles are one class, PyTorch's
    ``torch.utils.hooks.RemovableHandle`` (``isinstance`` checks in user code); ids are
    distinct, and removing a module hook that takes kwargs forgets it there too."""
    H = tg.utils.hooks
    x = tg.ones(3, requires_grad=True)
    m = tg.nn.Linear(2, 2)
    opt = tg.optim.SGD(m.parameters(), lr=0.1)
    handles = [x.register_hook(lambda g: g),
               m.register_forward_hook(lambda mod, args, kwargs, out: None, with_kwargs=True),
               opt.register_step_pre_hook(lambda o, a, k: None)]
    assert all(type(h) is H.RemovableHandle for h in handles)
    assert H.RemovableHandle is tg.autograd.graph.RemovableHandle
    assert len({h.id for h in handles}) == 3
    assert m._hooks_with_kwargs == {handles[1].id}
    with handles[1]:
        pass
    assert m._hooks_with_kwargs == set() and not m._forward_hooks
    table, extra = {1: "a"}, [{}, set()]
    h = H.RemovableHandle(table, extra_dict=extra)
    table[h.id], extra[0][h.id] = "hook", "kw"
    extra[1].add(h.id)
    h.remove()
    assert table == {1: "a"} and extra == [{}, set()]
