# Bayes-by-backprop linear layers with the local reparameterization trick: weight means and
# softplus(rho) stds, activation noise drawn by NumPy, closed-form KL to a N(0, 1) prior,
# ELBO with KL annealing; predictive mean at eval with the weight means
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(501)
X = torch.from_numpy(rng.uniform(-2, 2, (40, 1)))
y = torch.sin(2 * X) + 0.1 * torch.from_numpy(rng.standard_normal((40, 1)))


class BayesLinear(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.w_mu = nn.Parameter(torch.from_numpy(rng.normal(0, 0.5, (o, i))))
        self.w_rho = nn.Parameter(torch.full((o, i), -3.0))
        self.b_mu = nn.Parameter(torch.zeros(o))
        self.b_rho = nn.Parameter(torch.full((o,), -3.0))

    def forward(self, x, noise=None):
        w_var = F.softplus(self.w_rho) ** 2
        b_var = F.softplus(self.b_rho) ** 2
        mean = F.linear(x, self.w_mu, self.b_mu)
        if noise is None:
            return mean
        var = F.linear(x.pow(2), w_var, b_var)
        return mean + var.sqrt() * noise

    def kl(self):
        def term(mu, rho):
            s = F.softplus(rho)
            return (0.5 * (s.pow(2) + mu.pow(2) - 1) - torch.log(s)).sum()
        return term(self.w_mu, self.w_rho) + term(self.b_mu, self.b_rho)


l1, l2 = BayesLinear(1, 16), BayesLinear(16, 1)
params = list(l1.parameters()) + list(l2.parameters())
opt = torch.optim.Adam(params, lr=0.02)
for it in range(12):
    n1 = torch.from_numpy(rng.standard_normal((40, 16)))
    n2 = torch.from_numpy(rng.standard_normal((40, 1)))
    out = l2(torch.relu(l1(X, n1)), n2)
    nll = F.gaussian_nll_loss(out, y, torch.full_like(y, 0.01), reduction="sum")
    beta = min(1.0, (it + 1) / 6)
    kl = l1.kl() + l2.kl()
    loss = nll + beta * kl
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 3 == 2:
        print(it, f"nll {nll.item():.4f} kl {kl.item():.4f} beta {beta:.3f}")
with torch.no_grad():
    pred = l2(torch.relu(l1(torch.tensor([[-1.0], [0.0], [1.0]]))))
print(pred.view(-1).numpy().round(5), F.softplus(l1.w_rho).mean().item().__round__(6))
