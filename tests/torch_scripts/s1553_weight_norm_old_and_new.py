# weight normalisation: nn.utils.weight_norm (hooks) vs parametrizations.weight_norm
import torch
import torch.nn as nn
from torch.nn.utils import parametrizations

torch.nn.utils.weight_norm
lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0, 2.0], [0.0, 3.0, 4.0]]))
p = parametrizations.weight_norm(lin)
print(sorted(n for n, _ in p.named_parameters()))
g = p.parametrizations.weight.original0
v = p.parametrizations.weight.original1
print(g.shape, g.flatten(), v.shape)
out = p(torch.ones(1, 3))
out.sum().backward()
print(g.grad.flatten(), v.grad)
conv = nn.Conv1d(2, 3, 2)
with torch.no_grad():
    conv.weight.copy_(torch.arange(12.0).reshape(3, 2, 2) / 10)
c = parametrizations.weight_norm(conv, dim=0)
print(c.parametrizations.weight.original0.shape)
lin2 = nn.Linear(3, 2)
with torch.no_grad():
    lin2.weight.copy_(torch.tensor([[1.0, 2.0, 2.0], [0.0, 3.0, 4.0]]))
w2 = parametrizations.weight_norm(lin2, dim=None)
print(w2.parametrizations.weight.original0)
print(torch._weight_norm(torch.tensor([[3.0, 4.0]]), torch.tensor([[10.0]]), 0))
