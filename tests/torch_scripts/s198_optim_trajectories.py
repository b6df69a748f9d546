import torch


def rosen(p):
    return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2


def run(make, steps=30):
    p = torch.tensor([-1.2, 1.0], dtype=torch.float64, requires_grad=True)
    opt = make([p])
    for _ in range(steps):
        opt.zero_grad()
        loss = rosen(p)
        loss.backward()
        opt.step()
    return [repr(v) for v in p.tolist()], repr(loss.item())


for name, make in [
    ("NAdam", lambda ps: torch.optim.NAdam(ps, lr=1e-2)),
    ("NAdam_dec", lambda ps: torch.optim.NAdam(ps, lr=1e-2, weight_decay=0.1, decoupled_weight_decay=True)),
    ("Adamax", lambda ps: torch.optim.Adamax(ps, lr=1e-2, weight_decay=0.01)),
    ("ASGD", lambda ps: torch.optim.ASGD(ps, lr=1e-4, t0=5)),
    ("RAdam", lambda ps: torch.optim.RAdam(ps, lr=1e-2)),
    ("Adagrad", lambda ps: torch.optim.Adagrad(ps, lr=0.1, lr_decay=0.01)),
    ("RMSprop_c", lambda ps: torch.optim.RMSprop(ps, lr=1e-3, centered=True, momentum=0.9)),
    ("Adadelta", lambda ps: torch.optim.Adadelta(ps, lr=1.0)),
    ("Rprop", lambda ps: torch.optim.Rprop(ps, lr=1e-2)),
    ("AdamW_ams", lambda ps: torch.optim.AdamW(ps, lr=1e-2, amsgrad=True)),
    ("SGD_nest", lambda ps: torch.optim.SGD(ps, lr=1e-4, momentum=0.9, nesterov=True, dampening=0)),
]:
    print(name, *run(make))
