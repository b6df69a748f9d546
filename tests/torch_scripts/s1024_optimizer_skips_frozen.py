# optimizers with params that get no grad (skipped, no state), requires_grad=False params, two optimizers on parts
import torch
import torch.nn as nn

a = nn.Parameter(torch.tensor([1.0, 2.0]))
b = nn.Parameter(torch.tensor([3.0]))
c = nn.Parameter(torch.tensor([4.0]), requires_grad=False)
opt = torch.optim.Adam([a, b, c], lr=0.1)
(a ** 2).sum().backward()
opt.step()
print(a, b, c)
print(len(opt.state), a in opt.state, b in opt.state, c in opt.state)
print(b.grad, c.grad)
opt2 = torch.optim.SGD([{"params": [a]}, {"params": [b], "lr": 1.0}], lr=0.5, momentum=0.9)
for _ in range(2):
    opt2.zero_grad()
    (a.sum() + 2 * b.sum()).backward()
    opt2.step()
print(a.round(decimals=4), b.round(decimals=4))
print(sorted(opt2.state_dict()["state"]), opt2.state_dict()["state"][1]["momentum_buffer"])
try:
    torch.optim.SGD([a, a], lr=0.1)
except (ValueError, UserWarning) as e:
    print(type(e).__name__)
try:
    torch.optim.SGD([], lr=0.1)
except ValueError as e:
    print(e)
try:
    torch.optim.SGD({"x": a}, lr=0.1)
except TypeError as e:
    print(str(e).split(",")[0])
opt3 = torch.optim.SGD([a], lr=0.1)
try:
    opt3.add_param_group({"params": a})
except ValueError as e:
    print(e)
