# parameters_to_vector / vector_to_parameters for a flat-parameter optimizer
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
with torch.no_grad():
    vector_to_parameters(torch.linspace(-1, 1, 13), net.parameters())
print(net[0].weight, net[2].bias)
v = parameters_to_vector(net.parameters())
print(v.shape, v.requires_grad, v.grad_fn is not None)
x = torch.tensor([[0.5, -1.0], [2.0, 1.0]])
loss = net(x).pow(2).sum()
g = torch.autograd.grad(loss, list(net.parameters()))
gv = parameters_to_vector(g)
print(gv)
with torch.no_grad():
    vector_to_parameters(v - 0.1 * gv, net.parameters())
print(net(x).pow(2).sum())
try:
    vector_to_parameters([1.0], net.parameters())
except TypeError as e:
    print("TypeError:", e)
