# topk / sort / max values' gradients and indices on ties; max along dim returns first index
import torch

x = torch.tensor([[1.0, 3.0, 3.0, 2.0], [5.0, 5.0, 0.0, 5.0]], requires_grad=True)
v, i = x.max(dim=1)
print(v, i)
v.sum().backward()
print(x.grad)
x.grad = None
top = x.topk(2, dim=1)
print(top.values, top.indices)
top.values.sum().backward()
print(x.grad.sum(1))
print(torch.argmax(torch.tensor([2, 7, 7, 1])), torch.argmin(torch.tensor([0.0, -1.0, -1.0])))
y = torch.tensor([3.0, 3.0, 1.0], requires_grad=True)
y.max().backward()
print(y.grad)
y.grad = None
y.amax().backward()
print(y.grad)
