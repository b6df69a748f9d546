# depthwise Conv2d (groups = channels) with fixed weights, stride 2, and its gradients
import torch
import torch.nn as nn

conv = nn.Conv2d(2, 4, 3, stride=2, padding=1, groups=2)
with torch.no_grad():
    conv.weight.copy_(torch.arange(36.0).reshape(4, 1, 3, 3) / 36)
    conv.bias.copy_(torch.tensor([0.0, 1.0, -1.0, 0.5]))
x = (torch.arange(50.0).reshape(1, 2, 5, 5) / 10).requires_grad_()
y = conv(x)
print(y.shape)
print(y[0, 1])
(y ** 2).sum().backward()
print(x.grad[0, 1])
print(conv.weight.grad[2, 0], conv.bias.grad)
