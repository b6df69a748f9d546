import torch

A = torch.tensor([[2.0, 1.0 - 1.0j], [1.0 + 1.0j, 3.0]])
print(torch.allclose(A, A.mH), A.dtype)
# eigenvalues of a Hermitian matrix through its real 2n x 2n embedding (each appears twice)
R = torch.cat([torch.cat([A.real, -A.imag], 1), torch.cat([A.imag, A.real], 1)], 0)
print(torch.linalg.eigvalsh(R).round(decimals=5))
theta = torch.tensor(0.4, requires_grad=True)
U = torch.stack([torch.stack([torch.cos(theta).to(torch.complex128), -1j * torch.sin(theta)]),
                 torch.stack([-1j * torch.sin(theta), torch.cos(theta).to(torch.complex128)])])
print(torch.allclose(U @ U.mH, torch.eye(2, dtype=U.dtype)))
psi0 = torch.tensor([1.0 + 0j, 0.0 + 0j])
psi = U @ psi0
prob1 = psi[1].abs() ** 2
prob1.backward()
print(round(prob1.item(), 6), round(theta.grad.item(), 6))
print(A.diagonal().sum().real, (A * A.conj()).real.sum())
B = torch.tensor([[1.0 + 2.0j, 0.5j], [0.0, 1.0 - 1.0j]])
print(torch.view_as_real(B @ B.conj().T).round(decimals=4))
print(torch.linalg.norm(B).round(decimals=5), torch.linalg.matrix_norm(B, "fro").round(decimals=5))
phase = torch.tensor([0.1, 0.2], requires_grad=True)
D = torch.exp(1j * phase)
expval = (D.conj() @ A @ D).real
expval.backward()
print(round(expval.item(), 6), phase.grad.round(decimals=6))
