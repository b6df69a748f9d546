# max pooling with return_indices, max_unpool, ceil_mode, padding, and avg pooling options
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[[[1.0, 5.0, 2.0, 0.0, 3.0],
                    [4.0, 4.0, 1.0, 7.0, 2.0],
                    [0.0, 3.0, 6.0, 6.0, 1.0],
                    [2.0, 8.0, 1.0, 0.0, 9.0]]]], requires_grad=True)
out, idx = F.max_pool2d(x, 2, return_indices=True, ceil_mode=True)
print(out, idx)
out.sum().backward()
print(x.grad)
up = F.max_unpool2d(out.detach(), idx, 2, output_size=(4, 5))
print(up)
print(F.avg_pool2d(x.detach(), 2, ceil_mode=True, count_include_pad=False))
print(F.avg_pool2d(x.detach(), 3, stride=1, padding=1, divisor_override=2)[0, 0, 0])
p1 = nn.MaxPool1d(3, stride=2, padding=1, dilation=1, return_indices=True)
v, i = p1(torch.tensor([[[1.0, 3.0, 2.0, 5.0, 4.0]]]))
print(v, i, p1)
print(F.lp_pool2d(x.detach(), 2, 2))
print(F.adaptive_max_pool2d(x.detach(), (2, 3), return_indices=True)[1])
print(F.fractional_max_pool2d(x.detach(), 2, output_size=(2, 2), _random_samples=torch.tensor([[[0.5, 0.5]]], dtype=torch.float64)))
