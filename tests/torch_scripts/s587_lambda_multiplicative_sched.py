import torch
from torch.optim import lr_scheduler as S

p = torch.nn.Parameter(torch.ones(1))


def trace(make, n=8, lr=0.1):
    opt = torch.optim.SGD([p], lr=lr)
    sch = make(opt)
    out = []
    for _ in range(n):
        opt.step()
        sch.step()
        out.append(round(sch.get_last_lr()[0], 8))
    return out


print(trace(lambda o: S.LambdaLR(o, lr_lambda=lambda e: 1 / (1 + e))))
print(trace(lambda o: S.MultiplicativeLR(o, lr_lambda=lambda e: 0.9)))
print(trace(lambda o: S.StepLR(o, 3, gamma=0.1)))
print(trace(lambda o: S.MultiStepLR(o, milestones=[2, 5, 5], gamma=0.5)))
print(trace(lambda o: S.ExponentialLR(o, 0.8)))
print(trace(lambda o: S.PolynomialLR(o, total_iters=5, power=2.0)))
print(trace(lambda o: S.LinearLR(o, start_factor=0.25, end_factor=1.0, total_iters=4)))
print(trace(lambda o: S.ConstantLR(o, factor=0.5, total_iters=3)))
print(trace(lambda o: S.SequentialLR(o, [S.LinearLR(o, 0.1, total_iters=3), S.ExponentialLR(o, 0.9)], milestones=[3])))
print(trace(lambda o: S.ChainedScheduler([S.ConstantLR(o, 0.5, total_iters=2), S.ExponentialLR(o, 0.9)])))
print(trace(lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, cycle_momentum=False)))
print(trace(lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2, mode="triangular2", cycle_momentum=False), n=10))
print(trace(lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2, mode="exp_range", gamma=0.9, cycle_momentum=False)))
opt = torch.optim.SGD([{"params": [p]}, {"params": [torch.nn.Parameter(torch.ones(1))], "lr": 1.0}], lr=0.1)
sch = S.LambdaLR(opt, [lambda e: 0.5 ** e, lambda e: e + 1])
for _ in range(3):
    opt.step()
    sch.step()
print(sch.get_last_lr(), sch.base_lrs, sch.last_epoch)
print(sorted(sch.state_dict()))
try:
    S.LambdaLR(opt, [lambda e: 1.0])
except ValueError as e:
    print("ValueError", e)
