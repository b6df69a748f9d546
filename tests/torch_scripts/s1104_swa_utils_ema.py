# AveragedModel with get_ema_multi_avg_fn, SWALR, update_bn on a tiny BN model
import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn, get_ema_avg_fn

net = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
with torch.no_grad():
    net[0].weight.copy_(torch.eye(2))
    net[0].bias.zero_()
ema = AveragedModel(net, multi_avg_fn=get_ema_multi_avg_fn(0.9))
ema2 = AveragedModel(net, avg_fn=get_ema_avg_fn(0.5), use_buffers=True)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
swa = SWALR(opt, swa_lr=0.05, anneal_epochs=3, anneal_strategy="linear")
x = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.0, 0.5]])
for i in range(3):
    opt.zero_grad()
    net(x).pow(2).sum().backward()
    opt.step()
    ema.update_parameters(net)
    ema2.update_parameters(net)
    swa.step()
    print(i, [round(v, 6) for v in swa.get_last_lr()])
print(ema.module[0].weight, ema.n_averaged)
print(ema2.module[1].running_mean)
loader = [x[:2], x[1:]]
update_bn(loader, ema)
print(ema.module[1].running_mean, ema.module[1].num_batches_tracked)
