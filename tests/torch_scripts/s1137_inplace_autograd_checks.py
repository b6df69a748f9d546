# In-place after saving for backward: version counter error, in-place on a view of a non-leaf, _version
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.sigmoid()
c = b * 2
print(b._version)
b.mul_(3)
print(b._version)
try:
    (b.sum() + c.sum()).backward()
except RuntimeError as e:
    print(str(e).split(";")[0][:100])
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 1
y[1:].mul_(10)
y.sum().backward()
print(y, x.grad, y.grad_fn.name())
z = x.exp()
z.add_(1)
try:
    z.sum().backward()
except RuntimeError as e:
    print(str(e)[:80])
print(x.grad)
w = x.clone()
w.relu_()
w.exp_()
print(w.grad_fn.name())
with torch.no_grad():
    x.mul_(2)
print(x, x._version, x.requires_grad)
