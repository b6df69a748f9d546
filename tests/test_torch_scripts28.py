"""Differences from PyTorch found by the scripts s963 onward (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch."""
import importlib

import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- global full backward (pre-)hooks: every module's, before the module's own ----------
def test_global_full_backward_hooks_as_pytorch(torch_float64):
    def run(L):
        mod = importlib.import_module(f"{L.__name__}.nn.modules.module")
        net = L.nn.Sequential(L.nn.Linear(2, 3), L.nn.Tanh(), L.nn.Linear(3, 1))
        for p in net.parameters():
            L.nn.init.constant_(p, 0.5)
        log = []
        net[1].register_full_backward_hook(lambda m, gi, go: log.append(("own", gi[0].tolist())))
        handles = [
            mod.register_module_full_backward_pre_hook(
                lambda m, go: log.append(("pre", type(m).__name__, go[0].tolist()))),
            mod.register_module_full_backward_hook(
                lambda m, gi, go: (log.append(("bwd", type(m).__name__, gi[0].tolist())),
                                   (gi[0] * 2,) if isinstance(m, L.nn.Tanh) else None)[1])]
        x = L.tensor([[1.0, -2.0]], requires_grad=True)
        net(x).sum().backward()
        for h in handles:
            h.remove()
        grad = x.grad.tolist()
        x.grad = None
        net(x).sum().backward()
        return log, grad, x.grad.tolist()
    (log, g, g2), (tlog, tg_, tg2) = run(tg), run(torch_float64)
    assert [e[:2] for e in log] == [e[:2] for e in tlog]
    for e, te in zip(log, tlog, strict=True):
        np.testing.assert_allclose(e[-1], te[-1], rtol=1e-12)
    np.testing.assert_allclose(g, tg_, rtol=1e-12)
    np.testing.assert_allclose(g2, tg2, rtol=1e-12)


# ---- clamp: a number and a Tensor bound together is PyTorch's TypeError ----------------
@pytest.mark.parametrize("call", [
    lambda L: L.clamp(L.tensor([1.0, 2.0]), min=0.5, max=L.tensor([1.0, 1.5])),
    lambda L: L.clamp(L.tensor([1.0, 2.0]), min=L.tensor([1.0, 1.5]), max=3),
    lambda L: L.clamp(L.tensor([1.0, 2.0]), min=L.tensor(0.5, requires_grad=True), max=3.0)])
def test_clamp_number_and_tensor_bounds_refused(call, raises_as_torch):
    raises_as_torch(call, prefix=True)


@pytest.mark.parametrize("lo, hi", [("t0", 2.5), (0.5, "t0"), ("t0i", 3)])
def test_clamp_zero_dim_tensor_bound_passes_for_a_number(lo, hi, torch_float64):
    def run(L):
        b = {"t0": L.tensor(1.0), "t0i": L.tensor(2)}
        x = L.tensor([-2.0, 0.5, 3.0], requires_grad=True)
        y = L.clamp(x, min=b.get(lo, lo), max=b.get(hi, hi))
        y.sum().backward()
        return y.tolist(), y.grad_fn.name(), x.grad.tolist()
    assert run(tg) == run(torch_float64)


# ---- tensor() of ragged lists of arrays: PyTorch's length error, arrays read as sequences -
@pytest.mark.filterwarnings("ignore:Creating a tensor from a list of numpy")
@pytest.mark.parametrize("data", [
    lambda: [np.ones(2), np.ones(3)], lambda: [np.ones((2, 2)), np.ones((2, 3))],
    lambda: [np.ones(2), [1.0, 2.0, 3.0]], lambda: [[1.0, 2.0], np.ones(3)]])
def test_tensor_of_ragged_arrays_refused_as_pytorch(data, raises_as_torch):
    raises_as_torch(lambda L: L.tensor(data()))


# ---- an input listed twice gets its gradient once (grad's results, backward's .grad) ----
@pytest.mark.parametrize("how", ["grad", "grad_nonleaf", "backward", "backward_nonleaf",
                                 "grad_hooked"])
def test_input_listed_twice_gets_its_gradient_once(how, torch_float64):
    def run(L):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        if how == "grad_hooked":
            x.register_hook(lambda g: g * 2)
        t = x * 1 if how.endswith("nonleaf") else x
        outs = [t.sum(), (t * t).sum()]
        if how.startswith("grad"):
            return [g.tolist() for g in L.autograd.grad(outs, [t, x, t] if t is not x else [x, x])]
        t.retain_grad()
        (outs[0] + outs[1]).backward(inputs=[t, t])
        return t.grad.tolist()
    assert run(tg) == run(torch_float64)


# ---- forward hooks with always_call=True run (output None) when forward raises ---------
def test_always_call_forward_hooks_run_when_forward_raises(torch_float64):
    def run(L):
        mod = importlib.import_module(f"{L.__name__}.nn.modules.module")

        class Boom(L.nn.Module):
            def forward(self, x, scale=1.0):
                raise ValueError("boom")
        m, log = Boom(), []
        m.register_forward_hook(lambda mm, a, out: log.append(("plain", out)))
        m.register_forward_hook(lambda mm, a, out: log.append(("always", out)), always_call=True)
        m.register_forward_hook(lambda mm, a, kw, out: log.append(("kw", sorted(kw), out)),
                                with_kwargs=True, always_call=True)
        h = mod.register_module_forward_hook(lambda mm, a, out: log.append(("global", out)),
                                             always_call=True)
        try:
            with pytest.raises(ValueError, match="boom"):
                m(L.ones(1), scale=2.0)
        finally:
            h.remove()
        with pytest.raises(ValueError, match="boom"):
            m(L.ones(1))
        return log
    assert run(tg) == run(torch_float64)


# ---- in-place activations: PyTorch's node names (...Backward1 where its in-place form saves
# the result), the tensor itself returned, and the gradients ----------------------------
@pytest.mark.parametrize("call", [
    lambda F, h: F.relu(h, inplace=True), lambda F, h: F.relu_(h),
    lambda F, h: F.leaky_relu(h, 0.1, inplace=True), lambda F, h: F.leaky_relu_(h),
    lambda F, h: F.elu(h, inplace=True), lambda F, h: F.celu(h, inplace=True),
    lambda F, h: F.selu(h, inplace=True), lambda F, h: F.threshold(h, 0.0, 1.0, inplace=True),
    lambda F, h: F.hardtanh(h, inplace=True), lambda F, h: F.relu6(h, inplace=True),
    lambda F, h: F.rrelu(h, inplace=True), lambda F, h: F.hardsigmoid(h, inplace=True)])
def test_inplace_activation_nodes_as_pytorch(call, torch_float64):
    def run(L):
        x = L.tensor([[1.0, -2.0, 0.5]], requires_grad=True)
        h = x * 1
        y = call(L.nn.functional, h)
        (y * L.tensor([1.0, 2.0, 3.0])).sum().backward()
        return y.grad_fn.name(), y is h, h._version, x.grad.tolist()
    (name, same, ver, g), (tname, tsame, tver, tgr) = run(tg), run(torch_float64)
    assert (name, same, ver) == (tname, tsame, tver)
    np.testing.assert_allclose(g, tgr, rtol=1e-12)


# ---- copy_ and index_fill nodes: PyTorch's names and next_functions --------------------
@pytest.mark.parametrize("call", [
    lambda L, h, s: h.copy_(s * 2), lambda L, h, s: L.zeros(3).copy_(s),
    lambda L, h, s: h.index_fill(0, L.tensor([1]), -1.0),
    lambda L, h, s: h.index_fill(0, L.tensor([1]), s[0]),
    lambda L, h, s: h.index_fill_(0, L.tensor([0, 2]), 9.0)])
def test_copy_and_index_fill_nodes_as_pytorch(call, torch_float64):
    def run(L):
        x = L.tensor([1.0, -2.0, 3.0], requires_grad=True)
        s = L.tensor([5.0, 6.0, 7.0], requires_grad=True)
        y = call(L, x * 1, s)
        (y * L.tensor([1.0, 2.0, 3.0])).sum().backward()
        nxt = [None if n is None else n.name() for n, _ in y.grad_fn.next_functions]
        return (y.grad_fn.name(), nxt, y.tolist(), None if x.grad is None else x.grad.tolist(),
                None if s.grad is None else s.grad.tolist())
    assert run(tg) == run(torch_float64)


# ---- in-place shape changes and one-sided clamps: PyTorch's node names; t[k] = v is None
@pytest.mark.parametrize("call", [
    lambda h: h.unsqueeze_(0), lambda h: h.squeeze_(), lambda h: h.squeeze_(0),
    lambda h: h.t_(), lambda h: h.transpose_(0, 1), lambda h: h.clamp_min_(0.0),
    lambda h: h.clamp_max_(0.0)])
def test_inplace_reshape_and_clamp_nodes_as_pytorch(call, torch_float64):
    def run(L):
        x = L.tensor([[0.5, -1.5]], requires_grad=True)
        y = call(x * 1)
        (y * y).sum().backward()
        return y.grad_fn.name(), tuple(y.shape), x.grad.tolist()
    assert run(tg) == run(torch_float64)


def test_setitem_returns_none_as_pytorch(torch_float64):
    def run(L):
        h = L.tensor([1.0, 2.0])
        return h.__setitem__(0, 5.0), h.tolist()
    assert run(tg) == run(torch_float64)
