# Gradients through eigh (eigenvalues and vectors with a gauge-invariant loss) and svd
import torch

A0 = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 1.0]])
A = A0.clone().requires_grad_()
w, V = torch.linalg.eigh(A)
loss = w.pow(2).sum() + (V[:, 0] ** 4).sum()
loss.backward()
print(w, A.grad)
M = torch.tensor([[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]], requires_grad=True)
U, S, Vh = torch.linalg.svd(M, full_matrices=False)
(S.sum() + (U @ Vh).abs().sum()).backward()
print(S, M.grad)
N = M.detach().clone().requires_grad_()
torch.linalg.svdvals(N).max().backward()
print(N.grad)
print(torch.linalg.matrix_norm(M.detach(), ord="nuc"), torch.linalg.matrix_norm(M.detach(), ord=2))
