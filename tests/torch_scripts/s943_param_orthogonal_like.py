# parametrize with a module that has its own parameter, chained parametrizations, and state_dict keys
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P

class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.s = nn.Parameter(torch.tensor(2.0))
    def forward(self, X):
        return X * self.s

class NoDiag(nn.Module):
    def forward(self, X):
        return X - torch.diag_embed(X.diagonal())

lin = nn.Linear(2, 2, bias=False)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
P.register_parametrization(lin, "weight", NoDiag())
P.register_parametrization(lin, "weight", Scale())
print(lin.weight)
print(list(lin.state_dict().keys()))
print(len(lin.parametrizations.weight), [type(m).__name__ for m in lin.parametrizations.weight])
lin(torch.tensor([[1.0, 1.0]])).sum().backward()
print(lin.parametrizations.weight.original.grad, lin.parametrizations.weight[1].s.grad)
P.remove_parametrizations(lin, "weight", leave_parametrized=False)
print(lin.weight, type(lin.weight).__name__)
