# BatchNorm running statistics: momentum=None cumulative average, track_running_stats=False,
# eval mode using running stats, num_batches_tracked, reset_running_stats, affine=False
import torch
import torch.nn as nn

x1 = torch.tensor([[1.0, 2.0], [3.0, 6.0], [5.0, 4.0]])
x2 = x1 * 2 - 1
bn = nn.BatchNorm1d(2, momentum=None)
bn(x1)
bn(x2)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(x1))
bn.reset_running_stats()
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
free = nn.BatchNorm1d(2, track_running_stats=False, affine=False)
print(free.running_mean, free(x1).round(decimals=4) + 0.0, list(free.state_dict().keys()))
free.eval()
print(free(x1).round(decimals=4) + 0.0)
bn2 = nn.BatchNorm1d(2, momentum=0.5)
for _ in range(3):
    bn2(x1)
print(bn2.running_mean, bn2.running_var, bn2)
print(list(bn2.state_dict().keys()))
seq = torch.arange(24.0).view(2, 2, 6)
b3 = nn.BatchNorm1d(2)
print(b3(seq).mean((0, 2)).abs().max().item() < 1e-12, b3.running_mean)
