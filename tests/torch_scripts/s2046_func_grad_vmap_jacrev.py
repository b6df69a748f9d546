import torch
from torch.func import grad, vmap, jacrev, jacfwd, hessian, grad_and_value, functional_call

def f(x):
    return (x.sin() * x ** 2).sum()

x = torch.tensor([0.5, 1.0, 2.0])
print(grad(f)(x).round(decimals=6))
g, v = grad_and_value(f)(x)
print(round(v.item(), 6), torch.allclose(g, grad(f)(x)))
print(jacrev(torch.sin)(x).round(decimals=5))
print(torch.allclose(jacrev(grad(f))(x), jacfwd(grad(f))(x)), hessian(f)(x).diagonal().round(decimals=5))
batch = torch.stack([x, x * 2, -x])
print(vmap(grad(f))(batch).round(decimals=5))
print(vmap(f)(batch).round(decimals=5))
def g2(a, b):
    return (a * b).sum() + a.pow(2).sum()
print(grad(g2, argnums=(0, 1))(x, x + 1))
def with_aux(a):
    y = a.exp()
    return y.sum(), {"mean": y.mean()}
gg, aux = grad(with_aux, has_aux=True)(x)
print(gg.round(decimals=5), aux["mean"].round(decimals=5))
print(vmap(torch.dot, in_dims=(0, None))(batch, x).round(decimals=5))
print(vmap(lambda r: r.sum(), in_dims=1)(batch))
print(vmap(lambda a, b: a * b, in_dims=(0, 0), out_dims=1)(batch, batch).shape)
print(jacrev(lambda a, b: a * b, argnums=1)(x, x).diagonal())
model = torch.nn.Linear(3, 1)
params = {"weight": torch.tensor([[1.0, -1.0, 0.5]]), "bias": torch.tensor([0.25])}
print(functional_call(model, params, (x,)))
pg = grad(lambda p, inp: functional_call(model, p, (inp,)).sum())(params, x)
print(pg["weight"], pg["bias"])
per_sample = vmap(grad(lambda p, inp: functional_call(model, p, (inp,)).sum()), in_dims=(None, 0))(params, batch)
print(per_sample["weight"].shape, per_sample["weight"][2])
