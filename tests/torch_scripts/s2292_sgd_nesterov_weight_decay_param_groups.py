import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 1))
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.linspace(-0.6, 0.9, p.numel()).view_as(p))
opt = torch.optim.SGD([
    {"params": model[0].parameters()},
    {"params": model[2].parameters(), "lr": 1e-3, "weight_decay": 0.1},
], lr=1e-2, momentum=0.9, nesterov=True)
print(len(opt.param_groups), [g["lr"] for g in opt.param_groups], opt.param_groups[1]["weight_decay"])
print(opt.defaults["momentum"], opt.defaults["nesterov"], opt.param_groups[0]["weight_decay"])
x = torch.linspace(-1, 1, 15).view(5, 3)
y = torch.linspace(0, 2, 5).view(5, 1)
for step in range(5):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}")
for g in opt.param_groups:
    g["lr"] *= 0.5
print([g["lr"] for g in opt.param_groups])
opt.add_param_group({"params": [nn.Parameter(torch.ones(2))], "lr": 0.3})
print(len(opt.param_groups), opt.param_groups[2]["momentum"], opt.param_groups[2]["nesterov"])
sd = opt.state_dict()
print(sd["param_groups"][0]["params"], sd["param_groups"][1]["params"], sorted(sd["state"].keys()))
print(model[2].bias.detach().round(decimals=6))
