# torch.func: grad with has_aux, grad_and_value, argnums tuples, vmap over a batch of inputs of
# per-sample gradients, jacrev of a vector function, hessian of a scalar
import torch
from torch.func import grad, grad_and_value, hessian, jacrev, vmap


def loss(w, x, y):
    pred = x @ w
    err = pred - y
    return (err ** 2).mean(), {"pred": pred}


w = torch.tensor([0.5, -1.0])
x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [0.5, 0.0]])
y = torch.tensor([1.0, 0.0, 2.0])
g, aux = grad(loss, has_aux=True)(w, x, y)
print(g, aux["pred"])
(gv, val) = grad_and_value(lambda w: loss(w, x, y)[0])(w)
print(gv, val)
gw, gx = grad(lambda w, x: loss(w, x, y)[0], argnums=(0, 1))(w, x)
print(gw, gx)
per_sample = vmap(grad(lambda w, xi, yi: ((xi @ w - yi) ** 2)), in_dims=(None, 0, 0))(w, x, y)
print(per_sample, per_sample.mean(0))
f = lambda v: torch.stack([v[0] * v[1], v[0] ** 2, torch.sin(v[1])])
print(jacrev(f)(torch.tensor([1.0, 2.0])))
print(hessian(lambda v: (v ** 3).sum() + v[0] * v[1])(torch.tensor([1.0, 2.0])))
print(vmap(torch.dot)(x, x), vmap(lambda r: r.sum(), in_dims=1)(x))
