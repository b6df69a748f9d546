# SGD with two param groups (different lr, momentum, weight_decay); add_param_group later
import torch

w1 = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
w2 = torch.nn.Parameter(torch.tensor([3.0]))
w3 = torch.nn.Parameter(torch.tensor([-1.0]))
opt = torch.optim.SGD([{"params": [w1]}, {"params": [w2], "lr": 0.5, "weight_decay": 0.1}], lr=0.1, momentum=0.9)
for step in range(3):
    opt.zero_grad()
    ((w1 ** 2).sum() + (w2 ** 2).sum()).backward()
    opt.step()
    print(step, w1.data, w2.data)
opt.add_param_group({"params": w3, "lr": 1.0})
print(len(opt.param_groups), [g["lr"] for g in opt.param_groups], opt.param_groups[2]["momentum"])
print(sorted(opt.param_groups[1].keys()))
