# count_nonzero, unique_consecutive with counts/inverse, unique sorted=False, bincount minlength, mode
import torch

x = torch.tensor([1, 1, 2, 2, 2, 3, 1, 1])
print(torch.unique_consecutive(x), torch.unique_consecutive(x, return_counts=True, return_inverse=True))
print(torch.unique(x, return_inverse=True, return_counts=True), torch.unique(torch.tensor([3, 1, 3, 2]), sorted=True))
m = torch.tensor([[1, 0, 2], [0, 0, 3]])
print(torch.count_nonzero(m), torch.count_nonzero(m, dim=0), torch.count_nonzero(m, dim=(0, 1)))
print(torch.bincount(x, minlength=6), torch.mode(x), torch.mode(torch.tensor([[1, 2, 2], [3, 3, 1]]), dim=1))
print(torch.unique(torch.tensor([[1, 2], [1, 2], [0, 5]]), dim=0, return_counts=True))
print(torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 2]]), dim=0))
print(x.unique().dtype, torch.tensor([2.5, 2.5, 1.0]).unique(return_counts=True))
