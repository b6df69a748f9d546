# counting: histc ranges, bincount with weights/minlength, bucketize/searchsorted sides, unique
import torch

x = torch.tensor([0.5, 1.5, 1.7, 2.9, 3.0, -1.0, 5.0])
print(torch.histc(x, bins=4, min=0, max=4), torch.histc(torch.tensor([1.0, 1.0]), bins=3))
print(torch.bincount(torch.tensor([0, 2, 2, 5])), torch.bincount(torch.tensor([1, 1]), minlength=4))
print(torch.bincount(torch.tensor([0, 1, 1]), weights=torch.tensor([0.5, 1.0, 2.0])))
b = torch.tensor([1.0, 2.0, 3.0])
print(torch.bucketize(x, b), torch.bucketize(x, b, right=True), torch.bucketize(x, b, out_int32=True).dtype)
print(torch.searchsorted(b, torch.tensor([2.0, 2.5])), torch.searchsorted(b, torch.tensor([2.0]), side="right"))
print(torch.searchsorted(torch.tensor([[1, 3, 5], [2, 4, 6]]), torch.tensor([[3], [3]])))
u, inv, cnt = torch.unique(torch.tensor([3, 1, 3, 2, 1]), return_inverse=True, return_counts=True)
print(u, inv, cnt)
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 1]), return_counts=True))
print(torch.unique(torch.tensor([[1, 2], [1, 2], [0, 1]]), dim=0))
h, edges = torch.histogram(x, bins=3)
print(h, edges)
