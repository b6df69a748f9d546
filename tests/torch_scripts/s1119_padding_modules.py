# Padding: F.pad modes (reflect, replicate, circular), ZeroPad2d, ReflectionPad1d, ConstantPad3d, CircularPad2d
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(9.0).view(1, 1, 3, 3)
print(F.pad(x, (1, 1, 0, 2), mode="reflect"))
print(F.pad(x, (2, 0, 1, 0), mode="replicate"))
print(F.pad(x, (1, 1, 1, 1), mode="circular"))
print(F.pad(x, (-1, 0, 0, -1)))
print(nn.ZeroPad2d((1, 0, 0, 1))(x).shape, nn.ReflectionPad1d(2)(torch.arange(4.0).view(1, 1, 4)))
print(nn.ConstantPad3d(1, 3.5)(torch.zeros(1, 1, 1, 1, 1)).sum(), nn.CircularPad2d(1)(x).shape, nn.ReplicationPad1d((0, 3))(torch.tensor([[[1.0, 2.0]]])))
y = x.clone().requires_grad_()
F.pad(y, (2, 2, 2, 2), mode="reflect").sum().backward()
print(y.grad)
z = x.clone().requires_grad_()
F.pad(z, (1, 1, 1, 1), mode="circular").sum().backward()
print(z.grad)
