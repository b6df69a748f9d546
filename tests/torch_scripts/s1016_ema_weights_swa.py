# an exponential moving average of weights by hand and with AveragedModel(multi_avg_fn), update_bn over a loader
import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn, update_bn, SWALR

model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[1.0, 0.0], [0.5, -0.5]]))
    model[0].bias.zero_()
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
swa = AveragedModel(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = SWALR(opt, swa_lr=0.05, anneal_epochs=2, anneal_strategy="linear")
X = torch.tensor([[1.0, 2.0], [0.0, -1.0], [2.0, 0.5], [-1.0, 1.0]])
for step in range(3):
    opt.zero_grad()
    model(X).pow(2).mean().backward()
    opt.step()
    ema.update_parameters(model)
    swa.update_parameters(model)
    sched.step()
    print(step, [round(v, 6) for v in sched.get_last_lr()])
print(ema.module[0].weight.round(decimals=5))
print(swa.module[0].weight.round(decimals=5), swa.n_averaged)
loader = [X[:2], X[2:]]
update_bn(loader, swa)
print(swa.module[1].running_mean.round(decimals=5), swa.module[1].momentum)
print(sorted(k for k in swa.state_dict())[:3])
