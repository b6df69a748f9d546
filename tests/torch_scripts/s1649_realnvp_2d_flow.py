# RealNVP-style normalizing flow in 2-D: affine coupling layers with alternating masks,
# log-det accumulation, standard normal base log_prob, maximum likelihood with Adam
import math
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(21)
theta = rng.uniform(0, 2 * math.pi, 128)
pts = np.stack([np.cos(theta), np.sin(theta)], 1) * 2 + 0.1 * rng.standard_normal((128, 2))
X = torch.from_numpy(pts)


class Coupling(nn.Module):
    def __init__(self, mask):
        super().__init__()
        self.register_buffer("mask", mask)
        self.s = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2), nn.Tanh())
        self.t = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))

    def forward(self, x):
        xm = x * self.mask
        s = self.s(xm) * (1 - self.mask)
        t = self.t(xm) * (1 - self.mask)
        y = xm + (1 - self.mask) * (x * torch.exp(s) + t)
        return y, s.sum(1)

    def inverse(self, y):
        ym = y * self.mask
        s = self.s(ym) * (1 - self.mask)
        t = self.t(ym) * (1 - self.mask)
        return ym + (1 - self.mask) * ((y - t) * torch.exp(-s))


class Flow(nn.Module):
    def __init__(self, n=4):
        super().__init__()
        masks = [torch.tensor([1.0, 0.0]) if i % 2 == 0 else torch.tensor([0.0, 1.0])
                 for i in range(n)]
        self.layers = nn.ModuleList(Coupling(m) for m in masks)

    def forward(self, x):
        logdet = torch.zeros(x.size(0))
        for layer in self.layers:
            x, ld = layer(x)
            logdet = logdet + ld
        return x, logdet

    def log_prob(self, x):
        z, logdet = self(x)
        base = -0.5 * (z ** 2).sum(1) - math.log(2 * math.pi)
        return base + logdet

    def inverse(self, z):
        for layer in reversed(self.layers):
            z = layer.inverse(z)
        return z


flow = Flow()
with torch.no_grad():
    for i, p in enumerate(flow.parameters()):
        p.copy_(0.25 * torch.sin(torch.arange(p.numel()) * 0.9 + i).view_as(p))
opt = torch.optim.Adam(flow.parameters(), lr=5e-3)
for it in range(15):
    opt.zero_grad()
    nll = -flow.log_prob(X).mean()
    nll.backward()
    opt.step()
    if it % 5 == 4:
        print(it, f"{nll.item():.5f}")
with torch.no_grad():
    z, ld = flow(X[:4])
    back = flow.inverse(z)
print("roundtrip err < 1e-10", (back - X[:4]).abs().max().item() < 1e-10)
print(ld.numpy().round(5))
x = X[:3].clone().requires_grad_(True)
J = torch.autograd.functional.jacobian(lambda v: flow(v)[0].sum(0), x)
print(J.shape)
jac0 = torch.autograd.functional.jacobian(lambda v: flow(v.unsqueeze(0))[0][0], X[0])
print(round(torch.logdet(jac0).item(), 6), round(flow(X[:1])[1].item(), 6))
