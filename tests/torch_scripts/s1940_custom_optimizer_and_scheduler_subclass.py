# A custom optimizer and scheduler as papers' repos define them: an Optimizer subclass
# (Lion-style sign update with decoupled weight decay) using defaults, param_groups,
# self.state and a closure; an LRScheduler subclass with warmup + cosine via last_epoch
# and base_lrs; state_dict round trips for both
import math
import torch
from torch.optim import Optimizer
from torch.optim.lr_scheduler import LRScheduler


class Lion(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.99), weight_decay=0.0):
        if lr <= 0:
            raise ValueError(f"Invalid learning rate: {lr}")
        super().__init__(params, dict(lr=lr, betas=betas, weight_decay=weight_decay))

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            b1, b2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["exp_avg"] = torch.zeros_like(p)
                    state["step"] = 0
                state["step"] += 1
                m = state["exp_avg"]
                p.mul_(1 - group["lr"] * group["weight_decay"])
                update = (m * b1 + p.grad * (1 - b1)).sign_()
                p.add_(update, alpha=-group["lr"])
                m.mul_(b2).add_(p.grad, alpha=1 - b2)
        return loss


class WarmupCosine(LRScheduler):
    def __init__(self, optimizer, warmup, total, last_epoch=-1):
        self.warmup, self.total = warmup, total
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self.last_epoch
        if e < self.warmup:
            return [b * (e + 1) / self.warmup for b in self.base_lrs]
        t = (e - self.warmup) / max(1, self.total - self.warmup)
        return [b * 0.5 * (1 + math.cos(math.pi * t)) for b in self.base_lrs]


w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
b = torch.tensor([0.1], requires_grad=True)
opt = Lion([{"params": [w]}, {"params": [b], "weight_decay": 0.0}], lr=0.1, weight_decay=0.1)
sched = WarmupCosine(opt, warmup=2, total=6)
print(opt.defaults, [g["weight_decay"] for g in opt.param_groups])
print("initial lr", sched.get_last_lr(), sched.last_epoch)
target = torch.tensor([0.3, 0.3, 0.3])


def closure():
    opt.zero_grad()
    loss = ((w + b - target) ** 2).sum()
    loss.backward()
    return loss


for step in range(6):
    loss = opt.step(closure)
    sched.step()
    print(step, f"{loss.item():.6f}", [round(v, 6) for v in sched.get_last_lr()],
          w.detach().numpy().round(5))
sd = opt.state_dict()
print(sorted(sd), sd["state"][0]["step"], sd["param_groups"][1]["params"])
print(sched.state_dict()["last_epoch"], sched.state_dict()["base_lrs"], sched.state_dict()["warmup"])
opt2 = Lion([{"params": [w]}, {"params": [b], "weight_decay": 0.0}], lr=0.1)
opt2.load_state_dict(sd)
print(opt2.param_groups[0]["weight_decay"], torch.equal(opt2.state[w]["exp_avg"], opt.state[w]["exp_avg"]))
print(repr(opt).splitlines()[0], len(repr(opt).splitlines()))
try:
    Lion([w], lr=-1)
except ValueError as e:
    print("ValueError", e)
