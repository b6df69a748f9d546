# einsum edge cases: ellipsis, repeated indices (diagonal), empty output, spaces, list operands
import torch

a = torch.arange(6.0).reshape(2, 3)
b = torch.arange(12.0).reshape(3, 4)
sq = torch.arange(9.0).reshape(3, 3)
print(torch.einsum("ij,jk", a, b))
print(torch.einsum("ii->i", sq), torch.einsum("ii", sq), torch.einsum("ij->", a))
print(torch.einsum("...j,j->...", torch.ones(2, 2, 3), torch.tensor([1.0, 2.0, 3.0])))
print(torch.einsum("i , j -> ij", torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
print(torch.einsum("bij,bjk->bik", [torch.ones(2, 1, 2), torch.ones(2, 2, 1)]).shape)
print(torch.einsum("i,i", torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
print(torch.einsum("ji", a), torch.einsum("...->...", torch.tensor(5.0)))
print(torch.einsum("ij,ij->ij", a, a), torch.einsum("i->", torch.zeros(0)))
print(torch.einsum("bi,i->b", torch.ones(0, 3), torch.ones(3)).shape)
try:
    torch.einsum("ij,jk->ik", a, a)
except RuntimeError as e:
    print(e)
try:
    torch.einsum("ij->k", a)
except RuntimeError as e:
    print(e)
