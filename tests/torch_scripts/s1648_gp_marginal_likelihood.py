# Gaussian process regression: RBF kernel hyperparameters (log lengthscale, log variance,
# log noise) fitted by minimizing the negative log marginal likelihood via Cholesky
import math
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(12)
X = np.sort(rng.uniform(-3, 3, 20))[:, None]
y = np.sin(X[:, 0]) + 0.1 * rng.standard_normal(20)


class ExactGP(nn.Module):
    def __init__(self, X, y):
        super().__init__()
        self.X, self.y = X, y
        self.log_ls = nn.Parameter(torch.tensor(0.0))
        self.log_var = nn.Parameter(torch.tensor(0.0))
        self.log_noise = nn.Parameter(torch.tensor(-1.0))

    def kernel(self, a, b):
        d2 = (a.unsqueeze(1) - b.unsqueeze(0)).pow(2).sum(-1)
        return self.log_var.exp() * torch.exp(-0.5 * d2 / self.log_ls.exp() ** 2)

    def nlml(self):
        n = self.X.shape[0]
        K = self.kernel(self.X, self.X) + self.log_noise.exp() * torch.eye(n)
        L = torch.linalg.cholesky(K)
        alpha = torch.cholesky_solve(self.y.unsqueeze(1), L)
        return (0.5 * self.y @ alpha.squeeze(1) + L.diagonal().log().sum()
                + 0.5 * n * math.log(2 * math.pi))

    def predict(self, Xs):
        n = self.X.shape[0]
        K = self.kernel(self.X, self.X) + self.log_noise.exp() * torch.eye(n)
        L = torch.linalg.cholesky(K)
        Ks = self.kernel(self.X, Xs)
        alpha = torch.cholesky_solve(self.y.unsqueeze(1), L)
        mean = (Ks.T @ alpha).squeeze(1)
        v = torch.linalg.solve_triangular(L, Ks, upper=False)
        var = self.log_var.exp() - v.pow(2).sum(0)
        return mean, var


gp = ExactGP(torch.from_numpy(X), torch.from_numpy(y))
opt = torch.optim.Adam(gp.parameters(), lr=0.1)
for i in range(25):
    opt.zero_grad()
    loss = gp.nlml()
    loss.backward()
    opt.step()
    if i % 6 == 0:
        print(i, f"{loss.item():.5f}", gp.log_ls.grad.item().__round__(5))
print({k: round(v.item(), 4) for k, v in gp.state_dict().items()})
with torch.no_grad():
    mean, var = gp.predict(torch.linspace(-2, 2, 5).unsqueeze(1))
print(mean.numpy().round(4), var.clamp_min(0).sqrt().numpy().round(4))
h = torch.autograd.functional.hessian(lambda a: ExactGP.nlml(type("G", (), {
    "X": gp.X, "y": gp.y, "log_ls": a[0], "log_var": a[1], "log_noise": a[2],
    "kernel": lambda s, u, v: ExactGP.kernel(s, u, v)})()), torch.stack(
    [gp.log_ls.detach(), gp.log_var.detach(), gp.log_noise.detach()]))
print(h.numpy().round(3))
