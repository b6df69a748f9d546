# Complex linear algebra: eig of a non-symmetric matrix (eigenvalues sorted), complex matmul grads, eigvals
import torch

A = torch.tensor([[0.0, -2.0], [1.0, 3.0]])
vals = torch.linalg.eigvals(A)
print(torch.sort(vals.real).values, vals.dtype)
R = torch.tensor([[0.0, -1.0], [1.0, 0.0]])
ev = torch.linalg.eigvals(R)
print(torch.sort(ev.imag).values)
z = torch.tensor([[1 + 1j, 2.0 + 0j], [0.5j, -1 + 0j]], requires_grad=True)
w = torch.tensor([1 - 1j, 2j])
out = (z @ w).abs().sum()
out.backward()
print(out, z.grad)
print(torch.linalg.norm(z.detach()), z.detach().mH, torch.linalg.vector_norm(z.detach(), ord=1))
print(torch.einsum("ij,j->i", z.detach(), w), (z.detach() * w).sum(dim=1).conj())
