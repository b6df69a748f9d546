# parametrize.register_parametrization with right_inverse, cached(), original, remove_parametrizations leave_parametrized
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P

class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu()

class Scale(nn.Module):
    def forward(self, X):
        return X * 2

lin = nn.Linear(3, 3)
P.register_parametrization(lin, "weight", Symmetric())
lin.weight = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 5.0], [3.0, 5.0, 6.0]])
print(lin.weight, lin.parametrizations.weight.original)
P.register_parametrization(lin, "weight", Scale())
print(lin.weight)
print(P.is_parametrized(lin), P.is_parametrized(lin, "bias"), type(lin).__name__, [n for n, _ in lin.named_parameters()])
with P.cached():
    a = lin.weight
    b = lin.weight
    print(a is b)
x = torch.ones(1, 3)
lin(x).sum().backward()
print(lin.parametrizations.weight.original.grad)
P.remove_parametrizations(lin, "weight", leave_parametrized=True)
print(type(lin).__name__, lin.weight, [n for n, _ in lin.named_parameters()])
