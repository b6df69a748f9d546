# nested vmap computing an outer product matrix and batched dot
import torch
from torch.func import vmap

a = torch.tensor([1.0, 2.0, 3.0])
b = torch.tensor([4.0, 5.0])
outer = vmap(vmap(torch.mul, in_dims=(None, 0)), in_dims=(0, None))(a, b)
print(outer)
print(torch.equal(outer, torch.outer(a, b)))
X = torch.arange(12.0).reshape(3, 4)
Y = torch.ones(3, 4)
print(vmap(torch.dot)(X, Y))
print(vmap(lambda r: r.max())(X))
