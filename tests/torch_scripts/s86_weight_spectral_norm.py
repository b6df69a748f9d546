import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import weight_norm, spectral_norm

torch.manual_seed(0)
lin = weight_norm(nn.Linear(4, 3))
print(type(lin).__name__)
print(sorted(n for n, _ in lin.named_parameters()))
g = lin.parametrizations.weight.original0
v = lin.parametrizations.weight.original1
print(g.shape, v.shape)
w = lin.weight
print(w.shape, torch.allclose(w, g * v / v.norm(dim=1, keepdim=True)))
lin(torch.randn(2, 4)).sum().backward()
print(g.grad.shape, v.grad.shape, lin.bias.grad.shape)

lin0 = weight_norm(nn.Linear(4, 3), dim=None)
print(lin0.parametrizations.weight.original0.shape)

sn = spectral_norm(nn.Linear(5, 4))
print(sorted(n for n, _ in sn.named_parameters()))
print(sorted(n for n, _ in sn.named_buffers()))
for _ in range(20):
    sn(torch.randn(3, 5))
sigma = torch.linalg.matrix_norm(sn.weight.detach(), ord=2)
print(abs(sigma.item() - 1.0) < 1e-2)
sn.eval()
print(sn.weight.shape, sn.training)
