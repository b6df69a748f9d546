# A conditional neural process: encoder over (x, y) context pairs, mean aggregation into a
# representation, decoder outputs mean and softplus-bounded std at target x; trained on
# random sine functions with context/target splits drawn by NumPy; Normal log_prob loss
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal

rng = np.random.default_rng(921)


class CNP(nn.Module):
    def __init__(self, r=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, r))
        self.dec = nn.Sequential(nn.Linear(r + 1, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, xc, yc, xt):
        rep = self.enc(torch.cat([xc, yc], -1)).mean(dim=1, keepdim=True)
        rep = rep.expand(-1, xt.size(1), -1)
        out = self.dec(torch.cat([rep, xt], -1))
        mu, raw = out.chunk(2, dim=-1)
        return mu, 0.1 + 0.9 * F.softplus(raw)


def batch(b=4, n=12, nc=5):
    amp = rng.uniform(0.5, 2, (b, 1, 1))
    ph = rng.uniform(0, np.pi, (b, 1, 1))
    x = rng.uniform(-3, 3, (b, n, 1))
    y = amp * np.sin(x + ph)
    t = lambda a: torch.from_numpy(a)
    return t(x[:, :nc]), t(y[:, :nc]), t(x), t(y)


model = CNP()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for it in range(10):
    xc, yc, xt, yt = batch()
    mu, sigma = model(xc, yc, xt)
    nll = -Normal(mu, sigma).log_prob(yt).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if it % 3 == 0:
        print(it, f"{nll.item():.6f}", f"{sigma.mean().item():.5f}")
xc, yc, xt, yt = batch(b=1)
with torch.no_grad():
    mu, sigma = model(xc, yc, xt)
print(mu[0, :4, 0].numpy().round(4), sigma[0, :4, 0].numpy().round(4))
perm = torch.from_numpy(rng.permutation(5))
with torch.no_grad():
    mu2, _ = model(xc[:, perm], yc[:, perm], xt)
print("context-permutation invariant", torch.allclose(mu, mu2))
