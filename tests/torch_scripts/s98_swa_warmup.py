import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn
from torch.optim.lr_scheduler import LambdaLR, SequentialLR, ChainedScheduler, LinearLR, ExponentialLR, CosineAnnealingLR, StepLR, ConstantLR

torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
warm = 3
sched = LambdaLR(opt, lr_lambda=lambda e: min(1.0, (e + 1) / warm))
lrs = []
for epoch in range(5):
    opt.step()
    lrs.append(round(sched.get_last_lr()[0], 6))
    sched.step()
print(lrs)

opt = torch.optim.SGD(model.parameters(), lr=1.0)
s1 = LinearLR(opt, start_factor=0.1, total_iters=3)
s2 = CosineAnnealingLR(opt, T_max=4)
seq = SequentialLR(opt, schedulers=[s1, s2], milestones=[3])
out = []
for _ in range(8):
    opt.step(); out.append(round(opt.param_groups[0]['lr'], 6)); seq.step()
print(out)

opt = torch.optim.SGD(model.parameters(), lr=1.0)
ch = ChainedScheduler([ConstantLR(opt, factor=0.5, total_iters=2), ExponentialLR(opt, gamma=0.9)])
out = []
for _ in range(5):
    opt.step(); out.append(round(opt.param_groups[0]['lr'], 6)); ch.step()
print(out)

opt = torch.optim.SGD(model.parameters(), lr=0.5)
mult = torch.optim.lr_scheduler.MultiplicativeLR(opt, lr_lambda=lambda e: 0.5)
for _ in range(3):
    opt.step(); mult.step()
print(opt.param_groups[0]['lr'], mult.last_epoch)

net = nn.Sequential(nn.Linear(2, 4), nn.BatchNorm1d(4), nn.Linear(4, 1))
swa = AveragedModel(net)
print(type(swa).__name__, swa.n_averaged, sorted(k for k, _ in swa.named_buffers()))
opt = torch.optim.SGD(net.parameters(), lr=0.05)
swa_sched = SWALR(opt, swa_lr=0.01, anneal_epochs=2, anneal_strategy='linear')
X, Y = torch.randn(16, 2), torch.randn(16, 1)
snapshots = []
for epoch in range(4):
    opt.zero_grad(); nn.functional.mse_loss(net(X), Y).backward(); opt.step()
    swa.update_parameters(net)
    snapshots.append([p.detach().clone() for p in net.parameters()])
    swa_sched.step()
    print(epoch, round(opt.param_groups[0]['lr'], 6), swa.n_averaged.item())
mean0 = torch.stack([s[0] for s in snapshots]).mean(0)
print(torch.allclose(swa.module[0].weight, mean0))
loader = [(X[:8], Y[:8]), (X[8:], Y[8:])]
update_bn(loader, swa)
print(swa.module[1].running_mean.shape, swa.module[1].num_batches_tracked)
print(swa(X).shape)
ema = AveragedModel(net, multi_avg_fn=get_ema_multi_avg_fn(0.9))
ema.update_parameters(net)
print(torch.allclose(ema.module[0].weight, net[0].weight))
