import torch
from torch.optim.lr_scheduler import LinearLR, SequentialLR, ConstantLR, CosineAnnealingWarmRestarts, CyclicLR, PolynomialLR, ChainedScheduler, ExponentialLR, MultiplicativeLR
p = [torch.nn.Parameter(torch.zeros(1))]
def run(make, n=8, lr=1.0, **kw):
    opt = torch.optim.SGD(p, lr=lr, momentum=0.9, **kw)
    s = make(opt)
    out = []
    for _ in range(n):
        opt.step(); s.step(); out.append(round(s.get_last_lr()[0], 6))
    return out
print(run(lambda o: LinearLR(o, start_factor=0.1, total_iters=4)))
print(run(lambda o: SequentialLR(o, [LinearLR(o, start_factor=0.5, total_iters=2), ExponentialLR(o, gamma=0.9)], milestones=[2])))
print(run(lambda o: ConstantLR(o, factor=0.5, total_iters=3)))
print(run(lambda o: CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01), n=10))
print(run(lambda o: CyclicLR(o, base_lr=0.1, max_lr=1.0, step_size_up=2), n=8))
print(run(lambda o: PolynomialLR(o, total_iters=4, power=2.0)))
print(run(lambda o: ChainedScheduler([ConstantLR(o, factor=0.5, total_iters=2), ExponentialLR(o, gamma=0.9)])))
print(run(lambda o: MultiplicativeLR(o, lr_lambda=lambda e: 0.95)))
opt = torch.optim.SGD(p, lr=0.1)
s = torch.optim.lr_scheduler.StepLR(opt, 2, gamma=0.1)
print(s.last_epoch, s.base_lrs, s.get_last_lr())
sd = s.state_dict(); print(sorted(k for k in sd if not k.startswith('_get') and k != '_is_initial'))
s2 = torch.optim.lr_scheduler.StepLR(torch.optim.SGD(p, lr=0.1), 5)
s2.load_state_dict(sd); print(s2.step_size)
opt = torch.optim.Adam(p, lr=0.01)
r = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, 'max', factor=0.5, patience=0, threshold=0.01, cooldown=1, min_lr=0.002)
for m in [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]:
    r.step(m); print(opt.param_groups[0]['lr'], end=' ')
print()
print(r.get_last_lr(), r.num_bad_epochs, r.best)
