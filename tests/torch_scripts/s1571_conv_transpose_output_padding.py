# transposed convolutions: output_padding, groups, dilation, output_size, gradients
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(2 * 4 * 3, dtype=torch.float64).reshape(1, 4, 2, 3) / 10
x.requires_grad_()
w = torch.linspace(-1, 1, 4 * 1 * 3 * 3).reshape(4, 1, 3, 3).requires_grad_()
y = F.conv_transpose2d(x, w, stride=2, padding=1, output_padding=1, groups=2)
print(y.shape, y.grad_fn.name())
print(y[0, 0])
y.pow(2).sum().backward()
print(x.grad[0, 0], w.grad[1, 0])
ct = nn.ConvTranspose1d(2, 3, 3, stride=2, dilation=2, bias=False)
with torch.no_grad():
    ct.weight.copy_(torch.arange(18.0).reshape(2, 3, 3) / 10)
s = torch.ones(1, 2, 4)
print(ct(s).shape, ct(s, output_size=[12]).shape)
print(ct)
try:
    ct(s, output_size=[20])
except ValueError as e:
    print(str(e)[:120])
