# print(optimizer), add_param_group defaults, state_dict layout, zero_grad(set_to_none)
import torch
import torch.nn as nn
import torch.optim as optim

model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
opt = optim.SGD(model[0].parameters(), lr=0.1, momentum=0.9, nesterov=True)
opt.add_param_group({"params": model[1].parameters(), "lr": 0.01})
print(opt)
for make in [lambda ps: optim.Adam(ps, lr=1e-3, weight_decay=0.01, amsgrad=True),
             lambda ps: optim.AdamW(ps), lambda ps: optim.RMSprop(ps, centered=True),
             lambda ps: optim.Adagrad(ps, lr_decay=0.1), lambda ps: optim.Adadelta(ps),
             lambda ps: optim.NAdam(ps), lambda ps: optim.RAdam(ps), lambda ps: optim.Adamax(ps),
             lambda ps: optim.ASGD(ps), lambda ps: optim.Rprop(ps)]:
    o = make(model.parameters())
    print(o)
    model(torch.ones(3, 2)).sum().backward()
    o.step()
    sd = o.state_dict()
    print(sorted(sd["param_groups"][0]), sorted(sd["state"][0]))
    o.zero_grad()
    print([p.grad for p in model.parameters()][:1])
try:
    optim.SGD(model.parameters(), lr=-1)
except ValueError as e:
    print("ValueError", e)
try:
    opt.add_param_group({"params": model[0].parameters()})
except ValueError as e:
    print("ValueError", e)
try:
    optim.Adam([torch.ones(2)], betas=(1.0, 0.9))
except ValueError as e:
    print("ValueError", e)
