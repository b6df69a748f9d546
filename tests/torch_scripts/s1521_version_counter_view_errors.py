# version counters shared by views; backward through a saved tensor modified in place fails
import torch

x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
y = x * 1
v = y[1:3]
print(y._version, v._version)
s = v.sigmoid()
v.mul_(2)
print(y._version, v._version, y)
try:
    s.sum().backward()
except RuntimeError as e:
    print(str(e)[:160])
a = x.clone()
b = a.view(2, 2)
e = b.exp()
a.add_(1)
print(a._version, b._version, b.grad_fn.name())
try:
    e.sum().backward()
except RuntimeError as err:
    print(str(err)[:160])
c = x.detach()
print(c._version)
w = x * 1
t = w.t() if w.dim() == 2 else w.unsqueeze(0)
p = w.pow(2)
t.zero_()
print(w, w._version, t._version)
try:
    p.sum().backward()
except RuntimeError as err:
    print(str(err)[:200])
