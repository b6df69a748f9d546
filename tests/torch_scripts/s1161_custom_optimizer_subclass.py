# Writing your own optimizer: Optimizer subclass with defaults, per-parameter state, closure support
import torch
from torch.optim import Optimizer

class SignSGD(Optimizer):
    def __init__(self, params, lr=0.01, momentum=0.0):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        super().__init__(params, dict(lr=lr, momentum=momentum))

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["buf"] = torch.zeros_like(p)
                state["step"] += 1
                buf = state["buf"]
                buf.mul_(group["momentum"]).add_(p.grad)
                p.add_(buf.sign(), alpha=-group["lr"])
        return loss

w = torch.nn.Parameter(torch.tensor([1.0, -2.0, 0.5]))
opt = SignSGD([w], lr=0.1, momentum=0.5)
for _ in range(3):
    def closure():
        opt.zero_grad()
        l = (w ** 2).sum()
        l.backward()
        return l
    print(opt.step(closure))
print(w, opt.state[w]["step"], opt.state[w]["buf"])
print(opt.defaults, opt.state_dict()["param_groups"])
print(opt)
try:
    SignSGD([w], lr=-1)
except ValueError as e:
    print(e)
try:
    SignSGD([], lr=0.1)
except ValueError as e:
    print(e)
