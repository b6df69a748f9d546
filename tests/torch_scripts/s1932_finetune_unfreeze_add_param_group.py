# Transfer-learning fine-tuning as a tutorial stages it: backbone frozen first, the head
# trained alone, then the backbone unfrozen and added with add_param_group at a lower
# learning rate; LambdaLR with a per-group lambda list; per-group lrs printed
import torch
import torch.nn as nn

backbone = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 6), nn.ReLU())
head = nn.Linear(6, 2)
for k, m in enumerate([backbone, head]):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.9 + i + k).view_as(p) * 0.5)
for p in backbone.parameters():
    p.requires_grad = False
opt = torch.optim.Adam(head.parameters(), lr=0.05, weight_decay=1e-4)
x = torch.sin(torch.arange(24.0) * 0.5).view(6, 4)
y = torch.tensor([0, 1, 0, 1, 1, 0])
for step in range(2):
    loss = nn.functional.cross_entropy(head(backbone(x)), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("head", step, f"{loss.item():.6f}", backbone[0].weight.grad)
for p in backbone.parameters():
    p.requires_grad_(True)
opt.add_param_group({"params": backbone.parameters(), "lr": 0.005})
print([g["lr"] for g in opt.param_groups], [len(g["params"]) for g in opt.param_groups])
print(sorted(opt.param_groups[1].keys()))
sched = torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 0.5 ** e, lambda e: 1.0 + e])
for step in range(3):
    loss = nn.functional.cross_entropy(head(backbone(x)), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    print("all", step, f"{loss.item():.6f}", [round(v, 6) for v in sched.get_last_lr()])
print(len(opt.state), opt.state_dict()["param_groups"][1]["params"])
print(opt)
