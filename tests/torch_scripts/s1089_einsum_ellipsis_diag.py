# einsum: ellipsis broadcasting, repeated index (diagonal/trace), sublist format, outer product
import torch

A = torch.arange(9.0).view(3, 3)
print(torch.einsum("ii", A), torch.einsum("ii->i", A), torch.einsum("ij->", A))
B = torch.arange(24.0).view(2, 3, 4)
print(torch.einsum("...ij->...ji", B).shape, torch.einsum("b...j,j->b...", B, torch.ones(4)))
print(torch.einsum(A, [0, 1], torch.ones(3), [1], [0]))
print(torch.einsum("i,j->ij", torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0])))
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = torch.einsum("ij,jk,ki->", x, x, x)
y.backward()
print(y, x.grad)
print(torch.einsum("bii->b", torch.arange(8.0).view(2, 2, 2)))
print(torch.einsum("i i -> i", torch.eye(2) * 3))
print(torch.einsum("...,...->...", torch.tensor(2.0), torch.tensor([1.0, 2.0])))
