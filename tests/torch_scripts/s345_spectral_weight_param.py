import torch
import torch.nn as nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import weight_norm, spectral_norm, orthogonal

torch.manual_seed(0)
lin = nn.Linear(4, 3)
with torch.no_grad():
    lin.weight.copy_(torch.linspace(-1, 1, 12).view(3, 4))
wn = weight_norm(lin, name="weight", dim=0)
print(type(wn.parametrizations.weight).__name__, [n for n, _ in wn.named_parameters()])
print(wn.parametrizations.weight.original0.shape, wn.parametrizations.weight.original1.shape)
print(torch.allclose(wn.weight, torch.linspace(-1, 1, 12).view(3, 4)))
x = torch.linspace(0, 1, 8).view(2, 4)
wn(x).sum().backward()
print(wn.parametrizations.weight.original0.grad.flatten(), wn.parametrizations.weight.original1.grad.sum(1))


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu()


class Scale(nn.Module):
    def forward(self, X):
        return 2 * X

    def right_inverse(self, X):
        return X / 2


m = nn.Linear(3, 3)
parametrize.register_parametrization(m, "weight", Symmetric())
parametrize.register_parametrization(m, "weight", Scale())
print(torch.allclose(m.weight, m.weight.T), parametrize.is_parametrized(m), parametrize.is_parametrized(m, "bias"))
with parametrize.cached():
    a = m.weight
    b = m.weight
    print(a is b)
m.weight = torch.eye(3) * 4
print(m.parametrizations.weight.original)
parametrize.remove_parametrizations(m, "weight", leave_parametrized=True)
print(type(m.weight).__name__, m.weight.diagonal())
o = orthogonal(nn.Linear(3, 3))
Q = o.weight
print(torch.allclose(Q @ Q.T, torch.eye(3), atol=1e-10))
sn = spectral_norm(nn.Linear(4, 4), n_power_iterations=20)
with torch.no_grad():
    sn.parametrizations.weight.original.copy_(torch.diag(torch.tensor([3.0, 1.0, 0.5, 0.2])))
sn.train()
for _ in range(3):
    W = sn.weight
print(round(torch.linalg.matrix_norm(W, 2).item(), 4))
sn.eval()
print(sn.weight.diagonal().round(decimals=4))
print(m)
