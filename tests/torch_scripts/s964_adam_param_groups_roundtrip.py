# two param groups, add_param_group later, state_dict round trip into a fresh optimizer
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
for p in net.parameters():
    nn.init.constant_(p, 0.1)
extra = nn.Parameter(torch.tensor([1.0, -1.0]))
opt = torch.optim.AdamW([{"params": net[0].parameters(), "lr": 1e-2},
                         {"params": net[2].parameters(), "weight_decay": 0.0}],
                        lr=1e-3, betas=(0.8, 0.95), amsgrad=True)
X = torch.linspace(-1, 1, 12).reshape(4, 3)
y = torch.tensor([[0.5], [-0.5], [1.0], [0.0]])
for i in range(3):
    opt.zero_grad()
    loss = ((net(X) - y) ** 2).mean() + (extra ** 2).sum()
    loss.backward()
    opt.step()
    if i == 0:
        opt.add_param_group({"params": [extra], "lr": 0.1})
    print(i, f"{loss.item():.6f}")
sd = opt.state_dict()
print([sorted(g) for g in sd["param_groups"]][0])
print([g["params"] for g in sd["param_groups"]])
print([g["lr"] for g in sd["param_groups"]], [g["weight_decay"] for g in sd["param_groups"]])
print(sorted(sd["state"]), sorted(sd["state"][0]))
print(sd["state"][4]["step"], sd["state"][0]["step"])
opt2 = torch.optim.AdamW([{"params": net[0].parameters()}, {"params": net[2].parameters()},
                          {"params": [extra]}], lr=5.0)
opt2.load_state_dict(sd)
print([g["lr"] for g in opt2.param_groups], opt2.param_groups[0]["amsgrad"])
print(torch.equal(opt2.state[extra]["exp_avg"], opt.state[extra]["exp_avg"]))
print(opt2.state[extra]["max_exp_avg_sq"])
