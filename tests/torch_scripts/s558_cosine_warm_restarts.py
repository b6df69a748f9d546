import torch
from torch.optim.lr_scheduler import CosineAnnealingWarmRestarts, CosineAnnealingLR

p = torch.nn.Parameter(torch.ones(1))
opt = torch.optim.SGD([p], lr=0.1)
sched = CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.001)
lrs = []
for epoch in range(14):
    lrs.append(round(sched.get_last_lr()[0], 6))
    opt.step()
    sched.step()
print(lrs)
print(sched.T_i, sched.T_cur, sched.last_epoch)
opt = torch.optim.SGD([p], lr=0.1)
sched = CosineAnnealingWarmRestarts(opt, T_0=4)
iters = 4
out = []
for epoch in range(2):
    for i in range(iters):
        opt.step()
        sched.step(epoch + i / iters)
        out.append(round(opt.param_groups[0]["lr"], 6))
print(out)
opt = torch.optim.SGD([p], lr=0.1)
cos = CosineAnnealingLR(opt, T_max=5, eta_min=0.01)
vals = []
for _ in range(12):
    opt.step()
    cos.step()
    vals.append(round(cos.get_last_lr()[0], 6))
print(vals)
sd = sched.state_dict()
print(sorted(sd), sd["T_0"], sd["T_mult"])
try:
    CosineAnnealingWarmRestarts(opt, T_0=0)
except ValueError as e:
    print("ValueError", e)
try:
    CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=1.5)
except ValueError as e:
    print("ValueError", e)
