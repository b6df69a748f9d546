import torch
import torch.nn as nn
from torch.nn.utils import parametrizations, parametrize

lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[3.0, 0.0, 4.0], [1.0, 2.0, 2.0]]))
    lin.bias.zero_()
wn = parametrizations.weight_norm(lin, name="weight", dim=0)
print(type(wn.parametrizations.weight).__name__)
print(sorted(n for n, _ in wn.named_parameters()))
print(wn.parametrizations.weight.original0.squeeze())
print(wn.parametrizations.weight.original1)
print(wn.weight)
x = torch.tensor([[1.0, 1.0, 1.0]])
wn(x).sum().backward()
print(wn.parametrizations.weight.original0.grad.squeeze().round(decimals=6))
print(wn.parametrizations.weight.original1.grad.round(decimals=6))
print(parametrize.is_parametrized(wn), parametrize.is_parametrized(wn, "bias"))
parametrize.remove_parametrizations(wn, "weight", leave_parametrized=True)
print(parametrize.is_parametrized(wn), wn.weight)

lin2 = nn.Linear(2, 2, bias=False)
with torch.no_grad():
    lin2.weight.copy_(torch.tensor([[2.0, 0.0], [0.0, 0.5]]))
class Sym(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).T
parametrize.register_parametrization(lin2, "weight", Sym())
with torch.no_grad():
    lin2.parametrizations.weight.original.copy_(torch.tensor([[1.0, 2.0], [9.0, 3.0]]))
print(lin2.weight)
with parametrize.cached():
    print(lin2.weight is lin2.weight)
print(lin2(torch.tensor([[1.0, 0.0]])))
