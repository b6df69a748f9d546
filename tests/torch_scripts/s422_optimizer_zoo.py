import torch


def rosen(p):
    return (1 - p[0]) ** 2 + 10 * (p[1] - p[0] ** 2) ** 2


for name, kw in [("Adagrad", dict(lr=0.1, lr_decay=0.01)), ("Adadelta", dict(lr=1.0)), ("Adamax", dict(lr=0.05)),
                 ("NAdam", dict(lr=0.05, momentum_decay=0.004)), ("RAdam", dict(lr=0.05, decoupled_weight_decay=True, weight_decay=0.1)),
                 ("Rprop", dict(lr=0.01, etas=(0.4, 1.3))), ("ASGD", dict(lr=0.01, t0=2)), ("SGD", dict(lr=0.001, momentum=0.9, dampening=0.1, weight_decay=0.01)),
                 ("Adam", dict(lr=0.05, maximize=False, foreach=False)), ("AdamW", dict(lr=0.05, amsgrad=True))]:
    p = torch.tensor([-1.0, 1.5], requires_grad=True)
    opt = getattr(torch.optim, name)([p], **kw)
    for _ in range(15):
        opt.zero_grad()
        rosen(p).backward()
        opt.step()
    print(name, p.detach().round(decimals=5), sorted(opt.state[p].keys()))
p = torch.tensor([-1.0, 1.5], requires_grad=True)
opt = torch.optim.LBFGS([p], lr=1, max_iter=20, history_size=5, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    l = rosen(p)
    l.backward()
    return l


for _ in range(3):
    l = opt.step(closure)
print(p.detach().round(decimals=4), round(l.item(), 6))
g1 = torch.nn.Parameter(torch.ones(2))
g2 = torch.nn.Parameter(torch.ones(1))
opt = torch.optim.SGD([{"params": [g1]}, {"params": [g2], "lr": 0.5}], lr=0.1, momentum=0.5)
opt.add_param_group({"params": [torch.nn.Parameter(torch.zeros(1))], "lr": 0.01})
print([g["lr"] for g in opt.param_groups], [g["momentum"] for g in opt.param_groups], opt)
