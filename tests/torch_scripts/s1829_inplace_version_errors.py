# in-place pitfalls forum posts ask about: version counter errors, leaf in-place, views
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.sigmoid()
c = b * 2
print(b._version)
b.add_(1)
print(b._version)
try:
    b.sum().backward() if False else c.sum().backward()
    print("ok")
except RuntimeError as e:
    print("RuntimeError", str(e)[:150])
try:
    a.add_(1)
except RuntimeError as e:
    print("RuntimeError", e)
with torch.no_grad():
    a.add_(1)
print(a, a._version)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.clone()
v = y[:2]
v.mul_(10)
print(y, y.grad_fn.name(), v.grad_fn.name())
y.sum().backward()
print(x.grad)
z = torch.tensor([1.0, 2.0], requires_grad=True)
e = z.exp()
e.mul_(2)
try:
    e.sum().backward()
    print("ok", z.grad)
except RuntimeError as err:
    print("RuntimeError", str(err)[:120])
w = torch.ones(2, requires_grad=True)
try:
    w.data.mul_(3)
    print("data ok", w, w._version)
except RuntimeError as err:
    print("RuntimeError", err)
d = w.detach()
d.zero_()
print(w, w._version, d._version)
t = torch.tensor([1.0, 2.0])
t2 = t.view(2)
t2 += 1
print(t, t._version, t2._version)
