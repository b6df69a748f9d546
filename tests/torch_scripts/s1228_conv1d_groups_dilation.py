# Conv1d with groups and dilation: output shape, values and weight grad
import torch
import torch.nn as nn

conv = nn.Conv1d(4, 4, kernel_size=3, groups=2, dilation=2, padding=2, bias=False)
with torch.no_grad():
    conv.weight.copy_(torch.arange(24.0).reshape(4, 2, 3) / 10)
x = torch.arange(32.0).reshape(1, 4, 8) / 8
y = conv(x)
print(y.shape)
print(y)
y.sum().backward()
print(conv.weight.grad[0], conv.weight.grad.shape)
