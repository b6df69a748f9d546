import torch
import torch.nn as nn
from torch.func import functional_call, hessian, jacfwd, jacrev, vmap

model = nn.Sequential(nn.Linear(3, 4), nn.Softplus(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel()) * 0.5 + i).reshape(p.shape) * 0.4)
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.tensor([[0.1, 0.2, 0.3], [1.0, -1.0, 0.5]])


def f(p, xi):
    return functional_call(model, p, (xi,)).squeeze()


per_sample = vmap(jacrev(f), in_dims=(None, 0))(params, x)
print({k: tuple(v.shape) for k, v in per_sample.items()})
print(per_sample["2.bias"])
Hx = vmap(hessian(f, argnums=1), in_dims=(None, 0))(params, x)
print(Hx.shape, Hx[0].round(decimals=5))
Jf = jacfwd(f, argnums=1)(params, x[0])
Jr = jacrev(f, argnums=1)(params, x[0])
print(torch.allclose(Jf, Jr), Jf.round(decimals=5))
out = vmap(lambda a, b: a @ b, in_dims=(0, None), out_dims=1)(torch.arange(6.0).reshape(2, 3), torch.ones(3, 2))
print(out, out.shape)
print(vmap(torch.trace)(torch.arange(8.0).reshape(2, 2, 2)), vmap(vmap(torch.dot))(torch.ones(2, 3, 4), torch.ones(2, 3, 4)))
print(jacrev(f, argnums=(0, 1))(params, x[0])[1].shape, vmap(f, in_dims=(None, 0), chunk_size=1)(params, x))
