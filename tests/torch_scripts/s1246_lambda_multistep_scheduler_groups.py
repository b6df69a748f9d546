# LambdaLR with a lambda per group; MultiStepLR; state_dict of a scheduler
import torch

a = torch.nn.Parameter(torch.zeros(1))
b = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.01}], lr=0.1)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=[lambda e: 0.5 ** e, lambda e: 1 + e])
for e in range(3):
    opt.step()
    sched.step()
    print(e, [round(x, 6) for x in sched.get_last_lr()])
opt2 = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
ms = torch.optim.lr_scheduler.MultiStepLR(opt2, milestones=[2, 4], gamma=0.1)
out = []
for e in range(6):
    out.append(round(opt2.param_groups[0]["lr"], 8))
    opt2.step()
    ms.step()
print(out)
sd = ms.state_dict()
print(sorted(sd), sd["last_epoch"], sd["milestones"])
