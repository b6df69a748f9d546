# global module hooks: forward pre/forward hooks for every module, and a global full backward hook
import torch
import torch.nn as nn
from torch.nn.modules.module import (register_module_forward_hook,
                                     register_module_forward_pre_hook,
                                     register_module_full_backward_hook)

net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
for p in net.parameters():
    nn.init.constant_(p, 0.5)
log = []
h1 = register_module_forward_pre_hook(lambda m, inp: log.append(("pre", type(m).__name__)))
h2 = register_module_forward_hook(lambda m, inp, out: log.append(("fwd", type(m).__name__, tuple(out.shape))))
h3 = register_module_full_backward_hook(
    lambda m, gin, gout: log.append(("bwd", type(m).__name__, [None if g is None else tuple(g.shape) for g in gin])))
x = torch.tensor([[1.0, -2.0]], requires_grad=True)
net(x).sum().backward()
for entry in log:
    print(entry)
for h in (h1, h2, h3):
    h.remove()
log.clear()
net(x).sum().backward()
print(log, x.grad)
