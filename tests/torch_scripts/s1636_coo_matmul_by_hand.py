# a sparse (COO) matrix times a dense one, by hand with index_add: values and gradients
import torch

rows = torch.tensor([0, 1, 1, 0])
cols = torch.tensor([2, 0, 2, 2])
vals = torch.tensor([3.0, 4.0, 5.0, 1.0], requires_grad=True)
dense_rhs = torch.tensor([[1.0], [2.0], [3.0]], requires_grad=True)
contrib = vals[:, None] * dense_rhs[cols]
y = torch.zeros(2, 1).index_add(0, rows, contrib)
print(y, y.grad_fn.name())
y.sum().backward()
print(vals.grad, dense_rhs.grad)
D = torch.zeros(2, 3).index_put((rows, cols), vals.detach(), accumulate=True)
print(D, torch.allclose(D @ dense_rhs.detach(), y.detach()))
key = rows * 3 + cols
uniq, inv = torch.unique(key, return_inverse=True)
summed = torch.zeros(len(uniq)).scatter_add(0, inv, vals.detach())
print(uniq // 3, uniq % 3, summed)
