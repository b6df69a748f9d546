import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn

model = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) + i * 0.1)
swa = AveragedModel(model)
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
sched = SWALR(opt, swa_lr=0.05, anneal_epochs=3, anneal_strategy="linear")
X = torch.tensor([[1.0, 2.0], [0.0, -1.0], [2.0, 0.5], [-1.0, 1.0]])
Y = torch.tensor([[1.0], [0.0], [2.0], [-1.0]])
lrs = []
for epoch in range(4):
    opt.zero_grad()
    nn.functional.mse_loss(model(X), Y).backward()
    opt.step()
    swa.update_parameters(model)
    ema.update_parameters(model)
    sched.step()
    lrs.append(round(opt.param_groups[0]["lr"], 6))
print(lrs)
print(swa.n_averaged, swa.module[0].weight.detach().round(decimals=5))
print(ema.module[2].bias.detach().round(decimals=5))
loader = [(X[:2], Y[:2]), (X[2:], Y[2:])]
update_bn(loader, swa)
print(swa.module[1].running_mean.round(decimals=5), swa.module[1].num_batches_tracked)
swa.eval()
print(swa(X).detach().round(decimals=5).flatten())
