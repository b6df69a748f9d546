# ChainedScheduler of StepLR and ExponentialLR; SequentialLR warmup then cosine
import torch

p = [torch.nn.Parameter(torch.zeros(1))]
opt = torch.optim.SGD(p, lr=1.0)
s = torch.optim.lr_scheduler.ChainedScheduler([
    torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5),
    torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)])
lrs = []
for _ in range(5):
    opt.step()
    s.step()
    lrs.append(round(opt.param_groups[0]["lr"], 6))
print(lrs)
opt2 = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
warm = torch.optim.lr_scheduler.LinearLR(opt2, start_factor=0.1, total_iters=3)
cos = torch.optim.lr_scheduler.CosineAnnealingLR(opt2, T_max=4)
seq = torch.optim.lr_scheduler.SequentialLR(opt2, [warm, cos], milestones=[3])
lrs = []
for _ in range(8):
    lrs.append(round(seq.get_last_lr()[0], 6))
    opt2.step()
    seq.step()
print(lrs)
