# general (non-symmetric) eigen-decomposition: complex outputs and real-input gradients
import torch

A = torch.tensor([[2.0, 1.0, 0.0], [0.5, 3.0, 1.0], [0.0, 0.2, 1.0]], requires_grad=True)
L, V = torch.linalg.eig(A)
print(L.dtype, V.dtype, L.shape)
order = L.real.argsort()
print(L[order].detach())
print(L.grad_fn.name() if L.grad_fn is not None else None)
loss = L.real.sum() + (L.abs() ** 2).sum()
loss.backward()
print(A.grad.round(decimals=6) + 0.0)
A.grad = None
ev = torch.linalg.eigvals(A)
ev.real.pow(2).sum().backward()
print(A.grad.round(decimals=6) + 0.0)
print(torch.allclose((A.detach().to(V.dtype) @ V).detach(), (V * L).detach()))
R = torch.tensor([[0.0, -1.0], [1.0, 0.0]])
print(torch.linalg.eigvals(R))
