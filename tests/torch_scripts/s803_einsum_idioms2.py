# einsum written the way answers show it: batched outer products, bilinear forms, trace of
# products, attention scores with named letters, diag extraction, sum over everything
import torch

a = torch.arange(6.0).view(2, 3)
b = torch.arange(12.0).view(3, 4)
print(torch.einsum("ij,jk->ik", a, b), torch.einsum("ij,jk", a, b).shape)
print(torch.einsum("ij->", a), torch.einsum("ij->j", a), torch.einsum("ij->ji", a))
v = torch.tensor([1.0, 2.0, 3.0])
print(torch.einsum("i,j->ij", v, v), torch.einsum("i,i->", v, v), torch.einsum("i,i->i", v, v))
M = torch.arange(9.0).view(3, 3)
print(torch.einsum("ii->i", M), torch.einsum("ii", M), torch.einsum("ij,ji->", M, M))
x = torch.arange(24.0).view(2, 3, 4)
y = torch.arange(40.0).view(2, 4, 5)
print(torch.einsum("bij,bjk->bik", x, y).shape, torch.einsum("bij,bjk->bik", x, y)[1, 2])
q = torch.arange(24.0).view(2, 3, 4) / 10
k = torch.ones(2, 5, 4)
print(torch.einsum("bqd,bkd->bqk", q, k)[0])
print(torch.einsum("...ij,...jk->...ik", x, y).shape, torch.einsum("b...,b...->b", x, x))
W = torch.ones(3, 3, 2)
print(torch.einsum("i,ijk,j->k", v, W, v))
print(torch.einsum("i j , j k -> i k", a, b).sum())
print(torch.einsum(a, [0, 1], b, [1, 2], [0, 2]).sum())
A = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
z = torch.einsum("ij,ij->", A, A) + torch.einsum("ii", A)
z.backward()
print(z, A.grad)
try:
    torch.einsum("ij,jk->ik", a, a)
except RuntimeError as e:
    print(str(e)[:70])
