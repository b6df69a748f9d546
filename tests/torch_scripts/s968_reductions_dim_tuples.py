# reductions over dim tuples, negative dims and keepdim; empty-dim-tuple edge cases that are common
import torch

x = torch.arange(24.0).reshape(2, 3, 4) / 7
print(x.sum(dim=(0, 2)))
print(x.mean(dim=(-1, 0), keepdim=True).shape)
print(x.amax(dim=(1, 2)), x.amin(dim=(0, 1)))
print(x.std(dim=(0, 2), unbiased=False).round(decimals=5))
print(x.var(dim=(1,), correction=0, keepdim=True).round(decimals=5))
print(torch.logsumexp(x, dim=(0, 1)).round(decimals=4))
print(torch.linalg.vector_norm(x, ord=3, dim=(1, 2)).round(decimals=4))
print(x.norm(p=1, dim=(0, 2)))
print(x.prod(dim=-1).round(decimals=4))
print(torch.count_nonzero(x > 1, dim=(0, 2)))
print(x.nansum(dim=(0, 1)).shape, torch.nanmean(x, dim=(2,)).shape)
print(torch.var_mean(x, dim=(0, 2), correction=1))
print(torch.std_mean(x, dim=1, keepdim=True)[0].shape)
print(torch.aminmax(x, dim=1, keepdim=True).max.shape)
print(x.any(dim=2), x.all(dim=(0, 1)) if hasattr(torch, "__version__") else None)
y = x.clone().requires_grad_()
y.amax(dim=(0, 2)).sum().backward()
print(y.grad.sum(), y.grad.nonzero().tolist())
