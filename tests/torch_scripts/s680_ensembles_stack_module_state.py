import copy
import torch
import torch.nn as nn
from torch.func import stack_module_state, functional_call, vmap


def make(seed):
    m = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * (seed + 1) + i).reshape(p.shape))
    return m


models = [make(s) for s in range(3)]
params, buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in params.items()})
base = copy.deepcopy(models[0]).to("meta")


def fmodel(p, b, x):
    return functional_call(base, (p, b), (x,))


x = torch.tensor([[1.0, -0.5], [0.2, 0.8]])
out = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x)
print(out.shape)
print(out.squeeze(-1).detach().round(decimals=5))
print(torch.stack([m(x) for m in models]).squeeze(-1).detach().round(decimals=5))
loss = out.pow(2).sum()
loss.backward()
print(params["0.weight"].grad.shape if params["0.weight"].grad is not None else None)
