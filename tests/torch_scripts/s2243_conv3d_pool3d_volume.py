import torch
import torch.nn as nn
import torch.nn.functional as F

vol = torch.arange(2 * 1 * 4 * 4 * 4, dtype=torch.float64).view(2, 1, 4, 4, 4) / 64
conv = nn.Conv3d(1, 2, kernel_size=(2, 3, 3), stride=1, padding=(0, 1, 1), bias=True)
with torch.no_grad():
    conv.weight.copy_(torch.linspace(-1, 1, conv.weight.numel()).view_as(conv.weight))
    conv.bias.copy_(torch.tensor([0.1, -0.1]))
y = conv(vol)
print(y.shape, y[0, :, 0, 0, :2].round(decimals=4))
mp = nn.MaxPool3d(2)
ap = nn.AvgPool3d(kernel_size=2, stride=1)
print(mp(y).shape, ap(y).shape, mp(vol)[0, 0, :, 0, 0])
print(nn.AdaptiveAvgPool3d((1, 2, 2))(vol)[1, 0].round(decimals=4))
print(nn.AdaptiveMaxPool3d(1)(y).flatten(1).round(decimals=4))
out, idx = F.max_pool3d(vol, 2, return_indices=True)
print(idx[0, 0, 0], F.max_unpool3d(out, idx, 2).sum().item() == out.sum().item())
dil = nn.Conv3d(1, 1, 2, dilation=2, bias=False)
with torch.no_grad():
    dil.weight.fill_(1.0)
print(dil(vol).shape, dil(vol)[0, 0, 0, 0])
grp = nn.Conv3d(2, 4, 1, groups=2, bias=False)
with torch.no_grad():
    grp.weight.copy_(torch.tensor([1.0, 2.0, 3.0, 4.0]).view(4, 1, 1, 1, 1))
print(grp(y)[0, :, 0, 0, 0].round(decimals=4))
v = vol.clone().requires_grad_()
conv(v).pow(2).mean().backward()
print(v.grad[0, 0, 0].round(decimals=5))
print(conv.weight.grad.shape, conv.bias.grad.round(decimals=5))
tr = nn.ConvTranspose3d(2, 1, 2, stride=2, bias=False)
with torch.no_grad():
    tr.weight.fill_(0.5)
print(tr(y).shape, tr(y).sum().round(decimals=4), (y.sum() * 4).round(decimals=4))
