import torch
from torch.func import grad, grad_and_value, vmap

def loss(w, b, x, y):
    pred = x @ w + b
    err = pred - y
    return (err ** 2).mean(), {"max_err": err.abs().max(), "pred": pred}

x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]])
y = torch.tensor([1.0, 0.0, 2.0])
w = torch.tensor([0.1, -0.2])
b = torch.tensor(0.3)
(gw, gb), (val, aux) = grad_and_value(loss, argnums=(0, 1), has_aux=True)(w, b, x, y)
print(gw.round(decimals=5), gb.round(decimals=5))
print(round(val.item(), 5), aux["max_err"].round(decimals=5), aux["pred"].round(decimals=4))
g_only, aux2 = grad(loss, has_aux=True)(w, b, x, y)
print(torch.equal(g_only, gw), sorted(aux2))

def sq(z):
    return (z ** 3).sum()
print(grad(grad(lambda s: sq(s.unsqueeze(0))))(torch.tensor(2.0)))
batched = vmap(grad(lambda wi: loss(wi, b, x, y)[0]))(torch.stack([w, w * 2, -w]))
print(batched.round(decimals=4))
for _ in range(50):
    gw, gb = grad(lambda a, c: loss(a, c, x, y)[0], argnums=(0, 1))(w, b)
    w, b = w - 0.05 * gw, b - 0.05 * gb
print(w.round(decimals=4), b.round(decimals=4), round(loss(w, b, x, y)[0].item(), 5))
