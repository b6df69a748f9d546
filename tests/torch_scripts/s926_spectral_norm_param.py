# parametrizations.spectral_norm: power-iteration vectors are buffers; eval mode keeps them fixed
import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import spectral_norm

lin = nn.Linear(2, 2, bias=False)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[3.0, 0.0], [0.0, 1.0]]))
spectral_norm(lin)
print(sorted(k for k, _ in lin.named_buffers()), sorted(k for k, _ in lin.named_parameters()))
print(lin.parametrizations.weight[0].n_power_iterations, lin.parametrizations.weight[0].dim)
for _ in range(5):
    w = lin.weight
print(torch.linalg.matrix_norm(w, ord=2).round(decimals=4))
print(w.round(decimals=4))
lin.eval()
print(lin.weight.round(decimals=4))
print(list(lin.state_dict().keys()))
