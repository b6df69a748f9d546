# Exponential moving average of weights kept in a shadow copy updated after each step
# (lerp_ under no_grad), evaluated by swapping in the EMA weights; also AveragedModel
import copy
import numpy as np
import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

rng = np.random.default_rng(91)
X = torch.from_numpy(rng.standard_normal((40, 3)))
y = X @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.2 * torch.from_numpy(rng.standard_normal((40, 1)))


class EMA:
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = {k: v.detach().clone() for k, v in model.state_dict().items()}

    @torch.no_grad()
    def update(self, model):
        for k, v in model.state_dict().items():
            self.shadow[k].lerp_(v, 1 - self.decay)

    def apply_to(self, model):
        backup = copy.deepcopy(model.state_dict())
        model.load_state_dict(self.shadow)
        return backup


model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.5 * torch.cos(torch.arange(p.numel()) * 0.61 + 2 * i).view_as(p))
ema = EMA(model, decay=0.8)
avg = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.8))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), y)
    loss.backward()
    opt.step()
    ema.update(model)
    avg.update_parameters(model)
    if step % 3 == 0:
        print(step, f"{loss.item():.6f}")

with torch.no_grad():
    raw = nn.functional.mse_loss(model(X), y).item()
    backup = ema.apply_to(model)
    smoothed = nn.functional.mse_loss(model(X), y).item()
    via_avg = nn.functional.mse_loss(avg(X), y).item()
    model.load_state_dict(backup)
print(f"raw {raw:.6f} ema {smoothed:.6f} averaged-model {via_avg:.6f}")
print(avg.n_averaged.item(), list(avg.state_dict().keys())[:3])
print(ema.shadow["2.bias"].numpy().round(6), avg.module[2].bias.detach().numpy().round(6))
