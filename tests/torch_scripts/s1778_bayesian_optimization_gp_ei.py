# One round of Bayesian optimization: a GP posterior (Cholesky, solve_triangular) over
# observed points of a 1-D function, expected improvement with torch.distributions.Normal
# cdf and log_prob, the next query chosen on a grid and refined by gradient ascent on EI
import numpy as np
import torch
from torch.distributions import Normal

f = lambda x: torch.sin(3 * x) + 0.5 * x
Xo = torch.tensor([-1.5, -0.4, 0.3, 1.2])
yo = f(Xo)
ls, var, noise = 0.5, 1.0, 1e-4


def kern(a, b):
    return var * torch.exp(-0.5 * (a.unsqueeze(-1) - b.unsqueeze(-2)) ** 2 / ls ** 2)


L = torch.linalg.cholesky(kern(Xo, Xo) + noise * torch.eye(4))
alpha = torch.cholesky_solve(yo.unsqueeze(1), L).squeeze(1)


def posterior(x):
    ks = kern(x, Xo)
    mean = ks @ alpha
    v = torch.linalg.solve_triangular(L, ks.T, upper=False)
    return mean, (var - (v ** 2).sum(0)).clamp_min(1e-12).sqrt()


def expected_improvement(x, best):
    mu, sd = posterior(x)
    z = (mu - best) / sd
    n = Normal(torch.zeros(()), torch.ones(()))
    return (mu - best) * n.cdf(z) + sd * n.log_prob(z).exp()


best = yo.max()
grid = torch.linspace(-2, 2, 41)
ei = expected_improvement(grid, best)
x0 = grid[ei.argmax()]
print("grid argmax", round(x0.item(), 3), round(ei.max().item(), 6))
x = x0.clone().view(1).requires_grad_(True)
opt = torch.optim.Adam([x], lr=0.02)
for it in range(20):
    opt.zero_grad()
    (-expected_improvement(x, best)).sum().backward()
    opt.step()
print("refined", x.detach().numpy().round(4), expected_improvement(x.detach(), best).numpy().round(6))
mu, sd = posterior(torch.tensor([-1.5, 0.0, 1.9]))
print(mu.numpy().round(4), sd.numpy().round(4), round(best.item(), 5))
