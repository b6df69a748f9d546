# flattening parameters: parameters_to_vector / vector_to_parameters, get_total_norm
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
n = sum(p.numel() for p in net.parameters())
vec = torch.linspace(-1, 1, n)
vector_to_parameters(vec, net.parameters())
print(net[0].weight, net[2].bias)
flat = parameters_to_vector(net.parameters())
print(flat.shape, torch.equal(flat, vec), flat.grad_fn.name())
out = net(torch.tensor([[0.5, -0.5]]))
out.backward()
grads = parameters_to_vector(p.grad for p in net.parameters())
print(grads)
if hasattr(torch.nn.utils, "get_total_norm"):
    print(torch.nn.utils.get_total_norm([p.grad for p in net.parameters()]))
try:
    vector_to_parameters(vec[:-1], net.parameters())
except Exception as e:
    print(type(e).__name__, str(e)[:100])
try:
    parameters_to_vector(torch.ones(3))
except Exception as e:
    print(type(e).__name__, str(e)[:100])
