import torch
import torch.nn as nn
import torch.nn.functional as F

conv = nn.Conv3d(2, 3, kernel_size=(2, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1), bias=True)
with torch.no_grad():
    conv.weight.copy_(torch.linspace(-1, 1, conv.weight.numel()).reshape(conv.weight.shape))
    conv.bias.copy_(torch.tensor([0.1, -0.2, 0.3]))
x = torch.sin(torch.arange(2 * 2 * 4 * 5 * 5, dtype=torch.float64)).reshape(2, 2, 4, 5, 5).requires_grad_()
y = conv(x)
print(y.shape)
print(y[0, :, 0, 0].detach())
y.pow(2).mean().backward()
print(x.grad.shape, round(x.grad.abs().sum().item(), 6))
print(conv.weight.grad[0, 0, 0])
pool = nn.MaxPool3d(2)
print(pool(y).shape)
print(F.avg_pool3d(y, kernel_size=(1, 2, 2)).shape)
print(F.adaptive_avg_pool3d(y, 1).flatten(1).detach())
