# Optimizer add_param_group for fine-tuning a head later; per-group lr and state
import torch
import torch.nn as nn

torch.manual_seed(0)
body = nn.Linear(3, 3)
head = nn.Linear(3, 1)
for p in list(body.parameters()) + list(head.parameters()):
    nn.init.constant_(p, 0.2)
opt = torch.optim.SGD(body.parameters(), lr=0.1, momentum=0.9)
x = torch.ones(2, 3)
for it in range(2):
    opt.zero_grad()
    head(body(x)).sum().backward()
    opt.step()
    if it == 0:
        opt.add_param_group({"params": head.parameters(), "lr": 0.01})
print(len(opt.param_groups), [g["lr"] for g in opt.param_groups], [g["momentum"] for g in opt.param_groups])
print(body.weight, head.weight)
sd = opt.state_dict()
print(sd["param_groups"][1]["params"], sorted(sd["state"].keys()))
try:
    opt.add_param_group({"params": body.bias})
except ValueError as e:
    print("ValueError:", e)
