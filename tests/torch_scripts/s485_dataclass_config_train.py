from dataclasses import dataclass, field

import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader


@dataclass
class Config:
    hidden: int = 6
    lr: float = 0.05
    epochs: int = 3
    batch_size: int = 4
    layers: list = field(default_factory=lambda: [nn.Tanh, nn.ReLU])


cfg = Config()
X = torch.linspace(-1, 1, 12).unsqueeze(1)
Y = X ** 2
ds = TensorDataset(X, Y)
dl = DataLoader(ds, batch_size=cfg.batch_size, shuffle=False, drop_last=False)
mods = [nn.Linear(1, cfg.hidden)]
for act in cfg.layers:
    mods += [act(), nn.Linear(cfg.hidden, cfg.hidden)]
mods.append(nn.Linear(cfg.hidden, 1))
model = nn.Sequential(*mods)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.9 + i).view_as(p) * 0.4)
opt = torch.optim.SGD(model.parameters(), lr=cfg.lr, momentum=0.9, nesterov=True)
sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[1, 2], gamma=0.5)
history = []
for ep in range(cfg.epochs):
    tot, n = 0.0, 0
    for xb, yb in dl:
        opt.zero_grad()
        loss = nn.functional.l1_loss(model(xb), yb, reduction="sum")
        loss.backward()
        opt.step()
        tot += loss.item()
        n += len(xb)
    sched.step()
    history.append(round(tot / n, 6))
print(history, sched.get_last_lr(), len(dl), len(ds))
print(model)
print(cfg.hidden, cfg.lr, [a.__name__ for a in cfg.layers])
