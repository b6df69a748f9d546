import math
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.1, -0.2, 0.3, -0.4]]))
    model.bias.fill_(0.05)
X = torch.linspace(-1, 1, 32).view(8, 4)
y = X.sum(1, keepdim=True) * 0.5
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
warm, total = 3, 12
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: (s + 1) / warm if s < warm else 0.5 * (1 + math.cos(math.pi * (s - warm) / (total - warm))))
lrs = []
for step in range(total):
    opt.zero_grad(set_to_none=True)
    loss = nn.functional.mse_loss(model(X), y)
    loss.backward()
    opt.step()
    sched.step()
    lrs.append(round(sched.get_last_lr()[0], 6))
print(lrs)
print(round(loss.item(), 8))
mults = torch.optim.lr_scheduler.MultiplicativeLR(opt, lambda e: 0.9)
for _ in range(3):
    opt.step(); mults.step()
print([round(g["lr"], 8) for g in opt.param_groups], mults.last_epoch)
cyc = torch.optim.lr_scheduler.CyclicLR(torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9), base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2")
vals = []
for _ in range(9):
    cyc.optimizer.step(); cyc.step(); vals.append(round(cyc.get_last_lr()[0], 6))
print(vals)
oc = torch.optim.lr_scheduler.OneCycleLR(torch.optim.Adam(model.parameters()), max_lr=0.01, total_steps=6, anneal_strategy="linear", pct_start=0.5)
v2 = []
for _ in range(5):
    oc.optimizer.step(); oc.step(); v2.append(round(oc.get_last_lr()[0], 7))
print(v2, [round(b, 4) for b in oc.optimizer.param_groups[0]["betas"]])
