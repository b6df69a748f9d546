import torch

x = torch.tensor([[1.0, 5.0, 3.0, 5.0], [2.0, -1.0, 4.0, 0.0]], requires_grad=True)
for name, fn in [("max", lambda t: t.max()), ("amax", lambda t: t.amax(dim=1).sum()), ("max_dim", lambda t: t.max(dim=1).values.sum()),
                 ("median", lambda t: t.median()), ("logsumexp", lambda t: t.logsumexp(1).sum()), ("std", lambda t: t.std(1).sum()),
                 ("var0", lambda t: t.var(0, unbiased=False).sum()), ("prod", lambda t: t.prod(1).sum()), ("norm", lambda t: t.norm()),
                 ("cumprod", lambda t: t.cumprod(1).sum()), ("cummax", lambda t: t.cummax(1).values.sum()), ("topk", lambda t: t.topk(2, dim=1).values.sum()),
                 ("sort", lambda t: (t.sort(1, descending=True).values * torch.arange(4.0)).sum()), ("kth", lambda t: t.kthvalue(2, 1).values.sum()),
                 ("nanmean", lambda t: t.nanmean()), ("aminmax", lambda t: sum(torch.aminmax(t))), ("mean_keep", lambda t: t.mean((0, 1), keepdim=True).sum()),
                 ("quantile", lambda t: t.quantile(0.3, dim=1).sum()), ("trace", lambda t: t[:, :2].trace()), ("diff", lambda t: t.diff(dim=1).pow(2).sum())]:
    x.grad = None
    v = fn(x)
    v.backward()
    print(name, round(v.item(), 6), x.grad.round(decimals=5).tolist())
