# Scheduler attributes after construction: last_epoch, base_lrs, get_last_lr, initial_lr, _step_count; verbose-free printing
import torch
from torch.optim import lr_scheduler as S

opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.3, momentum=0.9)
sch = S.StepLR(opt, step_size=2, gamma=0.5)
print(sch.last_epoch, sch.base_lrs, sch.get_last_lr(), opt.param_groups[0]["initial_lr"], sch._step_count)
for _ in range(3):
    opt.step(); sch.step()
print(sch.last_epoch, sch.get_last_lr(), sch.state_dict()["_step_count"])
opt2 = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.3)
seq = S.SequentialLR(opt2, [S.LinearLR(opt2, 0.1, total_iters=2), S.ExponentialLR(opt2, 0.5)], milestones=[2])
tr = []
for _ in range(5):
    opt2.step(); seq.step(); tr.append(round(seq.get_last_lr()[0], 6))
print(tr, seq.last_epoch)
opt3 = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
ch = S.ChainedScheduler([S.ConstantLR(opt3, factor=0.5, total_iters=2), S.ExponentialLR(opt3, gamma=0.9)])
tr = []
for _ in range(4):
    opt3.step(); ch.step(); tr.append(round(ch.get_last_lr()[0], 6))
print(tr)
opt4 = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
cos = S.CosineAnnealingLR(opt4, T_max=4, eta_min=0.1)
tr = []
for _ in range(9):
    opt4.step(); cos.step(); tr.append(round(cos.get_last_lr()[0], 6))
print(tr)
