# A residual MLP block stack with LayerScale (learned per-channel gamma) and stochastic
# depth (DropPath) as timm-style code writes it; drop_path is the identity in eval mode and
# with drop_prob=0, so training here uses drop_prob 0 and the eval output is checked
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def drop_path(x, drop_prob: float = 0.0, training: bool = False):
    if drop_prob == 0.0 or not training:
        return x
    keep = 1 - drop_prob
    mask = x.new_empty((x.shape[0],) + (1,) * (x.ndim - 1)).bernoulli_(keep)
    return x * mask / keep


class DropPath(nn.Module):
    def __init__(self, p=0.0):
        super().__init__()
        self.drop_prob = p

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training)

    def extra_repr(self):
        return f"drop_prob={round(self.drop_prob, 3):0.3f}"


class Block(nn.Module):
    def __init__(self, d, init_values=1e-1, p=0.0):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.gamma = nn.Parameter(init_values * torch.ones(d))
        self.drop_path = DropPath(p)

    def forward(self, x):
        return x + self.drop_path(self.gamma * self.mlp(self.norm(x)))


rng = np.random.default_rng(1241)
model = nn.Sequential(*[Block(6, p=0.0) for _ in range(3)], nn.Linear(6, 1))
with torch.no_grad():
    for n, q in model.named_parameters():
        if q.dim() > 1:
            q.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(q.shape))))
        elif n.endswith("mlp.0.bias") or n.endswith("mlp.2.bias") or n == "3.bias":
            q.zero_()
print(model[0].drop_path, model[0].gamma.shape)
X = torch.from_numpy(rng.standard_normal((24, 6)))
y = torch.from_numpy(rng.standard_normal((24, 1)))
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.05)
for it in range(8):
    opt.zero_grad()
    loss = F.mse_loss(model(X), y)
    loss.backward()
    opt.step()
    if it % 2 == 1:
        print(it, f"{loss.item():.6f}", model[0].gamma.detach()[:3].numpy().round(5))
model.eval()
with torch.no_grad():
    print(model(X[:2]).view(-1).numpy().round(5))
print(drop_path(torch.ones(2, 3), 0.5, training=False).sum().item())
