# model ensembling with stack_module_state + vmap(functional_call)
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
print(sorted(params), params["weight"].shape, params["weight"].requires_grad)
base = copy.deepcopy(models[0]).to("meta")

def run(p, b, x):
    return functional_call(base, (p, b), (x,))

x = torch.tensor([[1.0, 2.0], [0.5, -1.0]])
print(vmap(run, in_dims=(0, 0, None))(params, buffers, x).squeeze(-1))
xs = torch.tensor([[[1.0, 1.0]], [[2.0, 0.0]], [[0.0, 3.0]]])
print(vmap(run)(params, buffers, xs).squeeze(-1))
