# torch.func.vjp returns a function; call it twice with different cotangents
import torch
from torch.func import vjp

def f(x):
    return torch.stack([x.prod(), x.sum(), (x ** 2).sum()])

x = torch.tensor([2.0, 3.0, 4.0])
out, fn = vjp(f, x)
print(out)
print(fn(torch.tensor([1.0, 0.0, 0.0])))
print(fn(torch.tensor([0.0, 1.0, 1.0])))
(g,) = fn(torch.eye(3)[2])
print(g)
