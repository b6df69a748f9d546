# The *_scatter functions (functional versions of in-place writes): diagonal_scatter,
# select_scatter, slice_scatter, index_put with broadcasting, diagflat/diag offsets
import torch

z = torch.zeros(3, 3)
print(torch.diagonal_scatter(z, torch.ones(3)), torch.diagonal_scatter(z, torch.tensor([5.0, 6.0]), 1))
print(torch.select_scatter(z, torch.tensor([1.0, 2.0, 3.0]), 0, 1), torch.select_scatter(z, torch.tensor([7.0, 8.0, 9.0]), 1, -1))
print(torch.slice_scatter(torch.zeros(4, 2), torch.ones(2, 2), 0, 1, 3), torch.slice_scatter(torch.zeros(2, 6), torch.ones(2, 3), 1, 0, 6, 2))
print(torch.diagflat(torch.tensor([1, 2])), torch.diagflat(torch.tensor([[1, 2], [3, 4]]), 1), torch.diag(torch.tensor([1.0, 2.0]), -1))
print(torch.diag(torch.arange(9).view(3, 3), 1), torch.diagonal(torch.arange(24).view(2, 3, 4), 0, 1, 2))
x = torch.zeros(2, 3)
print(x.index_put((torch.tensor([0, 1]),), torch.tensor([1.0, 2.0, 3.0])), x.index_put((torch.tensor([1]), torch.tensor([0, 2])), torch.tensor(4.0)))
v = torch.tensor([1.0, 2.0], requires_grad=True)
out = torch.diagonal_scatter(torch.zeros(2, 2), v * 3)
out.sum().backward()
print(out, v.grad)
w = torch.ones(2, 2, requires_grad=True)
torch.select_scatter(w, torch.zeros(2), 0, 0).sum().backward()
print(w.grad)
