# Cholesky: factor (lower/upper), _ex info, cholesky_solve, cholesky_inverse, gradients
import torch

S = torch.tensor([[4.0, 2.0, 0.4], [2.0, 5.0, 1.0], [0.4, 1.0, 3.0]], requires_grad=True)
L = torch.linalg.cholesky(S)
print(L, L.grad_fn.name())
U = torch.linalg.cholesky(S, upper=True)
print(torch.allclose(U, L.mT))
L.diagonal().log().sum().backward()
print(S.grad)
print(torch.allclose(S.grad, 0.5 * torch.linalg.inv(S.detach())))
info = torch.linalg.cholesky_ex(torch.tensor([[1.0, 2.0], [2.0, 1.0]])).info
print(info)
try:
    torch.linalg.cholesky(torch.tensor([[1.0, 2.0], [2.0, 1.0]]))
except RuntimeError as e:
    print(e)
b = torch.tensor([[1.0], [2.0], [3.0]], requires_grad=True)
Ld = L.detach().requires_grad_()
x = torch.cholesky_solve(b, Ld)
print(x.squeeze(), x.grad_fn.name())
x.sum().backward()
print(b.grad.squeeze(), Ld.grad)
Li = torch.cholesky_inverse(L.detach())
print(torch.allclose(Li, torch.linalg.inv(S.detach())))
