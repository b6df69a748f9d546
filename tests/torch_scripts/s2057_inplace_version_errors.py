import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.sigmoid()
print(b._version)
c = b * 2
b.add_(1)
print(b._version)
try:
    b.sum().backward()
    print("ok", a.grad.round(decimals=5))
except RuntimeError as e:
    print("RuntimeError", "inplace" in str(e))
a.grad = None
e = a.exp()
e.mul_(2)
try:
    e.sum().backward()
    print("exp ok")
except RuntimeError as err:
    print("RuntimeError", "modified by an inplace operation" in str(err))
x = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    x.add_(1)
except RuntimeError as err:
    print("leaf:", "leaf Variable" in str(err))
y = x.clone()
y[0] = 10
y.mul_(3)
y.sum().backward()
print(y, x.grad)
z = torch.zeros(3, requires_grad=True)
with torch.no_grad():
    z.add_(torch.tensor([1.0, 2.0, 3.0]))
print(z, z.requires_grad, z._version)
v = torch.arange(6.0).reshape(2, 3)
row = v[1]
row.mul_(10)
print(v, row._version, v._version)
w = torch.ones(4, requires_grad=True)
h = w * 1
h.relu_()
h.clamp_(max=0.5)
try:
    h.sum().backward()
except RuntimeError as err:
    print("relu_ then clamp_:", "is at version 2; expected version 1" in str(err))
print(h, w.grad)
