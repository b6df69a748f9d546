# RealNVP affine coupling layer: forward, inverse and log-det, exact inverse check
import torch
import torch.nn as nn

class Coupling(nn.Module):
    def __init__(self, dim, mask):
        super().__init__()
        self.register_buffer("mask", mask)
        self.s = nn.Sequential(nn.Linear(dim, 4), nn.Tanh(), nn.Linear(4, dim))
        self.t = nn.Linear(dim, dim)
        for p in self.parameters():
            with torch.no_grad():
                p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype)).view_as(p) * 0.3)

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

layer = Coupling(4, torch.tensor([1.0, 0.0, 1.0, 0.0]))
x = torch.linspace(-1, 1, 8).view(2, 4)
y, logdet = layer(x)
print(y)
print(logdet)
print(torch.allclose(layer.inverse(y), x), (layer.inverse(y) - x).abs().max() < 1e-12)
print(layer.state_dict().keys())
prior = torch.distributions.MultivariateNormal(torch.zeros(4), torch.eye(4))
loss = -(prior.log_prob(y) + logdet).mean()
loss.backward()
print(f"{loss.item():.6f}", layer.t.bias.grad)
