# BatchNorm1d/2d, LayerNorm, GroupNorm, InstanceNorm outputs on fixed data; running stats after train steps
import torch
import torch.nn as nn

x = torch.arange(24.0).view(2, 3, 4) / 5
bn = nn.BatchNorm1d(3, momentum=0.2)
y = bn(x)
print(y.mean(dim=(0, 2)).abs().max() < 1e-6, bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(x)[0, 0])
ln = nn.LayerNorm(4, elementwise_affine=False)
print(ln(x)[1].round(decimals=4))
ln2 = nn.LayerNorm([3, 4], eps=1e-3)
print(ln2(x).std(dim=(1, 2), unbiased=False))
gn = nn.GroupNorm(1, 3)
print(gn(x)[0].round(decimals=4))
inorm = nn.InstanceNorm1d(3, affine=True, track_running_stats=True)
print(inorm(x)[0, 0].round(decimals=4), inorm.running_mean)
bn2 = nn.BatchNorm2d(2, momentum=None)
for k in range(3):
    bn2(torch.arange(16.0).view(2, 2, 2, 2) * (k + 1))
print(bn2.running_mean, bn2.running_var.round(decimals=4), bn2.num_batches_tracked)
print(nn.BatchNorm1d(3, affine=False).state_dict().keys())
rms = nn.RMSNorm(4)
print(rms(x)[0].round(decimals=4))
