import torch
import torch.nn as nn


class Coupling(nn.Module):
    def __init__(self, dim, mask):
        super().__init__()
        self.register_buffer("mask", mask)
        self.s = nn.Sequential(nn.Linear(dim, 8), nn.Tanh(), nn.Linear(8, dim))
        self.t = nn.Sequential(nn.Linear(dim, 8), nn.Tanh(), nn.Linear(8, dim))

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
        return ym + (1 - self.mask) * (y - t) * torch.exp(-s)


class Flow(nn.Module):
    def __init__(self):
        super().__init__()
        masks = [torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0])] * 2
        self.layers = nn.ModuleList(Coupling(2, m) for m in masks)
        self.base = torch.distributions.MultivariateNormal(torch.zeros(2), torch.eye(2))

    def forward(self, x):
        logdet = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            logdet = logdet + ld
        return x, logdet

    def log_prob(self, x):
        z, logdet = self(x)
        return self.base.log_prob(z) + logdet


flow = Flow()
with torch.no_grad():
    for i, p in enumerate(flow.parameters()):
        p.copy_(0.3 * torch.cos(torch.arange(p.numel()) * 1.3 + i).reshape(p.shape))
t = torch.linspace(0, 6.28, 64)
data = torch.stack([torch.cos(t), torch.sin(2 * t)], dim=1)
opt = torch.optim.Adam(flow.parameters(), lr=1e-2)
for step in range(40):
    opt.zero_grad()
    loss = -flow.log_prob(data).mean()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(step, round(loss.item(), 5))
z, ld = flow(data[:3])
x = z
for layer in reversed(flow.layers):
    x = layer.inverse(x)
print(torch.allclose(x, data[:3], atol=1e-10), ld.round(decimals=4))
