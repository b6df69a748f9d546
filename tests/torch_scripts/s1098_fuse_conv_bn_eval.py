# Fusing Conv2d + BatchNorm2d for inference by hand and with torch.nn.utils.fusion
import torch
import torch.nn as nn
from torch.nn.utils.fusion import fuse_conv_bn_eval

conv = nn.Conv2d(2, 3, 3, padding=1)
bn = nn.BatchNorm2d(3)
with torch.no_grad():
    conv.weight.copy_(torch.linspace(-1, 1, conv.weight.numel()).view_as(conv.weight))
    conv.bias.copy_(torch.tensor([0.1, 0.0, -0.1]))
    bn.running_mean.copy_(torch.tensor([0.5, -0.5, 0.0]))
    bn.running_var.copy_(torch.tensor([2.0, 0.5, 1.0]))
    bn.weight.copy_(torch.tensor([1.5, 1.0, 0.5]))
    bn.bias.copy_(torch.tensor([0.0, 0.2, -0.3]))
conv.eval(); bn.eval()
x = torch.arange(32.0).view(1, 2, 4, 4) / 10
fused = fuse_conv_bn_eval(conv, bn)
print(type(fused).__name__, fused.bias)
print(torch.allclose(fused(x), bn(conv(x))), (fused(x) - bn(conv(x))).abs().max() < 1e-12)
w = conv.weight * (bn.weight / torch.sqrt(bn.running_var + bn.eps)).view(-1, 1, 1, 1)
print(torch.allclose(w, fused.weight))
