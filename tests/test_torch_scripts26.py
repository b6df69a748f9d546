"""Differences from PyTorch found by the scripts s615 onward (tests/torch_scripts/, run by
test_torch_scripts13.py), each against PyTorch."""
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle


# ---- jit.trace / jit.trace_module of a model: a callable model, as PyTorch's ---------------
def _model(L):
    net = L.nn.Sequential(L.nn.Linear(3, 2), L.nn.Tanh())
    with L.no_grad():
        net[0].weight.copy_(L.tensor([[1.0, -1.0, 0.5], [0.2, 0.3, -0.4]]))
        net[0].bias.copy_(L.tensor([0.1, -0.2]))
    return net


@pytest.mark.parametrize("how", [
    lambda L, m, x: L.jit.trace(m, x), lambda L, m, x: L.jit.trace(m, (x,)),
    lambda L, m, x: L.jit.trace(m, example_inputs=x, check_trace=False),
    lambda L, m, x: L.jit.trace_module(m, {"forward": x}),
])
def test_traced_model_runs_as_pytorchs(how, torch_float64):
    def run(L):
        m = _model(L)
        x = L.tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]], requires_grad=True)
        traced = how(L, m, x.detach())
        out = traced(x)
        out.pow(2).sum().backward()
        return [v for t in (out, x.grad, m[0].weight.grad) for v in t.flatten().tolist()]
    assert run(tg) == pytest.approx(run(torch_float64), rel=1e-12)


def test_trace_module_refuses_a_function_in_pytorchs_words(torch_float64):
    for L in (tg, torch_float64):
        with pytest.raises(AttributeError, match="expected torch.nn.Module as the first argument"):
            L.jit.trace_module(lambda x: x, {"forward": L.ones(1)})
