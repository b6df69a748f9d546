import torch
from torch.optim.lr_scheduler import SequentialLR, ConstantLR, PolynomialLR, CosineAnnealingWarmRestarts, CosineAnnealingLR

p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([p], lr=1.0)
s = SequentialLR(opt, [ConstantLR(opt, factor=0.1, total_iters=2), PolynomialLR(opt, total_iters=4, power=2.0)], milestones=[3])
lrs = []
for _ in range(9):
    opt.step(); s.step()
    lrs.append(round(s.get_last_lr()[0], 5))
print(lrs)
q = torch.nn.Parameter(torch.zeros(1))
o2 = torch.optim.AdamW([q], lr=0.1)
w = CosineAnnealingWarmRestarts(o2, T_0=3, T_mult=2, eta_min=0.01)
out = []
for i in range(12):
    o2.step()
    w.step()
    out.append(round(o2.param_groups[0]["lr"], 5))
print(out, w.T_i, w.T_cur)
w.step(2.5)
print(round(o2.param_groups[0]["lr"], 5))
r = torch.nn.Parameter(torch.zeros(1))
o3 = torch.optim.SGD([r], lr=0.2)
c = CosineAnnealingLR(o3, T_max=4, eta_min=0.0)
out = []
for i in range(10):
    o3.step(); c.step()
    out.append(round(c.get_last_lr()[0], 5))
print(out)
