# A VAE on tiny binary images as the classic tutorial writes it: encoder to (mu, logvar),
# reparameterisation with fixed noise, Bernoulli decoder via BCE-with-logits, closed-form
# KL checked against distributions.kl_divergence of Independent Normals, and ELBO training
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Independent, Normal, kl_divergence


class VAE(nn.Module):
    def __init__(self, d=9, h=6, z=2):
        super().__init__()
        self.enc = nn.Linear(d, h)
        self.mu = nn.Linear(h, z)
        self.logvar = nn.Linear(h, z)
        self.dec = nn.Sequential(nn.Linear(z, h), nn.ReLU(), nn.Linear(h, d))

    def forward(self, x, eps):
        h = F.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.exp(0.5 * logvar) * eps
        return self.dec(z), mu, logvar


vae = VAE()
with torch.no_grad():
    for i, p in enumerate(vae.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.83 + i).view_as(p) * 0.5)
x = (torch.sin(torch.arange(36.0).view(4, 9)) > 0).double()
opt = torch.optim.Adam(vae.parameters(), lr=0.02)
for epoch in range(4):
    eps = torch.cos(torch.arange(8.0) * (epoch + 1)).view(4, 2)
    logits, mu, logvar = vae(x, eps)
    rec = F.binary_cross_entropy_with_logits(logits, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    loss = (rec + kld) / x.shape[0]
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, f"{rec.item():.5f} {kld.item():.5f}")
q = Independent(Normal(mu, torch.exp(0.5 * logvar)), 1)
p = Independent(Normal(torch.zeros_like(mu), torch.ones_like(mu)), 1)
kl = kl_divergence(q, p)
print(torch.allclose(kl.sum(), kld), kl.shape, q.batch_shape, q.event_shape)
print(q.log_prob(mu).detach().numpy().round(5), q.entropy().detach().numpy().round(5))
print(q)
print(q.mean.shape, q.stddev.shape, q.variance.detach()[0])
