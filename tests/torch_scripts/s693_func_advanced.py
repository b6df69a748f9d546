import torch
from torch.func import jacrev, jacfwd, vjp, jvp, linearize, vmap, grad, hessian


def f(x):
    return x.sin() * x.sum(), x.norm()


J, aux = jacrev(f, has_aux=True)(torch.tensor([0.5, 1.0, 2.0]))
print(J.round(decimals=5), aux.round(decimals=5))
print(jacrev(lambda x: x.exp(), chunk_size=1)(torch.tensor([0.0, 1.0])).round(decimals=5))
out, fn = vjp(lambda a, b: a * b + a.exp(), torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
print(out.round(decimals=5), [g.round(decimals=5) for g in fn(torch.ones(2))])
p, t = jvp(lambda a: (a ** 3).sum(), (torch.tensor([1.0, 2.0]),), (torch.tensor([1.0, 1.0]),))
print(p, t)
out, jvp_fn = linearize(torch.sin, torch.tensor([0.0, 1.0]))
print(jvp_fn(torch.tensor([1.0, 1.0])).round(decimals=5))
print(jacfwd(jacrev(lambda x: (x ** 2 * x.flip(0)).sum()))(torch.tensor([1.0, 2.0])))
print(hessian(lambda x, y: (x * y ** 2).sum(), argnums=(0, 1))(torch.tensor([1.0]), torch.tensor([2.0])))
batched = vmap(jacrev(lambda x: x ** 2 + x.sum()))(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(batched)
print(vmap(vmap(torch.outer))(torch.ones(2, 3, 2), torch.ones(2, 3, 2)).shape)
print(vmap(lambda x: x.sum(0), in_dims=1, out_dims=0)(torch.arange(6.0).reshape(2, 3)))
print(vmap(lambda x, y: x + y, in_dims=(0, None), out_dims=1)(torch.ones(2, 3), torch.arange(3.0)).shape)
print(grad(grad(lambda x: x.sin()))(torch.tensor(0.5)).round(decimals=6))
print(vmap(grad(lambda x: (x ** 3).sum()))(torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
