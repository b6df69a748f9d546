# GroupNorm and InstanceNorm values and grads
import torch
import torch.nn as nn

x = torch.arange(16.0).reshape(2, 4, 2).pow(1.5).requires_grad_()
gn = nn.GroupNorm(2, 4)
y = gn(x)
print(y[0])
(y * torch.arange(16.0).reshape(2, 4, 2)).sum().backward()
print(x.grad[1])
inorm = nn.InstanceNorm1d(4, affine=True, track_running_stats=True)
z = inorm(x.detach())
print(z[0, 0], inorm.running_mean)
inorm.eval()
print(inorm(x.detach())[0, 0])
print(gn, inorm)
