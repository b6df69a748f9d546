# modifying a tensor saved for backward, and its version counter
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 1
print(y._version)
z = y.exp()
y.add_(1)
print(y._version)
try:
    z.sum().backward()
except RuntimeError as e:
    print("RuntimeError", str(e).split(";")[0])
a = x * 1
b = a * a
a.mul_(2)
try:
    b.sum().backward()
except RuntimeError as e:
    print("RuntimeError", "modified by an inplace operation" in str(e))
c = x * 1
d = c + 1
c.mul_(2)
d.sum().backward()
print(x.grad)
