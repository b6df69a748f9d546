# register_parametrization: a symmetric weight; original is stored, printed module shows it
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P

class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(0, 1)

lin = nn.Linear(3, 3, bias=False)
with torch.no_grad():
    lin.weight.copy_(torch.arange(9.0).reshape(3, 3))
P.register_parametrization(lin, "weight", Symmetric())
print(lin.weight)
print(P.is_parametrized(lin), P.is_parametrized(lin, "bias"))
print([n for n, _ in lin.named_parameters()])
lin(torch.ones(1, 3)).sum().backward()
print(lin.parametrizations.weight.original.grad)
P.remove_parametrizations(lin, "weight", leave_parametrized=True)
print([n for n, _ in lin.named_parameters()], lin.weight)
