# ConvTranspose2d with stride, output_padding, groups, dilation: shapes, values with constant weights, output_size
import torch
import torch.nn as nn

ct = nn.ConvTranspose2d(2, 4, kernel_size=3, stride=2, padding=1, output_padding=1, groups=2, dilation=1)
nn.init.constant_(ct.weight, 0.5)
nn.init.zeros_(ct.bias)
x = torch.arange(18.0).view(1, 2, 3, 3)
y = ct(x)
print(y.shape, y[0, 0], y[0, 3, :2])
print(ct(x, output_size=[5, 5]).shape)
c1 = nn.ConvTranspose1d(1, 1, 2, stride=3, dilation=2, bias=False)
nn.init.ones_(c1.weight)
print(c1(torch.tensor([[[1.0, 2.0]]])))
z = x.clone().requires_grad_()
ct(z).sum().backward()
print(z.grad[0, 1])
print(nn.functional.conv_transpose2d(torch.ones(1, 1, 2, 2), torch.ones(1, 1, 2, 2), stride=2))
