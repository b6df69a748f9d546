# polynomial least squares three ways: normal equations via solve, lstsq (driver gelsd), pinv; residuals and rank
import torch

t = torch.linspace(0, 1, 8)
yv = 1.0 + 2.0 * t - 3.0 * t ** 2 + 0.01 * torch.cos(17 * t)
V = torch.vander(t, N=3, increasing=True)
c1 = torch.linalg.solve(V.T @ V, V.T @ yv)
res = torch.linalg.lstsq(V, yv.unsqueeze(1), driver="gelsd")
c3 = torch.linalg.pinv(V) @ yv
print(c1.round(decimals=5), res.solution.squeeze().round(decimals=5), c3.round(decimals=5))
print(res.rank, res.singular_values.round(decimals=4), res.residuals.shape)
print(torch.linalg.lstsq(V, yv.unsqueeze(1)).residuals.round(decimals=8))
print(torch.allclose(c1, c3, atol=1e-8))
A = torch.tensor([[1.0, 2.0], [2.0, 4.0], [0.0, 0.0]])
print(torch.linalg.matrix_rank(A), torch.linalg.pinv(A).round(decimals=5))
print(torch.linalg.lstsq(A, torch.tensor([[1.0], [2.0], [0.0]]), driver="gelsd").solution.round(decimals=5))
