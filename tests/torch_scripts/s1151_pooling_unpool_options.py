# MaxPool2d return_indices + MaxUnpool2d, AvgPool count_include_pad/ceil_mode/divisor_override, LPPool, AdaptiveMaxPool indices
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[[[1.0, 5.0, 2.0, 0.0], [3.0, 4.0, 8.0, 7.0], [0.0, 1.0, 6.0, 2.0], [9.0, 2.0, 3.0, 4.0]]]])
pool = nn.MaxPool2d(2, stride=2, return_indices=True)
out, idx = pool(x)
print(out, idx)
print(nn.MaxUnpool2d(2, stride=2)(out, idx))
print(F.max_unpool2d(out, idx, 2, output_size=(1, 1, 5, 5)).shape)
print(F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False), F.avg_pool2d(x, 3, stride=2, padding=1))
print(F.avg_pool2d(x, 3, stride=2, ceil_mode=True), F.avg_pool2d(x, 2, divisor_override=3))
print(nn.LPPool2d(2, 2)(x), nn.LPPool1d(1, 2)(x[0]))
print(F.adaptive_max_pool2d(x, (2, 1), return_indices=True))
print(F.max_pool1d(x[0], kernel_size=3, stride=1, dilation=2, padding=1))
y = x.clone().requires_grad_()
F.max_pool2d(y, 2, stride=1).sum().backward()
print(y.grad)
