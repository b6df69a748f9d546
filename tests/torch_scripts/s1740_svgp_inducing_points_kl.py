# Sparse variational GP (Hensman et al.) with inducing points: q(u) = N(m, S) with S from a
# lower-triangular factor (tril + softplus diagonal), ELBO = expected log-likelihood minus
# kl_divergence(MultivariateNormal q, MultivariateNormal p), predictions from whitened algebra
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import MultivariateNormal, kl_divergence

rng = np.random.default_rng(871)
X = torch.from_numpy(np.sort(rng.uniform(-3, 3, 40))[:, None])
y = torch.sin(2 * X[:, 0]) + 0.1 * torch.from_numpy(rng.standard_normal(40))
M = 6


def rbf(a, b, ls, var):
    return var * torch.exp(-0.5 * torch.cdist(a, b) ** 2 / ls ** 2)


class SVGP(nn.Module):
    def __init__(self):
        super().__init__()
        self.Z = nn.Parameter(torch.linspace(-2.5, 2.5, M).unsqueeze(1))
        self.m = nn.Parameter(torch.zeros(M))
        self.L_raw = nn.Parameter(torch.eye(M) * -1.0)
        self.log_ls = nn.Parameter(torch.tensor(0.0))
        self.log_var = nn.Parameter(torch.tensor(0.0))
        self.log_noise = nn.Parameter(torch.tensor(-2.0))

    def q_scale(self):
        return torch.tril(self.L_raw, -1) + torch.diag(F.softplus(self.L_raw.diagonal()))

    def elbo(self, X, y):
        ls, var = self.log_ls.exp(), self.log_var.exp()
        Kzz = rbf(self.Z, self.Z, ls, var) + 1e-6 * torch.eye(M)
        Kxz = rbf(X, self.Z, ls, var)
        Lz = torch.linalg.cholesky(Kzz)
        A = torch.cholesky_solve(Kxz.T, Lz).T
        S = self.q_scale() @ self.q_scale().T
        mean = A @ self.m
        var_f = var - (A * Kxz).sum(1) + (A @ S * A).sum(1)
        noise = self.log_noise.exp()
        ell = (-0.5 * math.log(2 * math.pi) - 0.5 * torch.log(noise)
               - 0.5 * ((y - mean) ** 2 + var_f) / noise).sum()
        q = MultivariateNormal(self.m, scale_tril=self.q_scale())
        p = MultivariateNormal(torch.zeros(M), scale_tril=Lz)
        return ell - kl_divergence(q, p), mean


model = SVGP()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for it in range(20):
    opt.zero_grad()
    elbo, mean = model.elbo(X, y)
    (-elbo).backward()
    opt.step()
    if it % 5 == 4:
        print(it, f"{elbo.item():.5f}", f"noise {model.log_noise.exp().item():.5f}")
print(model.Z.detach().view(-1).numpy().round(4))
print(mean[::10].detach().numpy().round(4), model.L_raw.grad.diagonal().numpy().round(5))
