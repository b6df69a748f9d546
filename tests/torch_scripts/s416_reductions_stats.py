import torch

x = torch.tensor([[1.0, 5.0, 3.0, 3.0], [2.0, -1.0, 4.0, 0.0], [7.0, 2.0, 2.0, 6.0]])
print(x.max(1), x.min(0).indices, x.argmax(), x.argmin(1, keepdim=True))
print(x.median(1), x.nanmedian(), x.mode(1), x.kthvalue(2, 1).values)
print(x.var(1, correction=0), x.std(0, unbiased=True), torch.var_mean(x, 1), torch.std_mean(x, dim=0, keepdim=True)[0])
print(x.quantile(0.3, dim=1), torch.quantile(x, torch.tensor([0.25, 0.75]), interpolation="nearest"), x.nanquantile(0.5))
print(x.aminmax(dim=0), x.logsumexp(1), x.norm(dim=1, p=1), x.count_nonzero(1), x.all(1), x.any(0))
print(x.sum((0, 1)), x.mean(-1, keepdim=True), x.prod(0), x.cumsum(1)[:, -1], x.nansum(), torch.nanmean(torch.tensor([1.0, float("nan"), 3.0])))
print(torch.unique(x), torch.unique(x, return_counts=True, return_inverse=True)[2], torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 1])))
print(x.sort(1, descending=True), x.argsort(0), x.msort()[0], torch.topk(x.flatten(), 3, largest=False))
print(torch.corrcoef(x).round(decimals=4), torch.cov(x, correction=0).round(decimals=4), torch.histogram(x.flatten(), bins=3).hist)
y = x.clone().requires_grad_()
for f in (lambda t: t.median(), lambda t: t.max(1).values.sum(), lambda t: t.std(), lambda t: t.quantile(0.3), lambda t: t.amax(0).sum(), lambda t: t.norm(p=3)):
    g, = torch.autograd.grad(f(y), y)
    print(g.round(decimals=4) + 0.0)
