# narrow, narrow_copy, select, index_select on several dims, take_along_dim without dim,
# masked ops on views, and their gradients
import torch

a = torch.arange(20.0).view(4, 5)
print(a.narrow(0, 1, 2), a.narrow(1, -2, 2), torch.narrow_copy(a, 1, 0, 3).shape, a.narrow(0, torch.tensor(2), 1))
print(a.select(1, 0), a.select(0, -1), a.index_select(1, torch.tensor([4, 0])), a.index_select(0, torch.tensor([], dtype=torch.long)).shape)
print(torch.take_along_dim(a, torch.tensor([0, 19, 7])), torch.take_along_dim(a, torch.tensor([[1], [0], [2], [4]]), dim=1).squeeze(1))
g = torch.arange(6.0).view(2, 3).requires_grad_()
(g.narrow(1, 1, 2) * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
print(g.grad)
g.grad = None
g.index_select(1, torch.tensor([0, 0, 2])).sum().backward()
print(g.grad)
g.grad = None
g.select(0, 1).pow(2).sum().backward()
print(g.grad)
try:
    a.narrow(0, 3, 2)
except RuntimeError as e:
    print(str(e)[:60])
try:
    a.index_select(0, torch.tensor([5]))
except IndexError as e:
    print("IndexError", str(e)[:26])
