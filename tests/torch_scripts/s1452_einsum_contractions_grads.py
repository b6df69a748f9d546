# einsum contractions common in papers (bilinear forms, batched outer, trace) and gradients
import torch

A = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
x = torch.tensor([[1.0, -1.0], [0.5, 2.0]], requires_grad=True)
bil = torch.einsum("bi,ij,bj->b", x, A, x)
print(bil)
print(torch.einsum("ii", A), torch.einsum("ij->ji", A), torch.einsum("bi,bj->bij", x, x).shape)
bil.sum().backward()
print(A.grad, x.grad)
print(torch.einsum("i,i->", x[0], x[1]), torch.einsum("...ij,...jk", A, A))
print(torch.einsum(x, [0, 1], A, [1, 2], [0, 2]))
