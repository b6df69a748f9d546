# Multi-task model: shared trunk, two heads, uncertainty-weighted losses (log-variance params),
# ModuleDict heads, per-head parameter groups, loss dict logging with .item()
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(3, 8), nn.SiLU())
        self.heads = nn.ModuleDict({"reg": nn.Linear(8, 1), "cls": nn.Linear(8, 2)})
        self.log_vars = nn.Parameter(torch.zeros(2))

    def forward(self, x):
        h = self.trunk(x)
        return {name: head(h) for name, head in self.heads.items()}


model = MultiTask()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 1.1 + i).view_as(p))
    model.log_vars.zero_()
x = torch.stack([torch.linspace(-1, 1, 12), torch.linspace(1, -1, 12) ** 2, torch.sin(torch.arange(12.0))], 1)
y_reg = (x[:, :1] * 2 - x[:, 1:2])
y_cls = (x[:, 2] > 0).long()
opt = torch.optim.Adam([
    {"params": model.trunk.parameters(), "lr": 1e-2},
    {"params": model.heads.parameters(), "lr": 2e-2},
    {"params": [model.log_vars], "lr": 5e-2},
])
for step in range(30):
    out = model(x)
    losses = {"reg": F.mse_loss(out["reg"], y_reg), "cls": F.cross_entropy(out["cls"], y_cls)}
    total = sum(torch.exp(-lv) * l + lv for lv, l in zip(model.log_vars, losses.values()))
    opt.zero_grad()
    total.backward()
    opt.step()
    if step % 10 == 0:
        print({k: round(v.item(), 5) for k, v in losses.items()}, f"total={total.item():.5f}")
print(model.log_vars.detach().round(decimals=4), list(model.heads.keys()), model.heads["cls"])
print(type(total).__name__, total.dim(), [g["lr"] for g in opt.param_groups])
acc = (model(x)["cls"].argmax(-1) == y_cls).float().mean().item()
print(f"acc={acc:.3f}", sum(p.numel() for p in model.heads.parameters()))
