# Global forward hooks for every module (torch.nn.modules.module.register_module_forward_hook),
# e.g. to log shapes through a whole model without touching it; pre-hooks rewriting inputs
import torch
import torch.nn as nn
from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook

net = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Sequential(nn.Linear(2, 2), nn.Tanh()))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) + i).view_as(p))
log = []
h1 = register_module_forward_hook(lambda m, inp, out: log.append((type(m).__name__, tuple(out.shape))))
h2 = register_module_forward_pre_hook(lambda m, inp: log.append(("pre", type(m).__name__)))
own = net[1].register_forward_hook(lambda m, inp, out: log.append("own hook after global"))
y = net(torch.ones(4, 3))
for entry in log:
    print(entry)
h1.remove()
h2.remove()
log.clear()
net(torch.ones(1, 3))
print(log)
own.remove()
h3 = register_module_forward_hook(lambda m, args, kwargs, out: out * 2 if isinstance(m, nn.Tanh) else None, with_kwargs=True)
print(net(torch.ones(1, 3)), y[0])
h3.remove()
print(net(torch.ones(1, 3)))
with register_module_forward_pre_hook(lambda m, inp: (inp[0] * 0,) if isinstance(m, nn.Linear) else None):
    print(net(torch.ones(1, 3)))
