import torch
import torch.nn as nn
from torch.nn.modules.module import (register_module_forward_hook,
                                     register_module_forward_pre_hook)

counts = {}


def count(mod, inp, out):
    counts[type(mod).__name__] = counts.get(type(mod).__name__, 0) + 1


shapes = []
h = register_module_forward_hook(count)
h2 = register_module_forward_pre_hook(lambda mod, inp: shapes.append((type(mod).__name__, tuple(inp[0].shape))))
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Sequential(nn.Linear(4, 4), nn.Tanh()), nn.Linear(4, 1))
with torch.no_grad():
    for p in net.parameters():
        p.fill_(0.1)
out = net(torch.ones(2, 3))
print(out.flatten().round(decimals=5), sorted(counts.items()))
print(shapes[:3], len(shapes))
h.remove()
h2.remove()
net(torch.ones(1, 3))
print(sum(counts.values()))
flops = {}


def linear_flops(mod, inp, out):
    if isinstance(mod, nn.Linear):
        flops[id(mod)] = inp[0].shape[0] * mod.in_features * mod.out_features


hs = [m.register_forward_hook(linear_flops) for m in net.modules()]
net(torch.ones(5, 3))
print(sum(flops.values()))
for hh in hs:
    hh.remove()
acts = {}
for name, mod in net.named_modules():
    if name:
        mod.register_forward_hook(lambda m, i, o, name=name: acts.__setitem__(name, o.detach().sum().item()))
net(torch.ones(1, 3))
print({k: round(v, 5) for k, v in acts.items()})
