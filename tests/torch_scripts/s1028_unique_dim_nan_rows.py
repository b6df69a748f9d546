# unique along dims with NaN rows/columns, sorted flags, return_inverse reconstructing the input
import torch

nan = float("nan")
x = torch.tensor([[1.0, nan], [0.0, 2.0], [1.0, nan], [0.0, 2.0]])
u, inv, cnt = torch.unique(x, dim=0, return_inverse=True, return_counts=True)
print(u, inv, cnt)
print(torch.equal(u[inv][1], x[1]))
c = torch.tensor([[1, 3, 1], [2, 4, 2]])
u, inv = torch.unique(c, dim=1, return_inverse=True)
print(u, inv, torch.equal(u[:, inv], c))
print(torch.unique(torch.tensor([3, 1, 3, 2]), sorted=True, return_counts=True))
print(torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 0]]), dim=0, return_inverse=True))
print(torch.unique(torch.tensor([nan, nan, 1.0]), return_counts=True))
print(torch.unique(torch.tensor([True, False, True])), torch.unique(torch.zeros(0, 2), dim=0).shape)
