# nn.utils.parametrizations.weight_norm: g and v, values, grads
import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import weight_norm

lin = nn.Linear(2, 2, bias=False)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[3.0, 4.0], [1.0, 0.0]]))
lin = weight_norm(lin)
print(sorted(n for n, _ in lin.named_parameters()))
print(lin.parametrizations.weight.original0, lin.parametrizations.weight.original1)
print(lin.weight)
lin(torch.tensor([[1.0, 1.0]])).sum().backward()
print(lin.parametrizations.weight.original0.grad, lin.parametrizations.weight.original1.grad)
