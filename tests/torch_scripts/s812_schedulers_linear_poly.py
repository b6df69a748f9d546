# LinearLR warmup into CosineAnnealingLR via SequentialLR, PolynomialLR, ConstantLR,
# ExponentialLR, printed per step; get_last_lr vs param_groups
import torch

def make(lr=0.1):
    p = torch.nn.Parameter(torch.zeros(1))
    return torch.optim.SGD([p], lr=lr)

o = make()
warm = torch.optim.lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=3)
cos = torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=5, eta_min=0.001)
seq = torch.optim.lr_scheduler.SequentialLR(o, schedulers=[warm, cos], milestones=[3])
lrs = []
for _ in range(10):
    o.step()
    seq.step()
    lrs.append(round(o.param_groups[0]["lr"], 6))
print(lrs)
for cls, kw in [(torch.optim.lr_scheduler.PolynomialLR, dict(total_iters=4, power=2.0)),
                (torch.optim.lr_scheduler.ConstantLR, dict(factor=0.5, total_iters=2)),
                (torch.optim.lr_scheduler.ExponentialLR, dict(gamma=0.8)),
                (torch.optim.lr_scheduler.StepLR, dict(step_size=2, gamma=0.1)),
                (torch.optim.lr_scheduler.CosineAnnealingWarmRestarts, dict(T_0=3, T_mult=2))]:
    o = make()
    s = cls(o, **kw)
    out = []
    for _ in range(7):
        o.step()
        s.step()
        out.append(round(s.get_last_lr()[0], 6))
    print(cls.__name__, out)
o = make(1.0)
lam = torch.optim.lr_scheduler.LambdaLR(o, lr_lambda=lambda e: 1.0 / (e + 1))
for _ in range(3):
    o.step()
    lam.step()
print(o.param_groups[0]["lr"], lam.last_epoch, o.param_groups[0]["initial_lr"])
