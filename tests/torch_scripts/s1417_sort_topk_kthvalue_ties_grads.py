# gradients through topk, kthvalue, median and msort with ties
import torch

x = torch.tensor([2.0, 5.0, 5.0, 1.0, 3.0], requires_grad=True)
v, i = x.topk(2)
print(v, i)
(v * torch.tensor([1.0, 10.0])).sum().backward(); print(x.grad); x.grad = None
kv, ki = x.kthvalue(3)
print(kv, ki)
kv.backward(); print(x.grad); x.grad = None
m = x.median()
m.backward(); print(m, x.grad); x.grad = None
x.msort().mul(torch.arange(5.0)).sum().backward(); print(x.grad); x.grad = None
q = torch.quantile(x, 0.3)
q.backward(); print(q, x.grad)
