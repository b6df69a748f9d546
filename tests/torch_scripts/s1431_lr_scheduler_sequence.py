# learning-rate schedules: StepLR, ExponentialLR, CosineAnnealingLR, LambdaLR, OneCycleLR values
import torch

def lrs(make, n=8, **kw):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
    sch = make(opt, **kw)
    out = []
    for _ in range(n):
        out.append(round(opt.param_groups[0]["lr"], 6))
        opt.step()
        sch.step()
    return out

S = torch.optim.lr_scheduler
print(lrs(S.StepLR, step_size=3, gamma=0.5))
print(lrs(S.ExponentialLR, gamma=0.8))
print(lrs(S.CosineAnnealingLR, T_max=4, eta_min=0.01))
print(lrs(S.LambdaLR, lr_lambda=lambda e: 1 / (1 + e)))
print(lrs(S.MultiStepLR, milestones=[2, 5], gamma=0.1))
print(lrs(S.LinearLR, start_factor=0.25, total_iters=4))
print(lrs(S.OneCycleLR, max_lr=1.0, total_steps=8))
