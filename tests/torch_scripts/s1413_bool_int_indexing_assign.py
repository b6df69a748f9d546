# integer-array and boolean indexing with assignment, index_fill_, masked_select gradients
import torch

a = torch.arange(12.0).reshape(3, 4)
a[[0, 2], [1, 3]] = -1.0
a[a > 8] = 0.0
print(a)
a[:, torch.tensor([True, False, True, False])] *= 10
print(a)
b = torch.arange(6).reshape(2, 3)
print(b[torch.tensor([1, 0, 1])], b[:, [2, 0]], b[[1], [2]], b[torch.tensor(1)])
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
ms = torch.masked_select(x, torch.tensor([[True, False], [False, True]]))
(ms * torch.tensor([5.0, 7.0])).sum().backward()
print(ms, x.grad)
x.grad = None
x.index_fill(1, torch.tensor([0]), 9.0).sum().backward()
print(x.grad)
print(x[..., None].shape, x[None, :, None].shape, x[1:, ::-1 if False else 1].shape)
