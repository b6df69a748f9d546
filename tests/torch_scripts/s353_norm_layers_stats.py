import torch
import torch.nn as nn

x = torch.linspace(-2, 3, 4 * 3 * 5).view(4, 3, 5).sin() * 3 + 1
bn = nn.BatchNorm1d(3, momentum=None)
for i in range(3):
    bn(x * (i + 1))
print(bn.running_mean.round(decimals=5), bn.running_var.round(decimals=5), bn.num_batches_tracked)
bn2 = nn.BatchNorm1d(3, track_running_stats=False, affine=False)
y = bn2(x)
print(bn2.running_mean, y.mean(dim=(0, 2)).abs().max() < 1e-12)
bn2.eval()
print(torch.allclose(bn2(x), y))
bn3 = nn.BatchNorm1d(3, momentum=0.3, eps=1e-3)
bn3(x)
bn3.eval()
print(bn3(x)[0, 0].round(decimals=5))
gn = nn.GroupNorm(1, 3)
gn3 = nn.GroupNorm(3, 3, affine=False)
print(gn(x)[0].mean().abs() < 1e-12, torch.allclose(gn3(x), nn.InstanceNorm1d(3)(x)))
inn = nn.InstanceNorm1d(3, affine=True, track_running_stats=True, momentum=0.5)
inn(x)
print(inn.running_mean.round(decimals=5), inn.running_var.round(decimals=5))
inn.eval()
print(inn(x)[1, 2].round(decimals=5))
ln = nn.LayerNorm([3, 5], elementwise_affine=False)
print(ln(x)[2].std(unbiased=False).round(decimals=6), nn.LayerNorm(5, bias=False))
rms = nn.RMSNorm(5, eps=1e-6)
print(rms(x)[0, 0].round(decimals=5), rms)
x2 = x.clone().requires_grad_(True)
w = torch.arange(60.0).view(4, 3, 5).cos()
(nn.BatchNorm1d(3)(x2) * w).sum().backward()
print(x2.grad[0].round(decimals=5))
bn2d = nn.BatchNorm2d(2)
img = torch.arange(2 * 2 * 3 * 3.0).view(2, 2, 3, 3) ** 0.5
out = bn2d(img)
print(out[1, 1].round(decimals=4), bn2d.running_var.round(decimals=5))
print(bn, bn2, gn, inn)
try:
    nn.BatchNorm1d(3)(torch.ones(1, 3))
except ValueError as e:
    print("ValueError:", e)
