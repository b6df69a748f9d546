"""nn.utils (gradient clipping, parameters as a vector) and the parameter containers
(ParameterList, ParameterDict) against PyTorch."""
import math

import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


def _params(L, arrays, grads):
    ps = [L.nn.Parameter(L.tensor(a)) for a in arrays]
    for p, g in zip(ps, grads, strict=True):
        p.grad = None if g is None else L.tensor(g)
    return ps


@pytest.mark.parametrize("norm_type", [2.0, 1, math.inf, 3.0])
@pytest.mark.parametrize("max_norm", [0.5, 100.0])
def test_clip_grad_norm_matches_torch(norm_type, max_norm, rng, torch):
    arrays = [rng.standard_normal(s) for s in ((3, 2), (4,), (2,))]
    grads = [rng.standard_normal((3, 2)), None, rng.standard_normal(2) * 5]
    out = []
    for L in (tg, torch):
        ps = _params(L, arrays, grads)
        total = L.nn.utils.clip_grad_norm_(ps, max_norm, norm_type)
        out.append([float(total)] + [None if p.grad is None else np.asarray(p.grad)
                                     for p in ps])
    np.testing.assert_allclose(out[0][0], out[1][0], rtol=1e-12)
    for a, b in zip(out[0][1:], out[1][1:], strict=True):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-12)


def test_clip_grad_norm_nonfinite_and_empty(torch):
    p = tg.nn.Parameter(tg.zeros(2))
    p.grad = tg.tensor([math.inf, 1.0])
    tp = torch.nn.Parameter(torch.zeros(2, dtype=torch.float64))
    tp.grad = torch.tensor([math.inf, 1.0], dtype=torch.float64)
    msgs = []
    for utils, param in ((tg.nn.utils, p), (torch.nn.utils, tp)):
        with pytest.raises(RuntimeError) as info:
            utils.clip_grad_norm_(param, 1.0, error_if_nonfinite=True)
        msgs.append(str(info.value))
    assert msgs[0] == msgs[1]
    assert float(tg.nn.utils.clip_grad_norm_([tg.nn.Parameter(tg.zeros(2))], 1.0)) == 0.0


def test_clip_grad_value_matches_torch(rng, torch):
    arrays = [rng.standard_normal((3, 2)), rng.standard_normal(4)]
    grads = [rng.standard_normal((3, 2)) * 2, rng.standard_normal(4)]
    out = []
    for L in (tg, torch):
        ps = _params(L, arrays, grads)
        assert L.nn.utils.clip_grad_value_(ps, 0.7) is None
        out.append([np.asarray(p.grad) for p in ps])
    for a, b in zip(*out, strict=True):
        np.testing.assert_array_equal(a, b)


def test_parameters_vector_round_trip_and_gradient(rng, torch):
    lin = tg.nn.Linear(3, 2)
    vec = tg.nn.utils.parameters_to_vector(lin.parameters())
    assert vec.shape == (8,) and vec.requires_grad
    vec.sum().backward()
    assert lin.weight.grad.tolist() == [[1.0] * 3] * 2
    new = tg.tensor(np.arange(8.0))
    tg.nn.utils.vector_to_parameters(new, lin.parameters())
    assert lin.weight.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert lin.bias.tolist() == [6.0, 7.0] and lin.weight.requires_grad
    for utils in (tg.nn.utils, torch.nn.utils):
        with pytest.raises(TypeError, match="expected torch.Tensor, but got: list"):
            utils.vector_to_parameters([1.0], [])


def test_parameter_list_and_dict_as_torch(torch):
    for nn, L in ((tg.nn, tg), (torch.nn, torch)):
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.ws = nn.ParameterList([nn.Parameter(L.ones(2, 2)) for _ in range(2)])
                self.ws.append(L.zeros(3))  # a Tensor becomes a Parameter
                self.named = nn.ParameterDict({"a": nn.Parameter(L.ones(1))})
                self.named["b"] = L.zeros(2)

        net = Net()
        assert list(net.state_dict()) == ["ws.0", "ws.1", "ws.2", "named.a", "named.b"]
        assert len(list(net.parameters())) == 5
        assert isinstance(net.ws[2], nn.Parameter) and isinstance(net.named["b"], nn.Parameter)
        assert len(net.ws) == 3 and net.ws[-1].shape == (3,) and len(net.ws[1:]) == 2
        assert list(net.named.keys()) == ["a", "b"] and "a" in net.named
        assert net.named.pop("a").shape == (1,) and len(net.named) == 1
        assert list(net.state_dict()) == ["ws.0", "ws.1", "ws.2", "named.b"]


@pytest.mark.parametrize("dim", [0, 1, None])
def test_weight_norm_matches_torch(dim, rng, torch):
    x = rng.standard_normal((2, 3, 5, 5))
    with pytest.warns(FutureWarning, match="parametrizations.weight_norm"):
        m = tg.nn.utils.weight_norm(tg.nn.Conv2d(3, 4, 2), dim=dim)
    with pytest.warns(FutureWarning):
        tm = torch.nn.utils.weight_norm(torch.nn.Conv2d(3, 4, 2).double(), dim=dim)
    assert list(m.state_dict()) == list(tm.state_dict())
    m.load_state_dict({k: tg.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()})
    out = []
    for L, mod in ((tg, m), (torch, tm)):
        y = mod(L.tensor(x))
        grads = L.autograd.grad(y.sin().sum(), [mod.weight_g, mod.weight_v, mod.bias])
        out.append([np.asarray(y.detach())] + [np.asarray(g) for g in grads])
    for a, b in zip(*out, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
    tg.nn.utils.remove_weight_norm(m)
    torch.nn.utils.remove_weight_norm(tm)
    assert list(m.state_dict()) == list(tm.state_dict()) == ["bias", "weight"]
    np.testing.assert_allclose(np.asarray(m.weight.detach()), tm.weight.detach().numpy(),
                               rtol=1e-12)


def test_lazy_linear_fills_its_parameters_on_first_call():
    lin = tg.nn.LazyLinear(3)
    assert repr(lin) == "LazyLinear(in_features=0, out_features=3, bias=True)"
    opt = tg.optim.SGD(lin.parameters(), lr=0.1)  # made before: sees the same parameters
    y = lin(tg.ones(2, 5))
    assert type(lin) is tg.nn.Linear and repr(lin).startswith("Linear(in_features=5")
    y.sum().backward()
    before = lin.weight.detach().clone()
    opt.step()
    np.testing.assert_allclose(np.asarray(lin.weight.detach()), np.asarray(before) - 0.2)


def test_buffer_attribute_registers_a_buffer(tmp_path, torch):
    for nn, L in ((tg.nn, tg), (torch.nn, torch)):
        m = nn.Module()
        m.kept = nn.Buffer(L.ones(2))
        m.scratch = nn.Buffer(L.zeros(1), persistent=False)
        assert list(m.state_dict()) == ["kept"]
        assert [n for n, _ in m.named_buffers()] == ["kept", "scratch"]
        assert isinstance(m.kept, nn.Buffer) and not m.kept.requires_grad
        assert (m.kept + 1).tolist() == [2.0, 2.0]
    m = tg.nn.Module()
    m.kept = tg.nn.Buffer(tg.ones(2))
    tg.save(m.state_dict(), tmp_path / "m.pt")  # saved as a plain tensor
    assert tg.load(tmp_path / "m.pt")["kept"].tolist() == [1.0, 1.0]


def test_skip_init_builds_the_module(torch):
    assert repr(tg.nn.utils.skip_init(tg.nn.Linear, 2, 3)) == \
        repr(torch.nn.utils.skip_init(torch.nn.Linear, 2, 3))
