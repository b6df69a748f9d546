import torch
from torch.optim.lr_scheduler import ReduceLROnPlateau

p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([{"params": [p]}, {"params": [torch.nn.Parameter(torch.ones(1))], "lr": 0.05}], lr=0.1)
s = ReduceLROnPlateau(opt, mode="max", factor=0.5, patience=1, threshold=0.01, threshold_mode="abs", cooldown=2, min_lr=[0.02, 0.01])
accs = [0.5, 0.6, 0.605, 0.6, 0.61, 0.6, 0.59, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7]
for epoch, acc in enumerate(accs):
    s.step(acc)
    print(epoch, acc, [round(g["lr"], 5) for g in opt.param_groups], s.num_bad_epochs, s.cooldown_counter)
print(s.best, s.get_last_lr())
sd = s.state_dict()
print(sorted(k for k in sd if k != "optimizer"))
s2 = ReduceLROnPlateau(torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0), eps=0.3, factor=0.8, patience=0)
for v in [1.0, 1.0, 1.0, 1.0]:
    s2.step(torch.tensor(v))
print(s2.optimizer.param_groups[0]["lr"])
