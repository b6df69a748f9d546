import torch
import torch.nn as nn

torch.set_printoptions(precision=4)
bn = nn.BatchNorm1d(3, momentum=None)  # cumulative moving average
print(bn, bn.momentum)
batches = [torch.stack([torch.arange(4.0) * s + c for c in (0.0, 1.0, -2.0)], dim=1)
           for s in (1.0, 2.0, 0.5)]
for xb in batches:
    out = bn(xb)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
print(out.mean(0).abs().max() < 1e-12, out.var(0, unbiased=False))
bn.eval()
print(bn(batches[0]))
bn2 = nn.BatchNorm1d(3, affine=False, track_running_stats=False)
print(bn2, bn2.running_mean, list(bn2.state_dict().keys()))
bn2.eval()
print(bn2(batches[1])[:2])  # still uses batch statistics
bn3 = nn.BatchNorm2d(2, momentum=0.5, eps=1e-3)
img = torch.arange(2 * 2 * 3 * 3, dtype=torch.float64).view(2, 2, 3, 3) / 10
bn3.train()
y = bn3(img)
print(bn3.running_mean, bn3.running_var)
bn3.reset_running_stats()
print(bn3.running_mean, bn3.running_var, bn3.num_batches_tracked)
sd = bn3.state_dict()
print({k: tuple(v.shape) for k, v in sd.items()})
with torch.no_grad():
    bn3.weight.fill_(2.0)
    bn3.bias.fill_(-1.0)
y = bn3(img)
print(round(y.mean().item(), 6), round(y.std().item(), 4))
