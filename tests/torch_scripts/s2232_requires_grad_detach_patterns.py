import torch

w = torch.tensor([1.0, -2.0])
print(w.requires_grad, w.is_leaf, w.grad_fn)
w.requires_grad_()
y = (w * 3).sum()
print(y.requires_grad, y.is_leaf, type(y.grad_fn).__name__)
try:
    y.requires_grad_(False)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.tensor([1, 2]).requires_grad_()
except RuntimeError as e:
    print("RuntimeError:", e)
d = (w * 2).detach()
print(d.requires_grad, d.is_leaf)
d.requires_grad_(True)
(d ** 2).sum().backward()
print(d.grad, w.grad)
frozen = torch.tensor([2.0, 3.0], requires_grad=True)
z = frozen * frozen.detach()
z.sum().backward()
print(frozen.grad)
with torch.no_grad():
    k = w * 5
print(k.requires_grad, k.is_leaf)
r = w.data
r[0] = 100.0
print(w, w.requires_grad)
def stop_gradient(t):
    return t + (t.round() - t).detach()
q = torch.tensor([0.4, 1.6, 2.5], requires_grad=True)
sq = stop_gradient(q)
(sq * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(sq, q.grad)
try:
    torch.ones(2).backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    (w * 2).backward()
except RuntimeError as e:
    print("RuntimeError:", e)
p = torch.nn.Parameter(torch.zeros(2))
print(p.requires_grad, torch.nn.Parameter(torch.zeros(2), requires_grad=False).requires_grad)
