# einsum with broadcasting in batch dims, sublist format and repeated indices within operands
import torch

A = torch.arange(6.0).reshape(2, 3)
b = torch.tensor([1.0, 0.0, -1.0])
print(torch.einsum("bi,i->b", A, b))
print(torch.einsum(A, [0, 1], b, [1], [0]))
x = torch.arange(4.0).reshape(2, 1, 2)
y = torch.arange(6.0).reshape(1, 3, 2)
print(torch.einsum("...k,...k->...", x, y))
print(torch.einsum("iij->j", torch.arange(8.0).reshape(2, 2, 2)))
print(torch.einsum("i,i", b, b), torch.einsum("ij->", A), torch.einsum("ij->ji", A))
w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
torch.einsum("ij,jk,kl->il", w, w, w).sum().backward()
print(w.grad)
