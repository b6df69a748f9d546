# optimizer parameter groups with different lrs, add_param_group, state_dict keys
import torch
import torch.nn as nn

a = nn.Parameter(torch.tensor([1.0]))
b = nn.Parameter(torch.tensor([1.0]))
opt = torch.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.1, momentum=0.9)
for _ in range(2):
    opt.zero_grad()
    (a * 2 + b * 2).sum().backward()
    opt.step()
print(a.data, b.data)
c = nn.Parameter(torch.tensor([0.0]))
opt.add_param_group({"params": [c], "lr": 1.0})
print([g["lr"] for g in opt.param_groups], [g["momentum"] for g in opt.param_groups])
sd = opt.state_dict()
print(sorted(sd.keys()), sd["param_groups"][1]["params"], list(sd["state"].keys()))
print(sd["state"][0]["momentum_buffer"])
