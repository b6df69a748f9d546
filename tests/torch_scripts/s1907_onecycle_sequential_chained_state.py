# Learning-rate schedules as a training script chains them: OneCycleLR (three_phase,
# linear annealing, cycling Adam's beta1), then SequentialLR of LinearLR warmup and
# ExponentialLR, a ChainedScheduler, and a scheduler state_dict round trip
import torch
import torch.nn as nn

model = nn.Linear(2, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.1, betas=(0.9, 0.99))
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=8, three_phase=True,
                                            anneal_strategy="linear", pct_start=0.25)
for step in range(8):
    opt.step()
    sched.step()
    print(step, [round(v, 6) for v in sched.get_last_lr()],
          round(opt.param_groups[0]["betas"][0], 6))
print(sorted(k for k in sched.state_dict() if not k.startswith("_")))
opt2 = torch.optim.SGD(model.parameters(), lr=1.0, momentum=0.9)
warm = torch.optim.lr_scheduler.LinearLR(opt2, start_factor=0.1, total_iters=3)
decay = torch.optim.lr_scheduler.ExponentialLR(opt2, gamma=0.5)
seq = torch.optim.lr_scheduler.SequentialLR(opt2, [warm, decay], milestones=[3])
lrs = []
for _ in range(6):
    opt2.step()
    seq.step()
    lrs.append(round(seq.get_last_lr()[0], 6))
print("seq", lrs)
opt3 = torch.optim.SGD(model.parameters(), lr=1.0)
chain = torch.optim.lr_scheduler.ChainedScheduler([
    torch.optim.lr_scheduler.ConstantLR(opt3, factor=0.5, total_iters=2),
    torch.optim.lr_scheduler.ExponentialLR(opt3, gamma=0.9)])
out = []
for _ in range(4):
    opt3.step()
    chain.step()
    out.append(round(chain.get_last_lr()[0], 6))
print("chain", out)
sd = seq.state_dict()
opt4 = torch.optim.SGD(model.parameters(), lr=1.0, momentum=0.9)
seq2 = torch.optim.lr_scheduler.SequentialLR(
    opt4, [torch.optim.lr_scheduler.LinearLR(opt4, start_factor=0.1, total_iters=3),
           torch.optim.lr_scheduler.ExponentialLR(opt4, gamma=0.5)], milestones=[3])
seq2.load_state_dict(sd)
print(seq2.last_epoch, [round(v, 6) for v in seq2.get_last_lr()], sd["_milestones"])
