import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(2 * 1 * 4 * 6 * 6, dtype=torch.float64).reshape(2, 1, 4, 6, 6) / 100
x.requires_grad_(True)
conv = nn.Conv3d(1, 3, kernel_size=(2, 3, 3), stride=(1, 2, 2), padding=1, bias=True)
with torch.no_grad():
    conv.weight.copy_(torch.linspace(-1, 1, conv.weight.numel()).reshape(conv.weight.shape))
    conv.bias.fill_(0.1)
y = conv(x)
print(y.shape, y.grad_fn.name())
p = F.max_pool3d(y, kernel_size=2)
print(p.shape, p.grad_fn.name())
a = nn.AvgPool3d(kernel_size=(1, 2, 2))(y)
print(a.shape, a.sum().item().__round__(6))
g = nn.AdaptiveAvgPool3d((1, 1, 1))(y).flatten(1)
print(g.round(decimals=5))
(p.sum() + g.sum()).backward()
print(x.grad.shape, x.grad.abs().sum().item().__round__(5))
print(conv.weight.grad[0, 0].round(decimals=4))
print(conv)
