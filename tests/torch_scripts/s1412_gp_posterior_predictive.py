# GP posterior mean and variance with triangular solves, and the gradient of the mean at a test point
import torch

X = torch.tensor([-1.5, -0.5, 0.3, 1.2])
y = torch.tensor([0.2, -0.4, 0.9, 0.1])
def k(a, b, ell=0.7):
    return torch.exp(-0.5 * (a[:, None] - b[None, :]) ** 2 / ell ** 2)
K = k(X, X) + 1e-2 * torch.eye(4)
L = torch.linalg.cholesky(K)
alpha = torch.cholesky_solve(y[:, None], L)
xs = torch.tensor([0.0, 0.5], requires_grad=True)
Ks = k(xs, X)
mean = (Ks @ alpha).squeeze(1)
v = torch.linalg.solve_triangular(L, Ks.T, upper=False)
var = 1 - (v ** 2).sum(0)
print(mean, var)
mean.sum().backward()
print(xs.grad)
