import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, d=6, z=2):
        super().__init__()
        self.enc = nn.Linear(d, 8)
        self.mu = nn.Linear(8, z)
        self.logvar = nn.Linear(8, z)
        self.dec = nn.Sequential(nn.Linear(z, 8), nn.ReLU(), nn.Linear(8, d), nn.Sigmoid())

    def forward(self, x, eps):
        h = F.leaky_relu(self.enc(x), 0.1)
        mu, logvar = self.mu(h), self.logvar(h)
        zz = mu + torch.exp(0.5 * logvar) * eps
        return self.dec(zz), mu, logvar


m = VAE()
for i, p in enumerate(m.parameters()):
    p.data = torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.7 + i).view(p.shape) * 0.4
x = (torch.arange(24.0).view(4, 6) % 5) / 4
eps = torch.sin(torch.arange(8.0)).view(4, 2)
opt = torch.optim.Adam(m.parameters(), lr=1e-2, betas=(0.9, 0.99), amsgrad=True)
for step in range(5):
    recon, mu, logvar = m(x, eps)
    bce = F.binary_cross_entropy(recon, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    loss = (bce + kld) / x.size(0)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}", f"{kld.item():.5f}")
print(F.binary_cross_entropy_with_logits(mu, torch.ones_like(mu), pos_weight=torch.tensor([2.0, 0.5])).round(decimals=5))
print(F.kl_div(F.log_softmax(mu, 1), F.softmax(logvar, 1), reduction="batchmean").round(decimals=5))
