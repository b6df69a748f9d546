# Optimizer habits: param groups with different lr, add_param_group, zero_grad(set_to_none),
# state inspection, manual lr decay over param_groups, LambdaLR/MultiStepLR/ExponentialLR
import torch
import torch.nn as nn

backbone = nn.Linear(4, 4)
head = nn.Linear(4, 2)
for m in (backbone, head):
    with torch.no_grad():
        m.weight.copy_(torch.linspace(-1, 1, m.weight.numel()).view_as(m.weight))
        m.bias.zero_()
opt = torch.optim.SGD([{"params": backbone.parameters(), "lr": 1e-3},
                       {"params": head.parameters()}], lr=1e-2, momentum=0.9)
print([g["lr"] for g in opt.param_groups], [len(g["params"]) for g in opt.param_groups])
x = torch.linspace(-1, 1, 12).view(3, 4)
target = torch.tensor([0, 1, 1])
for step in range(3):
    opt.zero_grad(set_to_none=True)
    print(backbone.weight.grad is None, end=" ")
    loss = nn.functional.cross_entropy(head(torch.relu(backbone(x))), target)
    loss.backward()
    opt.step()
    print(f"{loss.item():.6f}")
state = opt.state[head.weight]
print(sorted(state.keys()), state["momentum_buffer"].shape)
for g in opt.param_groups:
    g["lr"] *= 0.5
print([g["lr"] for g in opt.param_groups])
extra = nn.Parameter(torch.ones(2))
opt.add_param_group({"params": [extra], "lr": 0.3, "momentum": 0.0})
print(len(opt.param_groups), opt.param_groups[2]["momentum"], opt.param_groups[2]["weight_decay"])
sd = opt.state_dict()
print(sd["param_groups"][0]["params"], sd["param_groups"][2]["params"], list(sd["state"].keys()))

w = nn.Parameter(torch.tensor([1.0, -1.0]))
o = torch.optim.Adam([w], lr=0.1)
lam = torch.optim.lr_scheduler.LambdaLR(o, lr_lambda=lambda epoch: 0.95 ** epoch)
lrs = []
for epoch in range(5):
    o.zero_grad()
    (w ** 2).sum().backward()
    o.step()
    lam.step()
    lrs.append(round(lam.get_last_lr()[0], 6))
print(lrs, w.detach().round(decimals=5), o.state[w]["step"])
o2 = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=1.0)
ms = torch.optim.lr_scheduler.MultiStepLR(o2, milestones=[2, 4], gamma=0.1)
ex_lrs = []
for _ in range(6):
    o2.step()
    ms.step()
    ex_lrs.append(o2.param_groups[0]["lr"])
print([round(v, 8) for v in ex_lrs])
o3 = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=1.0)
ex = torch.optim.lr_scheduler.ExponentialLR(o3, gamma=0.9)
for _ in range(3):
    o3.step()
    ex.step()
print(round(ex.get_last_lr()[0], 6), ex.last_epoch, ex.state_dict()["gamma"])
