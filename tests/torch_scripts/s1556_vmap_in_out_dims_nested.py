# vmap: in_dims per argument (None, ints, nested pytrees), out_dims, nesting, chunk_size
import torch
from torch.func import vmap

A = torch.arange(6.0).reshape(2, 3)
B = torch.arange(12.0).reshape(3, 4)
print(vmap(torch.dot, in_dims=(0, 1))(A.T.contiguous().T, B[:, :2].T.contiguous().T))
print(vmap(lambda a, s: a * s, in_dims=(0, None))(A, torch.tensor(10.0)))
print(vmap(lambda a: a.sum(), in_dims=1)(A))
out = vmap(lambda a: (a, a * 2), out_dims=(0, 1))(A)
print(out[0].shape, out[1].shape, out[1])
d = {"x": A, "y": torch.tensor([1.0, 2.0])}
print(vmap(lambda p: p["x"] * p["y"], in_dims=({"x": 0, "y": 0},))(d))
outer = vmap(vmap(lambda a, b: a * b, in_dims=(None, 0)), in_dims=(0, None))
print(outer(torch.tensor([1.0, 2.0]), torch.tensor([10.0, 20.0, 30.0])))
print(vmap(torch.trace, chunk_size=1)(torch.eye(3).expand(4, 3, 3)))
try:
    vmap(lambda a, b: a + b)(torch.ones(2), torch.ones(3))
except ValueError as e:
    print(str(e)[:120])
try:
    vmap(lambda a: a, in_dims=2)(torch.ones(2, 3))
except ValueError as e:
    print(str(e)[:120])
