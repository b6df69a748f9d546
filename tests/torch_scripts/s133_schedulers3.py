import torch
from torch.optim.lr_scheduler import OneCycleLR, CosineAnnealingWarmRestarts, CyclicLR, ReduceLROnPlateau, ChainedScheduler, SequentialLR, LinearLR, ExponentialLR, StepLR, LambdaLR, PolynomialLR, MultiStepLR, ConstantLR, CosineAnnealingLR

def params():
    return [torch.nn.Parameter(torch.zeros(2))]

opt = torch.optim.SGD(params(), lr=0.1, momentum=0.9)
s = OneCycleLR(opt, max_lr=1.0, total_steps=10, anneal_strategy="linear", three_phase=True)
out = []
for _ in range(10):
    opt.step(); s.step(); out.append(round(s.get_last_lr()[0], 6))
print(out, round(opt.param_groups[0]["momentum"], 6))
opt = torch.optim.Adam(params(), lr=0.1)
s = OneCycleLR(opt, max_lr=0.5, epochs=2, steps_per_epoch=4)
out = []
for _ in range(8):
    opt.step(); s.step(); out.append(round(opt.param_groups[0]["lr"], 6))
print(out, [round(b, 4) for b in opt.param_groups[0]["betas"]])
opt = torch.optim.SGD(params(), lr=0.1)
s = CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.01)
print([round(s.get_last_lr()[0], 6) for _ in range(10) if (opt.step() or s.step() or True)])
opt = torch.optim.SGD(params(), lr=0.1, momentum=0.9)
s = CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=3, mode="triangular2")
print([round(s.get_last_lr()[0], 6) for _ in range(14) if (opt.step() or s.step() or True)])
opt = torch.optim.SGD(params(), lr=0.1)
s = ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1, threshold=0.01, cooldown=1, min_lr=0.01)
for loss in [1.0, 0.9, 0.95, 0.91, 0.92, 0.93, 0.5, 0.6, 0.7, 0.8, 0.9]:
    s.step(loss)
    print(loss, opt.param_groups[0]["lr"], s.num_bad_epochs, s.cooldown_counter, s.best)
opt = torch.optim.SGD(params(), lr=1.0)
s = ChainedScheduler([LinearLR(opt, start_factor=0.5, total_iters=3), ExponentialLR(opt, gamma=0.9)])
print([round(s.get_last_lr()[0], 6) for _ in range(6) if (opt.step() or s.step() or True)])
opt = torch.optim.SGD(params(), lr=1.0)
s = SequentialLR(opt, schedulers=[ConstantLR(opt, factor=0.1, total_iters=2), CosineAnnealingLR(opt, T_max=4)], milestones=[2])
print([round(s.get_last_lr()[0], 6) for _ in range(8) if (opt.step() or s.step() or True)])
opt = torch.optim.SGD(params(), lr=1.0)
s = PolynomialLR(opt, total_iters=4, power=2.0)
print([round(s.get_last_lr()[0], 6) for _ in range(6) if (opt.step() or s.step() or True)])
opt = torch.optim.SGD(params(), lr=1.0)
s = LambdaLR(opt, lr_lambda=lambda e: 1 / (1 + e))
s2 = MultiStepLR(opt, milestones=[2, 4], gamma=0.5)
for _ in range(5):
    opt.step(); s.step(); s2.step()
print(opt.param_groups[0]["lr"], s.state_dict()["last_epoch"], s2.state_dict()["milestones"], s2.last_epoch)
print(StepLR(torch.optim.SGD(params(), lr=0.3), 2).state_dict())
