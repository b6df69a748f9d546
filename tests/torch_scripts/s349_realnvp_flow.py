import math
import torch
import torch.nn as nn


class Coupling(nn.Module):
    def __init__(self, mask):
        super().__init__()
        self.register_buffer("mask", mask)
        self.s = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2), nn.Tanh())
        self.t = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 2))

    def forward(self, x):
        xm = x * self.mask
        s = self.s(xm) * (1 - self.mask)
        t = self.t(xm) * (1 - self.mask)
        y = xm + (1 - self.mask) * (x * torch.exp(s) + t)
        return y, s.sum(dim=1)

    def inverse(self, y):
        ym = y * self.mask
        s = self.s(ym) * (1 - self.mask)
        t = self.t(ym) * (1 - self.mask)
        return ym + (1 - self.mask) * ((y - t) * torch.exp(-s))


class Flow(nn.Module):
    def __init__(self):
        super().__init__()
        masks = [torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0])] * 2
        self.layers = nn.ModuleList([Coupling(m) for m in masks])
        self.prior = torch.distributions.MultivariateNormal(torch.zeros(2), torch.eye(2))

    def log_prob(self, x):
        logdet = torch.zeros(x.size(0))
        for layer in self.layers:
            x, ld = layer(x)
            logdet = logdet + ld
        return self.prior.log_prob(x) + logdet

    def sample_from(self, z):
        for layer in reversed(self.layers):
            z = layer.inverse(z)
        return z


flow = Flow()
with torch.no_grad():
    for i, p in enumerate(flow.parameters()):
        p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 1.3 + i).view_as(p))
theta = torch.linspace(0, 2 * math.pi, 16)
data = torch.stack([torch.cos(theta), torch.sin(theta)], 1) * 2 + 0.1 * torch.stack([theta.sin() * 3, theta.cos()], 1)
opt = torch.optim.Adam(flow.parameters(), lr=5e-3)
for it in range(5):
    opt.zero_grad()
    nll = -flow.log_prob(data).mean()
    nll.backward()
    opt.step()
    print(it, f"{nll.item():.6f}")
z = torch.tensor([[0.5, -0.5], [1.0, 1.0]])
x = flow.sample_from(z)
zz = x
for layer in flow.layers:
    zz, _ = layer(zz)
print(torch.allclose(zz, z), x.round(decimals=5))
xj = data[:1].clone()
J = torch.autograd.functional.jacobian(lambda v: flow.layers[0](v)[0], xj).squeeze()
_, ld = flow.layers[0](xj)
print(torch.allclose(torch.logdet(J), ld[0]))
