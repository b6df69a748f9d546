# torch.func.vmap over functions with several args and out_dims, chunk_size, nested vmap, randomness='error' default on deterministic fns
import torch
from torch.func import vmap

def affine(x, w, b):
    return x @ w + b

X = torch.arange(12.0).view(4, 3)
W = torch.ones(3, 2)
B = torch.tensor([0.5, -0.5])
print(vmap(affine, in_dims=(0, None, None))(X, W, B))
print(vmap(lambda x: (x.sum(), x * 2), out_dims=(0, 1))(X)[1].shape)
print(vmap(torch.outer)(X[:, :2], X[:, 1:]).shape)
print(vmap(vmap(lambda a, b: a * b))(X, X).equal(X * X))
print(vmap(lambda r: r.norm(), chunk_size=2)(X).round(decimals=4))
print(vmap(lambda x, y: x + y, in_dims=(1, 0))(torch.ones(2, 3), torch.arange(3.0).view(3, 1)).shape)
print(vmap(lambda d: d["a"] * d["b"])({"a": torch.ones(3), "b": torch.arange(3.0)}))
try:
    vmap(lambda x: x, in_dims=1)(torch.ones(3))
except ValueError as e:
    print(str(e)[:60])
