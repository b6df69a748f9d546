# requires_grad_ on non-leaves and views; detach_ on views
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
try:
    y.requires_grad_(False)
except RuntimeError as e:
    print("RuntimeError", str(e))
y.requires_grad_(True)
print(y.is_leaf, y.requires_grad)
a = torch.zeros(4)
v = a[1:3]
v.requires_grad_()
print(v.is_leaf, v.requires_grad, a.requires_grad)
(v * 3).sum().backward()
print(v.grad, a.grad)
b = torch.ones(3, requires_grad=True)
bv = b.view(3)
print(bv.is_leaf, bv.requires_grad, bv.grad_fn.name())
try:
    bv.detach_()
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
