# Every common optimizer for three steps on the same quadratic, printing the parameter,
# with amsgrad / maximize / foreach=False / weight_decay options
import torch

def run(make):
    p = torch.nn.Parameter(torch.tensor([1.5, -0.5]))
    opt = make([p])
    for _ in range(3):
        opt.zero_grad()
        loss = (p[0] - 1) ** 2 + 3 * (p[1] + 2) ** 2
        loss.backward()
        opt.step()
    return [round(v, 7) for v in p.tolist()]

cases = {
    "sgd_wd": lambda ps: torch.optim.SGD(ps, lr=0.05, weight_decay=0.1),
    "sgd_max": lambda ps: torch.optim.SGD(ps, lr=0.05, maximize=True),
    "adam_ams": lambda ps: torch.optim.Adam(ps, lr=0.1, amsgrad=True),
    "adamw": lambda ps: torch.optim.AdamW(ps, lr=0.1, weight_decay=0.5),
    "adagrad": lambda ps: torch.optim.Adagrad(ps, lr=0.5, lr_decay=0.1, initial_accumulator_value=0.1),
    "rmsprop_c": lambda ps: torch.optim.RMSprop(ps, lr=0.05, centered=True, momentum=0.5),
    "adadelta": lambda ps: torch.optim.Adadelta(ps, lr=1.0, rho=0.8),
    "adamax": lambda ps: torch.optim.Adamax(ps, lr=0.2),
    "nadam": lambda ps: torch.optim.NAdam(ps, lr=0.1, momentum_decay=0.01),
    "radam": lambda ps: torch.optim.RAdam(ps, lr=0.1),
    "rprop": lambda ps: torch.optim.Rprop(ps, lr=0.1, etas=(0.4, 1.3)),
    "asgd": lambda ps: torch.optim.ASGD(ps, lr=0.05, t0=1),
    "adam_foreach": lambda ps: torch.optim.Adam(ps, lr=0.1, foreach=False, weight_decay=0.1),
}
for name, make in cases.items():
    print(name, run(make))
