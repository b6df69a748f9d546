# torch.func.grad_and_value with has_aux and argnums over a tuple
import torch
from torch.func import grad_and_value, grad

def loss(w, b, x):
    pred = x @ w + b
    l = (pred ** 2).mean()
    return l, {"pred": pred, "norm": w.norm()}

w = torch.tensor([0.5, -1.0])
b = torch.tensor(0.25)
x = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.0, 1.0]])
(gw, gb), (l, aux) = grad_and_value(loss, argnums=(0, 1), has_aux=True)(w, b, x)
print(gw, gb)
print(l, sorted(aux), aux["pred"], aux["norm"])
g, aux2 = grad(loss, has_aux=True)(w, b, x)
print(torch.equal(g, gw), aux2["pred"].requires_grad)
