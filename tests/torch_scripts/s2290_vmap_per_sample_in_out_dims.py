import torch
from torch.func import vmap

x = torch.arange(6.0).view(2, 3)
y = torch.arange(3.0)
print(vmap(torch.add, in_dims=(0, None))(x, y))
print(vmap(torch.mul, in_dims=(1, None))(x, 2.0))
print(vmap(lambda a: a.sum(), in_dims=1)(x))
print(vmap(lambda a: a * 2, out_dims=1)(x))
print(vmap(vmap(lambda a, b: a * b))(x, x))
print(vmap(torch.outer)(x, x).shape)


def f(d):
    return d["a"] + d["b"].sum()


print(vmap(f)({"a": torch.ones(4), "b": torch.arange(8.0).view(4, 2)}))
print(vmap(lambda a: (a, a * 2))(y))
print(vmap(torch.trace)(torch.arange(18.0).view(2, 3, 3)))
print(vmap(lambda m: m @ m, chunk_size=1)(torch.eye(2).expand(3, 2, 2) * 2))
try:
    vmap(torch.add)(torch.ones(2), torch.ones(3))
except ValueError as e:
    print(type(e).__name__, str(e).splitlines()[0][:80])
