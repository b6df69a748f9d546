# Bayes-by-backprop linear layer: mu/rho parameters, softplus sigma, fixed eps for the
# reparameterisation, closed-form KL to a N(0, 1) prior, ELBO training loop
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, kl_divergence


class BayesLinear(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.w_mu = nn.Parameter(torch.zeros(n_out, n_in))
        self.w_rho = nn.Parameter(torch.full((n_out, n_in), -3.0))
        self.b_mu = nn.Parameter(torch.zeros(n_out))
        self.b_rho = nn.Parameter(torch.full((n_out,), -3.0))

    def forward(self, x, eps_w, eps_b):
        w_sigma = F.softplus(self.w_rho)
        b_sigma = torch.log1p(torch.exp(self.b_rho))
        w = self.w_mu + w_sigma * eps_w
        b = self.b_mu + b_sigma * eps_b
        self.kl = (kl_divergence(Normal(self.w_mu, w_sigma), Normal(0.0, 1.0)).sum()
                   + kl_divergence(Normal(self.b_mu, b_sigma), Normal(0.0, 1.0)).sum())
        return F.linear(x, w, b)


x = torch.linspace(-1, 1, 16).unsqueeze(1)
y = 1.5 * x - 0.3
layer = BayesLinear(1, 1)
opt = torch.optim.Adam(layer.parameters(), lr=0.05)
eps = torch.sin(torch.arange(40.0) * 1.7)
for step in range(40):
    opt.zero_grad()
    pred = layer(x, eps[step].view(1, 1), eps[(step + 7) % 40].view(1))
    nll = -Normal(pred, 0.1).log_prob(y).sum()
    loss = nll + layer.kl / len(x)
    loss.backward()
    opt.step()
    if step % 10 == 9:
        print(f"step {step + 1}: elbo loss {loss.item():.4f} kl {layer.kl.item():.4f}")
print(layer.w_mu.item(), F.softplus(layer.w_rho).item(), layer.b_mu.round(decimals=4))
with torch.no_grad():
    preds = torch.stack([layer(x, e.view(1, 1), torch.zeros(1)) for e in torch.linspace(-2, 2, 5)])
print(preds.shape, preds.std(0).mean().round(decimals=5), preds.mean(0)[:3].squeeze().round(decimals=4))
