# ReduceLROnPlateau with patience, threshold and cooldown
import torch

opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1, cooldown=1)
losses = [1.0, 0.9, 0.95, 0.95, 0.95, 0.95, 0.95, 0.5, 0.6, 0.7]
for i, l in enumerate(losses):
    sched.step(l)
    print(i, opt.param_groups[0]["lr"], sched.num_bad_epochs, sched.best)
