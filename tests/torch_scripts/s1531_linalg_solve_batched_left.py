# linalg.solve: batched systems, broadcasting, left=False, and gradients w.r.t. A and B
import torch

A = torch.tensor([[[3.0, 1.0], [1.0, 2.0]], [[2.0, -1.0], [0.5, 4.0]]], requires_grad=True)
B = torch.tensor([[1.0, 0.0], [2.0, 1.0]], requires_grad=True)
X = torch.linalg.solve(A, B)
print(X.shape, X.grad_fn.name())
print(X)
(X * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
print(A.grad)
print(B.grad)
A.grad = None
b = torch.tensor([1.0, -1.0])
x = torch.linalg.solve(A, b)
print(x.shape, x)
x.pow(2).sum().backward()
print(A.grad)
Y = torch.linalg.solve(A.detach(), B.detach().expand(2, 2, 2), left=False)
print(torch.allclose(Y @ A.detach(), B.detach().expand(2, 2, 2)))
r = torch.linalg.solve_ex(A.detach(), B.detach())
print(r.info, type(r).__name__)
try:
    torch.linalg.solve(torch.zeros(2, 2), torch.ones(2))
except RuntimeError as e:
    print(str(e)[:90])
try:
    torch.linalg.solve(torch.ones(2, 3), torch.ones(2))
except RuntimeError as e:
    print(e)
