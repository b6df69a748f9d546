import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 2
print(b._version, b.is_leaf, b.grad_fn.name())
b.add_(1)
print(b._version, b.grad_fn.name())
b.mul_(3)
print(b._version, b.grad_fn.name())
c = b.exp()
b.sub_(1)
print(b._version)
try:
    c.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0][:100])
d = a.sigmoid()
e = d * 2
d.add_(1)
try:
    d.sum().backward()
except RuntimeError as err:
    print(type(err).__name__, "modified by an inplace operation" in str(err))
try:
    a.add_(1)
except RuntimeError as err:
    print(type(err).__name__, str(err).splitlines()[0])
with torch.no_grad():
    a.add_(1)
print(a, a._version, a.is_leaf)
x = torch.zeros(2, 3)
v = x[0]
v.fill_(7)
print(x, x._version, v._version, v._base is x)
y = torch.arange(6.0).view(2, 3)
z = y.t()
print(z.is_contiguous(), z.stride(), z.contiguous().stride(), y.data_ptr() == z.data_ptr())
out = torch.empty(3)
torch.add(torch.ones(3), 2, out=out)
print(out, out._version)
w = torch.ones(3, requires_grad=True)
h = w.clone()
h[1] = 5
h.sum().backward()
print(h.grad_fn.name(), w.grad)
