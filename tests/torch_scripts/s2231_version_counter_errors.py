import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 2
c = b.sin()
print(b._version)
b.add_(1)
print(b._version)
try:
    c.sum().backward()
except RuntimeError as e:
    msg = str(e)
    print("RuntimeError", "modified by an inplace operation" in msg, "version 1; expected version 0" in msg)
x = torch.tensor([0.5, 1.0], requires_grad=True)
e = x.exp()
e.mul_(2)
try:
    e.sum().backward()
except RuntimeError as err:
    print("exp saved its output:", "ExpBackward0" in str(err))
y = torch.tensor([0.5, 1.0], requires_grad=True)
s = y * 3
t = s ** 2
s.zero_()
try:
    t.sum().backward()
except RuntimeError as err:
    print("pow saved its input:", "PowBackward0" in str(err))
ok = torch.tensor([1.0, 2.0], requires_grad=True)
u = ok + 1
v = u * 2
u.mul_(10)
v.sum().backward()
print("add then mul by constant is fine:", ok.grad)
leaf = torch.ones(2, requires_grad=True)
try:
    leaf.add_(1)
except RuntimeError as err:
    print(err)
with torch.no_grad():
    leaf.add_(1)
print(leaf, leaf._version)
view = torch.zeros(4)
base_v = view._version
sl = view[1:3]
sl.fill_(5)
print(view, view._version > base_v, sl._version == view._version)
d = leaf.detach()
d.mul_(3)
print(leaf, leaf._version == d._version)
w = torch.tensor([1.0, 2.0], requires_grad=True)
h = w.sigmoid()
h2 = h.clone()
h2.add_(1)
h.sum().backward()
print(w.grad.round(decimals=6))
