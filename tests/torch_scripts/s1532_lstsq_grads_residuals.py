# least squares: lstsq solution, residuals, rank, and gradients through the solution
import torch

A = torch.tensor([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 3.0]], requires_grad=True)
y = torch.tensor([[0.9], [2.1], [2.9], [4.2]], requires_grad=True)
res = torch.linalg.lstsq(A, y)
print(type(res).__name__, res.solution.shape)
print(res.solution)
print(res.residuals, res.rank, res.singular_values)
res.solution.sum().backward()
print(A.grad)
print(y.grad)
r2 = torch.linalg.lstsq(A.detach(), y.detach(), driver="gelsd")
print(r2.solution.squeeze(), r2.rank, r2.singular_values)
r3 = torch.linalg.lstsq(A.detach(), y.detach(), driver="gelsy")
print(r3.rank, r3.residuals)
pinv_sol = torch.linalg.pinv(A.detach()) @ y.detach()
print(torch.allclose(pinv_sol, res.solution.detach()))
try:
    torch.linalg.lstsq(A.detach(), y.detach(), driver="gesvd")
except RuntimeError as e:
    print(e)
