import torch

# graph message passing: sums, means and maxes per destination node
src = torch.tensor([0, 1, 2, 2, 3, 4, 4, 4])
dst = torch.tensor([1, 0, 0, 3, 1, 2, 3, 3])
feat = torch.arange(5 * 2, dtype=torch.float64).reshape(5, 2).requires_grad_()
msgs = feat[src]
agg = torch.zeros(5, 2).index_add(0, dst, msgs)
print(agg)
deg = torch.bincount(dst, minlength=5)
print(deg)
mean = agg / deg.clamp(min=1).unsqueeze(1)
idx = dst.unsqueeze(1).expand(-1, 2)
mx = torch.full((5, 2), float("-inf")).scatter_reduce(0, idx, msgs, reduce="amax", include_self=True)
print(mx)
mn = torch.zeros(5, 2).scatter_reduce(0, idx, msgs, reduce="mean", include_self=False)
print(mn)
(mean.sum() + mx[torch.isfinite(mx)].sum() + mn.sum()).backward()
print(feat.grad)
print(torch.zeros(5).scatter_add(0, dst, torch.ones(8)))
seg = torch.segment_reduce(torch.arange(6.0), "sum", lengths=torch.tensor([2, 3, 1])) if hasattr(torch, "segment_reduce") else None
print(seg)
print(torch.bincount(dst, weights=torch.linspace(0, 1, 8)).round(decimals=4))
