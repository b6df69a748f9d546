import torch
import torch.nn as nn
from torch.optim.swa_utils import SWALR, AveragedModel, get_ema_multi_avg_fn, update_bn

model = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.ReLU(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel()) + i * 0.5).reshape(p.shape) * 0.5)
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
swa = AveragedModel(model)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
sched = SWALR(opt, swa_lr=0.05, anneal_epochs=3, anneal_strategy="cos")
X = torch.stack([torch.linspace(-1, 1, 8), torch.linspace(1, -1, 8) ** 2], 1)
Y = X.sum(1, keepdim=True)
for epoch in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
    ema.update_parameters(model)
    swa.update_parameters(model)
    sched.step()
    print(epoch, round(loss.item(), 6), [round(lr, 6) for lr in sched.get_last_lr()])
print(ema.n_averaged, swa.n_averaged)
print(ema.module[0].weight.round(decimals=5))
print(swa.module[3].bias.round(decimals=5))
loader = [(X[:4],), (X[4:],)]
update_bn(loader, swa)
print(swa.module[1].running_mean.round(decimals=5))
