# Normalizing flow: affine coupling layers with masks, log-det, nll under a standard normal prior
import torch
import torch.nn as nn
from torch.distributions import MultivariateNormal


class Coupling(nn.Module):
    def __init__(self, mask, hidden=8):
        super().__init__()
        self.register_buffer("mask", mask)
        self.s = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, 2), nn.Tanh())
        self.t = nn.Sequential(nn.Linear(2, hidden), nn.ReLU(), nn.Linear(hidden, 2))

    def forward(self, x):
        x_ = x * self.mask
        s = self.s(x_) * (1 - self.mask)
        t = self.t(x_) * (1 - self.mask)
        z = x_ + (1 - self.mask) * (x * torch.exp(s) + t)
        return z, s.sum(dim=1)

    def inverse(self, z):
        z_ = z * self.mask
        s = self.s(z_) * (1 - self.mask)
        t = self.t(z_) * (1 - self.mask)
        return z_ + (1 - self.mask) * (z - t) * torch.exp(-s)


class RealNVP(nn.Module):
    def __init__(self):
        super().__init__()
        masks = torch.tensor([[0.0, 1.0], [1.0, 0.0]] * 2)
        self.layers = nn.ModuleList([Coupling(m) for m in masks])
        self.prior = MultivariateNormal(torch.zeros(2), torch.eye(2))

    def forward(self, x):
        log_det = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        return x, log_det

    def log_prob(self, x):
        z, log_det = self(x)
        return self.prior.log_prob(z) + log_det


flow = RealNVP()
with torch.no_grad():
    for i, p in enumerate(flow.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) + i).view_as(p))
print(len(list(flow.parameters())), [n for n, _ in flow.named_buffers()])
t = torch.linspace(0, 6.28, 32)
x = torch.stack([torch.cos(t) * 2, torch.sin(t) + 0.3 * torch.cos(3 * t)], 1)
opt = torch.optim.Adam(flow.parameters(), lr=1e-2)
for it in range(30):
    opt.zero_grad()
    loss = -flow.log_prob(x).mean()
    loss.backward()
    opt.step()
    if it % 10 == 0:
        print(f"iter {it} nll {loss.item():.5f}")
with torch.no_grad():
    z, _ = flow(x)
    back = z
    for layer in reversed(flow.layers):
        back = layer.inverse(back)
print(torch.allclose(back, x, atol=1e-10), z.shape)
