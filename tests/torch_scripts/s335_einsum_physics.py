import torch

torch.manual_seed(0)
A = torch.linspace(-1, 1, 3 * 4 * 4).view(3, 4, 4).requires_grad_(True)
x = torch.linspace(0, 1, 3 * 4).view(3, 4).requires_grad_(True)
quad = torch.einsum("bi,bij,bj->b", x, A, x)
print(quad)
tr = torch.einsum("bii->b", A)
print(tr, torch.allclose(tr, A.diagonal(dim1=-2, dim2=-1).sum(-1)))
outer = torch.einsum("bi,bj->bij", x, x)
print(outer.shape, torch.einsum("...ij,...jk->...ik", A, A).shape)
print(torch.einsum("ij->ji", A[0]).equal(A[0].T))
bil = torch.einsum("bi,oij,bj->bo", x, A[:, :, :], x)
print(bil.shape)
(quad.sum() + tr.sum() + outer.pow(2).sum() + bil.sum()).backward()
print(A.grad[0], x.grad)
eps = torch.zeros(3, 3, 3)
eps[0, 1, 2] = eps[1, 2, 0] = eps[2, 0, 1] = 1
eps[0, 2, 1] = eps[2, 1, 0] = eps[1, 0, 2] = -1
u = torch.tensor([1.0, 2.0, 3.0])
v = torch.tensor([-1.0, 0.5, 2.0])
print(torch.einsum("ijk,j,k->i", eps, u, v), torch.linalg.cross(u, v))
I = torch.einsum("ni,nj->ij", torch.randn(5, 3).abs(), torch.ones(5, 3)).shape
print(I)
print(torch.einsum("i,i", u, v), torch.einsum("i,j", u, v).shape, torch.einsum(u, [0], v, [1], [0, 1]).shape)
T = torch.arange(24.0).view(2, 3, 4)
print(torch.einsum("abc->cab", T).shape, torch.einsum("abc,abc->", T, T), torch.einsum("a b c -> a", T))
W = torch.arange(12.0).view(3, 4)
print(torch.einsum("bij,jk", T, W.T), torch.tensordot(T, W, dims=([1, 2], [0, 1])))
