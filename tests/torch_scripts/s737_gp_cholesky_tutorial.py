# Gaussian process regression by hand: RBF kernel, cholesky, cholesky_solve, log marginal likelihood
import math
import torch


def rbf(x1, x2, lengthscale, variance):
    sqdist = torch.cdist(x1, x2).pow(2)
    return variance * torch.exp(-0.5 * sqdist / lengthscale ** 2)


X = torch.linspace(0, 5, 12).unsqueeze(-1)
y = torch.sin(X).squeeze() + 0.05 * torch.cos(7 * X).squeeze()
Xs = torch.linspace(0, 5, 4).unsqueeze(-1)
log_ls = torch.tensor(0.0, requires_grad=True)
log_var = torch.tensor(0.0, requires_grad=True)
log_noise = torch.tensor(-3.0, requires_grad=True)
opt = torch.optim.Adam([log_ls, log_var, log_noise], lr=0.05)


def nll():
    K = rbf(X, X, log_ls.exp(), log_var.exp()) + log_noise.exp() * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(-1), L)
    n = len(X)
    return 0.5 * (y.unsqueeze(0) @ alpha).squeeze() + torch.log(torch.diagonal(L)).sum() + 0.5 * n * math.log(2 * math.pi)


for it in range(40):
    opt.zero_grad()
    loss = nll()
    loss.backward()
    opt.step()
    if it % 10 == 0:
        print(f"iter {it:2d} nll {loss.item():.5f} ls {log_ls.exp().item():.4f}")

with torch.no_grad():
    K = rbf(X, X, log_ls.exp(), log_var.exp()) + log_noise.exp() * torch.eye(len(X))
    Ks = rbf(Xs, X, log_ls.exp(), log_var.exp())
    L = torch.linalg.cholesky(K)
    v = torch.linalg.solve_triangular(L, Ks.T, upper=False)
    mean = Ks @ torch.cholesky_solve(y.unsqueeze(-1), L)
    var = log_var.exp() - (v ** 2).sum(0)
print(mean.squeeze().round(decimals=3), var.clamp_min(0).sqrt().round(decimals=3))
print(torch.allclose(L @ L.mT, K), torch.linalg.cholesky_ex(K).info.item())
mvn = torch.distributions.MultivariateNormal(torch.zeros(len(X)), scale_tril=L)
print(round(-mvn.log_prob(y).item(), 5), round(nll().item(), 5))
