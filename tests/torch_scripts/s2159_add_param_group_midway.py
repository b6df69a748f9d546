import torch
import torch.nn as nn

backbone = nn.Linear(2, 2)
head = nn.Linear(2, 1)
for m in (backbone, head):
    with torch.no_grad():
        m.weight.fill_(0.3)
        m.bias.fill_(-0.1)
opt = torch.optim.Adam(head.parameters(), lr=0.01, betas=(0.8, 0.99))
sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[3, 6], gamma=0.1)
x = torch.tensor([[1.0, -1.0], [0.5, 2.0]])
y = torch.tensor([[1.0], [0.0]])
for epoch in range(8):
    if epoch == 4:
        opt.add_param_group({"params": backbone.parameters(), "lr": 0.001})
        print("groups", len(opt.param_groups), opt.param_groups[1]["betas"], "initial_lr" in opt.param_groups[1])
    opt.zero_grad()
    loss = ((head(torch.relu(backbone(x))) - y) ** 2).mean()
    loss.backward()
    opt.step()
    sched.step()
    print(epoch, round(loss.item(), 5), [round(g["lr"], 6) for g in opt.param_groups])
print(len(opt.state), sorted(opt.state_dict()["state"].keys()))
print(backbone.weight.detach().round(decimals=4))
