import torch
from torch.optim.lr_scheduler import OneCycleLR

w = torch.nn.Parameter(torch.zeros(2))
for kw in ({}, {"anneal_strategy": "linear"}, {"three_phase": True}, {"pct_start": 0.5, "div_factor": 10.0, "final_div_factor": 100.0}):
    opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
    sched = OneCycleLR(opt, max_lr=1.0, total_steps=10, **kw)
    lrs, moms = [], []
    for _ in range(10):
        lrs.append(round(opt.param_groups[0]["lr"], 6))
        moms.append(round(opt.param_groups[0]["momentum"], 4))
        opt.step()
        sched.step()
    print(kw, lrs)
    print(moms)
opt = torch.optim.Adam([w], lr=0.1)
sched = OneCycleLR(opt, max_lr=[0.5], epochs=2, steps_per_epoch=3)
betas = []
for _ in range(6):
    betas.append(tuple(round(b, 4) for b in opt.param_groups[0]["betas"]))
    opt.step()
    sched.step()
print(betas, sched.get_last_lr())
print(sorted(k for k in opt.param_groups[0] if k in ("initial_lr", "max_lr", "min_lr", "max_momentum", "base_momentum")))
opt = torch.optim.SGD([w], lr=0.1)
sched = OneCycleLR(opt, max_lr=0.3, total_steps=4, cycle_momentum=False)
for _ in range(4):
    opt.step()
    sched.step()
try:
    sched.step()
except ValueError as e:
    print("ValueError", str(e)[:70])
try:
    OneCycleLR(opt, max_lr=0.3)
except ValueError as e:
    print("ValueError", e)
