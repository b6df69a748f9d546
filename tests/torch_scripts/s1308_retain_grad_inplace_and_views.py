# retain_grad on a view and on a tensor later modified in-place
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.retain_grad()
v = y[:2]
v.retain_grad()
z = (v ** 2).sum() + y[2]
z.backward()
print(y.grad, v.grad)
a = x * 1
a.retain_grad()
a.mul_(3)
a.sum().backward()
print(a.grad, x.grad)
print(x.retain_grad() is None, x.retains_grad)
