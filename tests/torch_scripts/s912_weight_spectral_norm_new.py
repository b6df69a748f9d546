# parametrizations.weight_norm and orthogonal; weight_g / weight_v by new names original0/1
import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import weight_norm

lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[3.0, 0.0, 4.0], [1.0, 2.0, 2.0]]))
    lin.bias.zero_()
weight_norm(lin)
print(lin.parametrizations.weight.original0, lin.parametrizations.weight.original1)
print(lin.weight)
with torch.no_grad():
    lin.parametrizations.weight.original0.mul_(2)
print(lin.weight)
y = lin(torch.tensor([[1.0, 1.0, 1.0]])).sum()
y.backward()
print(lin.parametrizations.weight.original0.grad.round(decimals=6))
print(lin.parametrizations.weight.original1.grad.round(decimals=6))
lin2 = weight_norm(nn.Linear(2, 2), dim=None)
print(lin2.parametrizations.weight.original0.shape)
