import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.ReLU(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) + 0.1 * i)
decay, no_decay = [], []
for name, p in model.named_parameters():
    (no_decay if name.endswith("bias") or p.ndim == 1 else decay).append(name)
print(decay, no_decay)
params = dict(model.named_parameters())
groups = [{"params": [params[n] for n in decay], "weight_decay": 0.1},
          {"params": [params[n] for n in no_decay], "weight_decay": 0.0}]
opt = torch.optim.AdamW(groups, lr=0.01, betas=(0.9, 0.95), eps=1e-8)
print([len(g["params"]) for g in opt.param_groups], [g["weight_decay"] for g in opt.param_groups])
print(opt)
x = torch.linspace(-1, 1, 15).reshape(5, 3)
y = torch.tensor([0, 1, 1, 0, 1])
for step in range(25):
    opt.zero_grad(set_to_none=True)
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
print(round(loss.item(), 6))
print(model[0].weight.data.round(decimals=4))
print(model[1].bias.data.round(decimals=4))
sgd = torch.optim.SGD(model.parameters(), lr=0.1, weight_decay=1e-2)
sgd.add_param_group({"params": nn.Parameter(torch.ones(2)), "lr": 0.5})
print(len(sgd.param_groups), sgd.param_groups[1]["weight_decay"], sgd.param_groups[1]["lr"], sgd.defaults["momentum"])
try:
    sgd.add_param_group({"params": [model[0].weight]})
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.AdamW(model.parameters(), lr=-1)
except ValueError as e:
    print("ValueError", e)
