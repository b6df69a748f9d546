# pseudo-inverse: rank-deficient matrices, atol/rtol, hermitian=True, gradients
import torch

A = torch.tensor([[1.0, 2.0], [2.0, 4.0], [0.0, 0.0]])
P = torch.linalg.pinv(A)
print(P)
print(torch.allclose(A @ P @ A, A))
B = torch.tensor([[2.0, 0.0], [0.0, 1e-9]])
print(torch.linalg.pinv(B), torch.linalg.pinv(B, rtol=1e-6))
print(torch.linalg.pinv(B, atol=0.5))
H = torch.tensor([[2.0, 1.0], [1.0, 2.0]], requires_grad=True)
Ph = torch.linalg.pinv(H, hermitian=True)
print(Ph)
Ph.sum().backward()
print(H.grad)
W = torch.tensor([[1.0, 2.0, 0.5], [0.0, 1.0, -1.0]], requires_grad=True)
torch.linalg.pinv(W).pow(2).sum().backward()
print(W.grad)
print(torch.linalg.matrix_rank(A), torch.linalg.matrix_rank(B), torch.linalg.matrix_rank(B, tol=1e-12))
