import torch
import torch.nn as nn

backbone = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 6), nn.ReLU())
head = nn.Linear(6, 3)
model = nn.Sequential(backbone, head)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel()) * 0.7 + i).reshape(p.shape) * 0.5)
backbone.requires_grad_(False)
print([(n, p.requires_grad) for n, p in model.named_parameters()])
trainable = [p for p in model.parameters() if p.requires_grad]
print(sum(p.numel() for p in trainable), sum(p.numel() for p in model.parameters()))
opt = torch.optim.AdamW(trainable, lr=1e-2, weight_decay=0.1)
x = torch.linspace(-1, 1, 20).reshape(5, 4)
y = torch.tensor([0, 1, 2, 1, 0])
for _ in range(3):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
print(round(loss.item(), 6), backbone[0].weight.grad, head.weight.grad.shape)
backbone[2].requires_grad_(True)
opt.add_param_group({"params": backbone[2].parameters(), "lr": 1e-3})
print(len(opt.param_groups), [g["lr"] for g in opt.param_groups], opt.param_groups[1]["weight_decay"])
opt.zero_grad(set_to_none=True)
nn.functional.cross_entropy(model(x), y).backward()
opt.step()
print(backbone[2].bias.round(decimals=5))
print(opt)
for m in model.modules():
    if isinstance(m, nn.Linear):
        print(m.weight.requires_grad, m.weight.is_leaf, m.weight.grad is None)
