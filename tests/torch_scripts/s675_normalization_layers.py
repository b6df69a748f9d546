import torch
import torch.nn as nn

x = torch.sin(torch.arange(2 * 4 * 3 * 3, dtype=torch.float64)).reshape(2, 4, 3, 3).requires_grad_()
gn = nn.GroupNorm(2, 4)
inn = nn.InstanceNorm2d(4, affine=True, track_running_stats=True)
ln = nn.LayerNorm([3, 3], elementwise_affine=False)
bn = nn.BatchNorm2d(4, momentum=None)
lrn = nn.LocalResponseNorm(3)
for m in (gn, inn, ln, bn, lrn):
    y = m(x)
    print(type(m).__name__, y[0, 1, 0].detach().round(decimals=5))
(gn(x).pow(3).sum() + inn(x).pow(2).mean() + bn(x)[:, 0].sum()).backward()
print(x.grad[1, 2].round(decimals=5))
print(inn.running_mean.round(decimals=5), bn.running_var.round(decimals=5), bn.num_batches_tracked)
bn(x.detach())
print(bn.running_mean.round(decimals=5))
inn.eval()
bn.eval()
print(inn(x)[0, 0, 0].detach().round(decimals=5), bn(x)[0, 0, 0].detach().round(decimals=5))
rms = nn.RMSNorm(3, eps=1e-6)
print(rms(x[0, 0]).detach().round(decimals=5))
print(nn.functional.normalize(x[0, 0].detach(), p=1, dim=0).round(decimals=5))
print(nn.functional.layer_norm(x[0, 0].detach(), (3,), weight=torch.tensor([1.0, 2.0, 3.0])).round(decimals=5))
