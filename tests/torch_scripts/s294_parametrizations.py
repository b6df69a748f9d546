import torch
import torch.nn as nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import orthogonal, spectral_norm, weight_norm

lin = nn.Linear(4, 3)
with torch.no_grad():
    lin.weight.copy_(torch.arange(12.).view(3, 4) / 10 - 0.5)
wn = weight_norm(lin, name="weight", dim=0)
print(type(wn.parametrizations.weight).__name__)
print(sorted(n for n, _ in wn.named_parameters()))
g = wn.parametrizations.weight.original0
v = wn.parametrizations.weight.original1
print(g.shape, v.shape)
print(torch.allclose(wn.weight, lin.weight), parametrize.is_parametrized(wn, "weight"))
out = wn(torch.ones(2, 4))
out.sum().backward()
print([round(t, 6) for t in g.grad.flatten().tolist()])


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


layer = nn.Linear(3, 3)
with torch.no_grad():
    layer.weight.copy_(torch.arange(9.).view(3, 3))
parametrize.register_parametrization(layer, "weight", Symmetric())
print(layer.weight)
print(layer.parametrizations.weight.original)
with parametrize.cached():
    a = layer.weight
    b = layer.weight
print(a is b)
parametrize.remove_parametrizations(layer, "weight", leave_parametrized=True)
print(layer.weight, type(layer).__name__)

q = orthogonal(nn.Linear(3, 3))
W = q.weight
print(torch.allclose(W @ W.T, torch.eye(3), atol=1e-8))
sn = spectral_norm(nn.Linear(5, 4))
with torch.no_grad():
    sn.parametrizations.weight.original.copy_(torch.diag(torch.tensor([3.0, 2.0, 1.0, 0.5]))
                                              @ torch.eye(4, 5))
sn.eval()
for _ in range(30):
    sn.train()
    sn(torch.ones(1, 5))
sn.eval()
print(round(torch.linalg.matrix_norm(sn.weight, 2).item(), 4))
print([n for n, _ in sn.named_buffers()])
try:
    parametrize.register_parametrization(nn.Linear(2, 2), "nope", Symmetric())
except Exception as e:
    print(type(e).__name__, e)
