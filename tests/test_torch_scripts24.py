"""Differences from PyTorch found by the scripts s488 onward (tests/torch_scripts/, run by
test_torch_scripts13.py) and the gaps listed with them, each against PyTorch."""
import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- optimizer.load_state_dict: PyTorch's casts, and its sharing of the loaded tensors -------
def _adam_shared_state(L):
    """Two Adams, the second loading the first's state_dict, then both stepping: PyTorch
    shares the loaded tensors (exp_avg, step ...) between them, so each step moves both."""
    w = L.tensor([1.0, -2.0], requires_grad=True)
    a = L.optim.Adam([w], lr=0.1)
    for _ in range(2):
        a.zero_grad()
        (w ** 2).sum().backward()
        a.step()
    w2 = w.detach().clone().requires_grad_(True)
    b = L.optim.Adam([w2], lr=0.05)
    sd = a.state_dict()
    b.load_state_dict(sd)
    shared = [b.state[w2][k] is sd["state"][0][k] for k in ("step", "exp_avg", "exp_avg_sq")]
    for opt, p in ((b, w2), (a, w), (b, w2)):
        opt.zero_grad()
        (p ** 3).sum().backward()
        opt.step()
    out = [w.tolist(), w2.tolist(), float(a.state[w]["step"]), float(b.state[w2]["step"]),
           b.state[w2]["exp_avg"].tolist(), b.param_groups[0]["lr"], shared]
    return out


def _cast_on_load(L):
    """A float32 parameter loading float64 state: cast copies (not shared); "step" kept;
    integer tensors cast to the parameter's dtype; lists and nested dicts rebuilt."""
    w = L.nn.Parameter(L.ones(2, dtype=L.float32))
    opt = L.optim.SGD([w], lr=0.1, momentum=0.9)
    step = L.tensor(3.0, dtype=L.float64)
    buf = L.tensor([0.5, 0.25], dtype=L.float64)
    counts = L.tensor([1, 2])
    hist = [L.tensor([1.0], dtype=L.float64), 2.5]
    sd = {"state": {0: {"step": step, "momentum_buffer": buf, "counts": counts, "hist": hist,
                        "inner": {"step": step, "x": buf}},
                    7: {"orphan": buf}},
          "param_groups": [{"lr": 0.5, "momentum": 0.9, "dampening": 0, "weight_decay": 0,
                            "nesterov": False, "maximize": False, "params": [0],
                            "mine": "kept"}]}
    opt.load_state_dict(sd)
    s = opt.state[w]
    return [str(s["momentum_buffer"].dtype), s["momentum_buffer"] is buf, s["step"] is step,
            str(s["counts"].dtype), type(s["hist"]).__name__, str(s["hist"][0].dtype),
            s["hist"][1], s["inner"]["step"] is step, str(s["inner"]["x"].dtype),
            opt.state[7]["orphan"] is buf, opt.param_groups[0]["lr"],
            opt.param_groups[0]["mine"], opt.param_groups[0]["params"][0] is w,
            sd["param_groups"][0]["params"]]


@pytest.mark.parametrize("run", [_adam_shared_state, _cast_on_load])
def test_optimizer_load_state_dict_as_pytorch(run, torch_float64):
    assert run(tg) == run(torch_float64)


# ---- logcumsumexp: PyTorch's nan gradient at a leading -inf ----------------------------------
INF = float("inf")


@pytest.mark.parametrize("values, dim", [
    ([-INF, 1.0, 2.0], 0), ([-INF, -INF, 0.5], 0), ([-INF], 0), ([-INF, -INF], -1),
    ([1.0, -INF, 2.0], 0), ([2.0, 1.0, -INF], 0),
    ([[-INF, 0.5, -1.0], [-INF, -INF, 2.0], [0.3, -INF, -INF]], 1),
    ([[-INF, 0.5, -1.0], [-INF, -INF, 2.0], [0.3, -INF, -INF]], 0),
    (-INF, 0), (1.5, 0),
])
def test_logcumsumexp_gradient_at_leading_neg_inf_as_pytorch(values, dim, torch_float64):
    out = []
    for L in (tg, torch_float64):
        x = L.tensor(values, requires_grad=True)
        y = L.logcumsumexp(x, dim)
        g = L.linspace(0.5, 1.5, y.numel()).reshape(y.shape)
        y.backward(g)
        out.append((y.detach().numpy(), x.grad.numpy()))
    np.testing.assert_array_equal(out[0][0], out[1][0])
    np.testing.assert_allclose(out[0][1], out[1][1], rtol=1e-14, atol=0)  # (nan where PyTorch's)


# ---- layer classes print under PyTorch's names; Sequential(nn.ReLU) refused in its words -----
def _classes(L):
    class Net(L.nn.Module):
        pass
    return [L.nn.Tanh, L.nn.Linear, L.nn.Sequential, L.nn.Module, L.nn.LSTM, L.nn.MSELoss,
            L.nn.TransformerEncoderLayer, L.nn.Conv2d, Net, type(L.nn.ReLU())]


def test_module_classes_print_as_pytorchs(torch_float64):
    ours, theirs = _classes(tg), _classes(torch_float64)
    assert [repr(c) for c in ours] == [repr(c) for c in theirs]
    assert str(ours[:2]) == str(theirs[:2])
    assert tg.nn.Tanh.__module__.startswith("tapegrad.")  # (its home stays tapegrad's)


@pytest.mark.parametrize("call", [
    lambda L: L.nn.Sequential(L.nn.Linear(2, 3), L.nn.ReLU),
    lambda L: L.nn.ModuleList([L.nn.Tanh]), lambda L: L.nn.Module().add_module("a", 3),
    lambda L: L.nn.Sequential(L.ones(2, dtype=L.float32)),
])
def test_a_module_class_for_a_module_refused_as_pytorch(call, raises_as_torch):
    raises_as_torch(call)


def _abc_mixed(L):
    """A model mixing in abc.ABC, or a typing.Protocol: abstract methods block it as they do
    in PyTorch; without ABC, @abstractmethod blocks nothing (PyTorch's Module is a plain
    class)."""
    import abc
    import pickle
    import typing

    class Base(L.nn.Module, abc.ABC):
        @abc.abstractmethod
        def forward(self, x):
            ...

    class Impl(Base):
        def forward(self, x):
            return x * 2

    class Loose(L.nn.Module):
        @abc.abstractmethod
        def forward(self, x):
            return x

    class Named(typing.Protocol):
        def name(self): ...

    class WithProtocol(L.nn.Module, Named):
        def name(self):
            return "p"

    out = [WithProtocol().name(), isinstance(WithProtocol(), L.nn.Module)]
    try:
        Base()
        out.append("made")
    except TypeError as e:
        out.append(str(e))
    m = Impl()
    out += [m(L.tensor(1.5)).item(), isinstance(m, Base), isinstance(m, abc.ABC),
            issubclass(Impl, L.nn.Module), isinstance(L.nn.Linear(1, 1), L.nn.Module),
            isinstance(L.ones(1), L.nn.Module), Loose()(L.tensor(2.0)).item(),
            type(pickle.loads(pickle.dumps(L.nn.Tanh()))).__name__]
    return out


def test_modules_mixing_abc_as_pytorch(torch_float64):
    assert _abc_mixed(tg) == _abc_mixed(torch_float64)


# ---- embedding(scale_grad_by_freq=True): each occurrence's gradient times 1/count -----------
# (PyTorch adds each occurrence with an fma, grad * (1/count) + sum; tapegrad rounds the product
# first, so the bits agree where the product is exact: counts of 2^k, or the unit gradients of
# a loss that sums the lookup, as script s520's)
@pytest.mark.parametrize("idx, weights", [
    ([1, 1, 1, 2], False), ([[0, 3, 3], [3, 4, 0]], False), ([2] * 7, False),
    ([1, 1, 2, 2, 2, 2, 0], True), ([[3, 3], [4, 3], [3, 0]], True)])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_embedding_scale_grad_by_freq_bits_as_pytorch(idx, weights, dtype, torch_float64):
    grads = []
    for L in (tg, torch_float64):
        w = L.ones(5, 2, dtype=getattr(L, dtype), requires_grad=True)
        out = L.nn.functional.embedding(L.tensor(idx), w, scale_grad_by_freq=True)
        if weights:
            out = out * L.linspace(0.3, 1.7, out.numel(), dtype=w.dtype).reshape(out.shape)
        out.sum().backward()
        grads.append(w.grad.numpy())
    np.testing.assert_array_equal(grads[0], grads[1])


# ---- embedding: indices that are not Long or Int refused in PyTorch's words ------------------
@pytest.mark.parametrize("dtype", ["float64", "float32", "uint8", "int16", "bool"])
def test_embedding_indices_of_another_dtype_refused_as_pytorch(dtype, raises_as_torch):
    raises_as_torch(lambda L: L.nn.functional.embedding(
        L.tensor([1, 0], dtype=getattr(L, dtype)), L.ones(3, 2)))
    raises_as_torch(lambda L: L.nn.Embedding(3, 2)(L.tensor([1], dtype=getattr(L, dtype))))


# ---- softmax, log_softmax, softmin without dim: PyTorch's deprecated implicit dim, warned ----
@pytest.mark.parametrize("shape", [(), (4,), (2, 3), (2, 3, 4), (2, 3, 2, 2)])
@pytest.mark.parametrize("call", [
    lambda L, x: L.nn.functional.softmax(x), lambda L, x: L.nn.functional.log_softmax(x),
    lambda L, x: L.nn.functional.softmin(x), lambda L, x: L.nn.Softmax()(x),
    lambda L, x: L.nn.LogSoftmax()(x), lambda L, x: L.nn.Softmin()(x),
    lambda L, x: L.nn.functional.softmax(x, dtype=L.float32)])
def test_softmax_without_dim_as_pytorch(call, shape, torch_float64):
    import math
    values = np.sin(np.arange(math.prod(shape), dtype=np.float64)).reshape(shape)
    out = []
    for L in (tg, torch_float64):
        with pytest.warns(UserWarning, match=r"^Implicit dimension choice for \w+ has been "
                          r"deprecated\. Change the call to include dim=X as an argument\.$"):
            y = call(L, L.tensor(values))
        out.append((str(y.dtype), y.numpy()))
    assert out[0][0] == out[1][0]
    np.testing.assert_allclose(out[0][1], out[1][1], rtol=1e-6 if "32" in out[0][0] else 1e-14)


@pytest.mark.parametrize("value", [0.7, float("inf"), float("nan")])
def test_softmin_of_a_0d_tensor_as_pytorch(value, torch_float64):
    out = []
    for L in (tg, torch_float64):
        x = L.tensor(value, requires_grad=True)
        y = L.nn.functional.softmin(x, dim=0)
        y.backward()
        out.append((y.item(), x.grad.item()))
    np.testing.assert_array_equal(out[0], out[1])
