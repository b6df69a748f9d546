import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
z = y * 2
y.add_(1)
try:
    z.sum().backward()
    print("no error")
except RuntimeError as e:
    print("ok-z")
w = x.sigmoid()
out = w * w
w.mul_(2)
try:
    out.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:120])
a = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    a.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    a.add_(1)
print(a, a._version)
b = a.clone()
b[0] = 10
b.sum().backward()
print(a.grad, b._version)
c = torch.zeros(3)
v = c[1:]
v.fill_(5)
print(c, c._version, v._version)
d = torch.tensor([1.0, -1.0], requires_grad=True)
e = d.relu()
e2 = e.clone()
e.mul_(3)
try:
    e.sum().backward()
except RuntimeError as ex:
    print("RuntimeError:", str(ex).split(":")[0])
(e2 * 2).sum()
print(d.grad)
f = torch.tensor([1.0, 2.0], requires_grad=True)
g = f * 1
h = g.view(2, 1)
h.mul_(torch.tensor([[2.0], [3.0]]))
g.sum().backward()
print(f.grad, g.grad_fn.__class__.__name__)
t = torch.ones(2, requires_grad=True)
try:
    t.data.mul_(2)
    print(t, t.requires_grad)
except RuntimeError as e:
    print(e)
leaf = torch.ones(3, requires_grad=True)
view = leaf[:2]
try:
    view.mul_(2)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:100])
p = torch.tensor([0.5, 1.5], requires_grad=True)
q = p.tanh()
q.add_(q.detach())
try:
    (q * p).sum().backward()
    print(p.grad)
except RuntimeError as ex:
    print("RuntimeError")
