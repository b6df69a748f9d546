# nn.utils.parametrize: symmetric and positive weights, right_inverse, caching, removal
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P

class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

class Positive(nn.Module):
    def forward(self, X):
        return X.exp()
    def right_inverse(self, Y):
        return Y.log()

lin = nn.Linear(3, 3, bias=True)
with torch.no_grad():
    lin.weight.copy_(torch.arange(9.0).reshape(3, 3) / 10)
    lin.bias.copy_(torch.tensor([1.0, 2.0, 3.0]))
P.register_parametrization(lin, "weight", Symmetric())
P.register_parametrization(lin, "bias", Positive())
print(P.is_parametrized(lin), P.is_parametrized(lin, "bias"), type(lin).__name__)
print(lin.weight)
print(lin.parametrizations.bias.original.round(decimals=6))
print(sorted(k for k, _ in lin.named_parameters()))
lin.bias = torch.tensor([2.0, 2.0, 2.0])
print(lin.bias.round(decimals=6), lin.parametrizations.bias.original.round(decimals=6))
with P.cached():
    print(lin.weight is lin.weight)
P.remove_parametrizations(lin, "weight", leave_parametrized=True)
print(lin.weight, P.is_parametrized(lin, "weight"))
