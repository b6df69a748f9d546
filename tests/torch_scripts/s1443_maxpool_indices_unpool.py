# max_pool2d with return_indices, MaxUnpool2d, and gradients through pooling with ties
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[[[1.0, 2.0, 2.0, 0.0], [3.0, 3.0, 1.0, 5.0], [0.0, 1.0, 4.0, 4.0], [2.0, 2.0, 4.0, 1.0]]]], requires_grad=True)
y, idx = F.max_pool2d(x, 2, return_indices=True)
print(y, idx)
y.sum().backward()
print(x.grad)
print(nn.MaxUnpool2d(2)(y.detach(), idx))
x.grad = None
F.avg_pool2d(x, 2, stride=1).sum().backward()
print(x.grad)
x.grad = None
F.adaptive_max_pool2d(x, (1, 2)).sum().backward()
print(x.grad)
print(F.lp_pool2d(x.detach(), 2, 2))
