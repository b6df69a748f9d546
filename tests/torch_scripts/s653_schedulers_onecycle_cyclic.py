import torch

p = [torch.nn.Parameter(torch.zeros(1))]
opt = torch.optim.SGD(p, lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10, pct_start=0.3, anneal_strategy="cos")
lrs, moms = [], []
for _ in range(10):
    opt.step()
    lrs.append(round(opt.param_groups[0]["lr"], 6))
    moms.append(round(opt.param_groups[0]["momentum"], 6))
    sched.step()
print(lrs)
print(moms)
opt = torch.optim.SGD(p, lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, epochs=2, steps_per_epoch=3, anneal_strategy="linear", three_phase=True)
out = []
for _ in range(6):
    opt.step()
    out.append(round(sched.get_last_lr()[0], 6))
    sched.step()
print(out)
for mode in ["triangular", "triangular2", "exp_range"]:
    opt = torch.optim.SGD(p, lr=0.1, momentum=0.9)
    sched = torch.optim.lr_scheduler.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=3, mode=mode, gamma=0.9)
    out = []
    for _ in range(12):
        opt.step()
        out.append(round(sched.get_last_lr()[0], 6))
        sched.step()
    print(mode, out)
