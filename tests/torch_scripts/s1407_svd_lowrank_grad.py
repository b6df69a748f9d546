# SVD: singular values' gradient is U V^T; nuclear norm; low-rank reconstruction
import torch

M = torch.tensor([[3.0, 1.0], [1.0, 3.0], [0.0, 1.0]], requires_grad=True)
U, S, Vh = torch.linalg.svd(M, full_matrices=False)
print(S)
S.sum().backward()
print(M.grad)
print(torch.allclose(M.grad, U @ Vh))
M.grad = None
torch.linalg.matrix_norm(M, "nuc").backward()
print(M.grad)
M.grad = None
U, S, Vh = torch.linalg.svd(M, full_matrices=False)
r1 = S[0] * torch.outer(U[:, 0], Vh[0])
(M - r1).pow(2).sum().backward()
print(torch.round(M.grad, decimals=6))
print(torch.linalg.svdvals(M.detach()))
