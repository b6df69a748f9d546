# reductions: dtype rules, errors for integer mean, correction, aminmax, nan-aware ones
import torch

i = torch.tensor([[1, 2], [3, 4]])
try:
    i.mean()
except RuntimeError as e:
    print("RuntimeError", e)
print(i.float().mean(), i.mean(dtype=torch.float64), i.sum(dtype=torch.float32))
print(i.prod(1), i.cumprod(0), i.sum(0, keepdim=True).shape)
b = torch.tensor([True, True, False])
print(b.sum(), b.any(), b.all(), b.float().mean(), b.prod())
x = torch.tensor([[1.0, 2.0, 4.0], [2.0, 2.0, 8.0]])
print(x.std(), x.std(correction=0), x.var(1, unbiased=False), x.var(dim=1, correction=2))
print(torch.std_mean(x, dim=0), torch.var_mean(x, 1, keepdim=True))
print(torch.aminmax(x), torch.aminmax(x, dim=1))
n = torch.tensor([1.0, float("nan"), 3.0])
print(n.sum(), n.nansum(), n.nanmean(), n.max(), n.amax(), n.min())
print(torch.logsumexp(torch.tensor([-float("inf"), -float("inf")]), 0))
print(torch.logsumexp(torch.tensor([float("inf"), 1.0]), 0))
print(torch.cummax(torch.tensor([1.0, 3.0, 2.0, 3.0]), 0), torch.cummin(torch.tensor([2, 1, 3]), 0))
print(torch.logcumsumexp(torch.tensor([0.0, 0.0, 0.0]), 0))
print(torch.count_nonzero(x - 2), torch.count_nonzero(x - 2, dim=0))
print(x.norm(), x.norm(p=1, dim=1), x.norm(p=float("inf")))
print(torch.empty(0).sum(), torch.empty(0).prod(), torch.empty(0, 2).mean(0))
try:
    torch.empty(0).max()
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
print(torch.empty(2, 0).sum(1), torch.empty(2, 0).amax(0))
print(x.sum((0, 1)), x.mean([-1]), x.amax((0, 1)))
print(torch.tensor([1, 2, 3], dtype=torch.int8).sum().dtype, torch.tensor([1.5], dtype=torch.float32).sum().dtype)
print(torch.tensor(5).sum(), torch.tensor(5.0).mean(0), torch.tensor(5.0).std())
