import torch
import torch.nn as nn
from torch.func import hessian, jacfwd, jacrev, functional_call, vmap, grad

model = nn.Sequential(nn.Linear(2, 3), nn.Softplus(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) + i).view_as(p))
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.tensor([[0.3, -0.2], [1.0, 0.5], [-0.7, 0.1]])
y = torch.tensor([0.5, -0.1, 0.2])


def loss_fn(p):
    return ((functional_call(model, p, (x,)).squeeze(-1) - y) ** 2).mean()


H = hessian(loss_fn)(params)
print(sorted(H), sorted(H["2.bias"]), H["2.bias"]["2.bias"], H["0.weight"]["2.weight"].shape)
Hb = jacfwd(jacrev(loss_fn))(params)
print(all(torch.allclose(H[a][b], Hb[a][b]) for a in H for b in H[a]))


def u(xy):
    return functional_call(model, params, (xy.unsqueeze(0),)).squeeze()


lap = vmap(lambda xy: torch.trace(hessian(u)(xy)))(x)
print(lap.round(decimals=5))
gx = vmap(grad(u))(x)
print(gx.round(decimals=5))
flat = torch.cat([v.reshape(-1) for v in params.values()])
print(flat.shape, torch.func.jacrev(lambda w: loss_fn({"0.weight": w, **{k: v for k, v in params.items() if k != "0.weight"}}))(params["0.weight"]).round(decimals=5))
