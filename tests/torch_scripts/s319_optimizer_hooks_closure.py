import torch

w = torch.nn.Parameter(torch.tensor([1.0, -2.0, 3.0]))
b = torch.nn.Parameter(torch.tensor(0.5))
opt = torch.optim.SGD([{"params": [w], "lr": 0.1}, {"params": [b], "lr": 0.01, "momentum": 0.5}], lr=0.05)
calls = []
h1 = opt.register_step_pre_hook(lambda o, args, kwargs: calls.append("pre"))
h2 = opt.register_step_post_hook(lambda o, args, kwargs: calls.append("post"))


def closure():
    opt.zero_grad()
    loss = (w ** 2).sum() + b ** 2
    loss.backward()
    calls.append(round(loss.item(), 6))
    return loss


for i in range(3):
    l = opt.step(closure)
print(calls, round(l.item(), 6))
print([round(v, 6) for v in w.tolist()], round(b.item(), 6))
h1.remove(); h2.remove()
opt.add_param_group({"params": [torch.nn.Parameter(torch.zeros(2))], "weight_decay": 0.1})
print(len(opt.param_groups), opt.param_groups[2]["lr"], opt.param_groups[2]["weight_decay"], opt.param_groups[1]["momentum"])
try:
    opt.add_param_group({"params": [w]})
except ValueError as e:
    print("ValueError:", e)
try:
    torch.optim.SGD([w], lr=-1)
except ValueError as e:
    print("ValueError:", e)
try:
    torch.optim.Adam([torch.ones(2)])
except ValueError as e:
    print("ValueError:", e)
print(opt)
sd = opt.state_dict()
print(sd["param_groups"][1]["params"], list(sd["state"].keys()))
opt.zero_grad(set_to_none=False)
print(w.grad, b.grad)
opt.zero_grad()
print(w.grad)
a = torch.optim.Adagrad([w], lr=0.5, lr_decay=0.01, initial_accumulator_value=0.1)
w.grad = torch.ones(3)
a.step()
print([round(v, 6) for v in w.tolist()], sorted(a.state[w].keys()))
r = torch.optim.Rprop([b], lr=0.1, etas=(0.5, 1.2), step_sizes=(1e-3, 1))
for g in (1.0, 1.0, -1.0):
    b.grad = torch.tensor(g)
    r.step()
    print(round(b.item(), 6))
