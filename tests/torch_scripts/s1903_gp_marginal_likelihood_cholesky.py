# Gaussian-process regression as in a GP tutorial: RBF kernel with log-parameterised
# lengthscale/variance/noise, negative log marginal likelihood via cholesky,
# cholesky_solve and the log-diagonal, optimised with Adam; predictive mean and variance
import math
import torch

X = torch.linspace(-3, 3, 12).unsqueeze(-1)
y = torch.sin(X).squeeze(-1) + 0.1 * torch.cos(7 * X).squeeze(-1)
log_ls = torch.tensor(0.0, requires_grad=True)
log_var = torch.tensor(0.0, requires_grad=True)
log_noise = torch.tensor(-2.0, requires_grad=True)


def kernel(a, b):
    d2 = torch.cdist(a, b).pow(2)
    return log_var.exp() * torch.exp(-0.5 * d2 / log_ls.exp().pow(2))


def nlml():
    K = kernel(X, X) + log_noise.exp() * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(-1), L)
    return (0.5 * (y.unsqueeze(-1) * alpha).sum() + L.diagonal().log().sum()
            + 0.5 * len(X) * math.log(2 * math.pi))


opt = torch.optim.Adam([log_ls, log_var, log_noise], lr=0.1)
for i in range(6):
    opt.zero_grad()
    loss = nlml()
    loss.backward()
    opt.step()
    print(i, f"{loss.item():.6f}", f"{log_ls.grad.item():+.5f}")
with torch.no_grad():
    Xs = torch.tensor([[-1.0], [0.5], [4.0]])
    K = kernel(X, X) + log_noise.exp() * torch.eye(len(X))
    L, info = torch.linalg.cholesky_ex(K)
    Ks = kernel(Xs, X)
    mean = Ks @ torch.cholesky_solve(y.unsqueeze(-1), L)
    v = torch.linalg.solve_triangular(L, Ks.T, upper=False)
    var = kernel(Xs, Xs).diagonal() - v.pow(2).sum(0)
print(info.item(), mean.squeeze(-1), var)
print(torch.allclose(2 * L.diagonal().log().sum(), torch.logdet(K)))
