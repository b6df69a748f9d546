# lexicographic sort with two stable sorts, searchsorted with side, unique(sorted) with ties
import torch

a = torch.tensor([2, 1, 2, 1, 3])
b = torch.tensor([5, 9, 1, 2, 0])
o = torch.sort(b, stable=True).indices
o = o[torch.sort(a[o], stable=True).indices]
print(a[o], b[o])
s = torch.tensor([1.0, 2.0, 2.0, 2.0, 5.0])
print(torch.searchsorted(s, torch.tensor([2.0, 3.0, 0.0, 6.0])))
print(torch.searchsorted(s, torch.tensor([2.0]), side="right"), torch.searchsorted(s, 2.0, right=True))
print(torch.bucketize(torch.tensor([0.5, 2.0, 7.0]), s), torch.bucketize(torch.tensor([2.0]), s, right=True))
v, i = torch.sort(torch.tensor([0.0, -0.0, 1.0, -1.0]), stable=True)
print(v, i)
print(torch.sort(torch.tensor([[3, 3, 1]]), dim=-1, descending=True, stable=True).indices)
