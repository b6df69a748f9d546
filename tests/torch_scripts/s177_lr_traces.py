import torch
from torch.optim import lr_scheduler as S

w = torch.nn.Parameter(torch.zeros(1))


def trace(make, steps=12, **kw):
    opt = torch.optim.SGD([w], lr=0.1, momentum=0.9, **kw)
    sched = make(opt)
    out = []
    for _ in range(steps):
        opt.step()
        sched.step()
        out.append(round(sched.get_last_lr()[0], 6))
    return type(sched).__name__, out


print(trace(lambda o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01)))
print(trace(lambda o: S.OneCycleLR(o, max_lr=1.0, total_steps=12, anneal_strategy="linear",
                                   three_phase=True)))
print(trace(lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3, mode="triangular2")))
print(trace(lambda o: S.MultiplicativeLR(o, lambda e: 0.9)))
print(trace(lambda o: S.LambdaLR(o, lambda e: 1 / (1 + e))))
print(trace(lambda o: S.ConstantLR(o, factor=0.5, total_iters=4)))
print(trace(lambda o: S.LinearLR(o, start_factor=0.2, end_factor=1.0, total_iters=5)))
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
c = S.OneCycleLR(opt, max_lr=0.5, epochs=2, steps_per_epoch=3)
print([round(g["momentum"], 4) for g in opt.param_groups], c.state_dict()["total_steps"])
