import torch
import torch.nn as nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import orthogonal, weight_norm, spectral_norm


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


lin = nn.Linear(3, 3)
with torch.no_grad():
    lin.weight.copy_(torch.arange(9.0).reshape(3, 3))
parametrize.register_parametrization(lin, "weight", Symmetric())
print(lin.weight)
print(parametrize.is_parametrized(lin), parametrize.is_parametrized(lin, "bias"))
print(type(lin.parametrizations.weight).__name__, lin.parametrizations.weight.original.shape)
lin(torch.ones(1, 3)).sum().backward()
print(lin.parametrizations.weight.original.grad)
parametrize.remove_parametrizations(lin, "weight", leave_parametrized=True)
print(parametrize.is_parametrized(lin), lin.weight)
o = orthogonal(nn.Linear(4, 4))
W = o.weight
print(torch.allclose(W @ W.T, torch.eye(4), atol=1e-6))
wn = weight_norm(nn.Linear(3, 2))
with torch.no_grad():
    wn.parametrizations.weight.original1.copy_(torch.tensor([[3.0, 0.0, 4.0], [1.0, 2.0, 2.0]]))
    wn.parametrizations.weight.original0.copy_(torch.tensor([[1.0], [6.0]]))
print(wn.weight)
sn = spectral_norm(nn.Linear(3, 3))
print(sorted(n for n, _ in sn.named_parameters()))
