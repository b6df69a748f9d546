# parameters_to_vector / vector_to_parameters round trip and flat grads
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
v = torch.arange(9.0)
vector_to_parameters(v, net.parameters())
print(net[0].weight, net[1].bias)
print(parameters_to_vector(net.parameters()))
net(torch.tensor([[1.0, -1.0]])).sum().backward()
print(torch.cat([p.grad.flatten() for p in net.parameters()]))
print(sum(p.numel() for p in net.parameters() if p.requires_grad))
