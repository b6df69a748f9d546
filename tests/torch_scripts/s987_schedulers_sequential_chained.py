# SequentialLR / ChainedScheduler / LinearLR / ExponentialLR / MultiStepLR: lr per epoch, state_dict keys
import torch

def make():
    p = torch.nn.Parameter(torch.zeros(1))
    return torch.optim.SGD([p], lr=0.1, momentum=0.9), p

opt, p = make()
warm = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=3)
decay = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
sched = torch.optim.lr_scheduler.SequentialLR(opt, [warm, decay], milestones=[3])
for epoch in range(7):
    opt.step()
    sched.step()
    print(epoch, [round(x, 6) for x in sched.get_last_lr()])
opt, p = make()
chain = torch.optim.lr_scheduler.ChainedScheduler([
    torch.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2),
    torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 4], gamma=0.1)])
for epoch in range(5):
    opt.step()
    chain.step()
    print("chain", epoch, [round(x, 8) for x in chain.get_last_lr()])
opt, p = make()
s = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.3)
for _ in range(3):
    opt.step()
    s.step()
sd = s.state_dict()
print(sorted(sd), sd["last_epoch"], sd["_last_lr"])
s2 = torch.optim.lr_scheduler.StepLR(opt, step_size=5)
s2.load_state_dict(sd)
print(s2.step_size, s2.gamma, s2.last_epoch)
opt, p = make()
lam = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=lambda e: 1 / (1 + e))
for _ in range(3):
    opt.step()
    lam.step()
print([round(x, 6) for x in lam.get_last_lr()], opt.param_groups[0]["initial_lr"])
