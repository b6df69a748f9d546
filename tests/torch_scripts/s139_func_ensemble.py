import copy
import torch
import torch.nn as nn
from torch.func import functional_call, stack_module_state, vmap, grad, jacrev, vjp, jvp, linearize

def make(i):
    m = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
    with torch.no_grad():
        for k, p in enumerate(m.parameters()):
            p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * (i + 1) * 0.3 + 0.01 * k)
    return m

models = [make(i) for i in range(3)]
params, buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in params.items()})
base = copy.deepcopy(models[0]).to("meta")
def fmodel(p, b, x):
    return functional_call(base, (p, b), (x,))
x = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]])
out = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x)
print(out.shape, out.squeeze(-1))
print(torch.stack([m(x) for m in models]).squeeze(-1))
def loss(p, x, y):
    return ((functional_call(models[0], p, (x,)) - y) ** 2).mean()
p0 = {k: v.detach() for k, v in models[0].named_parameters()}
g = grad(loss)(p0, x, torch.ones(2, 1))
print({k: v.shape for k, v in g.items()}, g["2.bias"])
per_ex = vmap(grad(loss), in_dims=(None, 0, 0))(p0, x.unsqueeze(1), torch.ones(2, 1, 1))
print(per_ex["0.weight"].shape, per_ex["2.bias"])
def f(v):
    return v.sin() * v.sum(), v.norm()
(jac, aux) = jacrev(f, has_aux=True)(torch.tensor([0.1, 0.2, 0.3]))
print(jac, aux)
out, fn = vjp(lambda v: v ** 2 + v.cumsum(0), torch.tensor([1.0, 2.0, 3.0]))
print(out, fn(torch.ones(3)))
print(jvp(lambda v: (v.exp(), v.sum()), (torch.tensor([0.0, 1.0]),), (torch.tensor([1.0, 1.0]),)))
y, jvp_fn = linearize(lambda v: v.sin().sum() * v, torch.tensor([0.5, 1.0]))
print(y, jvp_fn(torch.tensor([1.0, 0.0])), jvp_fn(torch.tensor([0.0, 1.0])))
print(vmap(lambda a, b: a * b + 1, in_dims=(1, None), out_dims=1)(torch.arange(6.0).reshape(2, 3), torch.tensor(2.0)))
print(vmap(torch.trace)(torch.arange(18.0).reshape(2, 3, 3)), vmap(lambda r: r.max(), chunk_size=1)(torch.tensor([[1.0, 5.0], [7.0, 2.0]])))
