# a causal Conv1d via left padding (F.pad) vs padding then slicing; dilated stack receptive field
import torch
import torch.nn as nn
import torch.nn.functional as F

conv = nn.Conv1d(1, 1, 2, dilation=2, bias=False)
with torch.no_grad():
    conv.weight.copy_(torch.tensor([[[1.0, 10.0]]]))
x = torch.arange(1.0, 7.0).reshape(1, 1, 6)
a = conv(F.pad(x, (2, 0)))
conv2 = nn.Conv1d(1, 1, 2, dilation=2, padding=2, bias=False)
with torch.no_grad():
    conv2.weight.copy_(conv.weight)
b = conv2(x)[..., :-2]
print(a, torch.equal(a, b))
x2 = torch.zeros(1, 1, 8, requires_grad=True)
c = conv(F.pad(conv(F.pad(x2, (2, 0))), (2, 0)))
c[0, 0, -1].backward()
print(x2.grad)
