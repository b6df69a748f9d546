# Quantile regression with the pinball loss: a network outputting three quantiles at once,
# a monotonicity fix by cumulative softplus increments, coverage of the 10-90% interval on
# held-out data, and the same with torch.quantile of residuals for a constant model
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(721)
x = rng.uniform(0, 1, (200, 1))
y = np.sin(4 * x) + (0.1 + 0.4 * x) * rng.standard_normal((200, 1))
X, Y = torch.from_numpy(x), torch.from_numpy(y)
Xtr, Ytr, Xte, Yte = X[:150], Y[:150], X[150:], Y[150:]
taus = torch.tensor([0.1, 0.5, 0.9])


def pinball(pred, target, taus):
    diff = target - pred
    return torch.maximum(taus * diff, (taus - 1) * diff).mean()


class QuantileNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1, 24), nn.Tanh(), nn.Linear(24, 3))

    def forward(self, x):
        out = self.body(x)
        base, incs = out[:, :1], F.softplus(out[:, 1:])
        return torch.cat([base, base + torch.cumsum(incs, 1)], 1)


net = QuantileNet()
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.5, tuple(p.shape))))
opt = torch.optim.Adam(net.parameters(), lr=0.02)
for it in range(60):
    opt.zero_grad()
    loss = pinball(net(Xtr), Ytr, taus)
    loss.backward()
    opt.step()
    if it % 20 == 19:
        print(it, f"{loss.item():.6f}")
with torch.no_grad():
    q = net(Xte)
    cover = ((Yte[:, 0] >= q[:, 0]) & (Yte[:, 0] <= q[:, 2])).double().mean()
    below = (Yte < q).double().mean(0)
print("coverage", round(cover.item(), 4), below.numpy().round(4))
print(q[:3].numpy().round(4))
const = torch.quantile(Ytr.squeeze(1), taus, interpolation="linear")
print(const.numpy().round(5), round(pinball(const.expand(150, 3), Ytr, taus).item(), 6))
for mode in ("lower", "higher", "nearest", "midpoint"):
    print(mode, torch.quantile(Ytr[:10, 0], 0.35, interpolation=mode).item().__round__(6))
