# Sorting with NaNs and ties, topk largest=False, kthvalue, argsort stable on ties,
# sort of integers descending, msort, searchsorted with side and sorter
import torch

x = torch.tensor([3.0, float("nan"), 1.0, 2.0, float("nan"), -1.0])
print(x.sort(), x.sort(descending=True).values, x.argsort())
print(torch.topk(torch.tensor([5.0, 1.0, 3.0, 1.0, 4.0]), 3, largest=False))
t = torch.tensor([2, 1, 2, 1, 3, 2])
print(t.sort(stable=True), t.argsort(stable=True, descending=True))
print(torch.kthvalue(torch.tensor([[4.0, 1.0, 3.0], [9.0, 7.0, 8.0]]), 2, dim=1))
print(torch.sort(torch.tensor([[3, 1], [2, 4]]), dim=0, descending=True))
s = torch.tensor([1.0, 3.0, 5.0, 7.0])
v = torch.tensor([3.0, 6.0, 0.0, 9.0])
print(torch.searchsorted(s, v), torch.searchsorted(s, v, right=True), torch.searchsorted(s, v, side="right"))
uns = torch.tensor([5.0, 1.0, 7.0, 3.0])
print(torch.searchsorted(uns, v, sorter=uns.argsort()), torch.searchsorted(s, 4.0), torch.searchsorted(s, v, out_int32=True).dtype)
print(torch.max(x), torch.min(x), x.nanmean() if False else x.nansum(), torch.nanmedian(x), x.max(0) if False else torch.argmax(x))
print(torch.amax(torch.tensor([[1.0, 5.0], [float("nan"), 2.0]]), 1), torch.fmax(torch.tensor([float("nan"), 1.0]), torch.tensor([2.0, float("nan")])))
print(torch.unique(torch.tensor([2.0, float("nan"), 1.0, float("nan")])))
print(torch.topk(torch.tensor([1.0, 2.0, 2.0, 0.5]), 2).values, torch.sort(torch.tensor([True, False, True])).values)
