# Custom LR scheduler subclassing LRScheduler (get_lr with last_epoch), warmup+decay, and state_dict
import torch
from torch.optim.lr_scheduler import LRScheduler, _LRScheduler

class WarmupInvSqrt(LRScheduler):
    def __init__(self, optimizer, warmup, last_epoch=-1):
        self.warmup = warmup
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        step = max(self.last_epoch, 1)
        scale = min(step / self.warmup, (self.warmup / step) ** 0.5)
        return [base * scale for base in self.base_lrs]

opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
sch = WarmupInvSqrt(opt, warmup=3)
trace = []
for _ in range(7):
    opt.step()
    sch.step()
    trace.append(round(sch.get_last_lr()[0], 6))
print(trace, sch.last_epoch, sch.base_lrs)
sd = sch.state_dict()
print(sorted(sd.keys()))
print(issubclass(WarmupInvSqrt, _LRScheduler) or issubclass(WarmupInvSqrt, LRScheduler), opt.param_groups[0]["initial_lr"])
