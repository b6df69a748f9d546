# differentiable sorting patterns: sort values' grad, gather by argsort, soft top-k mask by threshold, max with dim ties
import torch

x = torch.tensor([0.3, -1.2, 2.5, 0.3, 1.0], requires_grad=True)
v, idx = x.sort(descending=True, stable=True)
(v * torch.arange(5.0)).sum().backward()
print(v, idx, x.grad)
x.grad = None
r = x.gather(0, x.argsort())
(r[:2].sum() - r[-1]).backward()
print(x.grad)
x.grad = None
m, i = torch.tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], requires_grad=True).max(dim=1)
print(m, i)
y = torch.tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], requires_grad=True)
y.max().backward()
print(y.grad)
y.grad = None
y.amax(dim=1).sum().backward()
print(y.grad)
y.grad = None
y.max(dim=1).values.sum().backward()
print(y.grad)
z = torch.tensor([1.0, 5.0, 5.0], requires_grad=True)
torch.max(z, torch.tensor([2.0, 5.0, 1.0])).sum().backward()
print(z.grad)
