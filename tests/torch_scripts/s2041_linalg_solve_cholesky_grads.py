import torch

A0 = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
b0 = torch.tensor([[1.0, 0.0], [2.0, 1.0], [0.0, -1.0]])
A = A0.clone().requires_grad_()
b = b0.clone().requires_grad_()
x = torch.linalg.solve(A, b)
print(x.round(decimals=6), x.grad_fn.name())
(x ** 2).sum().backward()
print(A.grad.round(decimals=6))
print(b.grad.round(decimals=6))
A.grad = None
L = torch.linalg.cholesky(A)
print(L.round(decimals=6))
(L.diagonal().log().sum() * 2).backward()
print(A.grad.round(decimals=6))
print(torch.allclose(A.grad, torch.linalg.inv(A0).T))
A.grad = None
U = torch.linalg.cholesky(A, upper=True)
print(torch.allclose(U, L.T))
Lx, info = torch.linalg.cholesky_ex(A)
print(info, torch.allclose(Lx, L))
bad = torch.tensor([[1.0, 2.0], [2.0, 1.0]])
_, info = torch.linalg.cholesky_ex(bad)
print(info)
try:
    torch.linalg.cholesky(bad)
except torch.linalg.LinAlgError as e:
    print(type(e).__name__, isinstance(e, RuntimeError))
xl = torch.linalg.solve(A0, b0[:, 0], left=True)
xr = torch.linalg.solve(A0, b0.T, left=False)
print(xl.round(decimals=6), xr.shape)
print(torch.allclose(xr @ A0, b0.T))
