import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, Independent, Bernoulli, kl_divergence

torch.manual_seed(3)
data = (torch.arange(48.0).view(6, 8) % 3 == 0).double()


class VAE(nn.Module):
    def __init__(self, d=8, h=6, z=2):
        super().__init__()
        self.enc = nn.Linear(d, h)
        self.mu = nn.Linear(h, z)
        self.logvar = nn.Linear(h, z)
        self.dec = nn.Sequential(nn.Linear(z, h), nn.ReLU(), nn.Linear(h, d))

    def encode(self, x):
        h = F.relu(self.enc(x))
        return self.mu(h), self.logvar(h)

    def forward(self, x, eps):
        mu, logvar = self.encode(x)
        std = torch.exp(0.5 * logvar)
        z = mu + eps * std
        return self.dec(z), mu, logvar


model = VAE()
for p in model.parameters():
    with torch.no_grad():
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p).sin())
opt = torch.optim.Adam(model.parameters(), lr=0.05)
eps = torch.linspace(-1, 1, 12).view(6, 2)
for epoch in range(5):
    opt.zero_grad()
    logits, mu, logvar = model(data, eps)
    rec = F.binary_cross_entropy_with_logits(logits, data, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    loss = (rec + kld) / data.size(0)
    loss.backward()
    opt.step()
    print(epoch, round(rec.item(), 4), round(kld.item(), 4))
mu, logvar = model.encode(data)
q = Independent(Normal(mu, (0.5 * logvar).exp()), 1)
p = Independent(Normal(torch.zeros_like(mu), torch.ones_like(mu)), 1)
kl = kl_divergence(q, p)
print(kl.shape, torch.allclose(kl.sum(), -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())))
px = Independent(Bernoulli(logits=model.dec(mu)), 1)
print(px.log_prob(data).shape, round(px.log_prob(data).sum().item(), 4))
print(q.rsample().shape, q.rsample((3,)).shape, q.mean.shape, q.variance.shape)
print(px.base_dist.probs.shape, px.entropy().shape)
