# Optimizer with per-group lrs (backbone vs head), a MultiStepLR, adding a
# param group later, and printing lrs each epoch
import torch
import torch.nn as nn

backbone = nn.Linear(3, 3)
head = nn.Linear(3, 1)
with torch.no_grad():
    backbone.weight.copy_(torch.tensor([[0.2, -0.1, 0.3], [0.0, 0.5, -0.2], [0.1, 0.1, 0.1]]))
    backbone.bias.fill_(0.05)
    head.weight.copy_(torch.tensor([[0.4, -0.3, 0.2]]))
    head.bias.zero_()
opt = torch.optim.SGD([{"params": backbone.parameters(), "lr": 0.01},
                       {"params": head.parameters()}], lr=0.1, momentum=0.9)
print([g["lr"] for g in opt.param_groups], [g["momentum"] for g in opt.param_groups])
sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 4], gamma=0.5)
x = torch.linspace(-1, 1, 24).view(8, 3)
y = x.sum(1, keepdim=True) * 0.7 - 0.2
for epoch in range(6):
    opt.zero_grad()
    loss = ((head(backbone(x)) - y) ** 2).mean()
    loss.backward()
    opt.step()
    sched.step()
    print(epoch, [round(lr, 6) for lr in sched.get_last_lr()], round(loss.item(), 6))
extra = nn.Parameter(torch.zeros(2))
opt.add_param_group({"params": [extra], "lr": 1.0})
print(len(opt.param_groups), opt.param_groups[2]["momentum"], opt.param_groups[2]["lr"])
print(sorted(opt.state_dict()["param_groups"][0].keys()))
print(opt.state_dict()["param_groups"][1]["params"], opt.state_dict()["param_groups"][2]["params"])
print(sched.state_dict()["milestones"], sched.last_epoch, sched.state_dict()["_last_lr"])
