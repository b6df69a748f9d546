# sorting ops with ties: sort (stable), argsort, topk, kthvalue, median, mode; gradients
import torch

x = torch.tensor([3.0, 1.0, 3.0, 2.0, 1.0], requires_grad=True)
v, i = torch.sort(x, stable=True)
print(v.detach(), i, v.grad_fn.name())
vd, idd = x.sort(descending=True, stable=True)
print(vd.detach(), idd)
(v * torch.arange(5.0)).sum().backward()
print(x.grad)
x.grad = None
t = torch.topk(x, 2)
print(t.values.detach(), t.indices, type(t).__name__)
t.values.sum().backward()
print(x.grad)
x.grad = None
k = torch.kthvalue(x, 2)
k.values.backward()
print(k, x.grad)
x.grad = None
med = x.median()
med.backward()
print(med, x.grad)
print(torch.mode(torch.tensor([1, 2, 2, 3, 3])), torch.msort(torch.tensor([[2, 1], [0, 5]])))
print(torch.argsort(torch.tensor([2, 1, 2, 0]), stable=True))
print(torch.topk(torch.tensor([1.0, 5.0, 3.0]), 2, largest=False, sorted=True))
