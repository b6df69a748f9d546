"""Differences from PyTorch found by the scripts s1052 onward (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- cdist(p=inf): every coordinate tied at the maximum takes the whole gradient ----------
@pytest.mark.parametrize("p", [1.0, 2.0, 3.0, float("inf")])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_cdist_gradient_at_ties_as_pytorch(p, dtype, torch_float64):
    torch = torch_float64
    a = np.array([[0.0, 0.0], [1.0, 2.0], [3.0, 1.0], [1.0, 1.0]], dtype)
    b = np.array([[[1.0, 1.0], [2.0, -1.0], [1.0, 3.0]]], dtype)  # (ties, and a zero distance)
    u = np.arange(1.0, 13.0).reshape(1, 4, 3).astype(dtype)
    got = []
    for L in (tg, torch):
        x = L.tensor(a, requires_grad=True)
        y = L.tensor(b, requires_grad=True)
        d = L.cdist(x.unsqueeze(0), y, p=p)
        gx, gy = L.autograd.grad(d, (x, y), L.tensor(u))
        got.append((d.grad_fn.name(), str(d.dtype), d.detach().numpy(), gx.numpy(), gy.numpy()))
    assert got[0][:2] == got[1][:2]
    for ours, theirs in zip(got[0][2:], got[1][2:], strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6 if dtype == "float32" else 1e-13)


def test_cdist_inf_gradient_against_differences(rng, fd_dot):
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((5, 4))  # (no ties: one argmax)
    u = rng.standard_normal((3, 5))
    x = tg.tensor(a, requires_grad=True)
    (g,) = tg.autograd.grad(tg.cdist(x, tg.tensor(b), p=float("inf")), x, tg.tensor(u))
    v = rng.standard_normal(a.shape)
    want = fd_dot(lambda s, t: tg.cdist(s, t, p=float("inf")), [a, b], 0, v, u)
    assert np.isclose(np.vdot(g.numpy(), v), want, rtol=1e-6)


# ---- ctc_loss: zero_infinity is PyTorch's where, an unbatched loss its squeeze ------------
@pytest.mark.parametrize("zero_infinity", [False, True])
@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
@pytest.mark.parametrize("batched", [True, False])
def test_ctc_loss_nodes_values_and_grads_as_pytorch(zero_infinity, reduction, batched,
                                                   torch_float64):
    torch = torch_float64
    a = np.sin(np.arange(40.0)).reshape(5, 2, 4)
    got = []
    for L in (tg, torch):
        x = L.tensor(a if batched else a[:, 0], requires_grad=True)
        lp = x.log_softmax(-1)
        if batched:  # (the second target cannot fit in 5 frames: its loss is inf)
            out = L.nn.functional.ctc_loss(lp, L.tensor([[1, 2, 0, 0, 0, 0], [1] * 6]), [5, 5],
                                           [2, 6], reduction=reduction,
                                           zero_infinity=zero_infinity)
        else:
            out = L.nn.functional.ctc_loss(lp, L.tensor([1, 2]), [5], [2], reduction=reduction,
                                           zero_infinity=zero_infinity)
        (g,) = L.autograd.grad(out.sum(), x)
        got.append((out.grad_fn.name(), str(out), g.numpy()))
    assert got[0][:2] == got[1][:2]
    np.testing.assert_allclose(got[0][2], got[1][2], rtol=1e-12, atol=1e-14)


# ---- Module.set_submodule and nn.init._calculate_correct_fan (PyTorch's names) -----------
def _tree(L):
    net = L.nn.Sequential()
    net.add_module("enc", L.nn.Sequential(L.nn.Linear(2, 3), L.nn.ReLU()))
    net.add_module("head", L.nn.Linear(3, 1))
    return net


@pytest.mark.parametrize("target, strict", [("enc.1", False), ("enc.1", True), ("enc.extra", False),
                                            ("head", True), ("top", False)])
def test_set_submodule_replaces_or_adds_as_pytorch(target, strict, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        net = _tree(L)
        net.set_submodule(target, L.nn.Tanh(), strict=strict)
        got.append((repr(net), [n for n, _ in net.named_modules()],
                    type(net.get_submodule(target)).__name__))
    assert got[0] == got[1]


@pytest.mark.parametrize("call", [
    lambda L: _tree(L).set_submodule("", L.nn.ReLU()),
    lambda L: _tree(L).set_submodule("enc.0", 3),
    lambda L: _tree(L).set_submodule("enc.extra", L.nn.ReLU(), strict=True),
    lambda L: _tree(L).set_submodule("enc.0.weight", L.nn.ReLU()),
    lambda L: _tree(L).set_submodule("nope.x", L.nn.ReLU()),
    lambda L: _tree(L).set_submodule("enc.training", L.nn.ReLU())])
def test_set_submodule_refuses_as_pytorch(call, raises_as_torch):
    raises_as_torch(call)


@pytest.mark.parametrize("shape", [(4, 3), (4, 3, 5, 5), (2, 6, 3)])
@pytest.mark.parametrize("mode", ["fan_in", "fan_out", "FAN_OUT"])
def test_calculate_correct_fan_as_pytorch(shape, mode, torch):
    ours = tg.nn.init._calculate_correct_fan(tg.empty(*shape), mode)
    assert ours == torch.nn.init._calculate_correct_fan(torch.empty(*shape), mode)


def test_calculate_correct_fan_refuses_as_pytorch(raises_as_torch):
    raises_as_torch(lambda L: L.nn.init._calculate_correct_fan(L.empty(2, 2), "fan_avg"))
    raises_as_torch(lambda L: L.nn.init._calculate_correct_fan(L.empty(2), "fan_in"))


# ---- get_extra_state / set_extra_state: saved and loaded under '_extra_state' -------------
def _extra(L, counter=3):
    class Counted(L.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = L.nn.Linear(1, 1)
            self.n = counter

        def get_extra_state(self):
            return {"n": self.n}

        def set_extra_state(self, state):
            self.n = state["n"]

    outer = L.nn.Sequential()
    outer.add_module("a", Counted())
    outer.add_module("b", L.nn.Linear(1, 1))
    return outer


@pytest.mark.parametrize("drop, strict", [(None, True), ("a._extra_state", False),
                                          ("a.lin.bias", False), ("b.weight", False)])
def test_extra_state_round_trip_as_pytorch(drop, strict, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        sd = _extra(L).state_dict()
        keys = list(sd)
        if drop:
            del sd[drop]
        sd["junk"] = L.ones(1)
        target = _extra(L, counter=0)
        res = target.load_state_dict(sd, strict=strict) if not strict else None
        if strict:
            with pytest.raises(RuntimeError) as info:  # (junk: but the rest is loaded)
                target.load_state_dict(sd)
            res = str(info.value)
        got.append((keys, sd.get("a._extra_state"), str(res), target.a.n))
    assert got[0] == got[1]


def test_extra_state_of_a_module_without_it_is_unexpected(torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        lin = L.nn.Linear(1, 1)
        got.append(str(lin.load_state_dict({"weight": L.ones(1, 1), "bias": L.ones(1),
                                            "_extra_state": 5}, strict=False)))
        with pytest.raises(RuntimeError, match="Module.get_extra_state"):
            lin.get_extra_state()
    assert got[0] == got[1]


# ---- functional_call: ties filled in before strict's check, PyTorch's sorted report -------
def _tied(L):
    class Tied(L.nn.Module):
        def __init__(self):
            super().__init__()
            self.enc = L.nn.Linear(2, 2, bias=False)
            self.dec = L.nn.Linear(2, 2, bias=False)
            self.dec.weight = self.enc.weight
            self.register_buffer("shift", L.tensor([1.0, -1.0]))

        def forward(self, x):
            return self.dec(self.enc(x)) + self.shift
    m = Tied()
    L.nn.init.eye_(m.enc.weight)
    return m


W2 = [[2.0, 0.0], [0.0, 3.0]]


@pytest.mark.parametrize("keys, tie, strict", [
    (("enc.weight",), True, True), (("dec.weight",), True, True),
    (("enc.weight", "shift"), True, True), (("enc.weight",), False, True),
    (("enc.weight", "zz", "aa"), True, True), (("dec.weight", "shift"), False, True),
    (("dec.weight",), True, False), (("enc.weight", "dec.weight"), True, False)])
def test_functional_call_ties_and_strict_as_pytorch(keys, tie, strict, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        m = _tied(L)
        w = L.tensor(W2)
        given = {k: (w if k.endswith("weight") else L.zeros(2)) for k in keys}
        try:
            out = L.func.functional_call(m, given, (L.tensor([[1.0, 2.0]]),),
                                         tie_weights=tie, strict=strict)
            got.append(("ok", out.tolist(), m.enc.weight.tolist()))
        except (RuntimeError, ValueError) as e:
            got.append((type(e).__name__, str(e)))
    assert got[0] == got[1]


def test_functional_call_two_values_for_tied_names_refused(raises_as_torch):
    raises_as_torch(lambda L: L.func.functional_call(
        _tied(L), {"enc.weight": L.ones(2, 2), "dec.weight": L.zeros(2, 2)}, (L.ones(1, 2),)))


# ---- distributions print as PyTorch's: arg_constraints' order, parameters held in __dict__ -
REPRS = [lambda L, D, t: D.Beta(2.0, 3.0), lambda L, D, t: D.Binomial(5, t(0.3)),
         lambda L, D, t: D.Binomial(t([5.0, 2.0]), logits=t([0.1, 0.2])),
         lambda L, D, t: D.NegativeBinomial(5, t(0.4)), lambda L, D, t: D.Kumaraswamy(2.0, 3.0),
         lambda L, D, t: D.Kumaraswamy(t([2.0]), t([3.0])),
         lambda L, D, t: D.RelaxedBernoulli(t(0.5), probs=t(0.3)),
         lambda L, D, t: D.RelaxedOneHotCategorical(t(1.0), probs=t([0.2, 0.8])),
         lambda L, D, t: D.LKJCholesky(3, 2.0),
         lambda L, D, t: D.LogisticNormal(L.zeros(2), L.ones(2)),
         lambda L, D, t: D.ContinuousBernoulli(probs=t(0.3)),
         lambda L, D, t: D.ContinuousBernoulli(logits=t([0.3, 0.1])),
         lambda L, D, t: D.InverseGamma(2.0, 3.0), lambda L, D, t: D.Geometric(t(0.3))]


@pytest.mark.parametrize("make", REPRS)
def test_distribution_repr_as_pytorch(make, torch_float64):
    torch = torch_float64
    ours = make(tg, tg.distributions, tg.tensor)
    theirs = make(torch, torch.distributions, torch.tensor)
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("cls", ["Binomial", "NegativeBinomial"])
def test_total_count_is_checked_first_as_pytorch(cls, raises_as_torch, torch_float64):
    # (torch_float64: distributions validate their arguments, whatever ran before)
    raises_as_torch(lambda L: getattr(L.distributions, cls)(L.tensor(-1.0), L.tensor(1.5)))


# ---- optimizers' state_dict prints as PyTorch's: param_groups' and state's key order ------
@pytest.mark.parametrize("name, kw", [
    ("RMSprop", dict(centered=True, momentum=0.1)), ("Adagrad", {}), ("NAdam", {}),
    ("RAdam", {}), ("ASGD", {}), ("Adam", dict(amsgrad=True)), ("SGD", dict(momentum=0.9)),
    ("Adadelta", {}), ("Adamax", {}), ("Rprop", {}), ("AdamW", {})])
def test_optimizer_state_dict_prints_as_pytorch(name, kw, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        p = L.nn.Parameter(L.tensor([1.0, -2.0]))
        opt = getattr(L.optim, name)([p], lr=0.01, **kw)
        for _ in range(2):
            opt.zero_grad()
            (p ** 2).sum().backward()
            opt.step()
        got.append(str(opt.state_dict()))
    assert got[0] == got[1]


# ---- composite ops show PyTorch's node names (print(y) shows grad_fn=<...>) --------------
NODES = [lambda L, x: x.nansum(), lambda L, x: L.nansum(x, 1, keepdim=True),
         lambda L, x: x.deg2rad(), lambda L, x: L.rad2deg(x), lambda L, x: L.fmin(x, x.T),
         lambda L, x: x.fmax(x.T), lambda L, x: x.masked_select(x > 0),
         lambda L, x: L.masked_select(x, L.tensor([True, False, True])),
         lambda L, x: x.put(L.tensor([0]), x[0, :1]),
         lambda L, x: x.put(L.tensor([0, 0]), x[0, :2], accumulate=True),
         lambda L, x: x.index_copy(0, L.tensor([2, 0]), x[:2] * 3),
         lambda L, x: (x * 1).index_copy_(1, L.tensor([1]), x[:, :1] * 2),
         lambda L, x: x.index_reduce(0, L.tensor([0, 0]), x[:2] * 2, "prod"),
         lambda L, x: x.index_reduce(0, L.tensor([1, 0]), x[1:], "amax", include_self=False),
         lambda L, x: L.aminmax(x.nan_to_num()).min, lambda L, x: x.nan_to_num().aminmax(dim=1).max,
         lambda L, x: L.aminmax(x.nan_to_num(), dim=0, keepdim=True)[0]]


@pytest.mark.parametrize("call", NODES)
def test_composite_node_names_values_and_grads_as_pytorch(call, torch_float64):
    torch = torch_float64
    a = np.array([[0.3, -1.2, 0.5], [1.1, np.nan, -0.7], [-0.2, 0.9, 1.6]])
    got = []
    for L in (tg, torch):
        x = L.tensor(a, requires_grad=True)
        y = call(L, x)
        u = L.tensor(np.linspace(0.5, 1.5, y.numel()).reshape(tuple(y.shape)))
        (g,) = L.autograd.grad(y, x, u)
        got.append((str(y), g.numpy()))
    assert got[0][0] == got[1][0]
    np.testing.assert_allclose(got[0][1], got[1][1], rtol=1e-14)
    assert call(tg, tg.tensor(a)).grad_fn is None


@pytest.mark.parametrize("shape, fn", [
    (s, f) for s in [(), (3,), (2, 3), (2, 3, 1)]
    for f in ["atleast_1d", "atleast_2d", "atleast_3d"]]
    + [((), "H"), ((2, 3), "H")])
def test_atleast_and_H_nodes_as_pytorch(shape, fn, torch_float64):
    torch = torch_float64
    got = []
    for L in (tg, torch):
        x = L.arange(float(np.prod(shape))).reshape(shape).requires_grad_()
        y = x.H if fn == "H" else getattr(L, fn)(x)
        y = y * 1 if y is x else y  # (0-d .H: the tensor itself, as PyTorch's conj of a real)
        (g,) = L.autograd.grad(y, x, L.ones(tuple(y.shape)) * 2)
        got.append((str(y), g.tolist()))
    assert got[0] == got[1]
