# stack_module_state + vmap over functional_call: a model ensemble
import copy
import torch
import torch.nn as nn
from torch.func import stack_module_state, functional_call, vmap

models = []
for k in range(3):
    m = nn.Linear(2, 1)
    with torch.no_grad():
        m.weight.fill_(k + 1.0)
        m.bias.fill_(-k)
    models.append(m)
params, buffers = stack_module_state(models)
print({k: v.shape for k, v in params.items()})
base = copy.deepcopy(models[0]).to("meta")
def call(p, b, x):
    return functional_call(base, (p, b), (x,))
x = torch.tensor([[1.0, 2.0], [0.5, 0.5]])
print(vmap(call, in_dims=(0, 0, None))(params, buffers, x).detach())
out = functional_call(models[0], {"weight": torch.tensor([[10.0, 0.0]])}, (x,), strict=False)
print(out)
print(functional_call(models[1], dict(models[2].named_parameters()), x))
