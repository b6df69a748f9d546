# learning-rate schedules: OneCycleLR, CosineAnnealingWarmRestarts, SequentialLR, ChainedScheduler
import torch
from torch.optim import lr_scheduler as S

def trace(make_sched, n=8, lr=0.1):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=lr, momentum=0.9)
    sch = make_sched(opt)
    out = []
    for _ in range(n):
        opt.step()
        sch.step()
        out.append(round(opt.param_groups[0]["lr"], 6))
    return out, sch.get_last_lr()


print(trace(lambda o: S.OneCycleLR(o, max_lr=1.0, total_steps=10)))
print(trace(lambda o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01)))
print(trace(lambda o: S.SequentialLR(o, [S.LinearLR(o, 0.1, 1.0, total_iters=3),
                                         S.ExponentialLR(o, 0.5)], milestones=[3])))
print(trace(lambda o: S.ChainedScheduler([S.StepLR(o, 2, 0.5), S.ExponentialLR(o, 0.9)])))
print(trace(lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2)))
print(trace(lambda o: S.PolynomialLR(o, total_iters=4, power=2.0)))
print(trace(lambda o: S.MultiStepLR(o, [2, 5], gamma=0.1)))
print(trace(lambda o: S.LambdaLR(o, lambda e: 1 / (e + 1))))
