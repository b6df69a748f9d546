# model ensembling: stack_module_state + functional_call + vmap over the model dimension
import copy
import torch
import torch.nn as nn
from torch.func import stack_module_state, functional_call, vmap, grad

models = []
for k in range(3):
    m = nn.Linear(2, 1)
    with torch.no_grad():
        m.weight.copy_(torch.tensor([[0.5 * k, -1.0 + k]]))
        m.bias.fill_(0.1 * k)
    models.append(m)
params, buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in params.items()}, buffers)
print(params["weight"].requires_grad, params["weight"].is_leaf)
base = copy.deepcopy(models[0]).to("meta")


def run(p, b, x):
    return functional_call(base, (p, b), (x,))


x = torch.tensor([[1.0, 2.0], [3.0, -1.0]])
out = vmap(run, in_dims=(0, 0, None))(params, buffers, x)
print(out.shape, out.squeeze(-1).detach())
per = vmap(run, in_dims=(0, 0, 0))(params, buffers, x.expand(3, 2, 2))
print(torch.allclose(per, out))


def loss(p, b, x):
    return run(p, b, x).pow(2).mean()


g = vmap(grad(loss), in_dims=(0, 0, None))(params, buffers, x)
print(g["weight"].squeeze(1).detach(), g["bias"].detach(), g["bias"].requires_grad)
