import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p) * (i + 1) / 3)
X = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
Y = torch.tensor([[0.0], [1.0], [1.0], [0.0]])
opt = torch.optim.AdamW(model.parameters(), lr=0.05, weight_decay=0.01)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=30)
lrs = []
for step in range(30):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    opt.step()
    sched.step()
    lrs.append(sched.get_last_lr()[0])
print(f"{loss.item():.6f}", [round(l, 5) for l in lrs[::6]])
sd = opt.state_dict()
print(sorted(sd.keys()), sorted(sd["state"][0].keys()), sd["param_groups"][0]["lr"] == lrs[-1])
opt2 = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
s2 = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt2, T_0=5, T_mult=2)
s3 = torch.optim.lr_scheduler.MultiStepLR(torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=1.0), [3, 6], gamma=0.5)
out = []
for e in range(12):
    opt2.step()
    s2.step()
    s3.optimizer.step()
    s3.step()
    out.append((round(s2.get_last_lr()[0], 5), s3.get_last_lr()[0]))
print(out)
