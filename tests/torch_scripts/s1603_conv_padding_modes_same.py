# convolutions with padding='same'/'valid', padding_mode reflect/replicate/circular, dilation
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1 * 1 * 4 * 5, dtype=torch.float64).reshape(1, 1, 4, 5).requires_grad_()
w = torch.tensor([[[[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]]]])
y = F.conv2d(x, w, padding="same")
print(y.shape, y[0, 0])
print(F.conv2d(x.detach(), w, padding="valid").shape, F.conv2d(x.detach(), w, padding="same", dilation=2).shape)
for mode in ["zeros", "reflect", "replicate", "circular"]:
    c = nn.Conv2d(1, 1, 3, padding=1, padding_mode=mode, bias=False)
    with torch.no_grad():
        c.weight.copy_(w)
    out = c(x)
    (g,) = torch.autograd.grad(out.pow(2).sum(), x)
    print(mode, out[0, 0, 0].detach(), g[0, 0, 0])
print(nn.Conv2d(1, 2, 3, padding="same", padding_mode="reflect"))
try:
    F.conv2d(x.detach(), w, padding="same", stride=2)
except RuntimeError as e:
    print(e)
c1 = nn.Conv1d(2, 4, 3, groups=2, padding=2, dilation=2, bias=False)
print(c1(torch.ones(1, 2, 5)).shape, c1.weight.shape)
