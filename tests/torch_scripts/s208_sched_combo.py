import torch
from torch.optim import lr_scheduler as S

def opt():
    return torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1, momentum=0.9)

o = opt()
s = S.SequentialLR(o, [S.LinearLR(o, start_factor=0.1, total_iters=3), S.CosineAnnealingLR(o, T_max=5, eta_min=0.01)], milestones=[3])
lrs = []
for _ in range(10):
    o.step(); s.step(); lrs.append(round(s.get_last_lr()[0], 6))
print(lrs)
o = opt()
s = S.ChainedScheduler([S.ExponentialLR(o, gamma=0.9), S.StepLR(o, step_size=3, gamma=0.5)])
lrs = []
for _ in range(8):
    o.step(); s.step(); lrs.append(round(o.param_groups[0]["lr"], 6))
print(lrs)
o = opt()
s = S.OneCycleLR(o, max_lr=1.0, total_steps=12, three_phase=True, anneal_strategy="linear")
out = []
for _ in range(11):
    o.step(); s.step(); out.append((round(o.param_groups[0]["lr"], 5), round(o.param_groups[0]["momentum"], 4)))
print(out)
o = opt()
s = S.ReduceLROnPlateau(o, mode="max", factor=0.5, patience=1, cooldown=1, threshold=0.01, min_lr=0.01)
for metric in [0.5, 0.6, 0.6, 0.6, 0.6, 0.6, 0.61, 0.7, 0.7, 0.7, 0.7]:
    s.step(metric)
    print(o.param_groups[0]["lr"], s.num_bad_epochs, s.cooldown_counter, end="; ")
print()
o = opt()
s = S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2")
out = []
for _ in range(9):
    o.step(); s.step(); out.append(round(s.get_last_lr()[0], 5))
print(out)
o = opt()
s = S.MultiStepLR(o, milestones=[2, 4], gamma=0.1)
for _ in range(3):
    o.step(); s.step()
sd = s.state_dict()
print(sorted(sd), sd["last_epoch"], sd["_last_lr"])
s2 = S.MultiStepLR(opt(), milestones=[1], gamma=0.5)
s2.load_state_dict(sd)
print(s2.last_epoch, s2.milestones, s2.get_last_lr())
o = opt()
s = S.LambdaLR(o, lr_lambda=lambda e: 1 / (1 + e))
s3 = S.PolynomialLR(opt(), total_iters=4, power=2.0)
for _ in range(5):
    o.step(); s.step(); s3.optimizer.step(); s3.step()
print(s.get_last_lr(), [round(v, 6) for v in s3.get_last_lr()])
