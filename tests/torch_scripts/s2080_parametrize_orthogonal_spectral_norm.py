import torch
import torch.nn as nn
from torch.nn.utils import parametrizations, parametrize

lin = nn.Linear(3, 3, bias=False)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[2.0, 0.0, 0.0], [0.0, 1.0, 0.5], [0.0, 0.5, 3.0]]))
sn = parametrizations.spectral_norm(lin, n_power_iterations=20)
sn.eval()
W = sn.weight
print(torch.linalg.matrix_norm(W, 2).round(decimals=4))
print(sorted(k for k in sn.state_dict()))
orth = parametrizations.orthogonal(nn.Linear(3, 3, bias=False))
Q = orth.weight
print(torch.allclose(Q @ Q.T, torch.eye(3), atol=1e-6), Q.shape)
class Positive(nn.Module):
    def forward(self, X):
        return X.exp()
    def right_inverse(self, Y):
        return Y.log()
m = nn.Linear(2, 2)
parametrize.register_parametrization(m, "bias", Positive())
m.bias = torch.tensor([1.0, 2.0])
print(m.bias, m.parametrizations.bias.original.round(decimals=5))
parametrize.register_parametrization(m, "bias", Positive())
print(len(m.parametrizations.bias), m.bias.round(decimals=4))
x = torch.ones(1, 2)
m(x).sum().backward()
print(m.parametrizations.bias.original.grad.round(decimals=4))
parametrize.remove_parametrizations(m, "bias", leave_parametrized=False)
print(m.bias.round(decimals=5), type(m.bias).__name__)
print(type(m).__name__, m.__class__.__name__ == "Linear")
