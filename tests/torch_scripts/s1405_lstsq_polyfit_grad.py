# polynomial fit by linalg.lstsq and by normal equations; gradient through the solution
import torch

t = torch.linspace(0, 1, 6)
y = torch.tensor([1.0, 1.3, 1.9, 2.8, 4.1, 5.9], requires_grad=True)
A = torch.stack([torch.ones_like(t), t, t ** 2], 1)
sol = torch.linalg.lstsq(A, y.unsqueeze(1)).solution.squeeze(1)
print(sol)
ne = torch.linalg.solve(A.T @ A, A.T @ y)
print(torch.allclose(sol, ne))
sol.sum().backward()
print(torch.round(y.grad, decimals=8))
print(torch.round(torch.linalg.pinv(A).sum(0), decimals=8))
