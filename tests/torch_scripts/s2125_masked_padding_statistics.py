import torch

lengths = torch.tensor([3, 1, 4])
T = 4
x = torch.arange(12.0).view(3, T) - 5
x.requires_grad_()
mask = torch.arange(T)[None, :] < lengths[:, None]
print(mask)
masked_sum = (x * mask).sum(1)
mean = masked_sum / lengths
var = (((x - mean[:, None]) ** 2) * mask).sum(1) / (lengths - 1).clamp(min=1)
print(mean.detach(), var.detach().round(decimals=4))
scores = x.masked_fill(~mask, float("-inf"))
p = scores.softmax(-1)
print(p.detach().round(decimals=4))
mx = scores.max(dim=1)
print(mx.values.detach(), mx.indices)
(mean.sum() + var.sum() + (p * torch.arange(T)).sum()).backward()
print(x.grad.round(decimals=4))
sel = torch.masked_select(x.detach(), mask)
print(sel, sel.shape)
filled = torch.zeros(3, T).masked_scatter(mask, torch.arange(8.0) + 100)
print(filled)
print(torch.nanmean(x.detach().masked_fill(~mask, float("nan")), dim=1))
