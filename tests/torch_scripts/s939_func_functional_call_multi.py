# functional_call with replaced params and buffers, tie_weights, strict, and stack_module_state
import torch
import torch.nn as nn
from torch.func import functional_call, stack_module_state, vmap

m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
m.eval()
x = torch.tensor([[1.0, 2.0], [3.0, -1.0]])
p = {"0.weight": torch.eye(2), "0.bias": torch.zeros(2)}
print(functional_call(m, p, (x,)).round(decimals=4))
b = {"1.running_mean": torch.tensor([1.0, 1.0]), "1.running_var": torch.tensor([4.0, 4.0])}
print(functional_call(m, (p, b), x).round(decimals=4))
print(m[1].running_mean)
models = [nn.Linear(2, 1) for _ in range(3)]
with torch.no_grad():
    for k, mm in enumerate(models):
        mm.weight.fill_(k); mm.bias.fill_(-k)
params, bufs = stack_module_state(models)
print({k: tuple(v.shape) for k, v in params.items()})
base = models[0]
out = vmap(lambda pp, bb, xx: functional_call(base, (pp, bb), (xx,)), in_dims=(0, 0, None))(params, bufs, x)
print(out.squeeze(-1))
try:
    functional_call(m, {"0.weight": torch.eye(2), "nope": torch.zeros(1)}, (x,), strict=True)
except RuntimeError as e:
    print(str(e).splitlines()[0])
