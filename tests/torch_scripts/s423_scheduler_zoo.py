import torch
from torch.optim import lr_scheduler as S


def run(make, n=10, **kw):
    opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1, momentum=0.9)
    s = make(opt)
    out = []
    for _ in range(n):
        opt.step()
        s.step()
        out.append(round(opt.param_groups[0]["lr"], 6))
    return out


print(run(lambda o: S.LambdaLR(o, lambda e: 0.9 ** e)))
print(run(lambda o: S.MultiplicativeLR(o, lambda e: 0.95)))
print(run(lambda o: S.StepLR(o, 3, gamma=0.3)))
print(run(lambda o: S.ExponentialLR(o, 0.8)))
print(run(lambda o: S.CosineAnnealingLR(o, T_max=4, eta_min=0.01)))
print(run(lambda o: S.LinearLR(o, start_factor=0.2, total_iters=4)))
print(run(lambda o: S.ConstantLR(o, factor=0.5, total_iters=3)))
print(run(lambda o: S.PolynomialLR(o, total_iters=6, power=2.0)))
print(run(lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3, mode="triangular2")))
print(run(lambda o: S.SequentialLR(o, [S.LinearLR(o, 0.1, total_iters=3), S.ExponentialLR(o, 0.5)], milestones=[3])))
print(run(lambda o: S.ChainedScheduler([S.ConstantLR(o, 0.5, total_iters=4), S.ExponentialLR(o, 0.9)])))
print(run(lambda o: S.OneCycleLR(o, max_lr=1.0, total_steps=10, anneal_strategy="linear", three_phase=True)))
opt = torch.optim.Adam([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
s = S.StepLR(opt, 2)
for _ in range(3):
    opt.step()
    s.step()
sd = s.state_dict()
print(sorted(sd.keys()), sd["last_epoch"], s.get_last_lr())
s2 = S.StepLR(torch.optim.Adam([torch.nn.Parameter(torch.zeros(1))], lr=0.1), 2)
s2.load_state_dict(sd)
print(s2.last_epoch, s2.get_last_lr())
