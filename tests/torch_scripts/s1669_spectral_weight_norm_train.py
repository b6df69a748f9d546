# Training with parametrizations: weight_norm on a hidden layer and spectral_norm on the
# critic's layers (torch.nn.utils.parametrizations), parametrized names in state_dict,
# removing the parametrization afterwards (full-rank init: QR of it is then unique)
import numpy as np
import torch
import torch.nn as nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import weight_norm, orthogonal

rng = np.random.default_rng(191)
X = torch.from_numpy(rng.standard_normal((32, 4)))
y = torch.from_numpy(np.tanh(rng.standard_normal((32, 1))))

net = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 6), nn.Tanh(), nn.Linear(6, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.from_numpy(np.random.default_rng(i).normal(0, 0.5, tuple(p.shape))))
weight_norm(net[0], name="weight", dim=0)
orthogonal(net[2])
print(list(dict(net.named_parameters()).keys()))
print(parametrize.is_parametrized(net[0]), parametrize.is_parametrized(net[4]))
print(net[0].parametrizations.weight.original0.shape, net[0].parametrizations.weight.original1.shape)
W2 = net[2].weight
print("orthogonal", torch.allclose(W2 @ W2.T, torch.eye(6), atol=1e-10))
opt = torch.optim.Adam(net.parameters(), lr=0.02)
for step in range(8):
    opt.zero_grad()
    loss = nn.functional.mse_loss(net(X), y)
    loss.backward()
    opt.step()
    if step % 2 == 1:
        print(step, f"{loss.item():.6f}")
W2 = net[2].weight
print("still orthogonal", torch.allclose(W2 @ W2.T, torch.eye(6), atol=1e-10))
g = net[0].parametrizations.weight.original0
print(g.detach().view(-1).numpy().round(5))
print(torch.allclose(net[0].weight.norm(dim=1), g.view(-1).abs()))
with parametrize.cached():
    a = net[0].weight
    b = net[0].weight
print("cached same object", a is b)
print(sorted(net.state_dict().keys())[:4])
before = net(X[:3]).detach()
parametrize.remove_parametrizations(net[0], "weight", leave_parametrized=True)
print(type(net[0].weight).__name__, parametrize.is_parametrized(net[0]))
print(torch.allclose(before, net(X[:3])), before.view(-1).numpy().round(6))
