import torch
import torch.nn as nn
import torch.nn.functional as F

img = (torch.arange(2 * 1 * 8 * 8, dtype=torch.float64).view(2, 1, 8, 8) % 7) / 7
conv = nn.Conv2d(1, 3, kernel_size=3, padding=1, stride=1, bias=True)
conv2 = nn.Conv2d(3, 4, kernel_size=(2, 3), stride=(2, 1), padding=(0, 1), dilation=1, groups=1)
with torch.no_grad():
    conv.weight.copy_(torch.linspace(-1, 1, 27).view(3, 1, 3, 3))
    conv.bias.fill_(0.1)
    conv2.weight.copy_(torch.linspace(0.5, -0.5, 72).view(4, 3, 2, 3))
    conv2.bias.zero_()
h = F.relu(conv(img))
print(h.shape)
p, idx = F.max_pool2d(h, 2, return_indices=True)
print(p.shape, idx[0, 0])
unp = F.max_unpool2d(p, idx, 2, output_size=h.shape[-2:])
print(unp.shape, torch.equal((unp != 0).sum(), (p != 0).sum()))
a = F.avg_pool2d(h, kernel_size=3, stride=2, padding=1, count_include_pad=False)
print(a.shape, a[1, 2].round(decimals=4))
am, ai = F.adaptive_max_pool2d(h, (3, 2), return_indices=True)
print(am.shape, ai[0, 1])
print(F.adaptive_avg_pool2d(h, 1).flatten(1).round(decimals=5))
c2 = conv2(h)
print(c2.shape)
lp = F.lp_pool2d(h, norm_type=2, kernel_size=2)
print(lp.shape, round(lp.sum().item(), 5))
loss = p.sum() + a.pow(2).sum() + am.mean() + c2.abs().sum() + lp.sum()
loss.backward()
print(conv.weight.grad.view(3, 9).round(decimals=4), conv2.bias.grad)
print(nn.MaxPool2d(3, stride=1, padding=1, ceil_mode=True)(img).shape, nn.AvgPool2d(3, ceil_mode=True)(img).shape)
print(nn.MaxPool1d(2)(img[:, 0]).shape, nn.AdaptiveAvgPool1d(3)(img[:, 0]).shape)
print(conv, conv2, nn.MaxPool2d(2, return_indices=True))
