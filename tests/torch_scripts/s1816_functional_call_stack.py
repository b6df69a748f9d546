# torch.func.functional_call: partial dicts, strict, tied weights, buffers; stack_module_state
import copy
import torch
import torch.nn as nn
from torch.func import functional_call, stack_module_state, vmap

net = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
with torch.no_grad():
    net[0].weight.copy_(torch.eye(2))
    net[0].bias.zero_()
net.eval()
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(functional_call(net, {"0.weight": 2 * torch.eye(2)}, (x,)))
print(functional_call(net, ({"0.bias": torch.ones(2)}, {"1.running_mean": torch.ones(2)}), x))
try:
    functional_call(net, {"0.weight": torch.eye(2)}, (x,), strict=True)
except RuntimeError as e:
    print("RuntimeError", str(e).split("\n")[0])
try:
    functional_call(net, {"nope": torch.eye(2)}, (x,))
except Exception as e:
    print(type(e).__name__)
print(net[0].weight)


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(2, 2, bias=False)
        self.b = self.a

    def forward(self, x):
        return self.b(self.a(x))


t = Tied()
print(functional_call(t, {"a.weight": 2 * torch.eye(2)}, (x,)))
print(functional_call(t, {"a.weight": 2 * torch.eye(2)}, (x,), tie_weights=False).shape)
models = [nn.Linear(2, 1) for _ in range(3)]
for i, m in enumerate(models):
    with torch.no_grad():
        m.weight.fill_(float(i))
        m.bias.fill_(1.0)
params, buffers = stack_module_state(models)
print({k: v.shape for k, v in params.items()}, buffers)
print(params["weight"].requires_grad, params["weight"].is_leaf)
base = copy.deepcopy(models[0]).to("meta")


def call(p, b, inp):
    return functional_call(base, (p, b), (inp,))


print(vmap(call, in_dims=(0, 0, None))(params, buffers, x).detach())  # (grad_fn: docs/limits.md)
print(functional_call(net, {}, x, kwargs=None).shape)
