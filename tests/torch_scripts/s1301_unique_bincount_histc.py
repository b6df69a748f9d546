# unique with inverse/counts/dim, unique_consecutive, bincount with weights, histc
import torch

x = torch.tensor([3, 1, 3, 2, 1, 3])
print(torch.unique(x, return_inverse=True, return_counts=True))
print(torch.unique(x, sorted=True, return_counts=True))
m = torch.tensor([[1, 2], [1, 2], [0, 5]])
print(torch.unique(m, dim=0, return_counts=True))
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 2, 1]), return_counts=True, return_inverse=True))
print(torch.bincount(x), torch.bincount(x, weights=torch.tensor([0.5, 1.0, 0.5, 2.0, 1.0, 1.0]), minlength=6))
print(torch.histc(torch.tensor([0.0, 0.5, 1.0, 1.5, 2.0, 5.0]), bins=4, min=0, max=2))
