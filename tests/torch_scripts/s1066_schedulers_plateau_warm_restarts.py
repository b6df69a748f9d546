# ReduceLROnPlateau with a fixed loss sequence, CosineAnnealingWarmRestarts fractional steps
import torch

opt = torch.optim.Adam([torch.nn.Parameter(torch.zeros(2))], lr=1.0)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1, threshold=0.01, cooldown=1, min_lr=0.05)
for epoch, val in enumerate([1.0, 0.9, 0.95, 0.92, 0.91, 0.91, 0.91, 0.91, 0.91, 0.91]):
    plateau.step(val)
    print(epoch, opt.param_groups[0]["lr"], plateau.num_bad_epochs)
print(plateau.state_dict()["best"], plateau.get_last_lr())
opt2 = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
sch = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt2, T_0=3, T_mult=2, eta_min=0.001)
trace = []
for epoch in range(10):
    for i in range(2):
        opt2.step()
        sch.step(epoch + i / 2)
        trace.append(round(opt2.param_groups[0]["lr"], 6))
print(trace)
