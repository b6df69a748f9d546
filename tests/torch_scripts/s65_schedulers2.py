import torch
from torch import nn, optim
from torch.optim import lr_scheduler

model = nn.Linear(3, 1)
with torch.no_grad():
    model.weight.fill_(0.5); model.bias.zero_()
x = torch.linspace(-1, 1, 30).reshape(10, 3)
y = x.sum(1, keepdim=True) * 2


def train(opt, sched, epochs, plateau=False):
    lrs = []
    for epoch in range(epochs):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        if plateau:
            sched.step(loss.item())
        else:
            sched.step()
        lrs.append(round(opt.param_groups[0]['lr'], 7))
    return lrs, round(loss.item(), 6)


opt = optim.SGD(model.parameters(), lr=0.1)
print(train(opt, lr_scheduler.StepLR(opt, step_size=2, gamma=0.5), 6))
opt = optim.SGD(model.parameters(), lr=0.1)
print(train(opt, lr_scheduler.CosineAnnealingLR(opt, T_max=4), 8))
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = lr_scheduler.OneCycleLR(opt, max_lr=0.2, steps_per_epoch=3, epochs=3, anneal_strategy='linear', pct_start=0.4)
print(train(opt, sched, 9), round(opt.param_groups[0]['momentum'], 6))
opt = optim.Adam(model.parameters(), lr=0.1)
sched = lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=6, three_phase=True)
print(train(opt, sched, 5), opt.param_groups[0]['betas'])
opt = optim.SGD(model.parameters(), lr=0.5)
sched = lr_scheduler.ReduceLROnPlateau(opt, mode='min', factor=0.5, patience=1, threshold=0.5, threshold_mode='rel')
print(train(opt, sched, 8, plateau=True), sched.num_bad_epochs)
opt = optim.SGD(model.parameters(), lr=0.05)
warmup = 3
sched = lr_scheduler.LambdaLR(opt, lambda step: min(1.0, (step + 1) / warmup))
print(train(opt, sched, 5))
opt = optim.SGD([{'params': [model.weight]}, {'params': [model.bias], 'lr': 0.01}], lr=0.1)
sched = lr_scheduler.LambdaLR(opt, lr_lambda=[lambda e: 0.9 ** e, lambda e: 1.0 / (e + 1)])
train(opt, sched, 3)
print([round(v, 7) for v in sched.get_last_lr()], sched.last_epoch)
opt = optim.SGD(model.parameters(), lr=1.0)
s1 = lr_scheduler.ExponentialLR(opt, gamma=0.9)
s2 = lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
lrs = []
for e in range(4):
    opt.step(); s1.step(); s2.step()
    lrs.append(round(opt.param_groups[0]['lr'], 7))
print(lrs)
opt = optim.SGD(model.parameters(), lr=1.0)
sched = lr_scheduler.CosineAnnealingLR(opt, T_max=10, eta_min=0.1)
for e in range(3):
    opt.step(); sched.step()
sd = sched.state_dict()
opt2 = optim.SGD(model.parameters(), lr=1.0)
sched2 = lr_scheduler.CosineAnnealingLR(opt2, T_max=10, eta_min=0.1)
sched2.load_state_dict(sd)
print(sched2.last_epoch, sched2.T_max, [round(v, 7) for v in sched2.get_last_lr()])
opt = optim.SGD(model.parameters(), lr=0.1)
sched = lr_scheduler.MultiStepLR(opt, milestones=[1, 3], gamma=0.5)
print(train(opt, sched, 4), sched.milestones)
opt = optim.SGD(model.parameters(), lr=0.1)
sched = lr_scheduler.PolynomialLR(opt, total_iters=4, power=1.0)
print(train(opt, sched, 5))
