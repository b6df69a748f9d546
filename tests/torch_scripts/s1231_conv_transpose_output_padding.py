# ConvTranspose2d output shapes with output_padding, and a fixed-weight value
import torch
import torch.nn as nn

x = torch.ones(1, 1, 3, 3)
ct = nn.ConvTranspose2d(1, 1, 3, stride=2, padding=1, output_padding=1, bias=False)
with torch.no_grad():
    ct.weight.fill_(1.0)
y = ct(x)
print(y.shape)
print(y[0, 0])
print(ct(x, output_size=[5, 5]).shape)
