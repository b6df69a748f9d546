# Freezing a backbone: requires_grad=False params, filter() into the optimizer, checking that
# frozen weights do not move, then unfreezing and adding them as a new param group
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) + 2 * i).view_as(p) * 0.5)
for p in model[0].parameters():
    p.requires_grad = False
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1)
print(len(opt.param_groups[0]["params"]))
before = model[0].weight.clone()
x = torch.tensor([[1.0, 2.0], [-1.0, 0.5], [0.3, 0.3]])
y = torch.tensor([[1.0], [0.0], [0.5]])
for _ in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
print(torch.equal(before, model[0].weight), model[0].weight.grad, round(loss.item(), 6))
for p in model[0].parameters():
    p.requires_grad_(True)
opt.add_param_group({"params": model[0].parameters(), "lr": 0.01})
for _ in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
print(torch.equal(before, model[0].weight), round(loss.item(), 6), [len(g["params"]) for g in opt.param_groups])
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
