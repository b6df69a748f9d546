import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P

class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.T
    def right_inverse(self, A):
        return A.triu(1)

lin = nn.Linear(3, 3, bias=False)
with torch.no_grad():
    lin.weight.copy_(torch.arange(9.0).view(3, 3))
P.register_parametrization(lin, "weight", Symmetric())
print(lin.weight)
print(P.is_parametrized(lin), P.is_parametrized(lin, "bias"), type(lin).__name__)
print(list(dict(lin.named_parameters()).keys()))
print(lin.parametrizations.weight.original.shape)
out = lin(torch.ones(1, 3))
out.sum().backward()
print(lin.parametrizations.weight.original.grad)
rot = nn.Linear(3, 3, bias=False)
P.register_parametrization(rot, "weight", Skew())
P.register_parametrization(rot, "weight", type("Expm", (nn.Module,), {"forward": lambda self, X: torch.matrix_exp(X)})())
rot.parametrizations.weight.original.data = torch.tensor([[0.0, 0.3, -0.2], [0.0, 0.0, 0.5], [0.0, 0.0, 0.0]])
W = rot.weight
print(torch.allclose(W @ W.T, torch.eye(3)), round(torch.linalg.det(W).item(), 6))
with P.cached():
    a = lin.weight
    b = lin.weight
    print(a is b)
P.remove_parametrizations(lin, "weight", leave_parametrized=True)
print(P.is_parametrized(lin), lin.weight.requires_grad, type(lin.weight).__name__)
print(lin.weight)
