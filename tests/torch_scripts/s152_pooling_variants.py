import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1 * 1 * 5 * 5, dtype=torch.float64).reshape(1, 1, 5, 5).requires_grad_()
out, idx = F.max_pool2d(x, 2, stride=2, return_indices=True, ceil_mode=True)
print(out, idx)
print(F.max_unpool2d(out, idx, 2, stride=2, output_size=(5, 5)))
print(F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False), F.avg_pool2d(x, 3, stride=2, padding=1))
print(F.avg_pool2d(x, 2, ceil_mode=True), F.avg_pool2d(x, 2, divisor_override=1))
print(F.adaptive_max_pool2d(x, (2, 3), return_indices=True), F.adaptive_avg_pool2d(x, 3))
print(F.lp_pool2d(x, 2, 2), F.max_pool2d(x, 3, stride=1, dilation=2))
print(F.max_pool1d(x[0, 0], 2, padding=1), F.avg_pool1d(x[0, :, 0], 2))
(out.sum() + F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False).sum() + F.adaptive_max_pool2d(x, (2, 3)).sum()).backward()
print(x.grad)
print(F.pixel_shuffle(torch.arange(16.0).reshape(1, 4, 2, 2), 2), F.pixel_unshuffle(torch.arange(16.0).reshape(1, 1, 4, 4), 2).shape)
c = nn.Conv2d(1, 2, 3, padding="same", dilation=2, bias=False)
with torch.no_grad():
    c.weight.copy_(torch.arange(18.0).reshape(2, 1, 3, 3) / 10)
print(c(x.detach()).shape, c(x.detach())[0, 1, 2])
cv = nn.Conv2d(1, 1, 2, padding="valid", padding_mode="zeros")
c2 = nn.Conv2d(1, 1, 3, padding=1, padding_mode="reflect", bias=False)
c3 = nn.Conv2d(1, 1, 3, padding=1, padding_mode="circular", bias=False)
c4 = nn.Conv2d(1, 1, 3, padding=1, padding_mode="replicate", bias=False)
for m in (c2, c3, c4):
    with torch.no_grad():
        m.weight.fill_(1.0)
    print(m(x.detach())[0, 0, 0])
print(cv(x.detach()).shape, F.conv2d(x.detach(), torch.ones(1, 1, 2, 2), stride=(2, 1)).shape)
t = nn.ConvTranspose2d(1, 1, 3, stride=2, padding=1, output_padding=1, bias=False)
with torch.no_grad():
    t.weight.fill_(1.0)
print(t(x.detach()).shape, t(x.detach())[0, 0, :3, :3], t(x.detach(), output_size=[9, 9]).shape)
print(nn.MaxPool2d(2)(x.detach()).shape, nn.AvgPool2d(2, stride=1)(x.detach()).shape, nn.AdaptiveAvgPool2d((None, 2))(x.detach()).shape, nn.MaxPool3d(1)(x.detach()).shape)
