# advanced indexing mixes: integer arrays with slices, bool masks with assignment, index_add/index_copy/index_fill, take_along_dim
import torch

x = torch.arange(24).view(2, 3, 4)
print(x[:, [0, 2], 1:3])
print(x[[0, 1], :, [1, 3]])
print(x[..., [True, False, True, False]].shape)
print(x[1, torch.tensor([[0, 1], [2, 2]])].shape)
print(x[None, 0, ..., None].shape)
m = torch.zeros(3, 4)
m[torch.tensor([0, 2]), torch.tensor([1, 3])] = torch.tensor([5.0, 6.0])
m[m == 0] = -1
print(m)
t = torch.zeros(5)
print(t.index_add(0, torch.tensor([0, 0, 4]), torch.tensor([1.0, 2.0, 3.0]), alpha=2))
print(t.index_copy(0, torch.tensor([1, 3]), torch.tensor([7.0, 8.0])))
print(torch.arange(6.0).view(2, 3).index_fill(1, torch.tensor([0, 2]), -5))
a = torch.tensor([[10, 30, 20], [60, 40, 50]])
print(torch.take_along_dim(a, a.argsort(dim=1), dim=1))
print(torch.take(a, torch.tensor([0, 5, 3])))
print(torch.where(a > 25, a, torch.zeros_like(a)), torch.where(a > 25))
print(a.masked_select(a % 20 == 0), a.masked_fill(a < 35, 0))
print(torch.gather(a, 0, torch.tensor([[1, 0, 1]])))
g = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = g[torch.tensor([0, 0, 2, 2, 2])]
y.sum().backward()
print(g.grad)
