import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Independent, Normal, kl_divergence


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(6, 8)
        self.mu = nn.Linear(8, 2)
        self.logvar = nn.Linear(8, 2)
        self.dec = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 6))

    def forward(self, x, eps):
        h = F.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        std = torch.exp(0.5 * logvar)
        z = mu + eps * std
        q = Independent(Normal(mu, std), 1)
        p = Independent(Normal(torch.zeros_like(mu), torch.ones_like(std)), 1)
        kl = kl_divergence(q, p)
        kl_closed = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1)
        return torch.sigmoid(self.dec(z)), kl, kl_closed


vae = VAE()
with torch.no_grad():
    for i, p in enumerate(vae.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel()) * 1.7 + i).reshape(p.shape))
x = (torch.arange(24.0).reshape(4, 6) % 5) / 4
eps = torch.cos(torch.arange(8.0)).reshape(4, 2)
opt = torch.optim.Adam(vae.parameters(), lr=1e-2)
for step in range(30):
    recon, kl, kl_closed = vae(x, eps)
    bce = F.binary_cross_entropy(recon, x, reduction="sum")
    loss = (bce + kl.sum()) / x.shape[0]
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(step, round(loss.item(), 5), torch.allclose(kl, kl_closed))
print(kl.grad_fn.name(), kl.shape, kl.round(decimals=5))
print(kl_divergence(Normal(0.0, 1.0), Normal(1.0, 2.0)))
print(Independent(Normal(torch.zeros(3, 2), 1.0), 1))
