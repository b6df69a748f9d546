# vmap: in_dims with None and nested tuples, out_dims tuple, chunk_size, nested vmap for pairwise
import torch
from torch.func import vmap

def f(a, b):
    return a * b.sum(), a.sum()
A = torch.arange(6.0).view(2, 3)
B = torch.arange(4.0).view(2, 2)
print(vmap(f)(A, B))
print(vmap(f, in_dims=(1, None))(A, B))
print(vmap(f, in_dims=(0, 0), out_dims=(1, 0))(A, B))
print(vmap(lambda p: p[0] + p[1], in_dims=((0, 1),))((A, A.T)))
pair = vmap(vmap(lambda u, v: (u - v).pow(2).sum(), in_dims=(None, 0)), in_dims=(0, None))
print(pair(torch.tensor([[0.0, 0.0], [1.0, 1.0]]), torch.tensor([[1.0, 0.0], [2.0, 2.0], [0.0, 3.0]])))
print(vmap(torch.trace, chunk_size=1)(torch.arange(8.0).view(2, 2, 2)))
print(vmap(lambda d: {"s": d.sum(), "m": d.max()})(A))
print(vmap(torch.dot)(A, A), vmap(torch.outer, in_dims=(0, None))(A, torch.tensor([1.0, 2.0])).shape)
