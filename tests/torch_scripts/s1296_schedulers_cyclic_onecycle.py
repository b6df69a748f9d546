# CyclicLR triangular2, OneCycleLR linear anneal, PolynomialLR, ConstantLR, CosineAnnealingWarmRestarts T_mult
import torch

def lrs(make, n, **kw):
    opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1, momentum=0.9)
    s = make(opt, **kw)
    out = []
    for _ in range(n):
        out.append(round(opt.param_groups[0]["lr"], 6))
        opt.step()
        s.step()
    return out

S = torch.optim.lr_scheduler
print(lrs(S.CyclicLR, 10, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2"))
print(lrs(S.OneCycleLR, 10, max_lr=1.0, total_steps=10, anneal_strategy="linear"))
print(lrs(S.PolynomialLR, 6, total_iters=4, power=2.0))
print(lrs(S.ConstantLR, 5, factor=0.5, total_iters=2))
print(lrs(S.CosineAnnealingWarmRestarts, 8, T_0=2, T_mult=2, eta_min=0.01))
