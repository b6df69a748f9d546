# A categorical VAE with the Gumbel-softmax relaxation written out with fixed Gumbel noise
# from NumPy (as tutorials implement it): soft and straight-through hard samples, the
# temperature annealed each epoch, KL to a uniform prior from the logits
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(691)
N, D, K = 32, 6, 4
X = torch.from_numpy((rng.random((N, D)) < 0.4).astype(np.float64))


def gumbel_softmax_sample(logits, g, tau, hard=False):
    y = F.softmax((logits + g) / tau, dim=-1)
    if not hard:
        return y
    idx = y.argmax(-1, keepdim=True)
    y_hard = torch.zeros_like(y).scatter_(-1, idx, 1.0)
    return (y_hard - y).detach() + y


class CatVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(D, 16), nn.ReLU(), nn.Linear(16, K))
        self.dec = nn.Sequential(nn.Linear(K, 16), nn.ReLU(), nn.Linear(16, D))

    def forward(self, x, g, tau, hard):
        logits = self.enc(x)
        z = gumbel_softmax_sample(logits, g, tau, hard)
        return self.dec(z), logits, z


model = CatVAE()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
tau = 1.0
for epoch in range(6):
    u = rng.uniform(1e-10, 1 - 1e-10, (N, K))
    g = torch.from_numpy(-np.log(-np.log(u)))
    recon, logits, z = model(X, g, tau, hard=epoch >= 3)
    q = F.softmax(logits, -1)
    kl = (q * (F.log_softmax(logits, -1) + math.log(K))).sum(-1).mean()
    rec = F.binary_cross_entropy_with_logits(recon, X, reduction="sum") / N
    loss = rec + kl
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, f"tau {tau:.4f} rec {rec.item():.5f} kl {kl.item():.5f}", z.sum(1)[:2].detach().numpy().round(6))
    tau = max(0.5, tau * math.exp(-0.1))
print(model.enc[2].bias.grad.numpy().round(6))
print(torch.bincount(z.argmax(-1), minlength=K).tolist())
