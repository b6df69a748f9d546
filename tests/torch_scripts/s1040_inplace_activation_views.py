# in-place activations in modules (ReLU(inplace=True)) after a linear layer, on views, and their backward
import torch
import torch.nn as nn
import torch.nn.functional as F

lin = nn.Linear(2, 3)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, -1.0], [0.5, 0.5], [-2.0, 1.0]]))
    lin.bias.zero_()
x = torch.tensor([[1.0, 2.0]], requires_grad=True)
h = lin(x)
out = nn.ReLU(inplace=True)(h)
print(out is h, out, out.grad_fn.name())
out.sum().backward()
print(x.grad, lin.weight.grad)
a = torch.tensor([-1.0, 2.0, -3.0, 4.0], requires_grad=True)
b = a * 1
F.relu_(b[1:3])
print(b, b.grad_fn.name())
b.sum().backward()
print(a.grad)
c = torch.tensor([0.5, -0.5], requires_grad=True)
d = c.sigmoid()
d.mul_(2).add_(1)
try:
    d.sum().backward()
except RuntimeError as e:
    print(str(e)[:80])
print(d)
e = torch.tensor([1.0, -2.0], requires_grad=True)
f = e.clone()
F.elu(f, inplace=True)
f.sum().backward()
print(f.round(decimals=5), e.grad.round(decimals=5))
