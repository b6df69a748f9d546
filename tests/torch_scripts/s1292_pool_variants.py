# pooling: AvgPool count_include_pad, ceil_mode, MaxPool return_indices + MaxUnpool, adaptive
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(25.0).reshape(1, 1, 5, 5)
print(nn.AvgPool2d(3, stride=2, padding=1)(x)[0, 0])
print(nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False)(x)[0, 0])
print(nn.MaxPool2d(2, ceil_mode=True)(x)[0, 0])
out, idx = nn.MaxPool2d(2, return_indices=True)(x)
print(out[0, 0], idx[0, 0])
print(nn.MaxUnpool2d(2)(out, idx, output_size=x.shape)[0, 0])
print(F.adaptive_avg_pool2d(x, (2, 3))[0, 0], F.adaptive_max_pool1d(x[0], 2)[0])
