"""A backward given ``inputs`` (``autograd.grad``, ``backward(inputs=)``) runs only the
nodes on a path to them, as PyTorch's engine (its "needed" nodes, autograd/span.py
``needed_slots``): off those paths no custom Function's backward or hook runs, a
non-differentiable op does not raise, and nothing is freed, so a second backward for other
inputs runs without retain_graph.  Each program runs on torch and on tapegrad and must give
the same record (found by tests/fuzz_autograd_api.py with its wider kinds, seed 50084)."""
import warnings

import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


def _v(t):
    return None if t is None else np.asarray(t.detach(), np.float64).round(5).tolist()


def _try(log, fn):
    try:
        out = fn()
        log.append([_v(g) for g in out] if isinstance(out, tuple) else _v(out))
    except RuntimeError as e:
        log.append(str(e).split("\n")[0])


def _logged(L, log):
    class F(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            log.append("F.backward")
            return g * 2
    return F


def _leaves(L):
    return (L.tensor([1.0, -2.0, 3.0], requires_grad=True),
            L.tensor([0.5, 1.0, 2.0], requires_grad=True))


def _custom_off_path(L):
    log = []
    a, b = _leaves(L)
    loss = (a * a).sum() + _logged(L, log).apply(b * 3).sum()
    _try(log, lambda: L.autograd.grad(loss, [a], retain_graph=True))
    _try(log, lambda: loss.backward(inputs=[a], retain_graph=True) or a.grad)
    _try(log, lambda: L.autograd.grad(loss, [b]))  # (on its path now)
    return log


def _custom_off_path_create_graph(L):
    log = []
    a, b = _leaves(L)
    loss = (a * a).sum() + _logged(L, log).apply(b * 3).sum()
    _try(log, lambda: L.autograd.grad(loss, [a], create_graph=True))
    _try(log, lambda: L.autograd.grad(loss, [b], create_graph=True))
    return log


def _not_implemented_off_path(L):
    log = []
    a, b = _leaves(L)
    q = b // 2  # (floor_divide: no derivative, PyTorch's NotImplemented node)
    loss = q.sum() + (a * 2).sum()
    _try(log, lambda: L.autograd.grad(loss, [a], retain_graph=True))
    _try(log, lambda: loss.backward(inputs=[a], retain_graph=True) or a.grad)
    _try(log, lambda: L.autograd.grad(loss, [b], retain_graph=True))
    _try(log, lambda: loss.backward(retain_graph=True))
    return log


def _disjoint_inputs_without_retain_graph(L):
    log = []
    a, b = _leaves(L)
    loss = (a * a).sum() + (b.exp() * b).sum()
    _try(log, lambda: L.autograd.grad(loss, [a]))
    _try(log, lambda: L.autograd.grad(loss, [b]))  # (b's rows did not run: not freed)
    _try(log, lambda: L.autograd.grad(loss, [a]))  # (a's did: PyTorch's second-time error)
    loss = (a * a).sum() + (b.exp() * b).sum()
    _try(log, lambda: loss.backward(inputs=[a]) or a.grad)
    _try(log, lambda: loss.backward(inputs=[b]) or b.grad)
    return log


def _custom_saved_not_freed(L):
    log = []
    a, b = _leaves(L)
    loss = (a * 3).sum() + _logged(L, log).apply(b.sin()).sum()
    _try(log, lambda: L.autograd.grad(loss, [a]))
    _try(log, lambda: L.autograd.grad(loss, [b]))
    return log


def _tensor_hooks(L):
    log = []
    a, b = _leaves(L)
    ha, hb = a * 2, b * 3
    hb.register_hook(lambda g: log.append(("hb", _v(g))))
    ha.register_hook(lambda g: log.append(("ha", _v(g))))
    loss = (ha * ha).sum() + hb.sum()
    _try(log, lambda: L.autograd.grad(loss, [a], retain_graph=True))
    _try(log, lambda: L.autograd.grad(loss, [hb], retain_graph=True))  # (captured: runs)
    _try(log, lambda: L.autograd.grad(loss, [hb], retain_graph=True, create_graph=True))
    _try(log, lambda: L.autograd.grad(loss, [a], create_graph=True))
    return log


def _node_hooks(L):
    log = []
    a, b = _leaves(L)
    h = b * 3
    h.grad_fn.register_hook(lambda gi, go: log.append("node hook"))
    h.grad_fn.register_prehook(lambda go: log.append("node prehook"))
    loss = (a * 2).sum() + h.sum()
    _try(log, lambda: L.autograd.grad(loss, [a], retain_graph=True))
    _try(log, lambda: L.autograd.grad(loss, [b]))
    return log


def _through_an_older_tape(L):
    # y is recorded before a backward that starts a new tape here: the custom row reads y
    # through a LINK row, which counts as needed (so F runs for grad(z, [b]) too here,
    # where PyTorch's does not: docs/limits.md)
    log = []
    a, b = _leaves(L)
    y = a * 2
    (a * 3).sum().backward()
    z = _logged(L, log).apply(y).sum() + (b * y).sum()
    _try(log, lambda: L.autograd.grad(z, [a], retain_graph=True))
    return log


def _non_leaf_input(L):
    log = []
    a, b = _leaves(L)
    h = a * b
    loss = (h * h).sum() + _logged(L, log).apply(a).sum()
    _try(log, lambda: L.autograd.grad(loss, [h]))  # (h's own node not needed: not freed)
    _try(log, lambda: L.autograd.grad(loss, [b]))
    return log


PROGRAMS = [_custom_off_path, _custom_off_path_create_graph, _not_implemented_off_path,
            _disjoint_inputs_without_retain_graph, _custom_saved_not_freed, _tensor_hooks,
            _node_hooks, _through_an_older_tape, _non_leaf_input]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda f: f.__name__.strip("_"))
def test_only_the_nodes_needed_run_as_pytorch(program, torch):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = program(torch)
        ours = program(tg)
    assert ours == theirs


def test_gradients_unchanged_by_the_pruning():
    # many inputs, a long chain beside them: the gradients are finite differences'
    rng = np.random.default_rng(0)
    xs = [tg.tensor(rng.normal(size=3), requires_grad=True) for _ in range(4)]
    loss = sum(((x * (i + 1)).sin() * x).sum() for i, x in enumerate(xs))
    gs = tg.autograd.grad(loss, xs[1:3])

    def f(i, v):
        return float(np.sum(np.sin(v * (i + 1)) * v))
    for i, g in zip((1, 2), gs, strict=True):
        x, eps = np.asarray(xs[i].detach()), 1e-6
        fd = [(f(i, x + eps * e) - f(i, x - eps * e)) / (2 * eps) for e in np.eye(3)]
        np.testing.assert_allclose(np.asarray(g), fd, rtol=1e-6)
