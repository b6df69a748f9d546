import torch
from torch.optim.lr_scheduler import ReduceLROnPlateau

w = torch.nn.Parameter(torch.zeros(1))
b = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.5}], lr=1.0)
sched = ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=2, threshold=0.01, cooldown=1, min_lr=[0.1, 0.2])
metrics = [1.0, 0.9, 0.95, 0.91, 0.9, 0.89, 0.899, 0.9, 0.95, 0.97, 0.99, 1.0, 1.0, 1.0, 1.0]
for m in metrics:
    opt.step()
    sched.step(m)
    print(m, [g["lr"] for g in opt.param_groups], sched.num_bad_epochs, sched.cooldown_counter)
print(sched.best, sched.get_last_lr())
opt = torch.optim.Adam([w], lr=0.1)
s2 = ReduceLROnPlateau(opt, mode="max", threshold_mode="abs", threshold=0.1, patience=0)
for acc in [0.5, 0.55, 0.7, 0.75, 0.79, 0.9]:
    opt.step()
    s2.step(torch.tensor(acc))
    print(acc, round(opt.param_groups[0]["lr"], 6))
print(s2.mode, s2.best)
sd = s2.state_dict()
print(sorted(k for k in sd if not k.startswith("_")))
try:
    ReduceLROnPlateau(opt, factor=1.0)
except ValueError as e:
    print("ValueError", e)
try:
    ReduceLROnPlateau(opt, mode="best")
except ValueError as e:
    print("ValueError", e)
