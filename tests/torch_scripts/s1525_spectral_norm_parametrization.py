# spectral norm through torch.nn.utils.parametrizations: sigma near 1, the parametrized weight
import torch
import torch.nn as nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import spectral_norm

lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[3.0, 0.0, 1.0], [0.0, 2.0, 0.0]]))
sn = spectral_norm(lin, n_power_iterations=20)
print(parametrize.is_parametrized(sn), parametrize.is_parametrized(sn, "weight"))
print(type(sn.parametrizations.weight[0]).__name__)
print(sorted(n for n, _ in sn.named_parameters()))
print(sorted(n for n, _ in sn.named_buffers()))
sn.eval()
W = sn.weight
print(round(torch.linalg.matrix_norm(W, 2).item(), 6))
print(W.grad_fn is not None, W.requires_grad)
print(sn.parametrizations.weight.original)
out = sn(torch.ones(1, 3))
out.sum().backward()
print(sn.parametrizations.weight.original.grad.shape)
parametrize.remove_parametrizations(sn, "weight", leave_parametrized=True)
print(parametrize.is_parametrized(sn), round(torch.linalg.matrix_norm(sn.weight, 2).item(), 6))
print(type(sn.weight).__name__)
