import torch

S = torch.tensor([[2.0, 0.5, 0.1], [0.5, 1.0, 0.3], [0.1, 0.3, 3.0]], requires_grad=True)
vals, vecs = torch.linalg.eigh(S)
print(vals.detach().round(decimals=6))
(vals ** 2).sum().backward()
print(S.grad.round(decimals=6))
S.grad = None
vals, vecs = torch.linalg.eigh(S)
(vecs[:, -1].abs() * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(S.grad.round(decimals=5))
M = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.5]], requires_grad=True)
U, s, Vh = torch.linalg.svd(M, full_matrices=False)
print(U.shape, s.detach().round(decimals=6), Vh.shape)
s.sum().backward()
print(M.grad.round(decimals=6))
M.grad = None
torch.linalg.matrix_norm(M, ord="nuc").backward()
print(M.grad.round(decimals=6))
M.grad = None
torch.linalg.matrix_norm(M, ord=2).backward()
print(M.grad.round(decimals=6))
print(torch.linalg.svdvals(M.detach()).round(decimals=6))
print(torch.linalg.eigvalsh(S.detach(), UPLO="U").round(decimals=6))
