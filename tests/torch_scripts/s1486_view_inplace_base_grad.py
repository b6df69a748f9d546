# in-place ops through views update the base's graph (CopySlices), diagonal views, transposes
import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x.clone()
y.diagonal().mul_(10)
print(y, y.grad_fn.name())
y.sum().backward()
print(x.grad)
x.grad = None
z = x * 1
z.t()[0].zero_()
print(z)
z.pow(2).sum().backward()
print(x.grad)
x.grad = None
u = x + 0
v = u.view(4)
v[::2] = v[::2] * -1
u.sum().backward()
print(u, x.grad)
