# Bilinear, GLU, Hardshrink, Softshrink, Tanhshrink, Threshold, Softmax2d, Softmin, LogSigmoid, CELU, Mish modules
import torch
import torch.nn as nn

bl = nn.Bilinear(2, 3, 2)
with torch.no_grad():
    bl.weight.copy_(torch.arange(12.0).view(2, 2, 3) / 10)
    bl.bias.fill_(0.5)
x1 = torch.tensor([[1.0, -1.0]], requires_grad=True)
x2 = torch.tensor([[0.5, 2.0, -1.0]])
y = bl(x1, x2)
y.sum().backward()
print(y, x1.grad, bl)
v = torch.linspace(-2, 2, 8)
print(nn.GLU()(v), nn.Hardshrink(0.6)(v), nn.Softshrink(0.6)(v))
print(nn.Tanhshrink()(v), nn.Threshold(0.5, -9.0)(v), nn.Softmin(dim=0)(v[:3]))
print(nn.Softmax2d()(torch.arange(8.0).view(1, 2, 2, 2))[0, :, 0, 0], nn.LogSigmoid()(v[:2]), nn.CELU(0.5)(v[:3]), nn.Mish()(v[:2]))
print(nn.Hardtanh(-1.0, 0.5)(v), nn.ReLU6()(v * 4), nn.Hardsigmoid()(v), nn.Hardswish()(v[:3]))
print(nn.PReLU(num_parameters=1, init=0.1)(v[:3]), nn.RReLU(0.1, 0.3).eval()(v[:3]), nn.SiLU()(v[:2]), nn.ELU(alpha=2.0)(v[:2]))
