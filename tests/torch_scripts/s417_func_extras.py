import copy
import torch
import torch.nn as nn
from torch.func import jvp, vjp, linearize, stack_module_state, functional_call, vmap, jacrev


def f(x):
    return torch.stack([x[0] * x[1], x[1].sin(), x.pow(2).sum()])


x = torch.tensor([0.5, 2.0])
out, tang = jvp(f, (x,), (torch.tensor([1.0, 0.0]),))
print(out, tang)
out, fn = vjp(f, x)
print(fn(torch.tensor([1.0, 1.0, 1.0])))
y, jfn = linearize(torch.sin, x)
print(y, jfn(torch.ones(2)))
print(torch.autograd.functional.jacobian(f, x), torch.autograd.functional.hvp(lambda v: v.pow(3).sum(), x, torch.ones(2)))
print(torch.autograd.functional.vjp(f, x, torch.ones(3))[1], torch.autograd.functional.jvp(f, x, torch.ones(2))[1])
print(torch.autograd.functional.jacobian(lambda a, b: a * b, (x, x + 1)))
models = [nn.Linear(2, 1) for _ in range(3)]
for i, m in enumerate(models):
    with torch.no_grad():
        m.weight.fill_(i)
        m.bias.fill_(-i)
params, buffers = stack_module_state(models)
base = copy.deepcopy(models[0]).to("meta")


def call(p, b, xx):
    return functional_call(base, (p, b), (xx,))


print(params["weight"].shape, vmap(call, in_dims=(0, 0, None))(params, buffers, torch.ones(4, 2)).squeeze(-1))
print(jacrev(f, argnums=0)(x).shape, vmap(jacrev(torch.sin))(torch.ones(3, 2)).shape)
