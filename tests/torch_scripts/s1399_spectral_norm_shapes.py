# spectral_norm parametrization: keys, buffers, and that sigma normalises the weight
import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import spectral_norm

torch.manual_seed(0)
lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[3.0, 0.0, 0.0], [0.0, 1.0, 0.0]]))
sn = spectral_norm(lin, n_power_iterations=20)
print(sorted(k for k in sn.state_dict().keys()))
for _ in range(5):
    W = sn.weight
print(torch.linalg.matrix_norm(W, 2).item() < 1.0001, W.shape)
print(torch.round(W, decimals=4))
sn.eval()
print(torch.round(sn.weight, decimals=4))
