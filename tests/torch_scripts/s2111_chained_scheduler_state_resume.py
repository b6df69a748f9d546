import torch
from torch.optim.lr_scheduler import ExponentialLR, LinearLR, ChainedScheduler

w = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([w], lr=1.0)
sched = ChainedScheduler([LinearLR(opt, start_factor=0.25, total_iters=4), ExponentialLR(opt, gamma=0.9)])
lrs = []
for epoch in range(6):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
    sched.step()
    lrs.append(round(sched.get_last_lr()[0], 6))
print(lrs)
state = sched.state_dict()
print(sorted(state.keys()))

w2 = torch.nn.Parameter(torch.ones(2))
opt2 = torch.optim.SGD([w2], lr=1.0)
sched2 = ChainedScheduler([LinearLR(opt2, start_factor=0.25, total_iters=4), ExponentialLR(opt2, gamma=0.9)])
sched2.load_state_dict(state)
opt2.param_groups[0]["lr"] = opt.param_groups[0]["lr"]
for _ in range(3):
    opt.step(); sched.step()
    opt2.step(); sched2.step()
print(round(opt.param_groups[0]["lr"], 6), round(opt2.param_groups[0]["lr"], 6))
print(w.detach().round(decimals=5))
print(opt.param_groups[0]["initial_lr"], sched._schedulers[1].last_epoch)
