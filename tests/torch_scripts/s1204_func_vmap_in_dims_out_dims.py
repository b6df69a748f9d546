# vmap with in_dims for some args None and out_dims tuple
import torch
from torch.func import vmap

def f(x, w, scale):
    return (x * w).sum() * scale, x * scale

xs = torch.arange(6.0).reshape(3, 2)
w = torch.tensor([1.0, -1.0])
s, ys = vmap(f, in_dims=(0, None, None))(xs, w, 2.0)
print(s, ys)
s2, ys2 = vmap(f, in_dims=(1, None, None), out_dims=(0, 1))(xs, torch.tensor([1.0, 2.0, 3.0]), 1.0)
print(s2, ys2.shape)
print(ys2)
