# RMSNorm, LocalResponseNorm, GroupNorm affine=False, InstanceNorm1d track_running_stats, LayerNorm bias=False
import torch
import torch.nn as nn

x = torch.arange(24.0).view(2, 4, 3) / 10
print(nn.RMSNorm(3)(x)[0])
print(nn.RMSNorm([4, 3], eps=1e-3, elementwise_affine=False)(x)[1, 0])
print(torch.round(nn.LocalResponseNorm(2)(x.unsqueeze(-1))[0, :, :, 0], decimals=6))
print(nn.GroupNorm(2, 4, affine=False)(x)[0])
inn = nn.InstanceNorm1d(4, track_running_stats=True, momentum=0.5)
y = inn(x)
print(inn.running_mean, inn.running_var)
inn.eval()
print(inn(x)[0, 0])
ln = nn.LayerNorm(3, bias=False)
print([n for n, _ in ln.named_parameters()], torch.round(ln(x)[0, 0], decimals=6))
print(nn.functional.rms_norm(x, (3,)), nn.functional.normalize(x, p=1, dim=-1)[0])
