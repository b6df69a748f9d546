import torch
import torch.nn as nn
from torch.nn.utils import weight_norm, remove_weight_norm, spectral_norm, skip_init

lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[3.0, 0.0, 4.0], [1.0, 2.0, 2.0]]))
    lin.bias.zero_()
lin = weight_norm(lin, name="weight", dim=0)
print(sorted(n for n, _ in lin.named_parameters()))
print(lin.weight_g.flatten(), lin.weight_v)
x = torch.tensor([[1.0, 1.0, 1.0]])
out = lin(x)
out.sum().backward()
print(out.detach(), lin.weight_g.grad.flatten(), lin.weight_v.grad.round(decimals=5))
lin = remove_weight_norm(lin)
print(sorted(n for n, _ in lin.named_parameters()), lin.weight.detach())
sk = skip_init(nn.Linear, 4, 2)
print(sk.weight.shape, sk.bias.shape)
conv = weight_norm(nn.Conv1d(2, 2, 3), dim=None)
print(conv.weight_g.shape, conv.weight_v.shape)
sn = spectral_norm(nn.Linear(3, 3), n_power_iterations=3)
print(sorted(n for n, _ in sn.named_parameters()), sorted(n for n, _ in sn.named_buffers()))
