# quantile interpolation modes, nanquantile, cov with weights/correction, corrcoef, histogram with density, mode/median ints
import torch

x = torch.tensor([1.0, 2.0, 4.0, 7.0, 11.0])
for mode in ["linear", "lower", "higher", "midpoint", "nearest"]:
    print(mode, torch.quantile(x, torch.tensor([0.1, 0.5, 0.9]), interpolation=mode))
print(torch.quantile(torch.arange(12.0).view(3, 4), 0.25, dim=1, keepdim=True))
print(torch.nanquantile(torch.tensor([1.0, float("nan"), 3.0]), 0.5))
M = torch.tensor([[1.0, 2.0, 4.0, 7.0], [0.5, 0.0, -1.0, 2.0]])
print(torch.cov(M), torch.cov(M, correction=0))
print(torch.cov(M, fweights=torch.tensor([1, 2, 1, 1]), aweights=torch.tensor([0.5, 1.0, 1.0, 2.0])))
print(torch.corrcoef(M).round(decimals=5))
h = torch.histogram(x, bins=3, density=True)
print(h.hist, h.bin_edges)
print(torch.histogram(x, bins=torch.tensor([0.0, 5.0, 12.0]), weight=torch.tensor([1.0, 1.0, 2.0, 1.0, 0.5])))
print(torch.tensor([3, 1, 2, 2]).median(), torch.tensor([[1, 5], [3, 2]]).median(dim=0))
print(x.var(), x.var(unbiased=False), x.std(correction=2))
g = x.clone().requires_grad_()
torch.quantile(g, 0.3).backward()
print(g.grad)
