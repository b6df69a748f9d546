import torch

x = torch.tensor([[1.0, -2.0, 0.0], [float("nan"), 3.0, -0.5]])
print(torch.where(x > 0, x, 0.0), torch.where(x > 0, 1, -1), torch.where(torch.isnan(x), torch.zeros_like(x), x))
print(torch.where(x > 0), torch.nonzero(x > 0), torch.nonzero(x > 0, as_tuple=True), torch.argwhere(x < 0))
print(torch.count_nonzero(x), torch.count_nonzero(x, dim=0), (x != 0).sum(1))
print(x.isnan().any(), x.isfinite().all(dim=1), torch.any(x > 2, dim=0, keepdim=True), torch.all(x.nan_to_num() > -3))
print(torch.nan_to_num(x, nan=9.0), torch.nansum(x), torch.nanmean(x, dim=1), x.nanmean())
m = x > -1
print(x[m], x.masked_fill(~m, -100), x.masked_fill(torch.tensor([True, False, True]), 5.0))
v = torch.tensor([0.5, -1.0, 2.0, -3.0], requires_grad=True)
out = torch.where(v > 0, v ** 2, -v)
out.sum().backward()
print(out, v.grad)
v.grad = None
torch.where(v.abs() > 1, torch.zeros(()), v).sum().backward()
print(v.grad)
print(torch.clamp(v.detach(), min=torch.tensor([0.0, 0.0, 0.0, -2.0])), v.detach().clamp(max=1), torch.clip(v.detach(), -1, 1))
print(torch.isin(torch.tensor([1, 2, 3, 4]), torch.tensor([2, 4])), torch.isin(torch.tensor([1, 2]), torch.tensor([1]), invert=True))
print(torch.isinf(torch.tensor([1.0, float("inf"), -float("inf")])), torch.isposinf(torch.tensor([float("inf")])), torch.isreal(torch.tensor([1.0])), torch.signbit(torch.tensor([-0.0, 0.0, -1.0])))
print(torch.maximum(torch.tensor([1.0, float("nan")]), torch.tensor([2.0, 0.0])), torch.fmax(torch.tensor([1.0, float("nan")]), torch.tensor([2.0, 0.0])))
print(torch.logical_and(x > 0, x < 2), torch.logical_not(x > 0).int())
