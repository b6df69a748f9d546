import torch
import torch.nn as nn
from torch.optim.swa_utils import SWALR, AveragedModel, get_ema_multi_avg_fn, update_bn

net = nn.Sequential(nn.Linear(2, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) + i).view_as(p) * 0.5)
X = torch.stack([torch.linspace(-2, 2, 16), torch.sin(torch.linspace(0, 3, 16))], 1)
Y = (X[:, :1] * 0.7 - X[:, 1:] ** 2)
loader = [(X[i:i + 4], Y[i:i + 4]) for i in range(0, 16, 4)]
swa = AveragedModel(net)
ema = AveragedModel(net, multi_avg_fn=get_ema_multi_avg_fn(0.9))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
sched = SWALR(opt, swa_lr=0.02, anneal_epochs=3, anneal_strategy="linear")
for epoch in range(8):
    for xb, yb in loader:
        opt.zero_grad()
        nn.functional.mse_loss(net(xb), yb).backward()
        opt.step()
    if epoch >= 3:
        swa.update_parameters(net)
        sched.step()
    ema.update_parameters(net)
    print(epoch, [round(g["lr"], 5) for g in opt.param_groups])
print(swa.n_averaged, ema.n_averaged)
print(swa.module[0].weight.detach().round(decimals=4))
print(swa.module[1].running_mean.round(decimals=4))
update_bn(loader, swa)
print(swa.module[1].running_mean.round(decimals=4), swa.module[1].num_batches_tracked)
swa.eval()
with torch.no_grad():
    print(nn.functional.mse_loss(swa(X), Y).item().__round__(6))
print(ema.module[3].bias.detach().round(decimals=5), [k for k in swa.state_dict()][:3])
