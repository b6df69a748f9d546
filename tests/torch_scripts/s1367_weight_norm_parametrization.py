# weight_norm (parametrizations) on Linear: g and v, gradients, removal
import torch
import torch.nn as nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import weight_norm

lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[3.0, 4.0], [1.0, 0.0]]))
    lin.bias.zero_()
lin = weight_norm(lin)
print(lin.parametrizations.weight.original0)
print(lin.parametrizations.weight.original1)
print(lin.weight)
x = torch.tensor([[1.0, 2.0]])
lin(x).pow(2).sum().backward()
print(lin.parametrizations.weight.original0.grad)
print(lin.parametrizations.weight.original1.grad)
parametrize.remove_parametrizations(lin, "weight")
print(lin.weight)
