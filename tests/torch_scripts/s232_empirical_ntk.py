import torch
import torch.nn as nn
from torch.func import functional_call, jacrev, vmap

net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) + i).reshape(p.shape) * 0.7)
params = {k: v.detach() for k, v in net.named_parameters()}
x1 = torch.tensor([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]])
x2 = torch.tensor([[1.0, 1.0], [-1.0, 0.3]])

def f(p, x):
    return functional_call(net, p, (x.unsqueeze(0),)).squeeze()

J1 = vmap(jacrev(f), (None, 0))(params, x1)
J2 = vmap(jacrev(f), (None, 0))(params, x2)
print(sorted(J1), J1["0.weight"].shape, J2["2.bias"].shape)
ntk = sum(torch.einsum("a...,b...->ab", J1[k].flatten(1), J2[k].flatten(1)) for k in J1)
print(ntk.round(decimals=6))
full = torch.autograd.functional.jacobian(lambda *ps: functional_call(net, dict(zip(params, ps)), (x1,)).squeeze(1), tuple(params.values()))
print([j.shape for j in full])
alt = sum(a.flatten(1) @ b.flatten(1).T for a, b in zip(full, full))
print(torch.allclose(alt, sum(torch.einsum("a...,b...->ab", J1[k].flatten(1), J1[k].flatten(1)) for k in J1)))
half = {"0.weight": torch.zeros(8, 2)}
print(functional_call(net, half, (x1,), strict=False).squeeze(), net[0].weight.abs().sum() > 0)
try:
    functional_call(net, half, (x1,), strict=True)
except RuntimeError as e:
    print("RuntimeError", "Missing key(s)" in str(e))
out = functional_call(net, ({"2.bias": torch.tensor([10.0])}, {"0.bias": torch.zeros(8)}), x1)
print(out.squeeze().round(decimals=5))
grads = torch.func.grad(lambda p: f(p, x1[0]))(params)
print({k: tuple(v.shape) for k, v in grads.items()}, grads["2.bias"])
