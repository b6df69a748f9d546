import copy
import torch
import torch.nn as nn

model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.fill_(0.5)
    model.bias.fill_(0.0)
opt = torch.optim.AdamW([{"params": [model.weight], "weight_decay": 0.1}, {"params": [model.bias], "lr": 0.01}], lr=0.1)
x = torch.tensor([[1.0, 2.0], [3.0, -1.0]])
y = torch.tensor([[1.0], [0.0]])
for _ in range(2):
    opt.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()
sd = opt.state_dict()
print(sorted(sd.keys()), len(sd["param_groups"]), sd["param_groups"][0]["params"], sd["param_groups"][1]["params"])
print(sorted(sd["state"][0].keys()), sd["state"][0]["step"], sd["state"][1]["exp_avg"].round(decimals=6))
print({k: v for k, v in sd["param_groups"][1].items() if k in ("lr", "weight_decay", "betas", "amsgrad")})
model2 = nn.Linear(2, 1)
model2.load_state_dict(model.state_dict())
opt2 = torch.optim.AdamW([{"params": [model2.weight]}, {"params": [model2.bias]}], lr=0.5)
opt2.load_state_dict(copy.deepcopy(sd))
print(opt2.param_groups[1]["lr"], opt2.param_groups[0]["weight_decay"], torch.equal(opt2.state[model2.weight]["exp_avg"], opt.state[model.weight]["exp_avg"]))
for o, m in ((opt, model), (opt2, model2)):
    o.zero_grad()
    nn.functional.mse_loss(m(x), y).backward()
    o.step()
print(torch.allclose(model.weight, model2.weight), model.weight.detach().round(decimals=5))
opt.add_param_group({"params": [nn.Parameter(torch.zeros(3))], "lr": 1e-3})
print(len(opt.param_groups), opt.param_groups[2]["betas"], opt.param_groups[2]["lr"])
try:
    opt2.load_state_dict({"state": {}, "param_groups": sd["param_groups"][:1]})
except ValueError as e:
    print("ValueError:", e)
opt.zero_grad(set_to_none=False)
print(model.weight.grad, model.bias.grad)
sgd = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
print(sgd.state_dict()["state"], sgd.state_dict()["param_groups"][0]["momentum"])
