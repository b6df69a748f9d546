# _version counters, in-place ops on leaves and views, and the "modified by an inplace operation" error
import torch

a = torch.ones(3)
print(a._version)
a.add_(1)
a[0] = 5
a.mul_(2)
print(a._version, a)
v = a.view(3)
v.zero_()
print(a._version, v._version)
x = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    x.add_(1)
except RuntimeError as e:
    print(e)
with torch.no_grad():
    x.add_(1)
print(x, x.is_leaf, x._version)
y = x.exp()
y.mul_(2)
print(y.grad_fn.name())
z = x.sigmoid()
z.add_(1)
try:
    z.sum().backward()
except RuntimeError as e:
    print(str(e).split(";")[0])
t = x * 1
w = t.pow(2)
t.add_(1)
try:
    w.sum().backward()
except RuntimeError as e:
    print(str(e).split(";")[0])
