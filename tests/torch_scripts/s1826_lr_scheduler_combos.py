# SequentialLR / ChainedScheduler / LambdaLR with several groups: lrs over a few epochs
import torch
from torch.optim import SGD
from torch.optim import lr_scheduler as S

p1, p2 = torch.nn.Parameter(torch.zeros(1)), torch.nn.Parameter(torch.zeros(1))
opt = SGD([{"params": [p1], "lr": 1.0}, {"params": [p2], "lr": 0.1}], lr=0.5)
lam = S.LambdaLR(opt, lr_lambda=[lambda e: 0.5 ** e, lambda e: 1.0 / (e + 1)])
out = []
for _ in range(4):
    opt.step()
    lam.step()
    out.append([round(x, 6) for x in lam.get_last_lr()])
print(out, lam.state_dict()["lr_lambdas"])
opt = SGD([p1], lr=1.0)
seq = S.SequentialLR(opt, [S.LinearLR(opt, 0.1, total_iters=2), S.ExponentialLR(opt, 0.5)], milestones=[2])
lrs = []
for _ in range(5):
    opt.step()
    seq.step()
    lrs.append(round(opt.param_groups[0]["lr"], 6))
print(lrs, seq.last_epoch)
opt = SGD([p1], lr=1.0)
ch = S.ChainedScheduler([S.ConstantLR(opt, factor=0.5, total_iters=2), S.ExponentialLR(opt, 0.9)])
lrs = []
for _ in range(4):
    opt.step()
    ch.step()
    lrs.append(round(opt.param_groups[0]["lr"], 6))
print(lrs, [round(x, 6) for x in ch.get_last_lr()])
opt = SGD([p1], lr=1.0, momentum=0.9)
cyc = S.CyclicLR(opt, base_lr=0.1, max_lr=1.0, step_size_up=2, mode="triangular2", cycle_momentum=True)
vals = []
for _ in range(6):
    opt.step()
    cyc.step()
    vals.append((round(opt.param_groups[0]["lr"], 4), round(opt.param_groups[0]["momentum"], 4)))
print(vals)
opt = SGD([p1], lr=1.0)
pl = S.ReduceLROnPlateau(opt, mode="max", factor=0.5, patience=1, threshold=0.1, threshold_mode="abs", cooldown=1, min_lr=0.2)
for metric in [1.0, 1.05, 1.02, 1.0, 0.9, 0.8, 0.7, 0.6]:
    pl.step(metric)
    print(round(opt.param_groups[0]["lr"], 4), pl.num_bad_epochs, pl.cooldown_counter, end="; ")
print()
try:
    S.SequentialLR(opt, [S.ConstantLR(opt)], milestones=[1])
except ValueError as e:
    print("ValueError", e)
