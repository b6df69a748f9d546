# vmap chunk_size gives the same result; jacrev chunk_size too
import torch
from torch.func import vmap, jacrev

def f(x):
    return (x.sin() * x.cos()).sum()

X = torch.linspace(-1, 1, 10).reshape(5, 2)
print(torch.allclose(vmap(f)(X), vmap(f, chunk_size=2)(X)))
print(vmap(f, chunk_size=1)(X))
g = lambda x: torch.stack([x.prod(), x.sum(), x.max()])
x = torch.tensor([1.0, 2.0, 3.0])
print(jacrev(g)(x))
print(torch.equal(jacrev(g, chunk_size=1)(x), jacrev(g)(x)))
