# SIREN: sine-activated MLP with the paper's initialization (uniform +-sqrt(6/fan_in)/omega,
# drawn by NumPy), fitting a 1-D signal, then the derivative network via autograd.grad
import math
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(481)


class SineLayer(nn.Module):
    def __init__(self, fin, fout, is_first=False, omega_0=30.0):
        super().__init__()
        self.omega_0 = omega_0
        self.linear = nn.Linear(fin, fout)
        bound = 1 / fin if is_first else math.sqrt(6 / fin) / omega_0
        with torch.no_grad():
            self.linear.weight.copy_(torch.from_numpy(rng.uniform(-bound, bound, (fout, fin))))
            self.linear.bias.copy_(torch.from_numpy(rng.uniform(-0.1, 0.1, fout)))

    def forward(self, x):
        return torch.sin(self.omega_0 * self.linear(x))


class Siren(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(SineLayer(1, 16, is_first=True), SineLayer(16, 16), nn.Linear(16, 1))
        with torch.no_grad():
            self.net[2].weight.copy_(torch.from_numpy(rng.uniform(-0.1, 0.1, (1, 16))))
            self.net[2].bias.zero_()

    def forward(self, x):
        return self.net(x)


x = torch.linspace(-1, 1, 41).unsqueeze(1)
y = torch.sign(torch.sin(4 * x)) * 0.5 + 0.2 * x
model = Siren()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for it in range(10):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    if it % 3 == 0:
        print(it, f"{loss.item():.6f}")
xg = x.clone().requires_grad_(True)
out = model(xg)
(dy,) = torch.autograd.grad(out, xg, torch.ones_like(out), create_graph=True)
(d2y,) = torch.autograd.grad(dy.sum(), xg)
print(out[::10].detach().view(-1).numpy().round(5))
print(dy[::10].detach().view(-1).numpy().round(4), d2y[::10].view(-1).numpy().round(2))
