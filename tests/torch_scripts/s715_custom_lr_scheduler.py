import torch
from torch.optim.lr_scheduler import LRScheduler, LambdaLR, StepLR, MultiplicativeLR, CosineAnnealingLR, PolynomialLR, ExponentialLR


class WarmupInverseSqrt(LRScheduler):
    def __init__(self, optimizer, warmup, last_epoch=-1):
        self.warmup = warmup
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        step = max(self.last_epoch, 1)
        scale = min(step / self.warmup, (self.warmup / step) ** 0.5)
        return [base * scale for base in self.base_lrs]


p = [torch.nn.Parameter(torch.zeros(1))]
opt = torch.optim.AdamW(p, lr=0.1)
s = WarmupInverseSqrt(opt, warmup=3)
out = []
for _ in range(7):
    opt.step()
    s.step()
    out.append(round(s.get_last_lr()[0], 6))
print(out)
print(s.state_dict()["last_epoch"], sorted(s.state_dict().keys()))
opt = torch.optim.SGD(p, lr=1.0)
st = StepLR(opt, step_size=2, gamma=0.5)
for _ in range(3):
    opt.step()
    st.step()
sd = st.state_dict()
opt2 = torch.optim.SGD(p, lr=1.0)
st2 = StepLR(opt2, step_size=2, gamma=0.5)
st2.load_state_dict(sd)
print(st2.last_epoch, st2.get_last_lr(), opt2.param_groups[0]["lr"])
opt = torch.optim.SGD(p, lr=1.0)
m = MultiplicativeLR(opt, lr_lambda=lambda e: 0.9)
c = CosineAnnealingLR(torch.optim.SGD(p, lr=1.0), T_max=4, eta_min=0.1)
poly = PolynomialLR(torch.optim.SGD(p, lr=1.0), total_iters=4, power=2.0)
rows = []
for _ in range(5):
    for sch in (m, c, poly):
        sch.optimizer.step()
        sch.step()
    rows.append([round(sch.get_last_lr()[0], 6) for sch in (m, c, poly)])
print(rows)
e = ExponentialLR(torch.optim.SGD(p, lr=2.0), gamma=0.5, last_epoch=-1)
print(e.get_last_lr(), e.base_lrs, e.last_epoch)
e.optimizer.step()
e.step()
print(e.get_last_lr())
