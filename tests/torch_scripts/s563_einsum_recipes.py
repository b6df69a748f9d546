import torch

A = torch.arange(6.0).reshape(2, 3)
B = torch.arange(12.0).reshape(3, 4)
v = torch.tensor([1.0, 2.0, 3.0])
M = torch.arange(9.0).reshape(3, 3)
print(torch.einsum("ij,jk->ik", A, B))
print(torch.einsum("ii", M), torch.einsum("ii->i", M), torch.einsum("ij->ji", A).shape)
print(torch.einsum("i,j->ij", v, v))
print(torch.einsum("i,i->", v, v), torch.einsum("ij->", A), torch.einsum("ij->j", A))
bA = torch.arange(24.0).reshape(2, 3, 4)
bB = torch.arange(16.0).reshape(2, 4, 2)
print(torch.einsum("bij,bjk->bik", bA, bB))
print(torch.einsum("...ij,...jk->...ik", bA, bB).shape)
print(torch.einsum("b i j, b j k -> b i k", bA, bB).sum())
W = torch.arange(24.0).reshape(3, 2, 4)
x1, x2 = torch.ones(5, 2), torch.arange(20.0).reshape(5, 4)
print(torch.einsum("bn,anm,bm->ba", x1, W, x2))
print(torch.allclose(torch.einsum("bn,anm,bm->ba", x1, W, x2), torch.nn.functional.bilinear(x1, x2, W)))
print(torch.einsum(A, [0, 1], B, [1, 2], [0, 2]).shape)
print(torch.einsum("ij,ij->i", A, A), torch.einsum("bii->b", torch.arange(18.0).reshape(2, 3, 3)))
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.einsum("i,ij,j->", x, torch.tensor([[2.0, 1.0], [1.0, 3.0]]), x)
y.backward()
print(y, x.grad)
q = torch.arange(2 * 3 * 2 * 4.0).reshape(2, 3, 2, 4)  # b l h d
k = torch.arange(2 * 5 * 2 * 4.0).reshape(2, 5, 2, 4) / 10
print(torch.einsum("blhd,bshd->bhls", q, k).shape)
try:
    torch.einsum("ij,jk->ik", A, A)
except RuntimeError as e:
    print("RuntimeError", str(e)[:80])
