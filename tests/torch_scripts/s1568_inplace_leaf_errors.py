# in-place operations on leaves and saved tensors: the errors PyTorch raises
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    w.add_(1)
except RuntimeError as e:
    print(e)
try:
    w[0] = 5
except RuntimeError as e:
    print(e)
with torch.no_grad():
    w.mul_(2)
print(w, w._version, w.is_leaf)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.exp()
b.add_(1)
try:
    b.sum().backward()
except RuntimeError as e:
    print(str(e)[:180])
c = a.sigmoid()
c.mul_(2)
try:
    c.sum().backward()
except RuntimeError as e:
    print(str(e)[:180])
d = a * 3
d.relu_()
d.sum().backward()
print(a.grad)
e = a.detach()
e.zero_()
print(a, a._version)
f = torch.ones(2, requires_grad=True)
try:
    f.data.add_(1)
    print(f, f._version)
    f.resize_(3)
except RuntimeError as err:
    print(err)
