# nn.utils.parametrize: a symmetric weight, its original and gradients
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P

class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

lin = nn.Linear(3, 3, bias=False)
with torch.no_grad():
    lin.weight.copy_(torch.arange(9.0).reshape(3, 3))
P.register_parametrization(lin, "weight", Symmetric())
print(lin.weight)
print(P.is_parametrized(lin), P.is_parametrized(lin, "weight"), P.is_parametrized(lin, "bias"))
print(type(lin.parametrizations.weight).__name__, lin.parametrizations.weight.original.shape)
x = torch.tensor([[1.0, 0.0, -1.0]])
lin(x).sum().backward()
print(lin.parametrizations.weight.original.grad)
print(sorted(lin.state_dict().keys()))
with P.cached():
    print(lin.weight is lin.weight)
P.remove_parametrizations(lin, "weight", leave_parametrized=True)
print(lin.weight, P.is_parametrized(lin))
