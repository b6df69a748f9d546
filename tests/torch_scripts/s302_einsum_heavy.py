import torch

torch.set_printoptions(precision=4)
A = torch.arange(24.).reshape(2, 3, 4) / 10
B = torch.arange(20.).reshape(4, 5) / 7
v = torch.tensor([1.0, -1.0, 2.0])
print(torch.einsum("bij,jk->bik", A, B).shape)
print(torch.einsum("bii->bi", torch.arange(18.).reshape(2, 3, 3)))
print(torch.einsum("i,i->", v, v), torch.einsum("i,j->ij", v, v[:2]))
print(round(torch.einsum("...ij,...jk", A, B).sum().item(), 6))
print(torch.einsum("b i j, j k -> b k", A, B))
print(torch.einsum(A, [0, 1, 2], B, [2, 3], [0, 3]).shape)
print(torch.einsum("ijk->kji", A).shape, torch.einsum("ijk->", A))
print(torch.einsum("ij,ij,ij->i", B[:2], B[:2], B[:2]))
print(torch.einsum("bn,anm,bm->ba", torch.ones(2, 3), torch.ones(4, 3, 3), torch.ones(2, 3)))
# bilinear attention scores and their gradients
q = torch.linspace(-1, 1, 2 * 3 * 4).reshape(2, 3, 4).requires_grad_()
k = torch.linspace(1, -1, 2 * 5 * 4).reshape(2, 5, 4).requires_grad_()
W = torch.eye(4, requires_grad=True)
s = torch.einsum("bqd,de,bke->bqk", q, W, k)
att = s.softmax(-1)
out = torch.einsum("bqk,bkd->bqd", att, k)
out.pow(2).sum().backward()
print(s.shape, type(s.grad_fn).__name__, type(out.grad_fn).__name__)
print(round(q.grad.sum().item(), 6) + 0.0, round(k.grad.sum().item(), 6) + 0.0, round(W.grad.trace().item(), 6))
print(torch.allclose(torch.einsum("ij,jk", B.T, B), B.T @ B))
print(torch.einsum("ii", torch.eye(3) * 2), torch.einsum("i->", v).dtype)
try:
    torch.einsum("ij,jk->ik", B, B)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.einsum("ij->ijk", B)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.einsum("i,i", torch.tensor([1, 2]), torch.tensor([3, 4])))
