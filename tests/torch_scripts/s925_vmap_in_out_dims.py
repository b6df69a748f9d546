# vmap with in_dims / out_dims, nested vmap for pairwise kernels, chunk_size
import torch
from torch.func import vmap

x = torch.arange(6.0).reshape(3, 2)
y = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
dot = lambda a, b: (a * b).sum()
print(vmap(vmap(dot, in_dims=(None, 0)), in_dims=(0, None))(x, y))
print(vmap(torch.outer, in_dims=(0, None))(x, torch.tensor([1.0, 2.0])).shape)
print(vmap(lambda r: r * 2, in_dims=1, out_dims=1)(x))
print(vmap(lambda a, s: a * s, in_dims=(0, None))(x, 10.0))
print(vmap(lambda r: (r.sum(), r.max()), chunk_size=2)(x))
print(vmap(lambda d: d["a"] + d["b"])({"a": x, "b": x}))
try:
    vmap(dot)(x, torch.ones(4, 2))
except ValueError as e:
    print(str(e)[:80])
