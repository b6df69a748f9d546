# schedulers' get_last_lr over epochs for CosineAnnealingLR eta_min, PolynomialLR, CyclicLR triangular2, OneCycleLR three_phase
import torch

def lrs(make_sched, n, make_opt=lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9)):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = make_opt([p])
    s = make_sched(opt)
    out = []
    for _ in range(n):
        opt.step()
        s.step()
        out.append(round(s.get_last_lr()[0], 6))
    return out

print(lrs(lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=4, eta_min=0.01), 6))
print(lrs(lambda o: torch.optim.lr_scheduler.PolynomialLR(o, total_iters=4, power=2.0), 5))
print(lrs(lambda o: torch.optim.lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2"), 9))
print(lrs(lambda o: torch.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=8, three_phase=True, anneal_strategy="linear"), 7))
print(lrs(lambda o: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2, eta_min=0.001), 7))
print(lrs(lambda o: torch.optim.lr_scheduler.MultiplicativeLR(o, lr_lambda=lambda e: 0.9), 3))
p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.Adam([p], lr=0.1)
s = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=4, cycle_momentum=True)
print([round(g["betas"][0], 5) for g in opt.param_groups], round(opt.param_groups[0]["lr"], 6))
opt.step()
s.step()
print([round(g["betas"][0], 5) for g in opt.param_groups], round(opt.param_groups[0]["lr"], 6))
