import torch
import torch.nn as nn
from torch.nn.utils import parametrizations, parametrize

torch.manual_seed(0)
lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0, 2.0], [0.0, 3.0, 4.0]]))
    lin.bias.zero_()
wn = parametrizations.weight_norm(lin)
print(sorted(n for n, _ in wn.named_parameters()))
print(wn.parametrizations.weight.original0.flatten())
print(parametrize.is_parametrized(wn), parametrize.is_parametrized(wn, "bias"))
x = torch.tensor([[1.0, 0.0, -1.0]])
print(wn(x))
wn(x).sum().backward()
print(wn.parametrizations.weight.original0.grad.flatten())
print(wn.parametrizations.weight.original1.grad)
parametrize.remove_parametrizations(wn, "weight")
print(sorted(n for n, _ in wn.named_parameters()), wn.weight)
sn = parametrizations.spectral_norm(nn.Linear(3, 3))
print(type(sn.parametrizations.weight[0]).__name__)
