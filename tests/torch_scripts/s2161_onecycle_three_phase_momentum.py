import torch
from torch.optim.lr_scheduler import OneCycleLR

p = torch.nn.Parameter(torch.zeros(2))
opt = torch.optim.Adam([p], lr=0.01, betas=(0.9, 0.999))
s = OneCycleLR(opt, max_lr=0.1, total_steps=12, pct_start=0.25, three_phase=True, anneal_strategy="linear", div_factor=10, final_div_factor=100)
lrs, b1 = [], []
for _ in range(12):
    opt.step()
    lrs.append(round(opt.param_groups[0]["lr"], 6))
    b1.append(round(opt.param_groups[0]["betas"][0], 4))
    s.step() if len(lrs) < 12 else None
print(lrs)
print(b1)
q = torch.nn.Parameter(torch.zeros(1))
o2 = torch.optim.SGD([q], lr=0.1, momentum=0.9)
s2 = OneCycleLR(o2, max_lr=[0.5], epochs=2, steps_per_epoch=3, cycle_momentum=True, base_momentum=0.8, max_momentum=0.95)
out = []
for _ in range(6):
    o2.step()
    out.append((round(o2.param_groups[0]["lr"], 5), round(o2.param_groups[0]["momentum"], 4)))
    s2.step() if len(out) < 6 else None
print(out)
try:
    for _ in range(3):
        s2.step()
except ValueError as e:
    print("ValueError", str(e)[:60])
