# In-place ops inside a graph: x.add_ on a non-leaf, relu_, clamp_, mul_ followed by backward;
# the version counter; the error when a saved tensor is modified
import torch

a = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
b = a * 2
print(b._version)
b.add_(1)
b.relu_()
print(b._version, b, b.grad_fn.name())
b.sum().backward()
print(a.grad)
a.grad = None
c = a.clone()
c.clamp_(min=0).mul_(3)
c.pow(2).sum().backward()
print(a.grad)
d = a.exp()
e = d * 1
d.add_(1)
try:
    d.sum().backward()
    print("ok", a.grad)
except RuntimeError as err:
    print(str(err)[:60])
f = a.sigmoid()
f.mul_(2)
try:
    f.sum().backward()
except RuntimeError as err:
    print(str(err)[:120])
g = a.detach().clone().requires_grad_()
h = g[1:]
print(h._version, g._version)
with torch.no_grad():
    g[0] = 10
print(h._version, g._version, g)
