# a hand-written warmup + cosine schedule through LambdaLR, and get_last_lr/state_dict roundtrip
import math
import torch

p = torch.nn.Parameter(torch.zeros(2))
opt = torch.optim.AdamW([p], lr=0.01, betas=(0.9, 0.95), weight_decay=0.1)
warm, total = 3, 10


def factor(step):
    if step < warm:
        return (step + 1) / warm
    t = (step - warm) / (total - warm)
    return 0.5 * (1 + math.cos(math.pi * t))


sched = torch.optim.lr_scheduler.LambdaLR(opt, factor)
lrs = []
for step in range(total):
    opt.zero_grad()
    (p - torch.tensor([1.0, -1.0])).pow(2).sum().backward()
    opt.step()
    sched.step()
    lrs.append(round(sched.get_last_lr()[0], 8))
print(lrs)
print(p.detach())
sd = sched.state_dict()
print(sorted(sd), sd["last_epoch"])
st = opt.state_dict()
print(sorted(st["state"][0]), st["param_groups"][0]["lr"])
