# SVD: shapes with full_matrices, svdvals gradients, gauge-invariant loss gradients
import torch

A = torch.tensor([[3.0, 1.0, 0.5], [1.0, 2.0, -1.0]], requires_grad=True)
U, S, Vh = torch.linalg.svd(A, full_matrices=False)
print(U.shape, S.shape, Vh.shape)
print(S)
U2, S2, Vh2 = torch.linalg.svd(A.detach())
print(U2.shape, Vh2.shape)
S.sum().backward()
print(A.grad)
A.grad = None
torch.linalg.svdvals(A).pow(2).sum().backward()
print(A.grad, torch.allclose(A.grad, 2 * A.detach()))
A.grad = None
U, S, Vh = torch.linalg.svd(A, full_matrices=False)
rec = (U * S) @ Vh
print(torch.allclose(rec, A))
(U @ Vh).sum().backward()
print(A.grad)
print(torch.svd(A.detach()).V.shape, type(torch.svd(A.detach())).__name__)
try:
    U, S, Vh = torch.linalg.svd(A, full_matrices=True)
    (U[:, :1] * Vh[:1]).sum().backward()
except RuntimeError as e:
    print(str(e)[:120])
