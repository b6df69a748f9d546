# BatchNorm2d backward in train mode; affine=False; track_running_stats=False in eval
import torch
import torch.nn as nn

x = (torch.arange(24.0).reshape(2, 3, 2, 2) % 5).requires_grad_()
bn = nn.BatchNorm2d(3)
y = bn(x)
(y * torch.arange(24.0).reshape(2, 3, 2, 2)).sum().backward()
print(x.grad[0])
print(bn.weight.grad, bn.bias.grad)
b2 = nn.BatchNorm2d(3, affine=False, track_running_stats=False).eval()
print(b2(x.detach())[1, 0])
print(b2, list(b2.state_dict()))
