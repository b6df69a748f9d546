import torch
from torch.optim.lr_scheduler import SequentialLR, ChainedScheduler, LinearLR, ExponentialLR, CosineAnnealingWarmRestarts, ReduceLROnPlateau, StepLR, ConstantLR, CosineAnnealingLR, PolynomialLR

p = torch.nn.Parameter(torch.zeros(1))


def run(make, steps=8, metric=None):
    opt = torch.optim.SGD([p], lr=1.0, momentum=0.9)
    s = make(opt)
    out = []
    for i in range(steps):
        opt.step()
        if metric is None:
            s.step()
        else:
            s.step(metric[i])
        out.append(round(opt.param_groups[0]["lr"], 6))
    return out, s


print(run(lambda o: SequentialLR(o, [LinearLR(o, start_factor=0.1, total_iters=3), ExponentialLR(o, gamma=0.5)], milestones=[3]))[0])
print(run(lambda o: ChainedScheduler([ConstantLR(o, factor=0.5, total_iters=2), ExponentialLR(o, gamma=0.9)]))[0])
print(run(lambda o: CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01), steps=10)[0])
r, s = run(lambda o: ReduceLROnPlateau(o, mode="min", factor=0.5, patience=1, threshold=0.01, cooldown=1, min_lr=0.1), steps=10, metric=[1.0, 0.9, 0.95, 0.95, 0.95, 0.95, 0.8, 0.85, 0.85, 0.85])
print(r, s.num_bad_epochs, s.best)
print(run(lambda o: PolynomialLR(o, total_iters=5, power=2.0))[0])
out, s = run(lambda o: StepLR(o, step_size=2, gamma=0.3))
print(out, s.get_last_lr(), s.last_epoch)
sd = s.state_dict()
print(sorted(k for k in sd if not k.startswith("_")))
opt = torch.optim.Adam([p], lr=0.1)
c = CosineAnnealingLR(opt, T_max=4)
c2 = CosineAnnealingLR(torch.optim.Adam([p], lr=0.1), T_max=4)
for _ in range(2):
    opt.step(); c.step()
c2.load_state_dict(c.state_dict())
print(c2.last_epoch, [round(x, 6) for x in c2.get_last_lr()])
opt = torch.optim.SGD([{"params": [p], "lr": 1.0}, {"params": [torch.nn.Parameter(torch.ones(1))], "lr": 0.1}])
sch = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=[lambda e: 0.5 ** e, lambda e: 1 + e])
for _ in range(3):
    opt.step(); sch.step()
print([round(x, 6) for x in sch.get_last_lr()])
