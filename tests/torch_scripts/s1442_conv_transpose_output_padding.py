# ConvTranspose1d/2d output_padding and output_size; gradients of a fixed kernel
import torch
import torch.nn as nn

ct = nn.ConvTranspose1d(1, 1, kernel_size=3, stride=2, padding=1, output_padding=1, bias=False)
with torch.no_grad():
    ct.weight.copy_(torch.tensor([[[1.0, 2.0, 1.0]]]))
x = torch.tensor([[[1.0, 0.0, -1.0, 2.0]]], requires_grad=True)
y = ct(x)
print(y)
y.pow(2).sum().backward()
print(x.grad, ct.weight.grad)
ct2 = nn.ConvTranspose2d(1, 1, 2, stride=2, bias=False)
with torch.no_grad():
    ct2.weight.fill_(1.0)
print(ct2(torch.arange(4.0).reshape(1, 1, 2, 2)))
ct3 = nn.ConvTranspose1d(1, 1, 3, stride=2, padding=1, bias=False)
print(ct3(torch.ones(1, 1, 4), output_size=[8]).shape, ct3(torch.ones(1, 1, 4)).shape)
