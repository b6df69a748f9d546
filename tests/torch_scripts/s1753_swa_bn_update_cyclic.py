# Stochastic weight averaging as the tutorial sets it up: AveragedModel, SWALR annealing to
# swa_lr after a start epoch, CosineAnnealingLR before it, update_bn over the loader to
# recompute BatchNorm statistics of the averaged model, evaluation of both models
import numpy as np
import torch
import torch.nn as nn
from torch.optim.swa_utils import SWALR, AveragedModel, update_bn
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(1001)
X = torch.from_numpy(rng.standard_normal((40, 4)))
Y = torch.from_numpy((X[:, 0] - X[:, 1] > 0).numpy().astype(np.int64))
loader = DataLoader(TensorDataset(X, Y), batch_size=10)
model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2))
with torch.no_grad():
    for n, p in model.named_parameters():
        if p.dim() > 1:
            p.copy_(torch.from_numpy(rng.normal(0, 0.5, tuple(p.shape))))
        elif n.endswith("bias"):
            p.zero_()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
swa_model = AveragedModel(model)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=6)
swa_start = 3
swa_sched = SWALR(opt, swa_lr=0.05, anneal_epochs=2, anneal_strategy="linear")
for epoch in range(6):
    model.train()
    for xb, yb in loader:
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
    if epoch >= swa_start:
        swa_model.update_parameters(model)
        swa_sched.step()
    else:
        sched.step()
    print(epoch, f"{loss.item():.6f}", f"{opt.param_groups[0]['lr']:.5f}", swa_model.n_averaged.item())
update_bn(((xb,) for xb, _ in loader), swa_model)
print(swa_model.module[1].running_mean[:4].numpy().round(5), swa_model.module[1].num_batches_tracked.item())
for m in (model, swa_model):
    m.eval()
    with torch.no_grad():
        acc = (m(X).argmax(1) == Y).double().mean().item()
        print(type(m).__name__, round(nn.functional.cross_entropy(m(X), Y).item(), 6), acc)
