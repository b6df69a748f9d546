import torch
from torch.optim.lr_scheduler import OneCycleLR, CosineAnnealingWarmRestarts, ReduceLROnPlateau, CyclicLR

p = [torch.nn.Parameter(torch.zeros(1))]
opt = torch.optim.SGD(p, lr=0.1, momentum=0.9)
s = OneCycleLR(opt, max_lr=1.0, total_steps=10, pct_start=0.3, anneal_strategy="cos")
trace = []
for i in range(10):
    opt.step()
    s.step()
    trace.append((round(opt.param_groups[0]["lr"], 6), round(opt.param_groups[0]["momentum"], 6)))
print(trace)
try:
    opt.step(); s.step()
except ValueError as e:
    print("ValueError:", str(e)[:80])

opt = torch.optim.Adam(p, lr=0.01)
s = OneCycleLR(opt, max_lr=0.1, epochs=2, steps_per_epoch=3, anneal_strategy="linear",
               three_phase=True, cycle_momentum=True)
lrs = []
for i in range(6):
    opt.step(); s.step()
    lrs.append((round(s.get_last_lr()[0], 6), tuple(round(b, 4) for b in opt.param_groups[0]["betas"])))
print(lrs)

opt = torch.optim.SGD(p, lr=0.5)
s = CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.01)
out = []
for epoch in range(10):
    opt.step(); s.step()
    out.append(round(s.get_last_lr()[0], 6))
print(out, s.T_i, s.T_cur)
s.step(2.5)
print(round(opt.param_groups[0]["lr"], 6))

opt = torch.optim.SGD(p, lr=1.0)
s = ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1, threshold=0.01, cooldown=1, min_lr=0.1)
for val in [1.0, 0.995, 0.99, 0.98, 0.98, 0.98, 0.98, 0.5, 0.5, 0.5, 0.5]:
    s.step(val)
    print(val, opt.param_groups[0]["lr"], s.num_bad_epochs, s.cooldown_counter)
print(s.state_dict()["best"], s.get_last_lr())

opt = torch.optim.SGD(p, lr=0.1, momentum=0.9)
s = CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2")
print([round(x, 5) for x in [s.get_last_lr()[0]] + [(opt.step(), s.step(), s.get_last_lr()[0])[2] for _ in range(8)]])
