# ReduceLROnPlateau with mode='max', threshold_mode='abs', cooldown and min_lr, fed a
# scripted validation metric; printing lr changes and the scheduler's counters
import torch

p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([p], lr=1.0)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="max", factor=0.5, patience=1,
                                                   threshold=0.01, threshold_mode="abs", cooldown=1, min_lr=0.1)
metrics = [0.5, 0.6, 0.605, 0.6, 0.61, 0.7, 0.7, 0.69, 0.7, 0.7, 0.7, 0.7, 0.7]
for epoch, m in enumerate(metrics):
    sched.step(m)
    print(epoch, m, opt.param_groups[0]["lr"], sched.num_bad_epochs, sched.cooldown_counter, round(sched.best, 4))
print(sched.get_last_lr(), sorted(k for k in sched.state_dict() if not k.startswith("_")))
