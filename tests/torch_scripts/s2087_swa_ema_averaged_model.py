import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR, get_ema_multi_avg_fn, update_bn

model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2), nn.Linear(2, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) + i * 0.1)
swa = AveragedModel(model)
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = SWALR(opt, swa_lr=0.05, anneal_epochs=2, anneal_strategy="linear")
x = torch.tensor([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0]])
y = torch.tensor([[1.0], [0.0], [0.5]])
for epoch in range(4):
    opt.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()
    swa.update_parameters(model)
    ema.update_parameters(model)
    sched.step()
    print(epoch, [round(g["lr"], 5) for g in opt.param_groups], swa.n_averaged)
print(swa.module[0].weight.round(decimals=5))
print(ema.module[2].weight.round(decimals=5))
loader = [(x, y), (x * 2, y)]
update_bn(((a,) for a, _ in loader), swa)
print(swa.module[1].running_mean.round(decimals=5), swa.module[1].momentum)
swa.eval()
print(swa(x).round(decimals=5))
print(sorted(k for k in swa.state_dict())[:3])
