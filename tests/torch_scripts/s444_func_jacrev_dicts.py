import torch
import torch.nn as nn
from torch.func import jacrev, jacfwd, hessian, grad_and_value, functional_call, vmap

net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) + 2 * i).view_as(p))
params = {k: v.detach() for k, v in net.named_parameters()}
x = torch.tensor([[0.5, -0.3], [1.0, 2.0]])


def f(p, x):
    return functional_call(net, p, (x,)).squeeze(-1)


J = jacrev(f)(params, x)
print(type(J).__name__, sorted(J))
print({k: tuple(v.shape) for k, v in J.items()})
print(J["2.bias"], J["0.weight"][1].round(decimals=5))
Jf = jacfwd(f)(params, x)
print(all(torch.allclose(J[k], Jf[k]) for k in J))


def loss(p, x):
    out = f(p, x)
    return (out ** 2).mean(), out


g, (val, out) = grad_and_value(loss, has_aux=True)(params, x)
print(round(val.item(), 6), out.round(decimals=5), g["2.weight"].round(decimals=5))
Hx = hessian(lambda xx: f(params, xx).sum())(x)
print(Hx.shape, Hx[0, :, 0, :].round(decimals=5))
per_ex = vmap(jacrev(lambda xx: f(params, xx.unsqueeze(0)).squeeze(0)))(x)
print(per_ex.round(decimals=5))
Ja = jacrev(lambda a, b: (a * b).sum(0), argnums=(0, 1))(torch.ones(2, 3), torch.arange(6.0).view(2, 3))
print(Ja[0].shape, Ja[1][2])
