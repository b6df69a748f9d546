# Permutation-invariant set models: Deep Sets (sum pooling) and a PointNet-style max pool,
# trained to predict a set statistic; invariance checked by permuting the points
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(391)
sets = torch.from_numpy(rng.standard_normal((16, 7, 2)))
target = sets.norm(dim=-1).max(dim=1).values.unsqueeze(1)


class DeepSets(nn.Module):
    def __init__(self, pool="sum"):
        super().__init__()
        self.phi = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 16))
        self.rho = nn.Sequential(nn.ReLU(), nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 1))
        self.pool = pool

    def forward(self, x):
        h = self.phi(x)
        h = h.sum(dim=1) if self.pool == "sum" else h.max(dim=1)[0]
        return self.rho(h)


for pool in ("sum", "max"):
    model = DeepSets(pool)
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.from_numpy(np.random.default_rng(10 + i).normal(0, 0.4, tuple(p.shape))))
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for it in range(10):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(sets), target)
        loss.backward()
        opt.step()
    perm = torch.from_numpy(rng.permutation(7))
    with torch.no_grad():
        a, b = model(sets), model(sets[:, perm])
    print(pool, f"{loss.item():.6f}", "invariant", torch.allclose(a, b, atol=1e-12))
    print(model.phi[0].weight.grad.numpy().round(5)[:3])
x = sets[:1].clone().requires_grad_(True)
model(x).sum().backward()
print("max-pool grads nonzero points", int((x.grad.abs().sum(-1) > 0).sum().item()))
