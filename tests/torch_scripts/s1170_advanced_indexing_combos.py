# Advanced indexing combinations: int arrays + slices + None + Ellipsis, index placement rules, setitem with broadcasting
import torch

x = torch.arange(60).view(3, 4, 5)
i = torch.tensor([0, 2])
j = torch.tensor([1, 3])
print(x[i, :, j].shape, x[:, i, j].shape, x[i, j].shape, x[..., i].shape, x[i, None, j].shape, x[None, :, i].shape)
print(x[i[:, None], j].shape, x[[[0], [1]], :, [[1, 2]]].shape, x[1:, i, 2:].shape, x[i, 1:3, j].shape)
print(x[0, [1, 2], [3, 4]], x[torch.tensor(1), 2], x[-1, -1, -3:])
y = torch.zeros(3, 4)
y[[0, 2], 1:3] = torch.tensor([7.0, 8.0])
y[1, [0, 3]] = 5
y[:, 0] += torch.tensor([1.0, 2.0, 3.0])
print(y)
b = torch.tensor([[True, False, True, False]])
print(x[:, b[0]].shape, x[1][x[1] % 2 == 0], x[torch.tensor([[0, 1], [2, 0]])].shape)
z = torch.zeros(2, 3, dtype=torch.int64)
z[torch.tensor([1, 0]), torch.tensor([2, 2])] = torch.tensor([5, 6])
print(z, x[0, 0, torch.tensor([], dtype=torch.long)].shape)
w = torch.arange(6.0).requires_grad_()
(w[[0, 0, 5]] * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(w.grad)
