# printing named-tuple results: topk, sort, max, slogdet, aminmax, histogram, qr shapes
import torch

x = torch.tensor([[3.0, 1.0], [2.0, 4.0]])
print(torch.topk(x, 1))
print(x.sort(dim=0))
print(torch.aminmax(x))
print(torch.linalg.slogdet(x))
r = torch.max(x, 1)
print(r.values, r[1], len(r), type(r).__name__)
v, i = torch.min(x, dim=0, keepdim=True)
print(v, i)
print(torch.histogram(torch.tensor([1.0, 2.0, 1.0]), bins=2))
