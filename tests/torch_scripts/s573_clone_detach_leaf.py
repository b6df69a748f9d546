import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 3
c = b.detach()
d = b.clone()
print(a.is_leaf, b.is_leaf, c.is_leaf, d.is_leaf, c.requires_grad, d.requires_grad)
print(d.grad_fn.name(), b.grad_fn.next_functions[0][0].__class__.__name__)
c.requires_grad_()
print(c.requires_grad, c.is_leaf, c.grad_fn)
e = a.detach().clone().requires_grad_(True)
print(e.is_leaf, e.requires_grad)
b.retain_grad()
(b * d).sum().backward()
print(a.grad, b.grad, b.retains_grad, d.retains_grad)
f = torch.zeros(2)
f.requires_grad = True
print(f.requires_grad, f.is_leaf)
try:
    b.requires_grad_(False)
except RuntimeError as err:
    print("RuntimeError", err)
g = a.data
g.add_(1)
print(a, a.data is a)
h = torch.tensor([3.0], requires_grad=True)
k = h.detach()
print(k.requires_grad, h.requires_grad)
m = (a * 2).detach_()
print(m.requires_grad, m.grad_fn, m.is_leaf)
t = torch.ones(2, requires_grad=True)
u = t.clone()
u.add_(1)
u.sum().backward()
print(t.grad, u.grad_fn.name())
with torch.no_grad():
    n = a * 2
print(n.requires_grad, n.is_leaf)
try:
    torch.tensor([1, 2]).requires_grad_()
except RuntimeError as err:
    print("RuntimeError", str(err)[:59])
print(torch.tensor([1.0]).requires_grad_().grad, a.grad.requires_grad)
