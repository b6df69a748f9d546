import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
with torch.no_grad():
    for p in model.parameters():
        p.fill_(0.5)
opt = torch.optim.SGD([{"params": model[0].parameters(), "lr": 0.1}, {"params": model[1].parameters()}], lr=0.01, momentum=0.9)
print([g["lr"] for g in opt.param_groups], [g["momentum"] for g in opt.param_groups])
x = torch.tensor([[1.0, 2.0]])
pre = []
h = opt.register_step_pre_hook(lambda o, args, kwargs: pre.append(len(o.param_groups)))
post = opt.register_step_post_hook(lambda o, args, kwargs: pre.append("post"))
for _ in range(2):
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()
print(pre)
h.remove()
post.remove()
print(model[0].weight.detach().round(decimals=5), model[1].bias.detach().round(decimals=5))
extra = nn.Parameter(torch.ones(2))
opt.add_param_group({"params": [extra], "lr": 1.0, "momentum": 0.0})
print(len(opt.param_groups), opt.param_groups[2]["dampening"], opt.param_groups[2]["nesterov"])
opt.zero_grad(set_to_none=False)
print(model[0].weight.grad)
opt.zero_grad()
print(model[0].weight.grad)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=[lambda e: 0.5 ** e, lambda e: 1.0 / (e + 1), lambda e: 1.0])
for _ in range(3):
    opt.step()
    sched.step()
print([round(v, 6) for v in sched.get_last_lr()])
sd = sched.state_dict()
print(sd["last_epoch"], sd["base_lrs"])
ms = torch.optim.lr_scheduler.MultiStepLR(torch.optim.SGD([extra], lr=1.0), milestones=[2, 4], gamma=0.1)
out = []
for _ in range(6):
    ms.optimizer.step()
    ms.step()
    out.append(round(ms.get_last_lr()[0], 6))
print(out)
try:
    torch.optim.SGD([{"params": [extra]}, {"params": [extra]}], lr=0.1)
except ValueError as e:
    print("ValueError", str(e)[:60])
