# ReduceLROnPlateau: patience, threshold modes, cooldown, min_lr, and its state_dict
import torch

p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.Adam([p], lr=1.0)
sch = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1,
                                                 threshold=0.1, threshold_mode="rel",
                                                 cooldown=1, min_lr=0.1)
losses = [1.0, 0.95, 0.94, 0.93, 0.5, 0.49, 0.49, 0.49, 0.49, 0.49, 0.49]
for l in losses:
    sch.step(l)
    print(l, opt.param_groups[0]["lr"], sch.num_bad_epochs, sch.cooldown_counter)
sd = sch.state_dict()
print(sorted(k for k in sd if k != "_last_lr"), sd["best"], sd["mode"])
m = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="max", threshold_mode="abs",
                                               threshold=0.5, patience=0)
for v in [1.0, 1.2, 2.0, 2.1]:
    m.step(v)
print(opt.param_groups[0]["lr"], m.best)
try:
    torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=1.5)
except ValueError as e:
    print(e)
