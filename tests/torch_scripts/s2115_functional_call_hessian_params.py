import torch
import torch.nn as nn
from torch.func import functional_call, hessian, jacrev

model = nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p) + 0.1 * i)
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.tensor([[0.3, -0.7], [1.0, 0.2]])
y = torch.tensor([[0.5], [-0.1]])

def loss_fn(p, x, y):
    return ((functional_call(model, p, (x,)) - y) ** 2).mean()

print(round(loss_fn(params, x, y).item(), 6))
g = jacrev(loss_fn)(params, x, y)
print({k: tuple(v.shape) for k, v in g.items()})
print(g["2.bias"].round(decimals=5))

def loss_last(w):
    p = dict(params)
    p["2.weight"] = w
    return loss_fn(p, x, y)
H = hessian(loss_last)(params["2.weight"])
print(H.shape)
print(H.reshape(2, 2).round(decimals=5))
new = {k: torch.zeros_like(v) for k, v in params.items()}
print(functional_call(model, new, (x,)).flatten().tolist())
print(torch.equal(model[0].weight, params["0.weight"]))
out = functional_call(model, ({"0.weight": torch.eye(2)}, {"0.bias": torch.zeros(2)}), (x,), strict=False)
print(out.detach().round(decimals=4).flatten())
