# eigh: eigenvalues ascending, UPLO picks the triangle, gradients of eigenvalues and vectors
import torch

M = torch.tensor([[2.0, 1.0, 0.0], [5.0, 3.0, 1.0], [9.0, 1.0, 4.0]])
print(torch.linalg.eigvalsh(M), torch.linalg.eigvalsh(M, UPLO="U"))
S = torch.tensor([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]], requires_grad=True)
w, V = torch.linalg.eigh(S)
print(w)
print(w.grad_fn.name(), type(torch.linalg.eigh(S)).__name__)
w.sum().backward()
print(S.grad.round(decimals=8) + 0.0)
S.grad = None
w, V = torch.linalg.eigh(S)
(w * torch.tensor([1.0, 0.0, -1.0])).sum().backward()
print(S.grad.round(decimals=8) + 0.0)
S.grad = None
w, V = torch.linalg.eigh(S)
(V[:, 0] * V[:, 0].sign().detach()).pow(3).sum().backward()
print(S.grad.abs().sum() > 0, torch.allclose(S.grad, S.grad.T, atol=1e-10))
ev = torch.linalg.eigvalsh(S)
print(ev.grad_fn.name())
