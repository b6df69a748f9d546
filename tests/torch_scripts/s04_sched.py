import torch
import torch.nn as nn
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR, CosineAnnealingLR, ReduceLROnPlateau, ExponentialLR, LambdaLR, MultiStepLR, OneCycleLR

model = nn.Linear(2, 1)
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = StepLR(opt, step_size=3, gamma=0.5)
lrs = []
for epoch in range(7):
    opt.step()
    sched.step()
    lrs.append(round(sched.get_last_lr()[0], 6))
print(lrs)
opt = optim.Adam(model.parameters(), lr=1e-2)
sched = CosineAnnealingLR(opt, T_max=5, eta_min=1e-4)
out = []
for _ in range(6):
    opt.step(); sched.step(); out.append(round(opt.param_groups[0]['lr'], 8))
print(out)
opt = optim.SGD(model.parameters(), lr=1.0)
sched = ReduceLROnPlateau(opt, mode='min', factor=0.1, patience=2)
for val in [1.0, 0.9, 0.95, 0.96, 0.97, 0.98, 0.99, 1.0]:
    sched.step(val)
    print(opt.param_groups[0]['lr'], end=' ')
print()
opt = optim.SGD([{'params': model.weight}, {'params': model.bias, 'lr': 0.01}], lr=0.1, momentum=0.9)
print([g['lr'] for g in opt.param_groups], len(opt.param_groups))
sched = LambdaLR(opt, lr_lambda=lambda e: 0.95 ** e)
for _ in range(3): opt.step(); sched.step()
print([round(x, 6) for x in sched.get_last_lr()])
sched = MultiStepLR(optim.SGD(model.parameters(), lr=1.0), milestones=[2, 4], gamma=0.1)
r = []
for _ in range(5): sched.optimizer.step(); sched.step(); r.append(round(sched.get_last_lr()[0], 6))
print(r)
opt = optim.SGD(model.parameters(), lr=0.1)
sched = OneCycleLR(opt, max_lr=1.0, total_steps=10)
r = []
for _ in range(9): opt.step(); sched.step(); r.append(round(sched.get_last_lr()[0], 5))
print(r)
sd = opt.state_dict()
print(sorted(sd.keys()), sd['param_groups'][0]['params'])
e = ExponentialLR(optim.SGD(model.parameters(), lr=1.0), gamma=0.9)
print(e.state_dict()['last_epoch'], e.state_dict()['gamma'])
