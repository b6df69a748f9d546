import torch
import torch.nn as nn
from torch.func import vmap, grad, jacrev, functional_call, stack_module_state, vjp, jvp, hessian
import copy
x = torch.arange(6.).view(2, 3)
print(vmap(lambda r: r * 2, in_dims=1, out_dims=1)(x))
print(vmap(torch.outer)(torch.ones(2, 3), torch.arange(4.).expand(2, 4)).shape)
print(vmap(vmap(torch.mul))(x, x))
print(vmap(lambda a, b: a @ b, in_dims=(0, None))(torch.ones(5, 2, 3), torch.ones(3, 4)).shape)
print(vmap(lambda d: d['a'] + d['b'])({'a': torch.ones(3), 'b': torch.arange(3.)}))
print(vmap(lambda a: (a, a.sum()))(x))
print(vmap(lambda a: a.sum(), chunk_size=1)(x))
print(jacrev(lambda a, b: a * b, argnums=1)(torch.ones(2), torch.tensor([2., 3.])))
out, fn = vjp(lambda a: a ** 2, torch.tensor([1., 2.]))
print(out, fn(torch.ones(2)))
print(jvp(lambda a: a ** 2, (torch.tensor([1., 2.]),), (torch.ones(2),)))
torch.manual_seed(0)
models = [nn.Linear(3, 2) for _ in range(4)]
params, buffers = stack_module_state(models)
print({k: v.shape for k, v in params.items()})
base = copy.deepcopy(models[0]).to('meta')
def fmodel(p, b, xx): return functional_call(base, (p, b), (xx,))
out = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, torch.ones(5, 3))
print(out.shape, torch.allclose(out[1], models[1](torch.ones(5, 3))))
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
ps = {k: v.detach() for k, v in model.named_parameters()}
def loss_fn(p, xb, yb):
    return ((functional_call(model, p, (xb,)) - yb) ** 2).mean()
xs, ys = torch.randn(8, 3), torch.randn(8, 1)
per_sample = vmap(grad(loss_fn), in_dims=(None, 0, 0))(ps, xs.unsqueeze(1), ys.unsqueeze(1))
print({k: v.shape for k, v in per_sample.items()})
full = grad(loss_fn)(ps, xs, ys)
print(all(torch.allclose(per_sample[k].mean(0), full[k]) for k in full))
print(hessian(lambda a: (a ** 2).prod())(torch.tensor([1., 2.])))
print(torch.vmap(torch.trace)(torch.eye(3).expand(2, 3, 3)))
