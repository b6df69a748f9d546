# einsum: trace, diagonal, batch matmul, outer, ellipsis, sum over repeated, and gradients
import torch

A = torch.arange(9.0).reshape(3, 3).requires_grad_()
B = torch.arange(6.0).reshape(3, 2)
print(torch.einsum("ii", A), torch.einsum("ii->i", A))
print(torch.einsum("ij,jk->ik", A, B))
print(torch.einsum("i,j->ij", torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0])))
X = torch.arange(24.0).reshape(2, 3, 4)
Y = torch.arange(8.0).reshape(2, 4, 1)
print(torch.einsum("bij,bjk->bik", X, Y).squeeze(-1))
print(torch.einsum("...ij->...ji", X).shape, torch.einsum("bij->", X))
print(torch.einsum("ij,ij->i", A, A))
(torch.einsum("ii", A) + torch.einsum("ij,jk->", A, B)).backward()
print(A.grad)
print(torch.einsum("i j , j k -> i k", A.detach(), B).shape)
