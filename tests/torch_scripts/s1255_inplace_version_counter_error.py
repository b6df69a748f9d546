# modifying a tensor saved for backward raises at backward time; _version counts
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
print(b._version)
c = b ** 2
b.add_(1)
print(b._version)
try:
    c.sum().backward()
except RuntimeError as e:
    msg = str(e)
    print("RuntimeError", "modified by an inplace operation" in msg)
d = a.exp()
e = d * 3
d.add_(1)
try:
    e.sum().backward()
except RuntimeError as err:
    print("RuntimeError", "modified by an inplace operation" in str(err))
f = a * 1
g = f + 1
f.mul_(2)
g.sum().backward()
print(a.grad)
