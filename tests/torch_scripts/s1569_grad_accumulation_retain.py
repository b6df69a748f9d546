# gradient accumulation across backwards, retain_graph, grad of non-leaves, retain_grad
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 2
z = y.sum()
z.backward(retain_graph=True)
print(x.grad)
z.backward()
print(x.grad)
try:
    z.backward()
except RuntimeError as e:
    print(str(e)[:120])
print(y.grad, y.is_leaf, y.retains_grad)
x.grad.zero_()
y = x * 3
y.retain_grad()
(y ** 2).sum().backward()
print(y.grad, x.grad, y.retains_grad)
x.grad = None
q = x.exp()
g1 = torch.autograd.grad(q.sum(), x, retain_graph=True)
g2 = torch.autograd.grad(q.sum(), x)
print(g1[0].equal(g2[0]), x.grad)
try:
    torch.autograd.grad(q.sum(), x)
except RuntimeError as e:
    print(str(e)[:120])
l = torch.tensor(2.0, requires_grad=True)
for _ in range(3):
    (l * l).backward()
print(l.grad)
