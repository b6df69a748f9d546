# QR, lstsq, cholesky, solve with gradients and batch broadcasting
import torch

X = torch.tensor([[1.0, 0.5], [2.0, -1.0], [0.0, 3.0], [1.0, 1.0]], requires_grad=True)
Q, R = torch.linalg.qr(X)
(Q.sum() + R.diagonal().abs().sum()).backward()
print(R, X.grad)
y = torch.tensor([[1.0], [2.0], [3.0], [4.0]])
X2 = X.detach().clone().requires_grad_()
sol = torch.linalg.lstsq(X2, y).solution
sol.sum().backward()
print(sol, X2.grad)
S = torch.tensor([[4.0, 2.0], [2.0, 3.0]], requires_grad=True)
L = torch.linalg.cholesky(S)
L.sum().backward()
print(L, S.grad)
Ab = torch.stack([torch.eye(2) * 2, torch.tensor([[1.0, 1.0], [0.0, 2.0]])])
b = torch.tensor([1.0, -1.0])
print(torch.linalg.solve(Ab, b), torch.linalg.solve(Ab, torch.ones(2, 1)).shape)
print(torch.cholesky_solve(torch.ones(2, 1), L.detach()), torch.linalg.cholesky_ex(S.detach()).info)
try:
    torch.linalg.cholesky(torch.tensor([[1.0, 2.0], [2.0, 1.0]]))
except Exception as e:
    print(type(e).__name__, e)
