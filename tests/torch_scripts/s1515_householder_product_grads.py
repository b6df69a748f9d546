# QR via geqrf and householder_product (orgqr): orthogonality and gradients
import torch

A = torch.tensor([[2.0, -1.0], [1.0, 3.0], [0.5, 0.2]])
a, tau = torch.geqrf(A)
print(a.shape, tau.shape)
Q = torch.linalg.householder_product(a, tau)
print((Q.T @ Q).round(decimals=8) + 0.0)
Qr, Rr = torch.linalg.qr(A)
print(torch.allclose(Q.abs(), Qr.abs()))
V = torch.tensor([[1.0, 0.0], [0.3, 1.0], [-0.2, 0.4]], requires_grad=True)
t = torch.tensor([1.2, 0.7], requires_grad=True)
H = torch.linalg.householder_product(V, t)
print(H.grad_fn.name())
(H * torch.arange(6.0).reshape(3, 2)).sum().backward()
print(V.grad)
print(t.grad)
print(torch.orgqr(V.detach(), t.detach()))
