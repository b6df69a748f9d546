# Statistics people compute: median of even length (lower), quantile with interpolation modes,
# nanquantile, mode with ties, var/std with correction, var_mean, aminmax, count_nonzero
import torch

x = torch.tensor([4.0, 1.0, 3.0, 2.0])
print(x.median(), torch.quantile(x, 0.5), x.nanmedian())
for how in ["linear", "lower", "higher", "midpoint", "nearest"]:
    print(how, torch.quantile(x, torch.tensor([0.1, 0.5, 0.9]), interpolation=how))
m = torch.tensor([[1.0, 5.0, 2.0], [7.0, 3.0, 9.0]])
print(torch.quantile(m, 0.25, dim=1, keepdim=True), torch.nanquantile(torch.tensor([1.0, float("nan"), 3.0]), 0.5))
print(torch.mode(torch.tensor([3, 1, 3, 1, 2])), torch.mode(torch.tensor([[1, 1, 2], [2, 3, 3]]), dim=1))
print(m.var(), m.var(unbiased=False), m.var(correction=0, dim=0), m.std(dim=1, keepdim=True), m.std(correction=2))
print(torch.var_mean(m, dim=1), torch.std_mean(m, correction=0))
print(torch.aminmax(m), torch.aminmax(m, dim=0), torch.count_nonzero(torch.tensor([[0, 1], [2, 0]]), dim=0))
print(m.median(dim=1), m.prod(1), m.sum((0, 1)), m.mean(dim=-1, keepdim=True), m.logsumexp(1))
print(torch.cov(m), torch.corrcoef(m), torch.cov(m, correction=0), torch.cov(m, fweights=torch.tensor([1, 2, 1])))
print(torch.tensor([1.0]).std(), torch.tensor([2.0, 2.0]).var())
