# vmap with in_dims (0, None), nested, out_dims
import torch
from torch.func import vmap

def affine(x, w, b):
    return w @ x + b

w = torch.tensor([[1.0, 2.0], [0.0, -1.0]])
b = torch.tensor([0.5, 0.5])
xs = torch.tensor([[1.0, 0.0], [0.0, 1.0], [2.0, 3.0]])
print(vmap(affine, in_dims=(0, None, None))(xs, w, b))
print(vmap(affine, in_dims=(0, None, None), out_dims=1)(xs, w, b))
print(vmap(affine, in_dims=(1, None, None))(xs.T, w, b))
outer = vmap(vmap(torch.mul, in_dims=(None, 0)), in_dims=(0, None))
print(outer(torch.tensor([1.0, 2.0]), torch.tensor([10.0, 20.0, 30.0])))
print(vmap(lambda x: (x.sum(), x * 2), out_dims=(0, 1))(xs))
print(vmap(torch.dot)(xs, xs))
