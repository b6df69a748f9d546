# Sparse-ish tricks with dense tensors: COO triplets accumulated by index_put_, bincount, one-hot matmul
import torch

rows = torch.tensor([0, 1, 1, 0])
cols = torch.tensor([2, 0, 2, 2])
vals = torch.tensor([3.0, 4.0, 5.0, 1.0], requires_grad=True)
dense = torch.zeros(2, 3).index_put((rows, cols), vals, accumulate=True)
print(dense)
d = torch.tensor([[1.0], [2.0], [3.0]])
out = dense @ d
out.sum().backward()
print(out, vals.grad)
flat = rows * 3 + cols
print(torch.bincount(flat, weights=vals.detach(), minlength=6).view(2, 3))
oh = torch.nn.functional.one_hot(cols, 3).double()
print(oh.T @ vals.detach(), torch.unique(flat, return_counts=True))
print(dense.nonzero().T, dense[dense != 0], (dense != 0).sum())
