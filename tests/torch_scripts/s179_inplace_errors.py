import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
tries = [
    lambda: a.add_(1),
    lambda: a[0].mul_(2),
    lambda: a.view(3).zero_(),
    lambda: a.detach().view(3).requires_grad_(),
]
for f in tries:
    try:
        f()
        print("ok")
    except RuntimeError as e:
        print("RuntimeError:", str(e).split("\n")[0])
b = a * 2
v = b[1:]
v.mul_(3)
print(b, b.grad_fn.name(), b._version, v._version)
b.sum().backward()
print(a.grad)
c = a.sigmoid()
d = c * 1
c.add_(1)
try:
    c.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(";")[0][:150])
e = a.exp()
f = e.view(3, 1)
e.mul_(2)
try:
    f.sum().backward()
except RuntimeError as err:
    print("RuntimeError:", str(err)[:120])
with torch.no_grad():
    a.mul_(2)
print(a, a._version, a.is_leaf)
x = torch.zeros(3, requires_grad=True).clone()
x[1] = a[0] * a[1]
x.sum().backward()
print(x, x.grad_fn.name(), a.grad)
u = torch.ones(2, 2).unbind(0)[0]
try:
    torch.ones(2, 2, requires_grad=True).clone().unbind(0)[0].add_(1)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:100])
