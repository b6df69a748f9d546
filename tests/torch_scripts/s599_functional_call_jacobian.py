import torch
import torch.nn as nn
from torch.func import functional_call, grad, jacrev, vmap

model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) + 0.2 * i)
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.tensor([[0.5, -1.0], [1.0, 2.0], [0.0, 0.3]])
y = torch.tensor([1.0, -1.0, 0.5])


def loss_fn(p, xi, yi):
    out = functional_call(model, p, (xi.unsqueeze(0),)).squeeze()
    return (out - yi) ** 2


g = grad(loss_fn)(params, x[0], y[0])
print(sorted(g), g["2.bias"])
per_sample = vmap(grad(loss_fn), in_dims=(None, 0, 0))(params, x, y)
print({k: tuple(v.shape) for k, v in per_sample.items()})
model.zero_grad()
((model(x).squeeze(1) - y) ** 2).sum().backward()
print(torch.allclose(per_sample["0.weight"].sum(0), model[0].weight.grad))
J = jacrev(lambda inp: functional_call(model, params, (inp,)))(x[:1])
print(J.shape)
jx = vmap(jacrev(lambda xi: model(xi.unsqueeze(0)).squeeze()))(x)
print(jx.shape, jx.detach().round(decimals=4))
new = {k: torch.zeros_like(v) for k, v in params.items()}
print(functional_call(model, new, (x,)).squeeze(1))
print(functional_call(model, {"2.bias": torch.tensor([5.0])}, x).shape)
