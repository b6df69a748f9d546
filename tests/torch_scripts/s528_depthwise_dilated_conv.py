import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.sin(torch.arange(2 * 4 * 7 * 7, dtype=torch.float64).view(2, 4, 7, 7) * 0.13)
dw = nn.Conv2d(4, 4, 3, padding="same", groups=4, bias=False)
pw = nn.Conv2d(4, 6, 1)
dil = nn.Conv2d(4, 2, 3, dilation=2, padding=2)
for k, m in enumerate((dw, pw, dil)):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.7 + k + i).view_as(p))
print(dw, pw, dil, sep="\n")
print(dw.weight.shape, pw.weight.shape, dil.weight.shape)
y = pw(dw(x))
z = dil(x)
print(y.shape, z.shape)
print(sum(p.numel() for p in dw.parameters()) + sum(p.numel() for p in pw.parameters()),
      nn.Conv2d(4, 6, 3).weight.numel())
full = F.conv2d(x, dw.weight, padding=1, groups=4)
print(torch.allclose(full, dw(x)))
# each output channel of the depthwise conv sees one input channel
x2 = x.clone()
x2[:, 1] += 1.0
d = (dw(x2) - dw(x)).abs().sum(dim=(0, 2, 3))
print((d > 0).tolist())
loss = y.pow(2).mean() + z.abs().mean()
loss.backward()
print(round(loss.item(), 6), dw.weight.grad.shape, round(dil.bias.grad.sum().item(), 6))
s = nn.Conv2d(4, 4, 3, stride=2, padding=1, padding_mode="circular")
print(s(x).shape, s)
c1 = nn.Conv1d(3, 3, 5, padding="same", dilation=2, groups=3, padding_mode="reflect")
print(c1(torch.ones(1, 3, 12)).shape, c1)
print(F.conv2d(x, torch.ones(8, 2, 2, 2), groups=2, stride=(1, 2)).shape)
