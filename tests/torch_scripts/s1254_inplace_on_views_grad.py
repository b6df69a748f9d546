# in-place ops on views of a non-leaf: gradients flow through CopySlices
import torch

x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
y = x * 1
v = y[1:3]
v.mul_(10)
print(y, y.grad_fn.name() if hasattr(y.grad_fn, "name") else type(y.grad_fn).__name__)
print(v.grad_fn.name())
y.sum().backward()
print(x.grad)
x.grad = None
z = x.clone()
z[::2] += torch.tensor([100.0, 200.0])
z.view(2, 2)[:, 1].exp_()
(z * torch.arange(4.0)).sum().backward()
print(z)
print(x.grad)
