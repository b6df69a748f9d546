# torch.nn.utils.parametrize with a custom symmetric parametrization, weight_norm via parametrizations, removal
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P
from torch.nn.utils.parametrizations import weight_norm

class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

lin = nn.Linear(3, 3, bias=False)
with torch.no_grad():
    lin.weight.copy_(torch.arange(9.0).view(3, 3))
P.register_parametrization(lin, "weight", Symmetric())
print(lin.weight)
print(P.is_parametrized(lin), P.is_parametrized(lin, "weight"), P.is_parametrized(lin, "bias"))
print(sorted(n for n, _ in lin.named_parameters()))
print(type(lin.parametrizations.weight).__name__, len(lin.parametrizations.weight))
lin(torch.ones(1, 3)).sum().backward()
print(lin.parametrizations.weight.original.grad)
with P.cached():
    a = lin.weight
    b = lin.weight
    print(a is b)
P.remove_parametrizations(lin, "weight", leave_parametrized=True)
print(P.is_parametrized(lin), lin.weight)
m = weight_norm(nn.Linear(2, 2), dim=0)
with torch.no_grad():
    m.parametrizations.weight.original1.copy_(torch.tensor([[3.0, 4.0], [1.0, 0.0]]))
    m.parametrizations.weight.original0.fill_(2.0)
print(m.weight, sorted(n for n, _ in m.named_parameters()))
print(list(m.state_dict().keys()))
