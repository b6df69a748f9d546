import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, kl_divergence, Independent


class VAE(nn.Module):
    def __init__(self, d=6, h=4, z=2):
        super().__init__()
        self.fc1 = nn.Linear(d, h)
        self.mu = nn.Linear(h, z)
        self.logvar = nn.Linear(h, z)
        self.fc2 = nn.Linear(z, h)
        self.out = nn.Linear(h, d)

    def encode(self, x):
        h = F.relu(self.fc1(x))
        return self.mu(h), self.logvar(h)

    def reparameterize(self, mu, logvar, eps):
        std = torch.exp(0.5 * logvar)
        return mu + eps * std

    def forward(self, x, eps):
        mu, logvar = self.encode(x)
        z = self.reparameterize(mu, logvar, eps)
        return torch.sigmoid(self.out(F.relu(self.fc2(z)))), mu, logvar


vae = VAE()
with torch.no_grad():
    for i, p in enumerate(vae.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) + 3 * i).reshape(p.shape) * 0.5)
x = (torch.arange(24).reshape(4, 6) % 3 == 0).double()
eps = torch.cos(torch.arange(8.0)).reshape(4, 2)
opt = torch.optim.Adam(vae.parameters(), lr=1e-2)
for step in range(50):
    recon, mu, logvar = vae(x, eps)
    bce = F.binary_cross_entropy(recon, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    loss = (bce + kld) / x.size(0)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(step, f"{bce.item():.4f}", f"{kld.item():.4f}")
q = Normal(mu, torch.exp(0.5 * logvar))
p = Normal(torch.zeros_like(mu), torch.ones_like(mu))
kl = kl_divergence(q, p).sum()
print(torch.allclose(kl, kld), kl.grad_fn is not None)
qi = Independent(q, 1)
print(qi.batch_shape, qi.event_shape, kl_divergence(qi, Independent(p, 1)).shape)
z = q.rsample()
print(z.shape, z.requires_grad, q.sample().requires_grad)
print(q.log_prob(mu).sum(-1).round(decimals=4))
print(q.entropy().sum(1).round(decimals=4), q.mean.shape, q.stddev.shape)
