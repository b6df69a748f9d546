# LambdaLR / MultiplicativeLR / PolynomialLR / LinearLR / ConstantLR, and state_dict of schedulers
import torch
from torch.optim import lr_scheduler as S

def trace(make, n=6):
    opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.5)
    s = make(opt)
    out = []
    for _ in range(n):
        opt.step()
        s.step()
        out.append(round(s.get_last_lr()[0], 6))
    return out, s

print(trace(lambda o: S.LambdaLR(o, lambda e: 0.9 ** e))[0])
print(trace(lambda o: S.MultiplicativeLR(o, lambda e: 0.8))[0])
print(trace(lambda o: S.PolynomialLR(o, total_iters=4, power=2.0))[0])
print(trace(lambda o: S.LinearLR(o, start_factor=0.25, total_iters=3))[0])
print(trace(lambda o: S.ConstantLR(o, factor=0.5, total_iters=2))[0])
print(trace(lambda o: S.ExponentialLR(o, gamma=0.7))[0])
print(trace(lambda o: S.MultiStepLR(o, milestones=[2, 4], gamma=0.1))[0])
_, s = trace(lambda o: S.StepLR(o, step_size=2, gamma=0.5))
sd = s.state_dict()
print(sorted(sd.keys()), sd["last_epoch"], sd["_last_lr"])
