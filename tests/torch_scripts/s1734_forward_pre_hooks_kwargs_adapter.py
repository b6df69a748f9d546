# Module hooks as adapters: a forward pre-hook with_kwargs that injects a scale keyword,
# a forward hook that adds a residual adapter output, hooks on many layers registered via
# named_modules, removed with handles; global module hooks via nn.modules.module
import numpy as np
import torch
import torch.nn as nn


class Scaled(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)

    def forward(self, x, scale=1.0):
        return torch.tanh(self.lin(x)) * scale


rng = np.random.default_rng(811)
model = nn.Sequential(Scaled(4), Scaled(4), nn.Linear(4, 1))
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.5, tuple(p.shape))))
adapters = nn.ModuleDict({name: nn.Linear(4, 4, bias=False) for name, m in model.named_modules()
                          if isinstance(m, Scaled)})
with torch.no_grad():
    for a in adapters.values():
        a.weight.copy_(torch.from_numpy(rng.normal(0, 0.1, (4, 4))))
print(list(adapters.keys()))
calls = []


def pre_hook(module, args, kwargs):
    kwargs = dict(kwargs, scale=0.5)
    calls.append("pre")
    return args, kwargs


handles = []
for name, m in model.named_modules():
    if isinstance(m, Scaled):
        handles.append(m.register_forward_pre_hook(pre_hook, with_kwargs=True))
        handles.append(m.register_forward_hook(
            lambda mod, inp, out, name=name: out + adapters[name](inp[0])))
X = torch.from_numpy(rng.standard_normal((6, 4)))
y = torch.from_numpy(rng.standard_normal((6, 1)))
for p in model.parameters():
    p.requires_grad_(False)
opt = torch.optim.Adam(adapters.parameters(), lr=0.05)
for it in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), y)
    loss.backward()
    opt.step()
    print(it, f"{loss.item():.6f}")
print(len(calls), adapters["0"].weight.grad.numpy().round(6)[0])
for h in handles:
    h.remove()
with torch.no_grad():
    plain = model(X[:2])
print(plain.numpy().round(5), len(calls))
seen = []
g = torch.nn.modules.module.register_module_forward_hook(lambda m, i, o: seen.append(type(m).__name__))
model(X[:1])
g.remove()
model(X[:1])
print(seen)
