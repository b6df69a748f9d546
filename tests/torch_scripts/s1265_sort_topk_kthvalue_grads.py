# gradients of sort values, topk, kthvalue, median, mode-like selection
import torch

x = torch.tensor([[3.0, 1.0, 4.0, 1.5], [2.0, 7.0, 0.0, 5.0]], requires_grad=True)
v, i = x.sort(dim=1, descending=True)
print(v, i)
(v * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print(x.grad)
x.grad = None
t = x.topk(2, dim=1)
print(t.values, t.indices)
t.values.sum().backward()
print(x.grad)
x.grad = None
k = x.kthvalue(2, dim=1)
print(k)
k.values.sum().backward()
print(x.grad)
x.grad = None
m = x.median(dim=1)
m.values.sum().backward()
print(m.values, m.indices, x.grad)
