# Flattening parameters: parameters_to_vector / vector_to_parameters for a line search, counting
# params per layer, and restoring a saved flat vector
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
vec = torch.linspace(-1, 1, sum(p.numel() for p in net.parameters()))
vector_to_parameters(vec, net.parameters())
print(net[0].weight, net[2].bias)
flat = parameters_to_vector(net.parameters())
print(flat.shape, torch.equal(flat, vec), flat.requires_grad, flat.grad_fn is not None)
print({n: p.numel() for n, p in net.named_parameters()})
x = torch.tensor([[0.5, -0.5], [1.0, 2.0]])
y = torch.tensor([[0.2], [0.9]])
def loss_at(v):
    vector_to_parameters(v, net.parameters())
    with torch.no_grad():
        return ((net(x) - y) ** 2).mean().item()
loss_at(vec)
(((net(x) - y) ** 2).mean()).backward()
g = parameters_to_vector(p.grad for p in net.parameters())
for step in [1.0, 0.5, 0.25, 0.125]:
    print(step, round(loss_at(vec - step * g), 8))
vector_to_parameters(vec, net.parameters())
print(round(loss_at(vec), 8))
try:
    vector_to_parameters(vec[:3], net.parameters())
except RuntimeError as e:
    print("RuntimeError", str(e)[:40])
try:
    parameters_to_vector(torch.ones(3))
except TypeError as e:
    print("TypeError")
