# lr_scheduler state_dict keys and values after a few steps; load_state_dict round trip
import torch
import torch.optim as optim
from torch.optim import lr_scheduler as S


def opt():
    return optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)


makers = [
    lambda o: S.StepLR(o, 2, gamma=0.5),
    lambda o: S.MultiStepLR(o, [1, 3], gamma=0.1),
    lambda o: S.ExponentialLR(o, 0.9),
    lambda o: S.CosineAnnealingLR(o, T_max=5, eta_min=0.01),
    lambda o: S.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2),
    lambda o: S.LinearLR(o, start_factor=0.5, total_iters=3),
    lambda o: S.ConstantLR(o, factor=0.5, total_iters=2),
    lambda o: S.PolynomialLR(o, total_iters=4, power=2.0),
    lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2),
    lambda o: S.OneCycleLR(o, max_lr=1.0, total_steps=10),
    lambda o: S.ReduceLROnPlateau(o, patience=0),
    lambda o: S.MultiplicativeLR(o, lambda e: 0.9),
]
for make in makers:
    o = opt()
    s = make(o)
    for i in range(3):
        o.step()
        s.step(1.0) if isinstance(s, S.ReduceLROnPlateau) else s.step()
    sd = s.state_dict()
    keys = sorted(k for k in sd)
    shown = {k: sd[k] for k in keys if isinstance(sd[k], (int, float, bool, str, list, type(None)))}
    print(type(s).__name__, keys)
    print("  ", {k: (round(v, 6) if isinstance(v, float) else v) for k, v in shown.items()})
    print("  ", [round(g["lr"], 6) for g in o.param_groups], [round(x, 6) for x in s.get_last_lr()])
    o2 = opt()
    s2 = make(o2)
    s2.load_state_dict(sd)
    print("  ", s2.last_epoch, [round(x, 6) for x in s2.get_last_lr()])
