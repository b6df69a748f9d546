# OneCycleLR and CyclicLR learning-rate traces
import torch

p = [torch.nn.Parameter(torch.zeros(1))]
opt = torch.optim.SGD(p, lr=0.1, momentum=0.9)
sch = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10)
lrs, moms = [], []
for _ in range(10):
    opt.step()
    lrs.append(round(sch.get_last_lr()[0], 6))
    moms.append(round(opt.param_groups[0]["momentum"], 6))
    sch.step() if len(lrs) < 10 else None
print(lrs)
print(moms)
opt2 = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1, momentum=0.9)
cyc = torch.optim.lr_scheduler.CyclicLR(opt2, base_lr=0.01, max_lr=0.1, step_size_up=3, mode="triangular2")
out = []
for _ in range(14):
    opt2.step()
    out.append(round(cyc.get_last_lr()[0], 6))
    cyc.step()
print(out)
