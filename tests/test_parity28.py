"""Parity with PyTorch, each item against it: what tests/fuzz_autograd_api.py found from
seed 70000 on (helper fuzz28)."""
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


def _v(t):
    return None if t is None else [round(x, 10) for x in t.detach().reshape(-1).tolist()]


# (seeds 70040, 70111: a non-leaf that retains grad, on a path to grad()'s or backward's
# inputs: PyTorch's engine runs its retain_grad hook with its node, needed for the inputs)
def _retained(L, call, create_graph):
    a = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = L.tensor([1.0, 1.0, 2.0], requires_grad=True)
    y = a * 2
    z = y * b
    w = a.sin()
    for t in (y, z, w):
        t.retain_grad()
    out = (z + w).sum()
    ins = {"a": [a], "b": [b], "y": [y], "yb": [y, b]}
    seen = []
    for which in ("a", "y", "b", "yb"):
        if call == "grad":
            L.autograd.grad(out, ins[which], retain_graph=True, create_graph=create_graph)
        else:
            out.backward(inputs=ins[which], retain_graph=True, create_graph=create_graph)
        seen.append([(_v(t.grad), t.grad is not None and t.grad.requires_grad)
                     for t in (y, z, w)])
    return seen


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("call", ["grad", "backward"])
def test_retained_non_leaves_on_the_needed_path_get_their_grad(torch, call, create_graph):
    assert _retained(tg, call, create_graph) == _retained(torch, call, create_graph)


def _error(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001 (compared)
        return type(e).__name__, str(e)
    return None


def _hooked_linear(L, full, calls):
    lin = L.nn.Linear(3, 3, dtype=L.float64)
    with L.no_grad():
        lin.weight.copy_(L.tensor([[1.0, -1.0, 0.5], [0.0, 2.0, 1.0], [1.5, 0.5, -2.0]]))
        lin.bias.copy_(L.tensor([0.1, -0.2, 0.3]))
    if full:
        lin.register_full_backward_hook(lambda m, gi, go: calls.append(_v(gi[0])))
    else:
        lin.register_full_backward_pre_hook(lambda m, go: calls.append(_v(go[0])))
    return lin


def _module_output(L, full, what):
    """What ``what`` does to the output of a module with full backward hooks (a view made
    inside BackwardHookFunction, in PyTorch)."""
    calls = []
    lin = _hooked_linear(L, full, calls)
    a = L.tensor([1.0, 2.0, 3.0], dtype=L.float64, requires_grad=True)
    y = lin(a)
    seen = [y.grad_fn.name(), y._is_view(), y._base is not None, y.is_leaf]

    def nograd(t):
        with L.no_grad():
            t.mul_(2.0)
    step = {"inplace": lambda: y.mul_(2.0), "view_inplace": lambda: y[1:].add_(1.0),
            "detach_": lambda: y.detach_(), "nograd": lambda: nograd(y),
            "nograd_view": lambda: nograd(y.view(-1)), "none": lambda: None}[what]
    seen.append(_error(step))
    seen.append(_error(lambda: (y * 1).sum().backward()))
    seen += [calls, _v(a.grad)]
    return seen


# (seeds 70008, 70035, 70049, 70119, 70155: the output of a module with full backward hooks
# is a view of the module's own result made inside a custom Function, in PyTorch: in-place
# ops on it (or its views) with grad mode on are refused, its use after a no_grad one too)
@pytest.mark.parametrize("what", ["inplace", "view_inplace", "detach_", "nograd",
                                  "nograd_view", "none"])
@pytest.mark.parametrize("full", [True, False])
def test_module_outputs_with_full_backward_hooks_are_custom_function_views(torch, full,
                                                                           what):
    assert _module_output(tg, full, what) == _module_output(torch, full, what)


def _as_is(L, what):
    class Ident(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2
    a = L.tensor([1.0, 2.0, 3.0], dtype=L.float64, requires_grad=True)
    y = Ident.apply(a * 1)
    seen = [y._is_view(), _error(lambda: y.add_(1.0) if what == "inplace" else None)]
    seen.append(_error(lambda: y.sum().backward()))
    return seen + [_v(a.grad)]


@pytest.mark.parametrize("what", ["inplace", "none"])
def test_an_input_returned_as_is_by_a_custom_function_is_a_view_of_it(torch, what):
    assert _as_is(tg, what) == _as_is(torch, what)


def _again(L, retain, create_graph):
    """A second backward through a non-leaf whose graph the first one freed: the new
    output's graph reaches it by a link into the freed tape, here."""
    calls = []
    a = L.tensor([1.0, -2.0, 3.0], dtype=L.float64, requires_grad=True)
    t1 = a * a
    t1.register_hook(lambda g: calls.append(_v(g)) or g * 2)
    if retain:
        t1.retain_grad()
    t1.sum().backward()
    for _ in range(2):
        f = (lambda: L.autograd.grad((t1 * 2).sum(), [a], create_graph=True)) \
            if create_graph else (lambda: t1.sum().backward())
        calls.append(_error(f))
        calls.append(_v(t1.grad) if retain else None)
    return calls


# (seeds 70162, 70356: PyTorch runs a node's tensor hooks and retain_grad before the node
# raises that the graph was freed)
@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("retain", [False, True])
def test_a_freed_nodes_tensor_hooks_run_before_it_raises(torch, retain, create_graph):
    assert _again(tg, retain, create_graph) == _again(torch, retain, create_graph)


def _unused(L, create_graph):
    calls = []
    a = L.tensor([1.0, -2.0, 3.0], dtype=L.float64, requires_grad=True)
    b = L.tensor([0.5, 1.5, -1.0], dtype=L.float64, requires_grad=True)
    b.register_hook(lambda g: calls.append(_v(g)))
    calls.append(_error(lambda: L.autograd.grad((b * 2).sum(), [a, b],
                                                create_graph=create_graph)))
    return calls


# (seed 70313: grad(create_graph=True) with an unused input before a hooked one: PyTorch
# runs the hook in its engine, then raises that the input was not used)
@pytest.mark.parametrize("create_graph", [False, True])
def test_leaf_hooks_run_before_an_unused_input_raises(torch, create_graph):
    assert _unused(tg, create_graph) == _unused(torch, create_graph)


def _hook_after_change(L, kind):
    a = L.tensor([1.0, -2.0, 3.0], dtype=L.float64, requires_grad=True)
    y = _hooked_linear(L, True, [])(a) if kind == "module" else (a * 1).unbind(0)[0]
    with L.no_grad():
        y.mul_(2.0)
    return _error(lambda: y.register_hook(lambda g: g))


# (seed 70119: register_hook reads the tensor's grad_fn in PyTorch, refused for a view made
# inside a custom Function, or a piece of unbind, changed in place since)
@pytest.mark.parametrize("kind", ["module", "unbind"])
def test_register_hook_on_a_view_changed_in_place_raises_torchs_error(torch, kind):
    theirs = _hook_after_change(torch, kind)
    assert theirs is not None
    assert _hook_after_change(tg, kind) == theirs
