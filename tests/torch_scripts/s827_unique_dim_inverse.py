# unique with return_inverse / return_counts / dim, unique_consecutive on rows, and using the
# inverse to rebuild; counting labels; dedup rows of a matrix
import torch

labels = torch.tensor([3, 1, 3, 2, 1, 3])
u, inv, cnt = torch.unique(labels, return_inverse=True, return_counts=True)
print(u, inv, cnt, u[inv].equal(labels))
rows = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 9]])
ur, ir = torch.unique(rows, dim=0, return_inverse=True)
print(ur, ir)
print(torch.unique(rows, dim=1, return_counts=True))
print(torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 2], [1, 1]]), dim=0, return_inverse=True, return_counts=True))
print(labels.unique(), labels.unique(sorted=True, return_counts=True)[1])
f = torch.tensor([0.5, 0.25, 0.5, 0.125])
print(torch.unique(f, return_inverse=True))
print(torch.unique(torch.tensor([[2, 1], [1, 2]])), torch.unique(torch.tensor([], dtype=torch.long), return_counts=True))
b = torch.tensor([True, False, True])
print(torch.unique(b, return_counts=True))
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1, 2]), return_counts=True, return_inverse=True))
