# BatchNorm2d toggling train/eval over several batches, reset_running_stats
import torch
import torch.nn as nn

bn = nn.BatchNorm2d(1, momentum=0.1)
for k in range(3):
    x = torch.arange(8.0).reshape(2, 1, 2, 2) * (k + 1)
    bn.train()
    bn(x)
    bn.eval()
    print(k, bn.running_mean, bn.running_var, bn(x)[0, 0, 0])
print(bn.num_batches_tracked)
bn.reset_running_stats()
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
