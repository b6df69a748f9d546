import torch
from torch.optim.lr_scheduler import StepLR, ExponentialLR, CosineAnnealingLR, MultiStepLR, LambdaLR, OneCycleLR, ReduceLROnPlateau

model = torch.nn.Linear(2, 1)
w = [torch.nn.Parameter(torch.ones(2))]


def run(make, epochs=8, **kw):
    opt = torch.optim.SGD(w, lr=0.1, momentum=0.9)
    sched = make(opt)
    lrs = []
    for epoch in range(epochs):
        opt.zero_grad()
        (w[0] ** 2).sum().backward()
        opt.step()
        lrs.append(round(sched.get_last_lr()[0], 6))
        sched.step()
    return type(sched).__name__, lrs


print(*run(lambda o: StepLR(o, step_size=3, gamma=0.1)))
print(*run(lambda o: ExponentialLR(o, gamma=0.9)))
print(*run(lambda o: CosineAnnealingLR(o, T_max=4, eta_min=0.01)))
print(*run(lambda o: MultiStepLR(o, milestones=[2, 5], gamma=0.5)))
print(*run(lambda o: LambdaLR(o, lr_lambda=lambda epoch: 0.95 ** epoch)))
print(*run(lambda o: OneCycleLR(o, max_lr=1.0, total_steps=10)))
opt = torch.optim.SGD(w, lr=0.1)
plateau = ReduceLROnPlateau(opt, mode='min', factor=0.5, patience=1)
for epoch, val in enumerate([1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7, 0.8]):
    plateau.step(val)
    print(epoch, opt.param_groups[0]['lr'], plateau.num_bad_epochs)
opt = torch.optim.Adam(w, lr=1e-3)
sched = StepLR(opt, 2)
print(sched.state_dict()['step_size'], sched.last_epoch, opt.param_groups[0]['initial_lr'])
