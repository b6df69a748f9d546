# reductions: dtype of sum/prod/mean on ints and bools, dim tuples, keepdim, empty inputs
import torch

i = torch.tensor([[1, 2], [3, 4]], dtype=torch.int32)
b = torch.tensor([True, True, False])
print(i.sum().dtype, i.prod().dtype, b.sum(), b.sum().dtype, i.sum(dtype=torch.float32))
print(i.float().mean(), torch.mean(i.double(), dim=(0, 1), keepdim=True))
try:
    i.mean()
except RuntimeError as e:
    print(e)
e = torch.zeros(0, 3)
print(e.sum(0), e.sum(1), e.prod(0), e.mean(0))
try:
    e.max(0)
except (RuntimeError, IndexError) as err:
    print(str(err)[:100])
print(e.amax(1), torch.zeros(0).sum(), torch.zeros(0).prod())
x = torch.arange(24.0).reshape(2, 3, 4)
print(x.sum((0, 2)), x.sum(-1, keepdim=True).shape, x.std((1, 2)), x.var(1, correction=0)[0])
print(x.logsumexp((0, 1)).shape, x.nansum(), x.count_nonzero(), x.count_nonzero(dim=0)[0])
print(torch.tensor([1.0, float("nan")]).nanmean(), torch.tensor([1, 2, 3]).float().norm())
print(x.amax((0, 1)), x.aminmax(), torch.all(x > -1, dim=2).shape, x.any())
