import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1.0, 7.0).reshape(1, 2, 3).requires_grad_()
for mode in ["constant", "reflect", "replicate", "circular"]:
    y = F.pad(x, (2, 1), mode=mode)
    print(mode, y.detach()[0, 0])
F.pad(x, (2, 2), mode="reflect").sum().backward()
print(x.grad)
x.grad = None
F.pad(x, (1, 3), mode="circular").pow(2).sum().backward()
print(x.grad)
img = torch.arange(9.0).reshape(1, 1, 3, 3)
print(F.pad(img, (1, 1, 2, 0), mode="replicate")[0, 0])
print(nn.ReflectionPad2d((1, 0, 0, 1))(img)[0, 0])
print(nn.ZeroPad2d(1)(img).shape, nn.ConstantPad1d((0, 2), 3.5)(x.detach()))
print(nn.CircularPad2d(1)(img)[0, 0] if hasattr(nn, "CircularPad2d") else None)
print(F.pad(x.detach(), (-1, 1)))
print(F.pad(img, (0, 0, 0, 0, 1, 1)).shape)
print(nn.ReplicationPad3d(1)(torch.ones(1, 1, 2, 2, 2)).shape)
