# std_mean/var_mean with correction, aminmax, quantile interpolation modes, nanquantile, logcumsumexp, cummax/cummin
import torch

x = torch.tensor([[1.0, 4.0, 2.0, 8.0], [3.0, 3.0, 0.0, -1.0]])
print(torch.std_mean(x, dim=1), torch.var_mean(x, dim=0, correction=0))
print(torch.var(x, unbiased=False), torch.std(x, dim=1, keepdim=True, correction=2))
print(torch.aminmax(x), torch.aminmax(x, dim=0))
for m in ("linear", "lower", "higher", "midpoint", "nearest"):
    print(m, torch.quantile(x, torch.tensor([0.25, 0.5]), dim=1, interpolation=m))
print(torch.nanquantile(torch.tensor([1.0, float("nan"), 3.0, 2.0]), 0.5), torch.quantile(x, 0.9, keepdim=True, dim=1).shape)
print(torch.logcumsumexp(x, dim=1), torch.cummax(x, dim=1), torch.cummin(x, dim=0))
y = x.clone().requires_grad_()
(torch.quantile(y, 0.3, dim=1).sum() + torch.std_mean(y)[0]).backward()
print(y.grad)
