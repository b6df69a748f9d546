# the old torch.nn.utils.spectral_norm (hooks, weight_orig/_u/_v) and remove_spectral_norm
import torch
import torch.nn as nn
from torch.nn.utils import spectral_norm, remove_spectral_norm

lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[2.0, 0.0, 0.0], [0.0, 1.0, 0.0]]))
sn = spectral_norm(lin, n_power_iterations=30)
print(sorted(n for n, _ in sn.named_parameters()), sorted(n for n, _ in sn.named_buffers()))
sn(torch.ones(1, 3))
sn.eval()
y = sn(torch.tensor([[1.0, 1.0, 1.0]]))
print(y.detach() - sn.bias.detach())
print(sn.weight)
print(list(sn.state_dict()))
remove_spectral_norm(sn)
print(sorted(n for n, _ in sn.named_parameters()), type(sn.weight).__name__)
print(sn.weight)
try:
    spectral_norm(nn.Linear(2, 2), name="nope")
except (AttributeError, KeyError) as e:
    print(type(e).__name__, str(e)[:80])
