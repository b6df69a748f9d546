# An energy-based model trained by contrastive divergence: negative samples from a few
# steps of Langevin dynamics using autograd.grad of the energy w.r.t. the samples (noise
# from NumPy), a replay buffer, and an L2 regularizer on energies
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(521)
data = torch.from_numpy(np.concatenate([rng.normal(-1.5, 0.3, (32, 2)), rng.normal(1.5, 0.3, (32, 2))]))


class Energy(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(2, 32), nn.SiLU(), nn.Linear(32, 32), nn.SiLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.f(x).squeeze(-1)


E = Energy()
with torch.no_grad():
    for p in E.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
opt = torch.optim.Adam(E.parameters(), lr=1e-3, betas=(0.0, 0.999))
buffer = torch.from_numpy(rng.uniform(-3, 3, (64, 2)))


def langevin(x, steps=5, step_size=0.05):
    x = x.clone().detach().requires_grad_(True)
    for _ in range(steps):
        e = E(x).sum()
        (g,) = torch.autograd.grad(e, x)
        noise = torch.from_numpy(rng.standard_normal(tuple(x.shape)))
        x = (x - 0.5 * step_size * g + np.sqrt(step_size) * 0.1 * noise).detach().requires_grad_(True)
    return x.detach()


for it in range(8):
    idx = torch.from_numpy(rng.choice(64, 32, replace=False))
    neg = langevin(buffer[idx])
    buffer[idx] = neg
    e_pos, e_neg = E(data), E(neg)
    loss = e_pos.mean() - e_neg.mean() + 0.1 * (e_pos.pow(2).mean() + e_neg.pow(2).mean())
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 2 == 1:
        print(it, f"{loss.item():.6f}", f"{e_pos.mean().item():.5f}", f"{e_neg.mean().item():.5f}")
with torch.no_grad():
    print(E(torch.tensor([[-1.5, -1.5], [0.0, 0.0], [1.5, 1.5]])).numpy().round(5))
print(buffer[:2].numpy().round(4))
