import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P
from torch.nn.utils import parametrizations


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


lin = nn.Linear(3, 3)
with torch.no_grad():
    lin.weight.copy_(torch.arange(9.0).view(3, 3))
P.register_parametrization(lin, "weight", Symmetric())
print(lin.weight, P.is_parametrized(lin), P.is_parametrized(lin, "bias"))
print(sorted(k for k, _ in lin.named_parameters()), type(lin.parametrizations.weight).__name__)
lin(torch.ones(1, 3)).sum().backward()
print(lin.parametrizations.weight.original.grad)
with P.cached():
    print(lin.weight is lin.weight)
P.remove_parametrizations(lin, "weight", leave_parametrized=True)
print(P.is_parametrized(lin), lin.weight)
o = parametrizations.orthogonal(nn.Linear(4, 4))
W = o.weight
print(torch.allclose(W @ W.T, torch.eye(4), atol=1e-8))
wn = parametrizations.weight_norm(nn.Linear(3, 2), dim=0)
print(sorted(k for k, _ in wn.named_parameters()), wn.parametrizations.weight.original0.shape)
sn = parametrizations.spectral_norm(nn.Linear(5, 3))
print(sorted(k for k in sn.state_dict()), type(sn.parametrizations.weight[0]).__name__)
