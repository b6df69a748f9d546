import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.linspace(-1, 1, 2 * 4 * 3 * 3).view(2, 4, 3, 3).requires_grad_(True)
ct = nn.ConvTranspose2d(4, 2, kernel_size=3, stride=2, padding=1, output_padding=1, groups=2, dilation=1)
with torch.no_grad():
    ct.weight.copy_(torch.linspace(-0.5, 0.5, ct.weight.numel()).view_as(ct.weight))
    ct.bias.copy_(torch.tensor([0.1, -0.1]))
y = ct(x)
print(y.shape, ct.weight.shape)
print(y[0, 1].round(decimals=4))
print(ct(x, output_size=[5, 5]).shape)
(y ** 2).sum().backward()
print(x.grad[1, 2].round(decimals=4), ct.weight.grad.flatten()[:6].round(decimals=4), ct.bias.grad)
x1 = torch.linspace(0, 1, 1 * 2 * 5).view(1, 2, 5)
w1 = torch.linspace(-1, 1, 2 * 3 * 2).view(2, 3, 2)
print(F.conv_transpose1d(x1, w1, stride=3, padding=0, dilation=2).round(decimals=4))
c = nn.Conv2d(2, 4, 3, stride=2, padding=1)
print(nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1)(c(torch.ones(1, 2, 7, 7))).shape)
ct3 = nn.ConvTranspose3d(1, 1, 2, stride=2, bias=False)
with torch.no_grad():
    ct3.weight.fill_(1.0)
print(ct3(torch.arange(8.0).view(1, 1, 2, 2, 2)).sum(), ct3(torch.arange(8.0).view(1, 1, 2, 2, 2)).shape)
print(ct, nn.ConvTranspose1d(2, 3, 4, padding_mode="zeros"))
try:
    ct(x, output_size=[9, 9])
except ValueError as e:
    print("ValueError:", str(e)[:80])
