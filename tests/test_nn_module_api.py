"""nn.Module's API as PyTorch's (hooks and their handles, buffers in state_dict, traversal
order, train/eval, requires_grad_, zero_grad, containers) and nn.init (in place outside the
graph, the distributions, fans and gains, generator=, PyTorch's errors)."""
import math

import numpy as np
import pytest

import tapegrad as tg


def _net(nn):
    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(2, 3, 3, padding=1)
            self.bn = nn.BatchNorm2d(3)
            self.register_buffer("scale", None)
            self.register_buffer("step", _ones(nn, 1), persistent=False)
            self.register_buffer("offset", _ones(nn, 3))

        def forward(self, x):
            return self.bn(self.conv(x)).relu() * self.offset.reshape(1, 3, 1, 1)

    return nn.Sequential(Block(), nn.Flatten(), nn.ModuleList([nn.Linear(3 * 16, 4)]),
                         nn.ModuleDict({"head": nn.Linear(4, 2), "act": nn.Tanh()}))


def _ones(nn, n):
    return (tg if nn is tg.nn else __import__("torch")).ones(n)


@pytest.mark.oracle
def test_traversal_and_state_dict_match_torch(torch):
    net, tnet = _net(tg.nn), _net(torch.nn)
    assert [n for n, _ in net.named_modules()] == [n for n, _ in tnet.named_modules()]
    assert [type(m).__name__ for m in net.modules()] == [type(m).__name__ for m in tnet.modules()]
    assert [n for n, _ in net.named_children()] == [n for n, _ in tnet.named_children()]
    assert [n for n, _ in net.named_parameters()] == [n for n, _ in tnet.named_parameters()]
    assert [n for n, _ in net.named_buffers()] == [n for n, _ in tnet.named_buffers()]
    assert list(net.state_dict()) == list(tnet.state_dict())  # 'step' is not persistent
    assert "0.step" not in net.state_dict()
    assert repr(net) == repr(tnet)
    order, torder = [], []
    net.apply(lambda m: order.append(type(m).__name__))
    tnet.apply(lambda m: torder.append(type(m).__name__))
    assert order == torder
    assert net.get_submodule("3.head").out_features == 2
    assert net.get_parameter("0.conv.bias").shape == (3,)
    assert net.get_buffer("0.offset").shape == (3,)


def test_load_state_dict_round_trip_with_buffers(rng):
    a, b = tg.nn.BatchNorm1d(3), tg.nn.BatchNorm1d(3)
    a(tg.tensor(rng.standard_normal((5, 3))))
    res = b.load_state_dict(a.state_dict())
    assert res.missing_keys == [] and res.unexpected_keys == []
    assert repr(res) == "<All keys matched successfully>"
    for k, v in a.state_dict().items():
        np.testing.assert_array_equal(np.asarray(b.state_dict()[k]), np.asarray(v))
    assert int(b.num_batches_tracked) == 1
    bad = dict(a.state_dict())
    del bad["running_var"]
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "running_var"'):
        b.load_state_dict(bad)
    assert b.load_state_dict(bad, strict=False).missing_keys == ["running_var"]


def test_buffers_follow_dtype_and_are_not_parameters():
    bn = tg.nn.BatchNorm2d(2).float()
    assert bn.running_mean.dtype == tg.float32 and bn.weight.dtype == tg.float32
    assert bn.num_batches_tracked.dtype == tg.int64
    assert [n for n, _ in bn.named_parameters()] == ["weight", "bias"]
    assert not bn.running_mean.requires_grad
    bn.running_mean = tg.ones(2)  # assigning to a buffer's name replaces the buffer
    assert bn.state_dict()["running_mean"].tolist() == [1.0, 1.0]
    del bn.running_var
    assert "running_var" not in bn.state_dict()


@pytest.mark.oracle
@pytest.mark.parametrize("call", [
    lambda nn: nn.Module().register_buffer("a.b", None),
    lambda nn: nn.Module().register_buffer("", None),
    lambda nn: nn.Module().register_buffer("x", 3),
    lambda nn: nn.Linear(2, 2).register_buffer("weight", None),
    lambda nn: setattr(nn.BatchNorm1d(2), "running_mean", 3),
], ids=["dot", "empty", "not a tensor", "taken", "assign"])
def test_register_buffer_errors_as_torch(call, torch):
    with pytest.raises(Exception) as ours:
        call(tg.nn)
    with pytest.raises(Exception) as theirs:
        call(torch.nn)
    assert type(ours.value) is type(theirs.value)
    first = str(theirs.value).split("(")[0].replace("torch", "")
    assert first.strip("'\" ") in str(ours.value).replace("tapegrad", "")


# ---- hooks --------------------------------------------------------------------------------
def _hook_log(L, x):
    """Run a Linear with every kind of forward hook and return what the hooks saw."""
    lin = L.nn.Linear(3, 2).double()
    log = []

    def pre(m, args):
        log.append(("pre", type(m).__name__, type(args).__name__, len(args),
                    tuple(args[0].shape)))
        return (args[0] * 2,)  # replaces the input

    def pre_kw(m, args, kwargs):
        log.append(("pre_kw", len(args), sorted(kwargs)))

    def post(m, args, out):
        log.append(("post", tuple(args[0].shape), float(args[0].detach().sum()), tuple(out.shape)))
        return out + 1  # replaces the output

    def post_kw(m, args, kwargs, out):
        log.append(("post_kw", sorted(kwargs), float(out.detach().sum())))

    def first(m, args):
        log.append(("first",))

    handles = [lin.register_forward_pre_hook(pre),
               lin.register_forward_pre_hook(pre_kw, with_kwargs=True),
               lin.register_forward_hook(post),
               lin.register_forward_hook(post_kw, with_kwargs=True),
               lin.register_forward_pre_hook(first, prepend=True)]
    with L.no_grad():
        lin.weight.copy_(L.tensor(np.arange(6.0).reshape(2, 3)))
        lin.bias.zero_()
    y = lin(L.tensor(x))
    handles[0].remove()
    handles[2].remove()
    y2 = lin(L.tensor(x))
    for h in handles:
        h.remove()
    with handles[1]:  # a handle is a context manager that removes on exit
        pass
    log.append(("after", float(lin(L.tensor(x)).detach().sum())))
    return log, float(y.detach().sum()), float(y2.detach().sum())


@pytest.mark.oracle
def test_forward_hooks_called_as_torch_calls_them(torch):
    x = np.arange(6.0).reshape(2, 3)
    assert _hook_log(tg, x) == _hook_log(torch, x)
    log, y, _ = _hook_log(tg, x)
    assert log[0] == ("first",)
    assert y == pytest.approx(float(((x * 2) @ np.arange(6.0).reshape(2, 3).T).sum() + 4))


def test_hooks_see_modules_inside_a_model():
    net = tg.nn.Sequential(tg.nn.Linear(4, 3), tg.nn.ReLU(), tg.nn.Linear(3, 2))
    shapes = {}
    for name, m in net.named_modules():
        if name:
            m.register_forward_hook(lambda m, a, o, name=name: shapes.__setitem__(name, o.shape))
    net(tg.ones(5, 4))
    assert shapes == {"0": (5, 3), "1": (5, 3), "2": (5, 2)}


def test_pre_hook_with_kwargs_rewrites_arguments():
    class Scale(tg.nn.Module):
        def forward(self, x, factor=1.0):
            return x * factor

    m = Scale()
    m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {"factor": 3.0}),
                                with_kwargs=True)
    assert m(tg.ones(2)).tolist() == [3.0, 3.0]
    m2 = Scale()
    m2.register_forward_pre_hook(lambda mod, args, kwargs: 5, with_kwargs=True)
    with pytest.raises(RuntimeError, match="forward pre-hook must return None or a tuple"):
        m2(tg.ones(2))


# ---- modes and gradients ------------------------------------------------------------------
def test_train_eval_requires_grad_and_zero_grad():
    class Custom(tg.nn.Module):  # a child whose train() is overridden is still called
        def __init__(self):
            super().__init__()
            self.calls = []
            self.lin = tg.nn.Linear(2, 2)

        def train(self, mode=True):
            self.calls.append(mode)
            return super().train(mode)

        def forward(self, x):
            return self.lin(x)

    c = Custom()
    net = tg.nn.Sequential(c, tg.nn.Dropout())
    assert net.training and all(m.training for m in net.modules())
    net.eval()
    assert not any(m.training for m in net.modules()) and c.calls == [False]
    net.train()
    assert c.calls == [False, True] and net[1].training
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train("yes")
    net(tg.ones(3, 2)).sum().backward()
    assert all(p.grad is not None for p in net.parameters())
    net.zero_grad(set_to_none=False)
    assert all(p.grad is not None and not np.asarray(p.grad).any() for p in net.parameters())
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())


def test_module_list_and_dict_behave_as_containers():
    layers = tg.nn.ModuleList([tg.nn.Linear(2, 2), tg.nn.ReLU()])
    layers.append(tg.nn.Linear(2, 1))
    layers.insert(0, tg.nn.Identity(7, unused=True))
    assert [type(m).__name__ for m in layers] == ["Identity", "Linear", "ReLU", "Linear"]
    assert [n for n, _ in layers.named_children()] == ["0", "1", "2", "3"]
    assert isinstance(layers[1:], tg.nn.ModuleList) and len(layers[1:]) == 3
    assert layers[-1].out_features == 1
    del layers[0]
    assert len(layers) == 3 and len(list(layers.parameters())) == 4
    d = tg.nn.ModuleDict({"a": tg.nn.Tanh()})
    d["b"] = tg.nn.Linear(1, 1)
    assert list(d) == ["a", "b"] and "b" in d and len(list(d.parameters())) == 2
    assert d.pop("a").__class__.__name__ == "Tanh" and list(d.keys()) == ["b"]


# ---- nn.init -------------------------------------------------------------------------------
INIT = tg.nn.init


def _leaf(*shape):
    return tg.nn.Parameter(tg.zeros(*shape))


@pytest.mark.parametrize("fn, mean, std", [
    (lambda w: INIT.uniform_(w, -2.0, 4.0), 1.0, 6 / math.sqrt(12)),
    (lambda w: INIT.normal_(w, 0.5, 2.0), 0.5, 2.0),
    (lambda w: INIT.xavier_uniform_(w, gain=2.0), 0.0, 2.0 * math.sqrt(2 / (200 + 300))),
    (lambda w: INIT.xavier_normal_(w), 0.0, math.sqrt(2 / (200 + 300))),
    (lambda w: INIT.kaiming_uniform_(w), 0.0, math.sqrt(2 / (1 + 0.01 ** 2)) / math.sqrt(200)),
    (lambda w: INIT.kaiming_uniform_(w, a=math.sqrt(5)), 0.0, 1 / math.sqrt(3 * 200)),
    (lambda w: INIT.kaiming_normal_(w, mode="fan_out", nonlinearity="relu"), 0.0,
     math.sqrt(2 / 300)),
    (lambda w: INIT.kaiming_normal_(w, a=0.2, nonlinearity="leaky_relu"), 0.0,
     math.sqrt(2 / 1.04) / math.sqrt(200)),
    (lambda w: INIT.trunc_normal_(w, std=0.02), 0.0, 0.02),
], ids=["uniform", "normal", "xavier_uniform", "xavier_normal", "kaiming_uniform",
        "kaiming_uniform_a", "kaiming_normal_fan_out", "kaiming_normal_leaky", "trunc_normal"])
def test_init_draws_the_distribution_in_place(fn, mean, std):
    w = _leaf(300, 200)
    out = fn(w)
    assert out is w and w.is_leaf and w.requires_grad and w.grad_fn is None
    v = np.asarray(w.detach())
    assert v.mean() == pytest.approx(mean, abs=0.02 * max(std, 0.05))
    assert v.std() == pytest.approx(std, rel=0.02)


def test_init_bounds_generator_and_deterministic_fills():
    g = tg.Generator().manual_seed(3)
    a = np.asarray(INIT.uniform_(tg.zeros(5), generator=g)).copy()
    g.manual_seed(3)
    np.testing.assert_array_equal(np.asarray(INIT.uniform_(tg.zeros(5), generator=g)), a)
    w = np.asarray(INIT.trunc_normal_(tg.zeros(5000), mean=1.0, std=2.0, a=0.0, b=1.5))
    assert w.min() >= 0.0 and w.max() <= 1.5
    assert np.asarray(INIT.kaiming_uniform_(tg.zeros(4, 3, 5, 5))).max() <= math.sqrt(6 / 75)
    assert INIT.zeros_(tg.ones(2)).tolist() == [0.0, 0.0]
    assert INIT.ones_(tg.zeros(2)).tolist() == [1.0, 1.0]
    assert INIT.constant_(tg.zeros(2, dtype=tg.float32), 0.25).dtype == tg.float32
    assert INIT.eye_(tg.zeros(2, 3)).tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    q = np.asarray(INIT.orthogonal_(tg.zeros(4, 6), gain=2.0))
    np.testing.assert_allclose(q @ q.T, 4 * np.eye(4), atol=1e-12)
    q = np.asarray(INIT.orthogonal_(tg.zeros(6, 2, 2)).reshape(6, 4))
    np.testing.assert_allclose(q.T @ q, np.eye(4), atol=1e-12)


@pytest.mark.oracle
def test_init_gains_fans_and_dirac_match_torch(torch):
    for nl, p in [("linear", None), ("conv2d", None), ("sigmoid", None), ("tanh", None),
                  ("relu", None), ("leaky_relu", None), ("leaky_relu", 0.3), ("selu", None)]:
        assert INIT.calculate_gain(nl, p) == pytest.approx(torch.nn.init.calculate_gain(nl, p))
    for shape in [(3, 4), (5, 2, 3, 3), (6, 4, 2)]:
        assert INIT._calculate_fan_in_and_fan_out(tg.zeros(*shape)) == \
            torch.nn.init._calculate_fan_in_and_fan_out(torch.zeros(*shape))
    for shape, groups in [((4, 2, 3, 3), 2), ((3, 3, 5), 1)]:
        np.testing.assert_array_equal(
            np.asarray(INIT.dirac_(tg.zeros(*shape), groups)),
            torch.nn.init.dirac_(torch.zeros(*shape), groups).numpy())


@pytest.mark.oracle
@pytest.mark.parametrize("call", [
    lambda L: L.nn.init.kaiming_uniform_(L.zeros(3)),
    lambda L: L.nn.init.xavier_normal_(L.zeros(3)),
    lambda L: L.nn.init.calculate_gain("swish"),
    lambda L: L.nn.init.calculate_gain("leaky_relu", "x"),
    lambda L: L.nn.init.eye_(L.zeros(3, 3, 3)),
    lambda L: L.nn.init.kaiming_normal_(L.zeros(3, 4), mode="fan_avg"),
], ids=["kaiming 1-d", "xavier 1-d", "gain name", "gain slope", "eye 3-d", "mode"])
def test_init_errors_as_torch(call, torch):
    with pytest.raises(ValueError) as ours:
        call(tg)
    with pytest.raises(ValueError) as theirs:
        call(torch)
    assert str(ours.value) == str(theirs.value)


def test_full_backward_hooks_see_and_replace_what_torch_does():
    torch = pytest.importorskip("torch")

    def run(lib):
        lin = lib.nn.Linear(3, 2).double()
        with lib.no_grad():
            lin.weight.copy_(lib.tensor([[1., 2., 3.], [-1., .5, 2.]], dtype=lib.float64))
            lin.bias.fill_(0.1)
        seen = []

        def hook(m, gi, go):
            seen.append(([None if g is None else g.tolist() for g in gi],
                         [g.tolist() for g in go]))
            return (gi[0] * 3,) if gi[0] is not None else None
        h = lin.register_full_backward_hook(hook)
        pre = lin.register_full_backward_pre_hook(lambda m, go: (go[0] * 2,))
        x = lib.tensor([[1., 2., 3.]], dtype=lib.float64, requires_grad=True)
        (lin(x) ** 2).sum().backward()
        with pytest.warns(UserWarning, match="no inputs require gradients"):
            lin(lib.tensor([[1., 2., 3.]], dtype=lib.float64)).sum().backward()
        h.remove()
        pre.remove()
        x2 = lib.tensor([[1., 0., 0.]], dtype=lib.float64, requires_grad=True)
        lin(x2).sum().backward()  # removed: no hook runs
        return seen, x.grad.tolist(), lin.weight.grad.tolist(), x2.grad.tolist()
    assert run(tg) == run(torch)
