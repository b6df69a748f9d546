# conv1d/conv2d with stride/dilation/groups/padding='same', pools with ceil_mode and count_include_pad
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1.0, 17.0).view(1, 1, 4, 4)
conv = nn.Conv2d(1, 2, kernel_size=3, padding="same", bias=False)
with torch.no_grad():
    conv.weight.fill_(1.0)
print(conv(x)[0, 0])
print(F.conv2d(x, torch.ones(1, 1, 2, 2), stride=2))
print(F.conv2d(x, torch.ones(1, 1, 2, 2), dilation=2))
print(F.conv1d(torch.arange(8.0).view(1, 2, 4), torch.ones(2, 1, 2), groups=2))
print(F.max_pool2d(x, 3, stride=2, ceil_mode=True))
print(F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False))
print(F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=True))
print(F.avg_pool1d(torch.arange(5.0).view(1, 1, 5), 2, ceil_mode=True))
print(F.adaptive_avg_pool2d(x, (3, 2)))
print(F.adaptive_max_pool1d(torch.arange(7.0).view(1, 1, 7), 3))
print(F.lp_pool1d(torch.arange(4.0).view(1, 1, 4), 2, 2))
w = torch.ones(1, 1, 3, requires_grad=True)
y = F.conv1d(torch.arange(6.0).view(1, 1, 6), w, padding=2, stride=2)
y.sum().backward()
print(y, w.grad)
print(nn.Conv2d(3, 8, 5, stride=2, padding=1)(torch.zeros(2, 3, 17, 13)).shape)
print(nn.ConvTranspose2d(2, 1, 3, stride=2, output_padding=1)(torch.zeros(1, 2, 4, 4)).shape)
