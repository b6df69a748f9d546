# MADE: masked linear layers with autoregressive degrees (masks registered as buffers),
# a MAF-style affine transform with log-det = -sum(alpha), checked via the Jacobian's
# triangularity; trained by maximum likelihood
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

D, H = 3, 12


class MaskedLinear(nn.Linear):
    def __init__(self, i, o, mask):
        super().__init__(i, o)
        self.register_buffer("mask", mask)

    def forward(self, x):
        return F.linear(x, self.weight * self.mask, self.bias)


deg_in = torch.arange(1, D + 1)
deg_h = torch.arange(H) % (D - 1) + 1
m1 = (deg_h.unsqueeze(1) >= deg_in.unsqueeze(0)).double()
m2 = (deg_in.unsqueeze(1) > deg_h.unsqueeze(0)).double()


class MADE(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = MaskedLinear(D, H, m1)
        self.mu = MaskedLinear(H, D, m2)
        self.alpha = MaskedLinear(H, D, m2)

    def forward(self, x):
        h = torch.relu(self.l1(x))
        mu, alpha = self.mu(h), self.alpha(h).tanh()
        u = (x - mu) * torch.exp(-alpha)
        return u, -alpha.sum(1)


rng = np.random.default_rng(341)
a = rng.standard_normal(200)
X = torch.from_numpy(np.stack([a, a ** 2 + 0.3 * rng.standard_normal(200), np.sin(a) + 0.2 * rng.standard_normal(200)], 1))
made = MADE()
with torch.no_grad():
    for n, p in made.named_parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
print(m1.sum().item(), m2.sum().item(), [n for n, _ in made.named_buffers()])
opt = torch.optim.Adam(made.parameters(), lr=0.01)
for it in range(12):
    u, logdet = made(X)
    nll = -(-0.5 * u.pow(2).sum(1) - 0.5 * D * math.log(2 * math.pi) + logdet).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if it % 3 == 2:
        print(it, f"{nll.item():.6f}")
J = torch.autograd.functional.jacobian(lambda v: made(v.unsqueeze(0))[0][0], X[0])
print("lower triangular", torch.allclose(J, J.tril()), J.diagonal().numpy().round(5))
print(round(torch.logdet(J).item(), 6), round(made(X[:1])[1].item(), 6))
print(made.l1.weight.grad.mul(1 - m1).abs().sum().item())
