# conv layer gradients with known weights: conv2d weight/bias/input grads, groups, padding modes, ConvTranspose1d grads
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(18.0).view(1, 2, 3, 3).requires_grad_()
w = torch.tensor([[[[1.0, 0.0], [0.0, -1.0]], [[0.5, 0.5], [0.5, 0.5]]]], requires_grad=True)
b = torch.tensor([0.1], requires_grad=True)
y = F.conv2d(x, w, b, padding=1)
(y ** 2).mean().backward()
print(y.shape, x.grad[0, 0], w.grad, b.grad, sep="\n")
conv = nn.Conv1d(2, 2, 3, padding=1, padding_mode="circular", groups=2, bias=False)
with torch.no_grad():
    conv.weight.copy_(torch.tensor([[[1.0, 2.0, 3.0]], [[-1.0, 0.0, 1.0]]]))
inp = torch.arange(8.0).view(1, 2, 4).requires_grad_()
out = conv(inp)
out.sum().backward()
print(out, inp.grad, conv.weight.grad, sep="\n")
ct = nn.ConvTranspose1d(1, 1, 3, stride=2, padding=1, output_padding=1, bias=False)
nn.init.constant_(ct.weight, 1.0)
z = torch.tensor([[[1.0, 2.0, 3.0]]], requires_grad=True)
o = ct(z)
(o * torch.arange(o.shape[-1], dtype=o.dtype)).sum().backward()
print(o, z.grad, ct.weight.grad, sep="\n")
