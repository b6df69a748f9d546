import torch

def lrs(make, steps=8, **kw):
    p = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
    s = make(opt)
    out = []
    for _ in range(steps):
        opt.step()
        s.step()
        out.append(round(opt.param_groups[0]["lr"], 6))
    return out, s

S = torch.optim.lr_scheduler
print(lrs(lambda o: S.LinearLR(o, start_factor=0.25, total_iters=4))[0])
print(lrs(lambda o: S.PolynomialLR(o, total_iters=6, power=2.0))[0])
print(lrs(lambda o: S.ConstantLR(o, factor=0.5, total_iters=3))[0])
print(lrs(lambda o: S.SequentialLR(o, [S.LinearLR(o, 0.1, total_iters=3), S.ExponentialLR(o, 0.5)], milestones=[3]))[0])
print(lrs(lambda o: S.MultiStepLR(o, milestones=[2, 5], gamma=0.3))[0])
out, s = lrs(lambda o: S.OneCycleLR(o, max_lr=1.0, total_steps=10, pct_start=0.3))
print(out)
print(round(s.optimizer.param_groups[0]["momentum"], 6))
out, s = lrs(lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2"))
print(out, round(s.optimizer.param_groups[0]["momentum"], 6))
print(lrs(lambda o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01), steps=10)[0])
print(lrs(lambda o: S.LambdaLR(o, lambda e: 1.0 / (1 + e)))[0])
print(lrs(lambda o: S.MultiplicativeLR(o, lambda e: 0.9))[0])
out, s = lrs(lambda o: S.ChainedScheduler([S.ConstantLR(o, factor=0.5, total_iters=2), S.ExponentialLR(o, gamma=0.9)]))
print(out, [round(v, 6) for v in s.get_last_lr()])
_, s = lrs(lambda o: S.StepLR(o, 3, 0.5))
print(sorted(s.state_dict()), s.last_epoch)
